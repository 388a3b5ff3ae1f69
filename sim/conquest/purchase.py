"""Phases 5 and 6 of a turn: buying with the price list and inflation (COE-20, COE-21), placing
new pieces (COE-22) and ransom (COE-23). A part of `sim.conquest.engine.Engine`.

Prices are `economy.price_list` under the multiplier in force, which
`economy.multiplier_in_force` (the last of `economy.turn_multipliers`) derives from the income
readings that reached a threshold (COE-21, COE-A11, COE-A12: checked at every change, effective
from the trigger player's next turn). A purchase names where it will be
placed (COE-A39: everything bought is placed this turn), so only placeable pieces are offered.
A Fortified City is a City and a Fortification bought in the same turn for the same province
(COE-6.4: 50 = 30 + 20).
"""

from __future__ import annotations

import numpy as np

from sim.conquest.actions import Buy, Ransom
from sim.conquest.economy import Reading, multiplier_in_force, price_list
from sim.conquest.state import CAPTIVE, FREE, LEADERS

ASSETS = ("infantry", "cavalry", "catapult", "galley", "city", "fortification", "road")
ASSET_INDEX = {a: k for k, a in enumerate(ASSETS)}
UNIT_INDEX = {"infantry": 0, "cavalry": 1, "catapult": 2}
BUILDINGS = ("city", "fortification", "road")      # one per province (or border) each
Candidates = tuple[list[tuple[str, list[Buy]]], dict[str, int], set[int]]   # `Purchase.buy_candidates`
MAX_BUYS = 100         # purchases of one phase (a safety net for zero prices set by --set)


def acquires(choice: Buy) -> str:
    """The asset a purchase acquires (sim.core.interventions)."""
    return choice.item


class Purchase:
    """COE-20 .. COE-23 (see the module docstring)."""

    # ------------------------------------------------------------------ inflation
    def note_income(self, g: int, seat: int) -> None:
        """COE-A12: every income change is a reading; those reaching the next threshold count."""
        value = self.income(g, seat)
        s = self.s
        s.stats["max_income"][g, seat] = max(int(s.stats["max_income"][g, seat]), value)
        if self.economy.inflation.measure == "income":
            self.reading(g, seat, value, "income")

    def note_treasury(self, g: int, seat: int) -> None:
        """COE-A11 alternative: the treasury is the measured quantity."""
        if self.economy.inflation.measure == "treasury":
            self.reading(g, seat, int(self.s.treasury[g, seat]), "treasury")

    def reading(self, g: int, seat: int, value: int, measure: str) -> None:
        rules = self.economy.inflation
        top = max((r.value for r in self.readings[g]), default=0)
        level = sum(1 for t in rules.thresholds if top >= t)
        if level < len(rules.thresholds) and value >= rules.thresholds[level] and self.turn_seats[g]:
            r = Reading(turn=len(self.turn_seats[g]) - 1, phase=max(self.phase[g], 1), player=str(seat),
                        value=value, measure=measure)
            self.readings[g].append(r)
            self.log(g, "inflation_triggered", seat=seat, value=value,
                     level=sum(1 for t in rules.thresholds if value >= t))

    def start_prices(self, g: int) -> None:
        """COE-21: the multiplier of this turn (for every player), from the readings so far."""
        if not self.readings[g]:
            return
        m = multiplier_in_force(self.turn_seats[g], self.readings[g], self.economy.inflation)
        if m != self.s.multiplier[g]:
            self.s.multiplier[g] = m
            self.log(g, "inflation", multiplier=int(m))

    def prices(self, g: int) -> dict[str, int]:
        """COE-20.2: the price list under the multiplier in force."""
        m = int(self.s.multiplier[g])
        found = self.price_lists.get(m)
        if found is None:
            found = self.price_lists[m] = price_list(self.economy, m)
        return found

    # ------------------------------------------------------------------ buying
    def unit_supply(self, g: int, p: int) -> list[int]:
        """COE-2.3 / COE-20.3: land units of the player's own colour not on the board, by type."""
        s = self.s
        standing, aboard = s.land[g, p].sum(axis=0).tolist(), s.gal_cargo[g, p].sum(axis=0).tolist()
        return [limit - x - y for limit, x, y in zip(self.t.limits, standing, aboard)]

    def home_open(self, g: int, p: int) -> bool:
        """COE-22.8 / COE-A28: new units need the Home Province."""
        return not self.opt.placement_requires_home_control or self.s.control[g, self.s.home[g, p]] == p

    def docks(self, g: int, p: int) -> list[int]:
        """COE-22.3: the Home Province's coast; a landlocked home (Mesopotamia) its coastal
        neighbours that the player controls (any of them without COE-A28)."""
        s = self.s
        home = int(s.home[g, p])
        found = self.t.galley_docks[home]
        if found == (home,):
            return [home] if self.home_open(g, p) else []
        strict = self.opt.placement_requires_home_control
        return [q for q in found if s.control[g, q] == p or not strict]

    def buy_candidates(self, g: int, p: int) -> Candidates:
        """COE-20 / COE-22: every purchase this phase could allow, before money and earlier
        purchases of the phase are counted, in runs of one item each (so an item out of reach
        is skipped whole), what is left of each supply and pool, and the provinces with a City
        before the phase."""
        s, t = self.s, self.t
        out: list[tuple[str, list[Buy]]] = []
        cities, forts, roads = s.city[g].tolist(), s.fort[g].tolist(), s.road[g].tolist()
        left = {"galley": sum(1 for x in s.gal_loc[g, p].tolist() if x < 0), "city": t.pools["city"] - sum(cities),
                "fortification": t.pools["fortification"] - sum(forts), "road": t.pools["road"] - sum(roads)}
        if self.home_open(g, p):
            supply = self.unit_supply(g, p)
            home = int(s.home[g, p])
            for item, k in UNIT_INDEX.items():
                left[item] = supply[k]
                out.append((item, [Buy(item, home)]))
        out.append(("galley", [Buy("galley", q) for q in self.docks(g, p)]))
        mine = np.flatnonzero(s.control[g] == p).tolist()
        out.append(("city", [Buy("city", q) for q in mine if not cities[q]]))
        out.append(("fortification", [Buy("fortification", q) for q in mine if not forts[q]]))
        owned = set(mine)
        out.append(("road", [Buy("road", e) for q in mine for e in t.edges_at[q]           # COE-22.6 / COE-A33
                             if t.edges[e][0] == q and t.edges[e][1] in owned and not roads[e]]))
        return out, left, {q for q, c in enumerate(cities) if c}

    def buy_options(self, g: int, p: int, bought: list[Buy], candidates: Candidates | None = None) -> list[Buy]:
        """COE-20 / COE-22 / COE-A39: every affordable, available and placeable purchase (a
        Fortification needs a City, a road a City at both ends, counting those bought now)."""
        runs, left, cities = candidates or self.buy_candidates(g, p)
        price = self.prices(g)
        cash = int(self.s.treasury[g, p])
        count = dict.fromkeys(ASSETS, 0)
        taken: set[tuple[str, int]] = set()
        for b in bought:
            count[b.item] += 1
            taken.add((b.item, b.where))
        open_items = {item for item, n in count.items() if price[item] <= cash and n < left.get(item, 0)}
        if not open_items:
            return []
        built = cities.union(b.where for b in bought if b.item == "city")
        edges = self.t.edges
        out = []
        for item, run in runs:
            if item not in open_items:
                continue
            if item not in BUILDINGS:
                out += run
            elif item == "city":
                out += [b for b in run if ("city", b.where) not in taken]
            elif item == "fortification":
                out += [b for b in run if b.where in built and ("fortification", b.where) not in taken]
            else:
                out += [b for b in run if edges[b.where][0] in built and edges[b.where][1] in built
                        and ("road", b.where) not in taken]
        return out

    def buying_phase(self, g: int, p: int) -> list[Buy]:
        """COE-20: purchases one at a time until the player stops; interventions filter the
        choices (ban) or take a forced one first (sim.core.interventions). A phase that buys
        nothing logs the kinds of purchase it was offered (none: nothing could be bought), so
        the player audit tells a treasury left idle from one with nothing to buy."""
        s = self.s
        iv = self.interventions[g][p]
        player = self.players[g][p]
        bought: list[Buy] = []
        candidates = self.buy_candidates(g, p)
        options: list[Buy] = []
        for _ in range(MAX_BUYS):
            options = iv.allowed(self.buy_options(g, p, bought, candidates), acquires)
            if not options:
                break
            forced = [] if iv.force is None else iv.forced(
                options, acquires, [a for a, x in zip(ASSETS, s.acquired[g, p].tolist()) if x])
            choice = forced[0] if forced else player.buy(options, bought)
            if choice is None:
                break
            self.require(choice in options, "purchase {} is not allowed now", choice)
            cost = self.prices(g)[choice.item]
            s.treasury[g, p] -= cost
            s.stats["talents_spent"][g, p] += cost
            if choice.item in UNIT_INDEX or choice.item == "galley":
                s.stats["units_bought"][g, p] += 1
            s.acquired[g, p, ASSET_INDEX[choice.item]] = True
            bought.append(choice)
            self.log(g, "buy", seat=p, item=choice.item, where=self.where_name(choice), price=cost,
                     treasury=int(s.treasury[g, p]))
        if not bought and self.logs is not None:
            self.log(g, "no_purchase", seat=p, offered=sorted({b.item for b in options}),
                     treasury=int(s.treasury[g, p]))
        self.note_treasury(g, p)
        return bought

    def where_name(self, b: Buy) -> str:
        if b.item == "road":
            a, c = self.t.edges[b.where]
            return f"{self.t.names[a]}-{self.t.names[c]}"
        return self.t.names[b.where]

    # ------------------------------------------------------------------ placing
    def placing_phase(self, g: int, p: int, bought: list[Buy]) -> None:
        """COE-22: land units in the Home Province, galleys on its coast, Cities, Fortifications
        and roads where bought; a new City raises the income at once (COE-22.7)."""
        s = self.s
        for b in bought:
            if b.item in UNIT_INDEX:
                s.land[g, p, b.where, UNIT_INDEX[b.item]] += 1
            elif b.item == "galley":
                k = int((s.gal_loc[g, p] < 0).argmax())
                s.gal_loc[g, p, k], s.gal_mp[g, p, k] = b.where, 0
            elif b.item == "city":
                s.city[g, b.where] = True
                self.note_income(g, p)
            elif b.item == "fortification":
                s.fort[g, b.where] = True
            else:
                s.road[g, b.where] = True
        if bought:
            self.log(g, "place", seat=p, pieces=[[b.item, self.where_name(b)] for b in bought])

    # ------------------------------------------------------------------ ransom
    def ransom_options(self, g: int, p: int) -> list[tuple[int, int]]:
        """COE-23 / COE-A26: the player's own captive Generals and their captors."""
        s = self.s
        if not self.home_open(g, p):
            return []
        return [(p * LEADERS + i, int(s.ldr_holder[g, p, i])) for i in range(1, LEADERS)
                if s.ldr_state[g, p, i] == CAPTIVE and s.alive[g, s.ldr_holder[g, p, i]]]

    def swap_options(self, g: int, p: int, captors: set[int]) -> dict[int, list[int]]:
        """COE-23.1: per captor, the captor's Generals the player holds, which he may release in
        exchange; a released General goes to his owner's Home Province (COE-23.2), so only a captor
        who may place there is offered one (COE-A28)."""
        s = self.s
        return {q: [q * LEADERS + i for i in range(1, LEADERS)
                    if s.ldr_state[g, q, i] == CAPTIVE and s.ldr_holder[g, q, i] == p]
                for q in sorted(captors) if self.home_open(g, q)}

    def ransom_phase(self, g: int, p: int) -> None:
        """COE-23: one offer per captive General, in talents and / or a General of the captor's
        the player holds (COE-23.1; promises bind nobody, COE-23.3, so they change nothing); the
        captor accepts or refuses; released Generals are placed in their Home Provinces (COE-23.2)."""
        s = self.s
        options = self.ransom_options(g, p)
        swaps = {q: held for q, held in self.swap_options(g, p, {h for _, h in options}).items() if held}
        while options and (s.treasury[g, p] > 0 or any(swaps.get(h) for _, h in options)):
            offer = self.players[g][p].ransom(options, int(s.treasury[g, p]), swaps)
            if offer is None:
                return
            found = [h for ld, h in options if ld == offer.leader]
            self.require(isinstance(offer, Ransom) and bool(found) and 0 <= offer.talents <= s.treasury[g, p]
                         and (offer.swap == -1 or offer.swap in swaps.get(found[0], ()))
                         and (offer.talents > 0 or offer.swap != -1), "ransom offer {} is not allowed", offer)
            holder = found[0]
            options = [o for o in options if o[0] != offer.leader]
            accepted = bool(self.players[g][holder].accept_ransom(offer.leader, offer.talents, p, offer.swap))
            self.log(g, "ransom", seat=p, leader=offer.leader, captor=holder, talents=offer.talents, accepted=accepted,
                     **({"swap": offer.swap} if offer.swap != -1 else {}))
            if accepted:
                s.treasury[g, p] -= offer.talents
                s.treasury[g, holder] += offer.talents
                self.release(g, offer.leader)
                if offer.swap != -1:
                    self.release(g, offer.swap)
                    swaps[holder] = [x for x in swaps[holder] if x != offer.swap]
                self.note_treasury(g, holder)

    def release(self, g: int, leader: int) -> None:
        """COE-23.2: a ransomed or exchanged General is placed in his owner's Home Province."""
        s = self.s
        q, i = divmod(leader, LEADERS)
        s.ldr_state[g, q, i], s.ldr_holder[g, q, i] = FREE, -1
        s.ldr_loc[g, q, i], s.ldr_ship[g, q, i], s.ldr_mp[g, q, i] = int(s.home[g, q]), -1, 0
