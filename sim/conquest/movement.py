"""Phase 1 of a turn: land movement (COE-11), roads (COE-6.6), galleys and sea transport (COE-12),
and the taking of neutral and empty enemy provinces at the end of the phase (COE-17.3, COE-A8,
COE-A9). A part of `sim.conquest.engine.Engine`.

Units are fungible within a type: a step takes the units of that type with the most movement
points left (a legion moving twice moves the units that can), boarding those with the fewest.
"""

from __future__ import annotations

from collections import deque

from sim.conquest.actions import Board, EndMovement, RoadTrip, Sail, Step
from sim.conquest.choices import Choices
from sim.conquest.state import BOARDED, FREE, LANDED, LEADERS, NEUTRAL, NOT_FLAGGED

MAX_MOVES = 200        # movement actions of one phase (a safety net: every move spends MP)


class Movement:
    """COE-11 / COE-12 (see the module docstring)."""

    def movement_phase(self, g: int, p: int) -> None:
        """COE-11 / COE-12: the mover's actions until he ends the phase; then COE-A8 captures."""
        self.refresh_mp(g, p)
        player = self.players[g][p]
        for _ in range(MAX_MOVES):
            action = player.move(Choices(self, g, p))
            if type(action) is EndMovement:
                break
            self.apply(g, p, action)
        self.require(not self.s.gal_transit[g].any(), "a galley may not stay where it stands (COE-12.9, COE-A16)")
        if self.opt.neutral_capture_timing == "end_of_movement":
            self.occupy(g, p)

    def refresh_mp(self, g: int, p: int) -> None:
        """COE-11.2: every piece of the mover starts the phase with its full movement points."""
        s, t = self.s, self.t
        for c in self.colours_of[g][p]:
            s.ready[g, c] = 0
            for k, mp in enumerate(t.unit_mp):
                s.ready[g, c, :, k, mp] = s.land[g, c, :, k]
            s.landed[g, c] = 0
            s.ldr_mp[g, c] = t.leader_mp
            s.ldr_flag[g, c] = NOT_FLAGGED
            s.gal_mp[g, c] = t.galley_mp
            s.gal_boarded[g, c] = False
            s.gal_transit[g, c] = False

    def end_movement_state(self, g: int, p: int) -> None:
        """COE-11.2: unused MP are lost; the per-turn bookkeeping is cleared."""
        s = self.s
        for c in self.colours_of[g][p]:
            s.ready[g, c] = 0
            s.landed[g, c] = 0
            s.ldr_mp[g, c] = 0
            s.ldr_flag[g, c] = NOT_FLAGGED
            s.gal_mp[g, c] = 0
            s.gal_boarded[g, c] = False

    # ------------------------------------------------------------------ land
    def movable_leaders(self, g: int, p: int, leaders: tuple[int, ...], src: int) -> None:
        s = self.s
        self.require(len(leaders) > 0 and len(set(leaders)) == len(leaders), "a move needs distinct leaders")
        for ld in leaders:
            c, i = divmod(ld, LEADERS)
            self.require(0 <= c < s.owner.shape[1] and s.owner[g, c] == p, "leader {} is not the mover's", ld)
            self.require(s.ldr_state[g, c, i] == FREE and s.ldr_loc[g, c, i] == src and s.ldr_ship[g, c, i] < 0,
                         "leader {} is not standing in {}", ld, src)
            self.require(s.ldr_mp[g, c, i] >= 1 and s.ldr_flag[g, c, i] == NOT_FLAGGED,
                         "leader {} cannot move any more (COE-11.2, COE-12.6)", ld)

    def ready_units(self, g: int, p: int, src: int) -> list[int]:
        """Land units of the mover in src with at least 1 MP left."""
        out = [0, 0, 0]
        for c in self.colours_of[g][p]:             # plain Python: three types, three MP levels
            for k, (_, one, two) in enumerate(self.s.ready[g, c, src].tolist()):
                out[k] += one + two
        return out

    def check_legion(self, g: int, p: int, leaders: tuple[int, ...], units, src: int) -> None:
        """COE-11.1 / COE-A31: at most 7 land units per leader, each with MP left."""
        self.require(all(u >= 0 for u in units), "unit counts must be >= 0")
        self.require(sum(units) <= self.opt.units_per_leader * len(leaders),
                     "{} land units need more than {} leader(s) (COE-11.1)", sum(units), len(leaders))
        self.require(sum(units) > 0 or self.opt.leaders_move_alone, "leaders move only with land units (COE-A6)")
        ready = self.ready_units(g, p, src)
        self.require(all(u <= r for u, r in zip(units, ready)), "units {} have no MP left in {}", units, src)

    def shift_units(self, g: int, p: int, units, src: int, dst: int, stop: bool) -> None:
        """Move units, those with the most MP first, spending 1 MP each (0 left when stopped)."""
        s = self.s
        for k in range(3):
            left = units[k]
            for c in self.colours_of[g][p]:
                for mp in (2, 1):
                    if not left:
                        break
                    take = min(left, int(s.ready[g, c, src, k, mp]))
                    if take:
                        s.ready[g, c, src, k, mp] -= take
                        s.land[g, c, src, k] -= take
                        s.land[g, c, dst, k] += take
                        s.ready[g, c, dst, k, 0 if stop else mp - 1] += take
                        left -= take

    def shift_leaders(self, g: int, leaders, dst: int, stop: bool) -> None:
        s = self.s
        for ld in leaders:
            c, i = divmod(ld, LEADERS)
            s.ldr_loc[g, c, i] = dst
            s.ldr_mp[g, c, i] = 0 if stop else s.ldr_mp[g, c, i] - 1

    def step(self, g: int, p: int, a: Step) -> None:
        """COE-11.1-11.7: a legion steps into an adjacent province; it stops where enemy pieces are."""
        self.require(0 <= a.src < self.t.n_prov and a.dst in self.t.steps[a.src], "{} is not next to {}", a.dst, a.src)
        self.movable_leaders(g, p, a.leaders, a.src)
        self.check_legion(g, p, a.leaders, a.units, a.src)
        enemy = self.enemy_pieces_at(g, p, a.dst)
        self.require(sum(a.units) > 0 or not enemy, "leaders alone may not enter enemy pieces (COE-11.6, COE-A7)")
        self.shift_units(g, p, a.units, a.src, a.dst, enemy)
        self.shift_leaders(g, a.leaders, a.dst, enemy)
        forecast = {} if a.p_win is None else {"p_win": round(float(a.p_win), 6)}
        self.log(g, "move", kind="step", leaders=list(a.leaders), units=list(a.units),
                 src=self.t.names[a.src], dst=self.t.names[a.dst], stopped=enemy, **forecast)

    def road_network(self, g: int, p: int, src: int) -> dict[int, int]:
        """COE-6.6 / COE-A32: the Cities a road trip from src reaches, each with the City it
        came from; it never passes a province holding enemy land units (the stop rule)."""
        s, t = self.s, self.t
        if not s.city[g, src]:
            return {}
        parent = {src: src}
        todo = deque([src])
        own_only = not self.opt.roads_usable_by_all
        while todo:
            q = todo.popleft()
            if q != src and self.enemy_pieces_at(g, p, q):
                continue
            for e in t.edges_at[q]:
                if not s.road[g, e]:
                    continue
                a, b = t.edges[e]
                r = b if a == q else a
                if r in parent or not s.city[g, r]:
                    continue
                if own_only and not (s.control[g, q] == p and s.control[g, r] == p):
                    continue
                parent[r] = q
                todo.append(r)
        del parent[src]
        return parent

    def road_trip(self, g: int, p: int, a: RoadTrip) -> None:
        """COE-6.6: 1 MP for any distance along connected roads, with drop-offs at Cities passed."""
        network = self.road_network(g, p, a.src) if 0 <= a.src < self.t.n_prov else {}
        self.require(a.dst in network, "no road trip from {} to {}", a.src, a.dst)
        path, q = [], network[a.dst]
        while q != a.src:
            path.append(q)
            q = network[q]
        self.movable_leaders(g, p, a.leaders, a.src)
        self.check_legion(g, p, a.leaders, a.units, a.src)
        dropped = [0, 0, 0]
        for where, units in a.drops:
            self.require(where in path, "drop-off {} is not a City on the trip (COE-E2)", where)
            dropped = [x + y for x, y in zip(dropped, units)]
        self.require(all(0 <= d <= u for d, u in zip(dropped, a.units)), "drop-offs exceed the legion")
        enemy = self.enemy_pieces_at(g, p, a.dst)
        onward = [u - d for u, d in zip(a.units, dropped)]
        self.require(sum(onward) > 0 or not enemy, "leaders alone may not enter enemy pieces (COE-A7)")
        for where, units in a.drops:
            self.shift_units(g, p, units, a.src, where, False)
        self.shift_units(g, p, onward, a.src, a.dst, enemy)
        self.shift_leaders(g, a.leaders, a.dst, enemy)
        self.log(g, "move", kind="road", leaders=list(a.leaders), units=list(a.units), src=self.t.names[a.src],
                 dst=self.t.names[a.dst], drops=[[self.t.names[w], list(u)] for w, u in a.drops], stopped=enemy)

    # ------------------------------------------------------------------ galleys
    def own_galley(self, g: int, p: int, galley: int) -> tuple[int, int]:
        s = self.s
        n = s.gal_loc.shape[2]
        c, k = divmod(galley, n)
        self.require(0 <= c < s.owner.shape[1] and s.owner[g, c] == p and s.gal_loc[g, c, k] >= 0,
                     "galley {} is not the mover's", galley)
        return c, k

    def galley_may_end(self, g: int, p: int, q: int) -> bool:
        """COE-12.9 / COE-A16: a coastal province where the mover's galley may stay."""
        ctrl = self.s.control[g, q]
        return (not self.opt.galley_end_restriction or ctrl == p or ctrl == NEUTRAL
                or sum(self.units_at(g, p, q)) > 0)

    def cargo_leaders(self, g: int, galley: int) -> list[int]:
        """Free leaders aboard a galley."""
        ships = self.s.ldr_ship[g].ravel().tolist()
        if galley not in ships:
            return []
        state = self.s.ldr_state[g].ravel().tolist()
        return [ld for ld, x in enumerate(ships) if x == galley and state[ld] == FREE]

    def board(self, g: int, p: int, a: Board) -> None:
        """COE-12.5 / COE-12.6 / COE-A14: board in the galley's province; a leader must be aboard
        with land units; at most 7 land units; those who left a galley this turn may not."""
        s, t = self.s, self.t
        c, k = self.own_galley(g, p, a.galley)
        q = int(s.gal_loc[g, c, k])
        self.require(q < t.n_prov, "a galley takes legions aboard only in a coastal province")
        self.require(len(set(a.leaders)) == len(a.leaders) and all(u >= 0 for u in a.units), "bad boarding")
        for ld in a.leaders:
            lc, i = divmod(ld, LEADERS)
            self.require(s.owner[g, lc] == p and s.ldr_state[g, lc, i] == FREE and s.ldr_loc[g, lc, i] == q
                         and s.ldr_ship[g, lc, i] < 0 and s.ldr_flag[g, lc, i] == NOT_FLAGGED,
                         "leader {} cannot board in {}", ld, q)
            self.require(self.opt.land_move_before_boarding or s.ldr_mp[g, lc, i] == t.leader_mp,
                         "leaders that moved may not board (COE-A14)")
        full = t.unit_mp
        for u in range(3):
            free = int(s.land[g, c, q, u] - s.landed[g, c, q, u])
            if not self.opt.land_move_before_boarding:
                free = min(free, int(s.ready[g, c, q, u, full[u]]))
            self.require(a.units[u] <= free, "{} units of type {} cannot board (COE-12.6)", a.units[u], u)
        self.require(int(s.gal_cargo[g, c, k].sum()) + sum(a.units) <= t.capacity, "a galley carries 7 land units")
        aboard = self.cargo_leaders(g, a.galley)
        self.require(sum(a.units) + len(a.leaders) > 0, "nothing boards")
        self.require(sum(a.units) == 0 or aboard or a.leaders, "land units need a leader aboard (COE-12.5)")
        for u in range(3):
            left = a.units[u]
            for mp in (0, 1, 2):                       # those who left a galley stay ashore
                spare = int(s.ready[g, c, q, u, mp]) - (int(s.landed[g, c, q, u]) if mp == 0 else 0)
                take = min(left, spare)
                s.ready[g, c, q, u, mp] -= take
                left -= take
            s.land[g, c, q, u] -= a.units[u]
            s.gal_cargo[g, c, k, u] += a.units[u]
        for ld in a.leaders:
            lc, i = divmod(ld, LEADERS)
            s.ldr_ship[g, lc, i] = a.galley
            s.ldr_flag[g, lc, i] = BOARDED
        s.gal_boarded[g, c, k] = True
        self.log(g, "move", kind="board", galley=a.galley, leaders=list(a.leaders), units=list(a.units),
                 src=t.names[q])

    def sail(self, g: int, p: int, a: Sail) -> None:
        """COE-12.1-12.3: sea to sea, sea to coast, coast to sea for 1 MP; never coast to coast."""
        s, t = self.s, self.t
        c, k = self.own_galley(g, p, a.galley)
        here = int(s.gal_loc[g, c, k])
        self.require(s.gal_mp[g, c, k] >= 1, "galley {} has no MP left", a.galley)
        if here < t.n_prov:
            self.require(a.dst in t.coast[here], "from a coast a galley only puts to sea (COE-12.3)")
        else:
            z = here - t.n_prov
            self.require(a.dst in t.sea_adj[z] or a.dst in t.sea_coast[z], "{} is not next to {}", a.dst, here)
        onto_coast = a.dst < t.n_prov
        leaders = self.cargo_leaders(g, a.galley)
        self.require(not a.land or (onto_coast and leaders), "only a galley with a leader aboard lands on a coast")
        passing = onto_coast and not a.land and not self.galley_may_end(g, p, a.dst)
        if passing:                     # COE-12.8 / COE-A16: only passing through, on to sea
            self.require(s.gal_mp[g, c, k] >= 2 and not self.opt.galley_entering_coast_ends_move,
                         "a galley may not stop in {} (COE-A16)", a.dst)
        s.gal_loc[g, c, k] = a.dst
        s.gal_mp[g, c, k] -= 1
        s.gal_transit[g, c, k] = passing
        if onto_coast and self.opt.galley_entering_coast_ends_move:
            s.gal_mp[g, c, k] = 0
        for ld in leaders:
            lc, i = divmod(ld, LEADERS)
            s.ldr_loc[g, lc, i] = a.dst
        self.log(g, "move", kind="sail", galley=a.galley, src=t.names[here], dst=t.names[a.dst])
        if a.land:
            self.disembark(g, p, a.galley)

    def disembark(self, g: int, p: int, galley: int) -> None:
        """COE-12.6 / COE-A14: the cargo goes ashore in the galley's province and moves no more
        this turn; landing among enemy land units starts a battle (COE-13.1)."""
        s, t = self.s, self.t
        c, k = self.own_galley(g, p, galley)
        q = int(s.gal_loc[g, c, k])
        leaders = self.cargo_leaders(g, galley)
        units = [int(x) for x in s.gal_cargo[g, c, k]]
        self.require(q < t.n_prov and leaders, "a galley lands its legion in a province, with a leader")
        self.require(self.opt.board_and_land_same_turn or not s.gal_boarded[g, c, k],
                     "no landing in the turn of boarding (COE-A14)")
        self.require(sum(units) > 0 or not self.enemy_pieces_at(g, p, q),
                     "leaders alone may not land among enemy pieces (COE-A7)")
        for u in range(3):
            s.land[g, c, q, u] += units[u]
            s.ready[g, c, q, u, 0] += units[u]
            s.landed[g, c, q, u] += units[u]
        s.gal_cargo[g, c, k] = 0
        s.gal_transit[g, c, k] = False
        for ld in leaders:
            lc, i = divmod(ld, LEADERS)
            s.ldr_ship[g, lc, i] = -1
            s.ldr_mp[g, lc, i] = 0
            s.ldr_flag[g, lc, i] = LANDED
        self.log(g, "move", kind="land", galley=galley, leaders=leaders, units=units, dst=t.names[q])

    # ------------------------------------------------------------------ taking provinces
    def occupy(self, g: int, p: int) -> None:
        """COE-17.3 / COE-A8 / COE-A9: every neutral (or empty enemy) province holding the mover's
        land units becomes his; battles decide the others (phase 2)."""
        s, t = self.s, self.t
        mine = self.land_spaces(g, p)
        if self.opt.galleys_conquer:
            mine = sorted(set(mine).union(q for q in self.galleys_at_any(g, p) if q < t.n_prov))
        control = s.control[g].tolist()
        for q, other in zip(mine, self.others_at(g, p, mine)):
            if control[q] == p or other >= 0:
                continue
            if control[q] == NEUTRAL or self.opt.empty_enemy_province_like_neutral:
                self.take_province(g, p, q, battle=False)

    def galleys_at_any(self, g: int, p: int) -> list[int]:
        """The spaces of the mover's galleys."""
        s = self.s
        return [int(x) for c in self.colours_of[g][p] for x in s.gal_loc[g, c].tolist() if x >= 0]
