"""Interventions for causal experiments, as filters over the legal choices an engine computed.

A strategy spec `name+force=X`, `name+ban=X` or `name+grant_R=k` (sim.core.seating) changes one
seat and nothing else, in every game the same way (TAG's force / ban over legal actions):

- *ban X*: drop every choice that acquires X, at every decision;
- *force X*: while the seat has not yet acquired X, a decision with a legal choice that acquires X
  keeps only those choices (the engine takes it without asking the player); once acquired, the
  seat plays on as its strategy says;
- *grant R = k*: the seat starts with k more of resource R (the engine applies the grant at
  setup, within the rules' limits).

An engine exposes, for each decision, its legal choices and which asset a choice acquires (a
function `acquires(choice) -> asset key or None`); `Intervention.allowed` and `forced` do the rest. The
engine never special-cases an intervention beyond calling it.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from sim.core.errors import UserError
from sim.core.seating import parse_strategy

C = TypeVar("C")
KEYS = ("force", "ban")


@dataclass(frozen=True)
class Intervention:
    """One seat's interventions: the asset to force, the assets banned, the resources granted."""

    force: str | None = None
    ban: frozenset[str] = frozenset()
    grants: Mapping[str, int] = field(default_factory=dict)

    def allowed(self, choices: Sequence[C], acquires: Callable[[C], str | None]) -> list[C]:
        """The choices left once banned assets are dropped."""
        return [c for c in choices if acquires(c) not in self.ban] if self.ban else list(choices)

    def forced(self, choices: Sequence[C], acquires: Callable[[C], str | None],
               held: Collection[str] = ()) -> list[C]:
        """Only the choices the force imposes now (empty when it imposes nothing)."""
        if self.force is None or self.force in held:
            return []
        return [c for c in choices if acquires(c) == self.force and acquires(c) not in self.ban]


def parse(spec: str, strategies: Sequence[str] | None = None, assets: Collection[str] | None = None,
          resources: Collection[str] | None = None) -> tuple[str, Intervention]:
    """(strategy name, its Intervention) of a spec. With `strategies`, `assets` and `resources`,
    a UserError naming what is allowed for an unknown strategy, intervention key, asset or a grant
    that is not a whole number >= 0 (without them, a spec already checked)."""
    keys = None if resources is None else (*KEYS, *(f"grant_{r}" for r in resources))
    parsed = parse_strategy(spec, strategies, keys)
    force, ban, grants = None, set(), {}
    for key, value in parsed.interventions.items():
        if key in KEYS and assets is not None and value not in assets:
            raise UserError(f"strategy {spec!r}: asset {value!r} is unknown; allowed: {', '.join(sorted(assets))}")
        if key == "force":
            force = value
        elif key == "ban":
            ban.add(value)
        else:
            if not value.isdigit():
                raise UserError(f"strategy {spec!r}: {key}={value!r} is not allowed; use a whole number >= 0")
            grants[key[len("grant_"):]] = int(value)
    return parsed.name, Intervention(force, frozenset(ban), grants)
