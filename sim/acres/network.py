"""AFS-6 and AFS-9.4: the supply network (which location cards may be played, who may reinforce)
and the raid network (raid distances), as a part of the `Engine` class.

Supply (AFS-6.2, AFS-19.7): river, lake and road links plus the all-to-all sea network, never
Indian paths. A side's connected set is every own location reached from its capital through own
locations; own besieged locations are links (AFS-18 A17; option `chain_through_own_besieged` off:
they break it) and the chain ends at the capital's
space even when it is lost (AFS-18 A18, option `capital_must_be_controlled`). It is cached per
game until the board changes (`BatchState.version`), as are the raid distances.
"""

from __future__ import annotations

from sim.acres.state import BatchState, Tables


class Network:
    """Connectivity and raid distances (mixed into `Engine`)."""

    s: BatchState
    t: Tables

    def connected(self, g: int, side: int) -> frozenset[int]:
        """AFS-6.2: the locations of `side` linked to its capital by own locations. The sea
        network links all its locations to each other (AFS-19.7), so the first of them reached
        opens all the own ones at once instead of each following every sea link."""
        hit = self._conn_cache[g][side]
        if hit is not None and hit[0] == self.s.version[g]:
            return hit[1]
        control = self.s.control[g]
        mine = side + 1
        cap = self.t.capital[side]
        if not self.chain_through_own_besieged:      # A17 alternative: a besieged location is no link
            control = [0 if i in self.s.siege_loc[g] and i != cap else c for i, c in enumerate(control)]
        if self.opt_capital_controlled and control[cap] != mine:
            found = frozenset()
        else:
            seen = {cap}
            todo = [cap]
            adj, sea = self.t.supply_off_sea, self.t.sea
            at_sea = False
            while todo:
                v = todo.pop()
                for n in adj[v]:
                    if n not in seen and control[n] == mine:
                        seen.add(n)
                        todo.append(n)
                if not at_sea and v in sea:
                    at_sea = True
                    for n in sea:
                        if n not in seen and control[n] == mine:
                            seen.add(n)
                            todo.append(n)
            found = frozenset(seen)
        self._conn_cache[g][side] = (self.s.version[g], found)
        return found

    def held(self, g: int, owner: int) -> int:
        """The locations whose `control` is `owner` (0 neutral, side + 1) as bits (location i:
        bit i), for the journeys' target tests; kept until the board changes."""
        hit = self._held_cache[g]
        if hit is None or hit[0] != self.s.version[g]:
            masks = [0, 0, 0]
            for i, c in enumerate(self.s.control[g]):
                masks[c] |= 1 << i
            hit = self._held_cache[g] = (self.s.version[g], masks)
        return hit[1][owner]

    def besieged(self, g: int, loc: int) -> bool:
        """AFS-8.1.7: a location with a siege marker beside it."""
        return loc in self.s.siege_loc[g]

    def playable(self, g: int, side: int, c: int) -> bool:
        """AFS-6.1: an empire card always; a location card only while its side controls the
        location, it is connected to the capital and not under siege."""
        loc = self.t.kind[c].loc
        if loc < 0:
            return True
        return (self.s.control[g][loc] == side + 1 and loc in self.connected(g, side)
                and loc not in self.s.siege_loc[g])

    def supplied(self, g: int, side: int, loc: int) -> bool:
        """AFS-8.6.4 / AFS-18 A17: the siege location is the capital, or a supply neighbour is in
        the side's connected set (the location itself need not be the side's)."""
        if loc == self.t.capital[side]:
            return True
        conn = self.connected(g, side)
        return any(n in conn for n in self.t.supply_adj[loc])

    def raid_distances(self, g: int, side: int) -> dict[int, int]:
        """AFS-9.2 / AFS-9.4: the raid distance of every enemy location within reach of `side`,
        along land links and Indian paths (no sea) from any own location (AFS-18 A37; besieged
        origins per option `raid_from_besieged`, A11); no route enters a fortified location
        (AFS-18 A10) nor, with option `raid_through_own_besieged` off (S2's reading of A11), one of
        the side's own besieged locations; besieged locations are never targets (A11). Cached per
        game until the board changes (`BatchState.version`); callers only read it."""
        hit = self._raid_cache[g][side]
        if hit is not None and hit[0] == self.s.version[g]:
            return hit[1]
        s = self.s
        control, fort, sieges = s.control[g], s.fort[g], s.siege_loc[g]
        mine, theirs = side + 1, 2 - side
        frontier = [i for i, c in enumerate(control)
                    if c == mine and (self.opt_raid_from_besieged or i not in sieges)]
        dist = {i: 0 for i in frontier}
        out: dict[int, int] = {}
        d = 0
        adj = self.t.raid_adj
        closed = set() if self.opt_raid_through_own_besieged else {i for i in sieges if i >= 0 and control[i] == mine}
        while frontier:
            d += 1
            nxt = []
            for v in frontier:
                for n in adj[v]:
                    if n in dist or fort[n] or n in closed:
                        continue
                    dist[n] = d
                    nxt.append(n)
                    if control[n] == theirs and n not in sieges:
                        out[n] = d
            frontier = nxt
        self._raid_cache[g][side] = (s.version[g], out)
        return out
