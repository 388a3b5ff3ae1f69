"""AOD-3 setup and the optional starting-order auction (AOD-16), as a part of the Engine."""

from __future__ import annotations

import math

from sim.core.random import stream
from sim.discovery.actions import Bid
from sim.discovery.components import UNIT_TYPES
from sim.discovery.state import CAPTAIN, COLONIST, MERCHANT, MISSIONARY, SOLDIER, new_game

SPECIALISTS = (CAPTAIN, MERCHANT, MISSIONARY, SOLDIER)


class Setup:
    """AOD-3.1 - AOD-3.12 for every game of the batch."""

    def setup(self) -> None:
        c = self.comp
        for g, (gi, seating) in enumerate(zip(self.game_indices, self.seatings)):
            s = new_game(seating.players, len(c.regions), len(c.goods.names))
            self.s.games.append(s)
            self.setup_game(g, stream(self.seed, gi, "setup"))

    def setup_game(self, g: int, rng) -> None:
        c, s, t = self.comp, self.s.games[g], self.t
        game = self.rules["game"]
        n = s.n
        s.round = 1
        for p in range(n):                                   # AOD-3.1 / AOD-3.2 / AOD-18.13
            s.money[p] = int(game["starting_money"])
            self.from_supply(s, p, COLONIST, int(self.rules["boxes"]["colonists_per_round"]))
            s.out[p][COLONIST] += 1                           # the Turn Order marker
        s.order = [int(x) for x in rng.permutation(n)]
        s.discovered = [r.discovered for r in c.regions]     # AOD-3.4 / AOD-3.5
        tokens = [int(x) for x in rng.permutation(len(c.tokens))]
        for r, region in enumerate(c.regions):
            if not region.discovered:
                s.token_at[r] = tokens.pop(0)
        s.out_tokens = tokens
        s.shown = [False] * len(c.tokens)
        stock = list(c.goods.stock)                          # AOD-3.6: one good on every region
        for r in range(len(c.regions)):
            stock[t.region_goods[r]] -= 1
        for age in (1, 2, 3):                                # AOD-3.7
            tiles = [k for k, a in enumerate(t.tile_age) if a == age]
            s.stacks.append([tiles[int(i)] for i in rng.permutation(len(tiles))])
        s.display = self.draw_tiles(s, 0, int(self.rules["boxes"]["display_buildings"]))
        pool = [k for k, count in enumerate(stock) for _ in range(count)]     # AOD-3.8
        s.goods_pool = [pool[int(i)] for i in rng.permutation(len(pool))]
        shown = int(self.rules["boxes"]["display_goods"])
        s.goods_display, s.goods_pool = s.goods_pool[:shown], s.goods_pool[shown:]
        s.ship_in_box, s.ships_left = c.goods.ships > 0, max(c.goods.ships - 1, 0)   # AOD-3.9
        s.deck = [int(x) for x in rng.permutation(len(c.cards))]                     # AOD-3.12
        auction = self.opts["start_order"] == "auction"
        if auction:
            self.auction(g, rng)
        if not auction or self.opts["auction_compensation"]:                      # AOD-3.3 / AOD-16.8
            for pos, p in enumerate(s.order):
                s.money[p] += pos * int(self.rules["turn_order_money"])
        for pos, p in enumerate(s.order):
            s.stats["start_position"][p] = pos + 1
        for p in range(n):                                   # interventions: grants at setup
            grants = self.interventions[g][p].grants
            s.money[p] += grants.get("money", 0)
            for unit, name in enumerate(UNIT_TYPES):
                if grants.get(name):
                    self.from_supply(s, p, unit, grants[name])
        self.log(g, "setup", order=list(s.order), money=list(s.money),
                 tokens={c.regions[r].id: c.tokens[k].id for r, k in enumerate(s.token_at) if k >= 0},
                 buildings=[self.tile_key(k) for k in s.display],
                 goods=[c.goods.names[k] for k in s.goods_display])
        self.step(g, "setup")

    def from_supply(self, s, p: int, unit: int, count: int = 1) -> None:
        """AOD-0.5: units taken from the supply (unlimited, AOD-18.34, or see `supply`) into the pool."""
        count = self.supply(s, p, unit, count)
        s.pool[p][unit] += count
        s.out[p][unit] += count

    def supply(self, s, p: int, unit: int, count: int) -> int:
        """How many of `count` new units the supply gives seat p: all (AOD-18.34: figures are
        unlimited), or with `options.limited_supply` no more colonist figures out of the supply
        than a colour has (`rules.supply.colonists`, 30: AOD-2.2); specialists stay unlimited
        (AOD-2.3)."""
        if unit != COLONIST or not self.opts["limited_supply"]:
            return count
        return max(0, min(count, int(self.rules["supply"]["colonists"]) - s.out[p][COLONIST]))

    def draw_tiles(self, s, age: int, count: int) -> list[int]:
        """The top `count` tiles of an age's stack (fewer when it runs out, AOD-11.5)."""
        drawn, s.stacks[age] = s.stacks[age][:count], s.stacks[age][count:]
        return drawn

    def tile_key(self, tile: int) -> str:
        """The building (asset key) of a tile."""
        return self.t.building_keys[self.t.tile_building[tile]]

    # ---- AOD-16 the auction
    def auction(self, g: int, rng) -> None:
        """AOD-16.1 - AOD-16.7: bid in turn from a random first bidder (ASSUMED for the youngest
        player) until one bidder is left; passing is final. The passers take the last positions
        in passing order; the winner pays the bid and discovers the Caribbean's token (drawn
        from the 8 out of play), the last to pass pays half his last bid rounded up and takes a
        free specialist if it was at least the specialist bid."""
        s, rules = self.s.games[g], self.rules["auction"]
        start = int(rng.integers(s.n))
        active = [(start + k) % s.n for k in range(s.n)]
        last_bid, high, passed = [0] * s.n, 0, []
        while len(active) > 1:
            for p in list(active):
                if len(active) == 1:
                    break
                low = max(int(rules["min_bid"]), high + 1)
                choices = [None, *(Bid(a) for a in range(low, s.money[p] + 1))]
                bid = self.ask(g, p, "bid", choices, high)
                if bid is None:
                    active.remove(p)
                    passed.append(p)
                else:
                    high = last_bid[p] = bid.amount
                self.log(g, "bid", seat=p, amount=None if bid is None else bid.amount)
        winner = active[0]
        s.order = [winner, *reversed(passed)]
        second = passed[-1]
        s.money[winner] -= last_bid[winner]
        s.money[second] -= math.ceil(last_bid[second] / 2)
        if last_bid[second] >= int(rules["specialist_bid"]):
            unit = self.ask(g, second, "auction_specialist", list(SPECIALISTS))
            self.from_supply(s, second, unit)
        token = s.out_tokens.pop(int(rng.integers(len(s.out_tokens))))
        s.shown[token] = True
        s.money[winner] += self.comp.tokens[token].loot
        s.discoveries[winner].append(("token", token))
        caribbean = next(r for r, region in enumerate(self.comp.regions) if region.discovered)
        placed = self.ask(g, winner, "caribbean_colonist", [True, False])
        if placed:
            s.out[winner][COLONIST] += 1
            s.world[caribbean][winner][COLONIST] += 1
        self.log(g, "auction", order=list(s.order), bids=list(last_bid), token=self.comp.tokens[token].id,
                 colonist=placed)
