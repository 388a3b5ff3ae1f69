"""The legal building blocks of a movement decision (COE-11, COE-12), computed by the engine's
rules when first asked for; a player composes an action from them and `Engine.apply` checks it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from sim.conquest.state import FREE, LEADERS, NOT_FLAGGED

if TYPE_CHECKING:
    from sim.conquest.engine import Engine


class Choices:
    """What the mover may do next in game g (see the module docstring)."""

    __slots__ = ("e", "g", "p", "_leaders", "_galleys", "_transit")

    def __init__(self, engine: Engine, g: int, p: int) -> None:
        self.e, self.g, self.p = engine, g, p
        self._leaders: dict[int, list[int]] | None = None
        self._galleys: list[int] | None = None
        self._transit: list[int] | None = None

    @property
    def leaders(self) -> dict[int, list[int]]:
        """Province -> the mover's standing leaders there that may still move (COE-11.2)."""
        if self._leaders is None:
            e, g = self.e, self.g
            s = e.s
            out: dict[int, list[int]] = {}
            for c in e.colours_of[g][self.p]:              # lists: a numpy element read costs more
                rows = zip(s.ldr_loc[g, c].tolist(), s.ldr_mp[g, c].tolist(), s.ldr_flag[g, c].tolist(),
                           s.ldr_ship[g, c].tolist(), s.ldr_state[g, c].tolist())
                for i, (loc, mp, flag, ship, state) in enumerate(rows):
                    if state == FREE and mp >= 1 and flag == NOT_FLAGGED and ship < 0 and loc >= 0:
                        out.setdefault(loc, []).append(c * LEADERS + i)
            self._leaders = out
        return self._leaders

    def ready(self, src: int) -> list[int]:
        """Land units in src with MP left, by type."""
        return self.e.ready_units(self.g, self.p, src)

    def step_targets(self, src: int, alone: bool) -> list[int]:
        """COE-11.7 / COE-A7: provinces a legion (or leaders alone) may step into."""
        e = self.e
        return [q for q in e.t.steps[src] if not (alone and e.enemy_pieces_at(self.g, self.p, q))]

    def road_targets(self, src: int, alone: bool) -> dict[int, int]:
        """COE-6.6: Cities a road trip from src reaches, each with the City before it."""
        e = self.e
        net = e.road_network(self.g, self.p, src)
        if alone:
            net = {q: r for q, r in net.items() if not e.enemy_pieces_at(self.g, self.p, q)}
        return net

    @property
    def transit(self) -> list[int]:
        """Galleys passing a coast where they may not stay: they must put to sea (COE-A16)."""
        if self._transit is None:
            found = self.e.s.gal_transit[self.g].ravel().tolist()
            self._transit = [k for k, x in enumerate(found) if x] if True in found else []
        return self._transit

    @property
    def galleys(self) -> list[int]:
        """The mover's galleys with MP left (COE-12.1)."""
        if self._galleys is None:
            e, g = self.e, self.g
            s = e.s
            n = s.gal_loc.shape[2]
            self._galleys = [c * n + k for c in e.colours_of[g][self.p]
                             for k, (q, mp) in enumerate(zip(s.gal_loc[g, c].tolist(), s.gal_mp[g, c].tolist()))
                             if q >= 0 and mp >= 1]
        return self._galleys

    def galley_space(self, galley: int) -> int:
        s = self.e.s
        return int(s.gal_loc[self.g].reshape(-1)[galley])

    def sail_targets(self, galley: int) -> list[tuple[int, bool]]:
        """COE-12.2 / COE-12.9: (space, land) pairs a galley may sail to; `land` True where its
        legion must (or may) go ashore on arrival."""
        e, g, t = self.e, self.g, self.e.t
        here = self.galley_space(galley)
        carrying = bool(e.cargo_leaders(g, galley))
        allowed_land = carrying and (e.opt.board_and_land_same_turn or not e.s.gal_boarded[g].reshape(-1)[galley])
        landing_units = sum(int(x) for x in e.s.gal_cargo[g].reshape(-1, 3)[galley])
        if here < t.n_prov:
            return [(z, False) for z in t.coast[here]]
        z = here - t.n_prov
        out = [(q, False) for q in t.sea_adj[z]]
        passing = e.s.gal_mp[g].reshape(-1)[galley] >= 2 and not e.opt.galley_entering_coast_ends_move
        for q in t.sea_coast[z]:
            if passing or e.galley_may_end(g, self.p, q):
                out.append((q, False))
            if allowed_land and (landing_units or not e.enemy_pieces_at(g, self.p, q)):
                out.append((q, True))
        return out

    def boardings(self) -> list[tuple[int, list[int], list[int], int]]:
        """COE-12.5 / COE-12.6: (galley, leaders, units, room) -- who may board each beached
        galley, and how many land units it still takes."""
        e, g = self.e, self.g
        s, t = e.s, e.t
        out = []
        flags = s.ldr_flag[g].ravel().tolist()
        mps = s.ldr_mp[g].ravel().tolist()
        moved_ok = e.opt.land_move_before_boarding
        for gal, q in self.beached():
            c, k = divmod(gal, s.gal_loc.shape[2])
            leaders = [ld for ld in e.leaders_at(g, self.p, q)
                       if flags[ld] == NOT_FLAGGED and (moved_ok or mps[ld] == t.leader_mp)]
            room = t.capacity - int(s.gal_cargo[g, c, k].sum())
            units = (s.land[g, c, q] - s.landed[g, c, q]).tolist()
            if not moved_ok:
                units = [min(x, int(s.ready[g, c, q, u, t.unit_mp[u]])) for u, x in enumerate(units)]
            if leaders or (room and sum(units) and e.cargo_leaders(g, gal)):
                out.append((gal, leaders, units, room))
        return out

    def landings(self) -> list[int]:
        """COE-12.6: beached galleys whose cargo may go ashore now."""
        e, g = self.e, self.g
        out = []
        for gal, q in self.beached():
            leaders = e.cargo_leaders(g, gal)
            if not leaders or not (e.opt.board_and_land_same_turn or not e.s.gal_boarded[g].reshape(-1)[gal]):
                continue
            units = int(e.s.gal_cargo[g].reshape(-1, 3)[gal].sum())
            if units or not e.enemy_pieces_at(g, self.p, q):
                out.append(gal)
        return out

    def beached(self) -> list[tuple[int, int]]:
        """(galley, province) of the mover's galleys standing in provinces."""
        e, g = self.e, self.g
        s = e.s
        n = s.gal_loc.shape[2]
        out = []
        for c in e.colours_of[g][self.p]:
            for k, q in enumerate(s.gal_loc[g, c].tolist()):
                if 0 <= q < e.t.n_prov:
                    out.append((c * n + k, q))
        return out
