"""Movement and sea rolls (SOE-10, SOE-11) of the Struggle of Empires engine.

`Movement` is one of the rule-chapter parts the `Engine` is made of (sim.struggle.engine): it
answers whether a unit may move and carries a Move action out, one unit at a time with its sea
roll. Its methods read and change the engine's `BatchState` (`self.s`) only.
"""

from __future__ import annotations

import numpy as np

from sim.core.lockstep import RuleViolation
from sim.struggle import sea
from sim.struggle.state import FLEET, FORT, HOME, N_REGIONS, UNIT_NAMES


class Movement:
    """SOE-10 / SOE-11: who may move where, sea rolls, the Move action."""

    def needs_sea_roll(self, src: int, dst: int) -> bool:
        """SOE-11.2/11.3: a roll for every move into or out of a colonial region, except between
        two American regions (home countries count as Europe)."""
        cs = src < N_REGIONS and self.colonial[src]
        cd = dst < N_REGIONS and self.colonial[dst]
        if not (cs or cd):
            return False
        return not (cs and cd and self.t.american[src] and self.t.american[dst])

    def army_may_enter(self, g: int, p: int, dst: int) -> bool:
        """SOE-10.3 .. 10.7: may an army of `p` move into `dst`?"""
        s = self.s
        if dst == HOME:
            return True                                            # SOE-10.6
        if self.colonial_list[dst]:
            if s.units[g, p, dst, FLEET] == 0:                     # SOE-10.3
                return False
            bo = s.blockade_owner[g]
            if s.blockade_region[g] == dst and bo >= 0 and self.enemy(g, p, bo):   # SOE-10.7, SOE-A18
                return s.units[g, p, dst, FLEET] > s.units[g, bo, dst, FLEET]
            return True
        mine = s.markers[g, p].tolist()
        if mine[dst] > 0:                                          # SOE-10.4 (1)
            return True
        if any(mine[a] > 0 for a in self.adjacent_lists[dst]):     # (2)
            return True
        if self.home_adjacent_lists[self.power_list[g][p]][dst]:   # (3)
            return True
        sea = self.sea_list[dst]
        if sea and s.units[g, p, dst, FLEET] > 0:                  # (4)
            return True
        nav = self.naval[dst]
        return bool(not sea and nav >= 0 and s.units[g, p, nav, FLEET] > 0)   # (5)

    def fleet_may_enter(self, g: int, p: int, dst: int) -> bool:
        """SOE-10.2 / SOE-A2: fleets sail to the 8 sea regions (home only if the option allows)."""
        if dst == HOME:
            return self.opt("fleets_at_home") == "anywhere_home"
        return self.sea_list[dst]

    def may_move(self, g: int, p: int, kind: int, src: int, dst: int) -> bool:
        """SOE-10.1, SOE-9.4: one unit of `kind` from `src` to `dst` (forts only from home; with
        the option `fort_moves_later` = after_failed_roll only one sent back by a sea roll)."""
        if src == dst or self.s.units[g, p, src, kind] == 0:
            return False
        if kind == FLEET:
            return self.fleet_may_enter(g, p, dst)
        if kind == FORT and (src != HOME or (self.forts_after_roll and self.s.forts_returned[g, p] <= 0)):
            return False
        return self.army_may_enter(g, p, dst)

    def may_move_from_home(self, g: int, p: int, kind: int, dst: int) -> bool:
        """SOE-9.3: may a unit just built at home make its free move to `dst` (a fort moves as
        an army)?"""
        if dst == HOME:
            return False
        return self.fleet_may_enter(g, p, dst) if kind == FLEET else self.army_may_enter(g, p, dst)

    def sea_roll(self, g: int, p: int) -> int:
        """SOE-11.1: 0 = arrives, 1 = back where it started, 2 = destroyed (Example SOE-E8);
        Navigation adds its bonus to the second roll (SOE-20.11). Outcome by `sea.roll_outcome`."""
        first = self.sea_dice[g].next() + 1
        second = self.sea_dice[g].next() + 1 if first < self.comp.sea.arrive_min_first else 1
        return sea.roll_outcome(first, second, self.owns(g, p, "navigation") > 0, self.comp.sea)

    def move_unit(self, g: int, p: int, kind: int, src: int, dst: int, built: bool = False) -> int:
        """Move one unit with its sea roll; returns the sea-roll outcome (0 if none needed).
        `built`: the free move of a unit just built (SOE-9.3; a fort moves as an army)."""
        if not (self.may_move_from_home(g, p, kind, dst) if built else self.may_move(g, p, kind, src, dst)):
            raise RuleViolation(f"game {g}: {UNIT_NAMES[kind]} of seat {p} may not move {src}->{dst}")
        outcome = self.sea_roll(g, p) if self.needs_sea_roll(src, dst) else 0
        if kind == FORT and self.forts_after_roll:          # SOE-9.4: sent back, it may move again later
            self.s.forts_returned[g, p] += (outcome == 1) if built else -(outcome != 1)
        u = self.s.units[g, p]
        if outcome == 0:
            u[src, kind] -= 1
            u[dst, kind] += 1
        elif outcome == 2:
            u[src, kind] -= 1
            if self.opt("unrest_from_sea_losses"):
                self.add_unrest(g, p, 1)
        if self.logs is not None:                        # event fields are built only for a log
            self.log(g, "move", seat=p, unit=UNIT_NAMES[kind], src=self.loc_name(src), dst=self.loc_name(dst),
                     sea=("arrived", "returned", "destroyed")[outcome], rolled=self.needs_sea_roll(src, dst))
        self._check_blockade(g)
        return outcome

    def _check_blockade(self, g: int) -> None:
        """SOE-20.20 (a): the Blockade tile goes back to the display once its owner has no fleet
        left in the region."""
        r, o = self.s.blockade_region[g], self.s.blockade_owner[g]
        if r >= 0 and self.s.units[g, o, r, FLEET] == 0:
            self.s.blockade_region[g] = self.s.blockade_owner[g] = -1
            self.s.dev_display[g, self.k["blockade"]] += 1

    def units_per_move(self, g: int, p: int) -> int:
        """SOE-10.1 + Logistics (SOE-20.9, copies stack per SOE-A16 option)."""
        n = self.owns(g, p, "logistics")
        extra = n if self.opt("logistics_stacks") else min(n, 1)
        return self.rule("game.units_per_move") + extra

    def legal_prefix(self, g: int, p: int, moves: list[tuple[int, int, int]]) -> list[tuple[int, int, int]]:
        """The longest prefix of a move plan that is legal if every earlier move arrives (the
        state is restored afterwards)."""
        saved, returned = self.s.units[g, p].copy(), int(self.s.forts_returned[g, p])
        out = []
        try:
            for kind, src, dst in moves:
                if len(out) >= self.units_per_move(g, p) or not self.may_move(g, p, kind, src, dst):
                    break
                self.s.units[g, p, src, kind] -= 1
                self.s.units[g, p, dst, kind] += 1
                self.s.forts_returned[g, p] -= kind == FORT
                out.append((kind, src, dst))
        finally:
            self.s.units[g, p] = saved
            self.s.forts_returned[g, p] = returned
        return out

    def move(self, g: int, p: int, moves: list[tuple[int, int, int]]) -> None:
        """SOE-10.1: move up to two (three with Logistics) different units one after another;
        each move may rely on the ones before it. A bounced unit stays put (SOE-A26); with the
        option `move_same_unit_again` the moves are steps, and one unit may take several."""
        if not 1 <= len(moves) <= self.units_per_move(g, p):
            raise RuleViolation(f"a Move action moves 1..{self.units_per_move(g, p)} units")
        moved = np.zeros((N_REGIONS + 1, 3), dtype=np.int32)     # units already moved, by destination
        again = self.opt("move_same_unit_again")
        failed = False
        for kind, src, dst in moves:
            available = int(self.s.units[g, p, src, kind]) - (0 if again else int(moved[src, kind]))
            if failed and (available <= 0 or not self.may_move(g, p, kind, src, dst)):
                self.log(g, "move_void", seat=p, unit=UNIT_NAMES[kind], src=self.loc_name(src),
                         dst=self.loc_name(dst))
                continue                               # it relied on a unit that did not arrive
            if available <= 0:
                raise RuleViolation("each unit moves at most once per Move action (SOE-A26)")
            outcome = self.move_unit(g, p, kind, src, dst)
            if outcome == 0:
                moved[dst, kind] += 1
            else:
                failed = True
