"""Continue-or-retreat policies (COE-14.5) and what "optimal" optimises.

A side declares retreat or continue after every round, the defender first (COE-14.5); the first
round is always fought (COE-A37). Policies:
- `fight`: never retreat (fight to the end);
- `retreat-below=K`: retreat as soon as the side has fewer than K land units left;
- `optimal`: the best response, found by dynamic programming over the battle's Markov chain, to
  the other side's policy (when both sides are optimal: the saddle point of the zero-sum game).

The game is zero-sum in the attacker's payoff U = 1[attacker takes the province]
+ unit_weight x (talents of attacker survivors - talents of defender survivors)
+ leader_weight x (defender leaders captured - attacker leaders captured).
The attacker maximises U, the defender minimises it. With the default weights (0, 0) U is the
event "the attacker takes the province" and the defender maximises P(hold); then retreating
never helps either side and `optimal` equals `fight` -- retreat only pays when surviving units
or leaders are worth something (positive weights).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.core.errors import UserError

KINDS = ("fight", "below", "optimal")


@dataclass(frozen=True)
class RetreatPolicy:
    """COE-14.5: when a side retreats after a round."""

    kind: str = "fight"
    below: int = 0

    def __post_init__(self) -> None:
        if self.kind not in KINDS or self.below < 0:
            raise UserError(f"policy {self.kind!r}: not allowed; use fight, optimal or retreat-below=K")

    @classmethod
    def parse(cls, text: str) -> "RetreatPolicy":
        """`fight`, `optimal` or `retreat-below=K` (K >= 1 land units)."""
        text = text.strip()
        if text in ("fight", "optimal"):
            return cls(text)
        key, sep, value = text.partition("=")
        if key == "retreat-below" and sep:
            try:
                k = int(value)
            except ValueError:
                k = -1
            if k >= 1:
                return cls("below", k)
        raise UserError(f"policy {text!r} is not allowed; use fight, optimal or retreat-below=K with K >= 1")

    def __str__(self) -> str:
        return f"retreat-below={self.below}" if self.kind == "below" else self.kind


FIGHT = RetreatPolicy("fight")
OPTIMAL = RetreatPolicy("optimal")


@dataclass(frozen=True)
class Objective:
    """Weights of the attacker's payoff U (see the module docstring); province = 1."""

    unit_weight: float = 0.0
    leader_weight: float = 0.0

    def __post_init__(self) -> None:
        if not (self.unit_weight >= 0 and self.leader_weight >= 0):
            raise UserError("objective weights must be >= 0")
