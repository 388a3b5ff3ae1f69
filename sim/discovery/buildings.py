"""AOD-14 capital buildings, as a part of the Engine: the purchase (AOD-6.5), the immediate
effects, the income-phase bonuses of step C (AOD-11.2) and the recurring benefits of step D
(AOD-11.3). Interventions filter the purchase choices (sim.core.interventions)."""

from __future__ import annotations

import itertools

from sim.discovery.actions import Move
from sim.discovery.state import COLONIST, SOLDIER, UNITS

# AOD-11.3 step D, per tile owned (two Settlers give two colonists, AOD-14.4.2). The amounts and
# unit types are data (`amount`, `unit` of data/buildings.toml, Components.amount / .gives).
STEP_D_MONEY = ("trading_post", "taxation", "factory")
STEP_D_POOL = ("settlers", "monastery", "trade_routes", "training_camp", "shipyard", "market", "military_academy",
               "fort")
STEP_D_DISCOVERY_BOX = ("conquistador", "navigator")                         # AOD-18.17
STEP_D_DOCK = ("indentured_servitude", "colonization_laws")                  # spaces X and Y
UNIT_BUILDINGS = (*STEP_D_POOL, *STEP_D_DISCOVERY_BOX, *STEP_D_DOCK)


class Buildings:
    """Buying and using capital buildings."""

    def acquired(self, g: int, p: int) -> set[str]:
        """The buildings (asset keys) seat p owns."""
        return self.s.games[g].held[p]

    def building_cost(self, s) -> int:
        """AOD-6.5.1: $10 / $14 / $20 in Ages I / II / III."""
        return self.comp.building_cost[self.age(s) - 1]

    def age(self, s) -> int:
        """AOD-4.1: the age of the current round (rounds 1-3, 4-6, 7-8)."""
        scoring = self.rules["game"]["scoring_rounds"]
        return 1 + sum(s.round > r for r in scoring[:-1])

    def offer_building(self, g: int, p: int) -> None:
        """AOD-6.5.1 / AOD-6.5.2: one optional purchase; the immediate effects at once."""
        s = self.s.games[g]
        cost = self.building_cost(s)
        if s.money[p] < cost or not s.display:
            return
        tiles, seen = [], set()
        for k in s.display:                                   # one choice per building (copies alike)
            if self.t.tile_building[k] not in seen:
                seen.add(self.t.tile_building[k])
                tiles.append(k)
        choices = self.forced_or(g, p, [None, *tiles], lambda k: None if k is None else self.tile_key(k))
        if len(choices) > 1 and self.saving_for_force(g, p):
            choices = [None]
        tile = self.ask(g, p, "buy_building", choices)
        if tile is None:
            self.log(g, "buy", seat=p, building=None, cost=0)
            return
        s.money[p] -= cost
        s.display.remove(tile)
        s.owned[p].append(tile)
        key = self.tile_key(tile)
        s.held[p].add(key)
        s.stats["buildings_bought"][p] += 1
        self.log(g, "buy", seat=p, building=key, cost=cost)
        self.immediate(g, p, key)
        if key in UNIT_BUILDINGS and self.opts["building_units_at"] == "purchase":
            self.give_unit(s, p, key)
            s.early_units[p].add(tile)

    def saving_for_force(self, g: int, p: int) -> bool:
        """Whether a seat forced to buy a building not displayed now lets this purchase go
        (`options.force_saving` = "reserve"), so that its first chance to buy the forced one is
        not lost for money: in the forced building's age it buys nothing else; in an earlier age
        it keeps that building's price. With "none" it saves nothing."""
        s = self.s.games[g]
        force = self.interventions[g][p].force
        if force is None or force in s.held[p] or self.opts["force_saving"] == "none":
            return False
        age, now = next(b.age for b in self.comp.buildings if b.id == force), self.age(s)
        if age == now:
            return True
        return age > now and s.money[p] - self.building_cost(s) < self.comp.building_cost[age - 1]

    def immediate(self, g: int, p: int, key: str) -> None:
        """AOD-14 effects marked "immediately": Conquest of the Inca Empire, New World Cartography
        (AOD-18.19, AOD-18.20), Indian Allies, Overpopulation (AOD-18.21)."""
        s = self.s.games[g]
        if key == "conquest_of_the_inca_empire":
            s.money[p] += self.comp.amount[key]
        elif key == "new_world_cartography":
            hidden = [r for r, d in enumerate(s.discovered) if not d]
            if hidden:
                r = self.ask(g, p, "building_region", hidden, key)
                self.log(g, "free_discovery", seat=p, region=self.comp.regions[r].id,
                         item=self.comp.tokens[s.token_at[r]].id)
                self.discover(g, p, "token", s.token_at[r], r, 0)
            elif s.deck and self.opts["cartography_when_map_done"] == "draw_card":
                card = s.deck.pop(0)
                self.log(g, "free_discovery", seat=p, region="cards", item=self.comp.cards[card].id)
                self.discover(g, p, "card", card, -1, 0)
        elif key == "indian_allies":
            kind = COLONIST if self.opts["indian_allies_needs_colonist"] else None
            colonies = [r for r, here in enumerate(s.world)
                        if (here[p][kind] if kind is not None else sum(here[p])) > 0]
            if colonies:
                self.arrive(g, p, self.comp.gives[key], self.ask(g, p, "building_region", colonies, key),
                            count=self.comp.amount[key])
        elif key == "overpopulation":
            regions = [r for r, d in enumerate(s.discovered) if d]
            if self.opts["overpopulation_single_region"]:
                self.arrive(g, p, self.comp.gives[key], self.ask(g, p, "building_region", regions, key),
                            count=self.comp.amount[key])
            else:
                for _ in range(self.comp.amount[key]):
                    self.arrive(g, p, self.comp.gives[key], self.ask(g, p, "building_region", regions, key))

    # ---- AOD-11.2 step C bonuses
    def income_bonuses(self, g: int) -> list[int]:
        """Mint (+$2 per gold and silver good, real tokens only, AOD-18.43), Distillery (+$3 per
        sugar); Piracy is paid by the others afterwards (`piracy`)."""
        s, t = self.s.games[g], self.t
        bonus = [0] * s.n
        for p in range(s.n):
            if "mint" in s.held[p]:
                bonus[p] += self.comp.amount["mint"] * sum(s.goods[p][k] for k in t.gold_silver)
            if "distillery" in s.held[p] and t.sugar >= 0:
                bonus[p] += self.comp.amount["distillery"] * s.goods[p][t.sugar]
        return bonus

    def piracy(self, g: int) -> None:
        """AOD-14.2 / AOD-18.26: every other player pays the Piracy owner $1 per ship he owns
        (option: per ship the owner owns), as far as his money goes (money never goes negative;
        option `piracy_short_payment=nothing`: one who cannot pay in full pays nothing); the
        owner does not pay himself."""
        s = self.s.games[g]
        by_owner = self.opts["piracy_counts"] == "owner_ships"
        all_or_nothing = self.opts["piracy_short_payment"] == "nothing"
        for owner in range(s.n):
            if "piracy" not in s.held[owner]:
                continue
            for q in range(s.n):
                if q != owner:
                    due = self.comp.amount["piracy"] * s.ships[owner if by_owner else q]
                    paid = 0 if all_or_nothing and due > s.money[q] else min(due, s.money[q])
                    s.money[q] -= paid
                    s.money[owner] += paid
                    if paid:
                        self.log(g, "piracy", seat=q, owner=owner, money=paid)

    # ---- AOD-11.3 step D
    def building_benefits(self, g: int) -> None:
        """Step D: recurring money and units (to the pool, the Discovery box or dock spaces X/Y,
        AOD-18.17; a building whose first unit came at its purchase this round gives none now),
        the East India Company's good, then the Stables and Migration moves."""
        s = self.s.games[g]
        for p in s.order:
            for tile in s.owned[p]:
                key = self.tile_key(tile)
                if key in STEP_D_MONEY:
                    s.money[p] += self.comp.amount[key]
                elif key in UNIT_BUILDINGS:
                    if tile not in s.early_units[p]:
                        self.give_unit(s, p, key)
                elif key == "east_india_company" and s.goods_pool:
                    good = s.goods_pool.pop(int(self.draws(g).integers(len(s.goods_pool))))
                    s.goods[p][good] += 1
                    self.log(g, "east_india", seat=p, good=self.comp.goods.names[good])
            s.early_units[p].clear()
        for p in s.order:
            for key, moves in (("stables", self.stables_moves), ("migration", self.migration_moves)):
                if key in s.held[p]:
                    choices = moves(g, p)
                    move = self.ask(g, p, "move", choices, key) if len(choices) > 1 else None
                    if move is None:
                        self.log(g, "move", seat=p, building=key, units=None)
                    else:
                        self.move_units(g, p, move, key)

    def give_unit(self, s, p: int, key: str) -> None:
        """A unit building's unit (AOD-11.3): into the pool for the next round, straight into the
        Discovery box (Conquistador, Navigator) or onto dock space X / Y."""
        unit = self.comp.gives[key]
        if key in STEP_D_POOL:
            self.from_supply(s, p, unit)
            return
        if not self.supply(s, p, unit, 1):
            return
        if key in STEP_D_DISCOVERY_BOX:
            s.discovery_box[p][unit] += 1
        else:
            (s.dock_x if key == STEP_D_DOCK[0] else s.dock_y).append((p, unit))
        s.out[p][unit] += 1

    def stables_moves(self, g: int, p: int) -> list[Move | None]:
        """AOD-14.2 / AOD-18.23: one own soldier to an adjacent (discovered, option) region."""
        s = self.s.games[g]
        one = tuple(1 if u == SOLDIER else 0 for u in range(UNITS))
        return [None, *(Move(a, b, one) for a, here in enumerate(s.world) if here[p][SOLDIER]
                        for b in self.t.adjacent[a] if s.discovered[b] or not self.opts["stables_needs_discovered"])]

    def migration_moves(self, g: int, p: int) -> list[Move | None]:
        """AOD-14.3 / AOD-18.22: up to 2 own units (any type, option: colonists only) from one
        region to one other discovered region."""
        s = self.s.games[g]
        kinds = range(UNITS) if self.opts["migration_moves_specialists"] else (COLONIST,)
        out: list[Move | None] = [None]
        for a, here in enumerate(s.world):
            have = here[p]
            groups = set()
            for size in range(1, self.comp.amount["migration"] + 1):
                for combo in itertools.combinations_with_replacement(kinds, size):
                    units = tuple(combo.count(u) for u in range(UNITS))
                    if all(units[u] <= have[u] for u in range(UNITS)):
                        groups.add(units)
            out += [Move(a, b, units) for units in sorted(groups) for b, d in enumerate(s.discovered)
                    if d and b != a]
        return out

    def move_units(self, g: int, p: int, move: Move, key: str) -> None:
        s = self.s.games[g]
        for u in range(UNITS):
            s.world[move.source][p][u] -= move.units[u]
            s.world[move.target][p][u] += move.units[u]
        self.log(g, "move", seat=p, building=key, source=self.comp.regions[move.source].id,
                 target=self.comp.regions[move.target].id, units=list(move.units))
        self.first_to_three(g, move.target)
