"""The legal choices of one seat's decision, computed by the engine's rules (SOE-7 .. SOE-13).

The engine hands a `Choices` to the player with every action, free action, War Office and setup
decision; the player picks from it and never works out legality itself (the engine still checks
every action it applies). Each list is computed when first asked for and kept for the decision: a
player that attacks never pays for the list of moves. Bans of an intervention are already applied
(sim.core.interventions, through `Engine.buyable` and `Engine.diplomacy_options`).
"""

from __future__ import annotations

from typing import Any

from sim.struggle.state import ARMY, FLEET, FORT, HOME, N_REGIONS


class Choices:
    """Seat `p` of game `g` of engine `e`, at one decision (lists kept in slots once computed)."""

    __slots__ = ("e", "g", "p", "_tiles", "_builds", "_colonies", "_attacks", "_moves", "_diplomacy",
                 "_units_per_move", "_natives")

    def __init__(self, e: Any, g: int, p: int) -> None:
        self.e, self.g, self.p = e, g, p
        self._tiles = self._builds = self._colonies = self._attacks = self._moves = self._diplomacy = None
        self._units_per_move = self._natives = None

    @property
    def tiles(self) -> list[tuple[str, int]]:
        """SOE-8: Buy choices ("dev" | "alliance" | "company", index)."""
        if self._tiles is None:
            self._tiles = self.e.buyable(self.g, self.p)
        return self._tiles

    @property
    def builds(self) -> list[tuple[int, str | None]]:
        """SOE-9: Build choices (unit kind, free tile or None)."""
        if self._builds is None:
            self._builds = self.e.build_options(self.g, self.p)
        return self._builds

    @property
    def colonies(self) -> list[int]:
        """SOE-13: tokens to colonise or enslave."""
        if self._colonies is None:
            self._colonies = self.e.colonise_targets(self.g, self.p)
        return self._colonies

    @property
    def attacks(self) -> list[tuple[int, tuple]]:
        """SOE-12.1/12.2: (region, target) pairs."""
        if self._attacks is None:
            self._attacks = self.e.attack_targets(self.g, self.p)
        return self._attacks

    @property
    def moves(self) -> list[tuple[int, int, int]]:
        """SOE-10.1: single unit moves (kind, from, to) legal now."""
        if self._moves is None:
            e, g, p = self.e, self.g, self.p
            u = e.s.units[g, p]
            self._moves = [(kind, src, dst) for src in range(N_REGIONS + 1) for kind in (ARMY, FLEET, FORT)
                           if u[src, kind] and (kind != FORT or src == HOME)
                           for dst in range(N_REGIONS + 1) if e.may_move(g, p, kind, src, dst)]
        return self._moves

    @property
    def diplomacy(self) -> list[int]:
        """SOE-20.12 (free action): alliance tiles Diplomatic Service may take."""
        if self._diplomacy is None:
            self._diplomacy = self.e.diplomacy_options(self.g, self.p)
        return self._diplomacy

    @property
    def units_per_move(self) -> int:
        """SOE-10.1 / SOE-20.9: units one Move action may move."""
        if self._units_per_move is None:
            self._units_per_move = self.e.units_per_move(self.g, self.p)
        return self._units_per_move

    @property
    def trained_natives_regions(self) -> list[int]:
        """SOE-20.7: where a Trained Natives army may be placed."""
        if self._natives is None:
            self._natives = self.e.trained_natives_regions(self.g, self.p)
        return self._natives

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
