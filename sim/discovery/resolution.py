"""AOD-6 resolution of the event boxes (step B) and AOD-8 discovery, as a part of the Engine.

Order (AOD-6): Initiative, Colonist Dock, Trade Goods, Merchant Shipping, Capital Buildings,
Discovery, Specialists, Warfare (conflicts.py); then the clean-up of AOD-6.9. Money is paid at
once, so it can be spent in a later box of the same round.
"""

from __future__ import annotations

from sim.discovery.choices import ExpeditionChoices
from sim.discovery.components import UNIT_TYPES
from sim.discovery.discovery import party_strength
from sim.discovery.state import (
    CAPITAL,
    CARDS,
    COLONIST,
    DOCK,
    INITIATIVE,
    MISSIONARY,
    SHIPPING,
    TRADE,
    TRAIN,
    TRAIN_ANY,
    TRAINED,
    UNITS,
    WARFARE,
)

SPENT = (TRADE, SHIPPING, CAPITAL, *TRAIN, WARFARE)     # AOD-6.9.1: boxes emptied back to the supply


class Resolution:
    """Step B for one game."""

    def resolution(self, g: int) -> None:
        for name, box in (("initiative", self.resolve_initiative), ("dock", self.resolve_dock),
                          ("trade_goods", self.resolve_trade_goods), ("shipping", self.resolve_shipping),
                          ("capital", self.resolve_capital), ("discovery", self.resolve_discovery),
                          ("specialists", self.resolve_specialists), ("warfare", self.resolve_warfare)):
            box(g)
            self.step(g, name)
        self.clean_up(g)

    # ---- AOD-6.1
    def resolve_initiative(self, g: int) -> None:
        """AOD-6.1.1: space k pays $k at once; the units stay until step I (AOD-6.1.2)."""
        s = self.s.games[g]
        for k, (p, _) in enumerate(s.boxes[INITIATIVE], 1):
            s.money[p] += k
            self.log(g, "initiative", seat=p, space=k, money=k)

    # ---- AOD-6.2
    def resolve_dock(self, g: int) -> None:
        """AOD-6.2.1 - AOD-6.2.6: units leave in space order, then X and Y; each owner picks a
        region discovered before this box resolves (AOD-6.2.2, AOD-18.30)."""
        s = self.s.games[g]
        extra = (s.dock_x, s.dock_y) if self.opts["dock_x_before_y"] else (s.dock_y, s.dock_x)
        regions = [r for r, d in enumerate(s.discovered) if d]
        for space in (s.boxes[DOCK], *extra):
            for p, unit in space:
                s.out[p][unit] -= 1                       # leaves the box ...
                region = self.ask(g, p, "dock_destination", regions, unit)
                self.arrive(g, p, unit, region, dock=True)
            space.clear()

    def arrive(self, g: int, p: int, unit: int, region: int, dock: bool = False, count: int = 1) -> None:
        """Units of p enter a region (from the supply: `out` grows). Through the dock a merchant
        pays $5 and a missionary brings 1 colonist, 2 with the Cathedral (AOD-6.2.4, AOD-18.41,
        AOD-18.42); the first-to-3 check follows every arrival (AOD-6.2.5)."""
        s, spec = self.s.games[g], self.comp.units[UNIT_TYPES[unit]]
        count = self.supply(s, p, unit, count)
        s.world[region][p][unit] += count
        s.out[p][unit] += count
        bonus = 0
        if dock:
            s.money[p] += spec.arrival_money * count
            bonus = spec.arrival_colonists * count
            if unit == MISSIONARY and "cathedral" in self.acquired(g, p):
                bonus *= self.comp.amount["cathedral"]
            bonus = self.supply(s, p, COLONIST, bonus)
            s.world[region][p][COLONIST] += bonus
            s.out[p][COLONIST] += bonus
        self.log(g, "arrive", seat=p, unit=unit, region=self.comp.regions[region].id, count=count,
                 dock=dock, money=spec.arrival_money * count if dock else 0, colonists=bonus)
        self.first_to_three(g, region)

    def first_to_three(self, g: int, region: int) -> None:
        """AOD-6.2.5 / AOD-18.9: the first player with 3 units in a region takes its good."""
        s = self.s.games[g]
        if not s.region_good[region]:
            return
        threshold = int(self.rules["colonies"]["threshold"])
        for p in s.order:
            here = s.world[region][p]
            units = sum(here) if self.opts["first_to_three_counts_specialists"] else here[COLONIST]
            if units >= threshold:
                s.region_good[region] = False
                s.goods[p][self.t.region_goods[region]] += 1
                s.stats["goods_taken"][p] += 1
                self.log(g, "region_good", seat=p, region=self.comp.regions[region].id,
                         good=self.comp.goods.names[self.t.region_goods[region]])
                return

    # ---- AOD-6.3
    def resolve_trade_goods(self, g: int) -> None:
        """AOD-6.3.1 / AOD-6.3.2: in space order each unit takes one displayed good."""
        s = self.s.games[g]
        for p, _ in s.boxes[TRADE]:
            if not s.goods_display:
                break
            good = self.ask(g, p, "take_good", sorted(set(s.goods_display)))
            s.goods_display.remove(good)
            s.goods[p][good] += 1
            s.stats["goods_taken"][p] += 1
            self.log(g, "take_good", seat=p, good=self.comp.goods.names[good])

    # ---- AOD-6.4
    def resolve_shipping(self, g: int) -> None:
        """AOD-6.4.1 - AOD-6.4.4: the strongest presence takes the ship; ties go to the earliest in
        the current turn order (AOD-18.37)."""
        s = self.s.games[g]
        if not s.ship_in_box or not s.boxes[SHIPPING]:
            return
        strength = [0] * s.n
        for p, unit in s.boxes[SHIPPING]:
            strength[p] += self.comp.units[UNIT_TYPES[unit]].shipping
        best = max(strength)
        winner = next(p for p in s.order if strength[p] == best)
        s.ship_in_box = False
        s.ships[winner] += 1
        s.stats["ships_won"][winner] += 1
        self.log(g, "ship", seat=winner, strength=strength)

    # ---- AOD-6.5
    def resolve_capital(self, g: int) -> None:
        """AOD-6.5.1 - AOD-6.5.6: in space order each unit may buy one displayed building at the
        age's cost; the display is not refilled until step E."""
        s = self.s.games[g]
        for p, _ in s.boxes[CAPITAL]:
            self.offer_building(g, p)

    # ---- AOD-6.6 / AOD-8
    def resolve_discovery(self, g: int) -> None:
        """AOD-6.6.1: in turn order each player with units in the box may launch one expedition."""
        s = self.s.games[g]
        done_at_start = all(s.discovered)
        for p in s.order:
            if not any(s.discovery_box[p]):
                continue
            targets = tuple(r for r, d in enumerate(s.discovered) if not d)
            map_done = all(s.discovered) if self.opts["cards_mid_resolution"] else done_at_start
            if map_done and s.deck:
                targets = (CARDS,)
            if not targets:
                continue
            action = self.ask(g, p, "expedition", ExpeditionChoices(tuple(s.discovery_box[p]), targets))
            if action is None:
                self.log(g, "expedition", seat=p, party=None)
            else:
                self.expedition(g, p, action.party, action.target, action.p_win)
            self.step(g, "expedition")

    def expedition(self, g: int, p: int, party: tuple[int, ...], target: int, p_win: float | None = None) -> None:
        """AOD-8.1 - AOD-8.7: the party is announced, then the token (or top card) is shown;
        success if the strength reaches the natives: a free colonist (tokens only), the loot plus
        loot per soldier, the item kept for its VP. The party is spent either way (AOD-8.5); a
        failed token goes back face down (now known), a failed card is shuffled back."""
        c, s = self.comp, self.s.games[g]
        strength, soldiers = party_strength(dict(zip(UNIT_TYPES, party)), c.units)
        for u in range(UNITS):
            s.discovery_box[p][u] -= party[u]
            s.out[p][u] -= party[u]
        if target == CARDS:
            card = s.deck.pop(0)
            item, kind = c.cards[card], "card"
        else:
            card = s.token_at[target]
            item, kind = c.tokens[card], "token"
            if self.opts["discovery_reveal_public"]:
                s.shown[card] = True
            else:
                s.seen[p].add(card)
        won = strength >= item.natives
        s.stats["expeditions"][p] += 1
        self.log(g, "expedition", seat=p, party=list(party), target="cards" if target == CARDS else c.regions[target].id,
                 item=item.id, strength=strength, natives=item.natives, success=won,
                 money=item.reward(soldiers) if won else 0, **({} if p_win is None else {"p_win": round(p_win, 4)}))
        if won:
            s.stats["expeditions_won"][p] += 1
            self.discover(g, p, kind, card, target, soldiers)
        elif kind == "card":
            s.deck.append(card)
            self.draws(g).shuffle(s.deck)

    def discover(self, g: int, p: int, kind: str, item: int, region: int, soldiers: int) -> None:
        """AOD-8.3 (and AOD-18.20 for Cartography): loot, the item kept face up, and for a token
        the region discovered with one free colonist (AOD-18.33)."""
        s = self.s.games[g]
        found = (self.comp.cards if kind == "card" else self.comp.tokens)[item]
        s.money[p] += found.reward(soldiers)
        s.discoveries[p].append((kind, item))
        if kind == "token":
            s.shown[item] = True
            s.token_at[region] = -1
            s.discovered[region] = True
            self.arrive(g, p, COLONIST, region)

    # ---- AOD-6.7
    def resolve_specialists(self, g: int) -> None:
        """AOD-6.7.1 - AOD-6.7.4: each fixed box trains its type; the training ground trains any
        type for $5 (AOD-18.14); the new specialist waits in the pool for the next round."""
        s = self.s.games[g]
        for box, unit in zip(TRAIN, TRAINED):
            for p, _ in s.boxes[box]:
                self.from_supply(s, p, unit)
                self.log(g, "train", seat=p, unit=unit, paid=0)
        cost = int(self.rules["boxes"]["training_cost"])
        for p, _ in s.boxes[TRAIN_ANY]:
            if s.money[p] < cost:
                continue
            unit = self.ask(g, p, "train", [None, *TRAINED])
            if unit is None:
                self.log(g, "train", seat=p, unit=None, paid=0)
            else:
                s.money[p] -= cost
                self.from_supply(s, p, unit)
                self.log(g, "train", seat=p, unit=unit, paid=cost)

    # ---- AOD-6.9
    def clean_up(self, g: int) -> None:
        """AOD-6.9: units in Trade Goods, Merchant Shipping, Capital Buildings, Specialists and
        Warfare go back to the supply (used specialists are gone, AOD-18.5; the option keeps them
        in the pool); Initiative waits for step I, Discovery keeps its units."""
        s = self.s.games[g]
        persist = self.opts["specialists_persist"]
        for b in SPENT:
            for p, unit in s.boxes[b]:
                if persist and unit != COLONIST:
                    s.pool[p][unit] += 1
                else:
                    s.out[p][unit] -= 1
            s.boxes[b].clear()
        self.step(g, "clean_up")
