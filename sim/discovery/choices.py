"""The legal choices of the decisions whose options are not a short list (AOD-21 D7, D9).

Most decisions get a plain list of legal answers from the engine (`None` where passing is
allowed). An expedition's party is any non-empty part of the seat's Discovery-box group, which
is too many subsets to list, so `ExpeditionChoices` describes it and checks an answer.
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.discovery.actions import Expedition


@dataclass(frozen=True)
class ExpeditionChoices:
    """AOD-8.1 / AOD-8.6: the units available in the Discovery box (count per type) and the
    targets: undiscovered regions, or CARDS once every region is discovered (AOD-8.7)."""

    units: tuple[int, ...]
    targets: tuple[int, ...]

    def allows(self, action: Expedition | None) -> bool:
        """Whether the answer is a pass or a legal expedition."""
        if action is None:
            return True
        if not isinstance(action, Expedition) or action.target not in self.targets:
            return False
        party = action.party
        return (len(party) == len(self.units) and sum(party) > 0
                and all(0 <= k <= have for k, have in zip(party, self.units)))


@dataclass(frozen=True)
class VictimChoices:
    """AOD-9.4: the kills a side's soldiers make and the enemy units they can hit (per type);
    the answer names how many of each type die, `kills` in all."""

    kills: int
    units: tuple[int, ...]

    def allows(self, losses: tuple[int, ...]) -> bool:
        return (isinstance(losses, tuple) and len(losses) == len(self.units) and sum(losses) == self.kills
                and all(0 <= k <= have for k, have in zip(losses, self.units)))
