"""The legal choices of one seat's decision, computed by the engine's rules (SOE-7 .. SOE-13).

The engine hands a `Choices` to the player with every action, free action, War Office and setup
decision; the
player picks from it and never works out legality itself (the engine still checks every action it
applies). Each list is computed when first asked for and kept for the decision: a player that
attacks never pays for the list of moves. Bans of an intervention are already applied
(sim.core.interventions, through `Engine.buyable`).
"""

from __future__ import annotations

import functools
from typing import Any

from sim.struggle.state import ARMY, FLEET, FORT, HOME, N_REGIONS


class Choices:
    """Seat `p` of game `g` of engine `e`, at one decision."""

    def __init__(self, e: Any, g: int, p: int) -> None:
        self.e, self.g, self.p = e, g, p

    @functools.cached_property
    def tiles(self) -> list[tuple[str, int]]:
        """SOE-8: Buy choices ("dev" | "alliance" | "company", index)."""
        return self.e.buyable(self.g, self.p)

    @functools.cached_property
    def builds(self) -> list[tuple[int, str | None]]:
        """SOE-9: Build choices (unit kind, free tile or None)."""
        return self.e.build_options(self.g, self.p)

    @functools.cached_property
    def colonies(self) -> list[int]:
        """SOE-13: tokens to colonise or enslave."""
        return self.e.colonise_targets(self.g, self.p)

    @functools.cached_property
    def attacks(self) -> list[tuple[int, tuple]]:
        """SOE-12.1/12.2: (region, target) pairs."""
        return self.e.attack_targets(self.g, self.p)

    @functools.cached_property
    def moves(self) -> list[tuple[int, int, int]]:
        """SOE-10.1: single unit moves (kind, from, to) legal now."""
        e, g, p = self.e, self.g, self.p
        u = e.s.units[g, p]
        return [(kind, src, dst) for src in range(N_REGIONS + 1) for kind in (ARMY, FLEET, FORT)
                if u[src, kind] and (kind != FORT or src == HOME)
                for dst in range(N_REGIONS + 1) if e.may_move(g, p, kind, src, dst)]

    @functools.cached_property
    def diplomacy(self) -> list[int]:
        """SOE-20.12 (free action): alliance tiles Diplomatic Service may take."""
        return self.e.diplomacy_options(self.g, self.p)

    @functools.cached_property
    def units_per_move(self) -> int:
        """SOE-10.1 / SOE-20.9: units one Move action may move."""
        return self.e.units_per_move(self.g, self.p)

    @functools.cached_property
    def trained_natives_regions(self) -> list[int]:
        """SOE-20.7: where a Trained Natives army may be placed."""
        return self.e.trained_natives_regions(self.g, self.p)

    def raid_targets(self, tile: str) -> list[tuple[int, int]]:
        """SOE-20.16.2 / 20.17.1: (region, seat) markers a raid tile may attack."""
        return self.e.raid_targets(self.g, self.p, tile)

    def rebuild_sources(self, kind: int) -> list[tuple[int, int]]:
        """SOE-9.5 / SOE-A14: (location, kind) of own units that may be destroyed to build `kind`."""
        return self.e.rebuild_sources(self.g, self.p, kind)

    def may_enter(self, kind: int, r: int) -> bool:
        """SOE-10.2 .. 10.7: may a unit of `kind` move into region r (its source aside)?"""
        e = self.e
        return e.fleet_may_enter(self.g, self.p, r) if kind == FLEET else e.army_may_enter(self.g, self.p, r)

    def may_move_from_home(self, kind: int, r: int) -> bool:
        """SOE-9.3: may a unit just built at home make its free move to r?"""
        return self.e.may_move_from_home(self.g, self.p, kind, r)

    def legal_prefix(self, plan: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """The longest legal beginning of a plan of unit moves (each relying on the ones before)."""
        return self.e.legal_prefix(self.g, self.p, plan)

    def setup_places(self, kind: int) -> tuple[int, ...]:
        """SOE-3.8: where a starting unit of `kind` may go (empty once all its pieces are out)."""
        return self.e.setup_locations(self.g, self.p, kind)
