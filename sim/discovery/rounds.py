"""AOD-11 end-of-round steps C-J, AOD-12 colony scoring and AOD-13 final scoring, as a part of
the Engine. Step C runs over the whole batch at once (one call of the trade kernel)."""

from __future__ import annotations

import numpy as np

from sim.discovery import scoring, trade
from sim.discovery.state import COLONIST, INITIATIVE, SOLDIER


class Rounds:
    """Steps C-J and the scorings."""

    def income(self, games: list[int], last: bool) -> None:
        """AOD-11.2 step C: the best set income (AOD-10.6, the trade kernel), paid as money --
        in round 8 scored as economy VP instead (AOD-13.2, AOD-18.15; the option pays it too) --
        plus Mint, Distillery and Piracy (AOD-10.9: not part of the economy)."""
        counts = np.array([row for g in games for row in self.s.games[g].goods], dtype=np.int64)
        ships = np.array([x for g in games for x in self.s.games[g].ships], dtype=np.int64)
        sets = trade.income(self.comp.goods, counts, ships).tolist() if len(counts) else []
        pay = not last or self.comp.final.round8_sets_pay_money
        k = 0
        for g in games:
            s = self.s.games[g]
            bonus = self.income_bonuses(g)
            for p in range(s.n):
                if last:
                    s.economy[p] = sets[k]
                s.money[p] += (sets[k] if pay else 0) + bonus[p]
                k += 1
            self.log(g, "income", sets=sets[k - s.n:k], bonus=bonus, paid=pay)
            self.piracy(g)
            self.step(g, "income")

    def end_of_round(self, g: int, last: bool) -> None:
        """Step D, the colony scoring after rounds 3, 6, 8 (ASSUMED right after D, AOD-4.2), then
        steps E-J (none of which matters after round 8, AOD-4.3)."""
        s = self.s.games[g]
        self.building_benefits(g)
        self.step(g, "benefits")
        if s.round in self.rules["game"]["scoring_rounds"]:
            self.colony_scoring(g)
        if last:
            return
        self.refresh_buildings(g)
        self.refresh_goods(g)
        if not s.ship_in_box and s.ships_left > 0:           # G: a ship only if the box is empty
            s.ship_in_box, s.ships_left = True, s.ships_left - 1
        self.log(g, "refresh", buildings=[self.tile_key(k) for k in s.display],
                 goods=[self.comp.goods.names[k] for k in s.goods_display], ship=s.ship_in_box)
        for p in range(s.n):                                 # H: 5 colonists
            self.from_supply(s, p, COLONIST, int(self.rules["boxes"]["colonists_per_round"]))
        self.new_turn_order(g)
        s.round += 1                                         # J
        self.step(g, "round")

    def colony_scoring(self, g: int) -> None:
        """AOD-12: majorities in every region, through the scoring kernel."""
        s = self.s.games[g]
        counts = np.array([[sum(here[p]) for p in range(s.n)] for here in s.world], dtype=np.int64)
        vp = scoring.colony_vp(counts, self.comp.colonies).sum(axis=0).tolist()
        for p in range(s.n):
            s.colony_vp[p] += vp[p]
            s.last_colony_vp[p] = vp[p]
        self.log(g, "colony_scoring", vp=vp, counts=counts.T.tolist())

    def refresh_buildings(self, g: int) -> None:
        """AOD-11.5 step E: refill to 5 from the age's stack; after rounds 3 and 6 the old age's
        tiles leave the game and 5 of the next age are shown (Example AOD-E5)."""
        s = self.s.games[g]
        size = int(self.rules["boxes"]["display_buildings"])
        age = self.age(s)
        if s.round in self.rules["game"]["scoring_rounds"][:-1]:
            s.display, s.stacks[age - 1] = [], []
            age += 1
        s.display += self.draw_tiles(s, age - 1, size - len(s.display))

    def refresh_goods(self, g: int) -> None:
        """AOD-11.6 step F: the displayed goods go back into the pool, 4 are drawn at random."""
        s = self.s.games[g]
        s.goods_pool += s.goods_display
        s.goods_display = []
        rng = self.draws(g)
        for _ in range(min(int(self.rules["boxes"]["display_goods"]), len(s.goods_pool))):
            s.goods_display.append(s.goods_pool.pop(int(rng.integers(len(s.goods_pool)))))

    def new_turn_order(self, g: int) -> None:
        """AOD-11.9 step I: Initiative units first in space order, then the others in their old
        relative order (Example AOD-E3); Initiative units become the new markers, the old markers
        go back to the supply."""
        s = self.s.games[g]
        first = [p for p, _ in s.boxes[INITIATIVE]]
        for p, unit in s.boxes[INITIATIVE]:
            s.out[p][s.markers[p]] -= 1
            s.markers[p] = unit
        s.boxes[INITIATIVE].clear()
        s.order = first + [p for p in s.order if p not in first]
        self.log(g, "turn_order", order=list(s.order))

    def final_scoring(self, g: int) -> None:
        """AOD-13: colonies + buildings (fixed and conditional VP, AOD-14.3) + discoveries +
        economy; winners by the tie-breakers (AOD-13.3), still tied: shared (option: the earliest
        in the turn order)."""
        c, s = self.comp, self.s.games[g]
        n = s.n
        owned = np.zeros((n, len(c.buildings)), dtype=np.int64)
        for p in range(n):
            for k in s.owned[p]:
                owned[p, self.t.tile_building[k]] += 1
        units = [sum(sum(here[p]) for here in s.world) for p in range(n)]
        basis = {"goods": np.array([sum(x) for x in s.goods]), "units": np.array(units),
                 "ships": np.array(s.ships), "soldiers": np.array([sum(here[p][SOLDIER] for here in s.world)
                                                                   for p in range(n)]),
                 "regions": np.array([sum(sum(here[p]) > 0 for here in s.world) for p in range(n)]),
                 "money": np.array(s.money)}
        buildings = scoring.building_vp(c.buildings, owned, c.final, basis,
                                        self.opts["prosperity_counts_itself"]).tolist()
        found = [sum((c.cards if kind == "card" else c.tokens)[i].vp for kind, i in s.discoveries[p]) for p in range(n)]
        total = scoring.final_vp(s.colony_vp, buildings, found, s.economy).tolist()
        goods = [sum(s.goods[p]) + (s.ships[p] if self.opts["tie_goods_count_ships"] else 0) for p in range(n)]
        ties = {"last_colony_vp": np.array(s.last_colony_vp), "money": np.array(s.money), "goods": np.array(goods)}
        win = scoring.winners(np.array(total), ties, c.final).tolist()
        if self.opts["winner_tie"] == "turn_order" and sum(win) > 1:
            first = next(p for p in s.order if win[p])
            win = [p == first for p in range(n)]
        s.vp, s.winner = total, win
        self.log(g, "final", vp=total, colonies=list(s.colony_vp), buildings=buildings, discoveries=found,
                 economy=list(s.economy), money=list(s.money), winners=[p for p in range(n) if win[p]])
        self.step(g, "final")
