"""Scripted strategies (AOD-22 advice, AOD-21 decisions), one class driven by a parameter table
of `data/strategies.toml` (explorer, colonist, merchant, builder, general).

Every decision scores its legal choices in VP equivalents (`money_vp` per dollar) and takes the
best: placements by box weights plus what the unit type adds there (AOD-7.1); dock destinations
and immediate-building regions by the colony VP they add over the scorings left (the scoring
kernel); goods by the set income they add (the trade kernel); buildings by their recurring
benefit x rounds left plus their VP; expeditions by the exact odds of the discovery kernel over
what the seat knows; conflicts by the colony VP they swing, victims soldiers first.
"""

from __future__ import annotations

import functools
import operator
from collections.abc import Callable
from typing import Any, ClassVar

import numpy as np

from sim.discovery import discovery, scoring, trade
from sim.discovery.actions import Battle, Expedition, War
from sim.discovery.buildings import STEP_D_DISCOVERY_BOX, STEP_D_DOCK, STEP_D_MONEY, STEP_D_POOL
from sim.discovery.components import UNIT_TYPES, ColonyRules
from sim.discovery.players import Player
from sim.discovery.state import (
    BOXES,
    CAPITAL,
    CARDS,
    DISCOVERY,
    DOCK,
    INITIATIVE,
    SHIPPING,
    SOLDIER,
    TRADE,
    TRAIN,
    TRAIN_ANY,
    TRAINED,
    UNITS,
    WARFARE,
)
from sim.discovery.warfare import TARGETS

BOX_WEIGHTS = {INITIATIVE: "w_initiative", DOCK: "w_dock", TRADE: "w_goods", SHIPPING: "w_ship",
               CAPITAL: "w_build", DISCOVERY: "w_discovery", TRAIN_ANY: "w_train_any", WARFARE: "w_war"}
FIT = {1: (SHIPPING, DISCOVERY), 2: (DOCK, SHIPPING), 3: (DOCK,), 4: (DOCK, DISCOVERY)}  # where a specialist's skill counts
VICTIM_ORDER = tuple(UNIT_TYPES.index(n) for n in TARGETS["soldiers-first"])
IMMEDIATE = {"conquest_of_the_inca_empire": "money", "new_world_cartography": "vp", "indian_allies": "units",
             "overpopulation": "units"}   # what an immediate effect gives: its data amount of money or units
CARTOGRAPHY_VP = 5                        # the expected VP of a free discovery, a heuristic
FINAL_BASIS = ("commerce", "population", "navy", "power", "prosperity", "glory", "wealth")


@functools.lru_cache(maxsize=1 << 16)
def colony_gain(here: tuple[int, ...], seat: int, count: int, rules: ColonyRules) -> float:
    """The colony VP (one scoring, the scoring kernel) a seat gains in a region with `here` units
    per seat when `count` more of its own units arrive (negative: leave)."""
    after = list(here)
    after[seat] += count
    return float(scoring.region_vp(tuple(after), rules)[seat] - scoring.region_vp(here, rules)[seat])


class ScriptedPlayer(Player):
    """A strategy = a parameter table (`params`)."""

    def __init__(self, engine: Any, g: int, seat: int, rng, params: dict) -> None:
        super().__init__(engine, g, seat, rng)
        self.k = {key: (np.asarray(v, dtype=float) if isinstance(v, list) else v) for key, v in params.items()}
        self.comp, self.rules = engine.comp, engine.rules
        self.building_of = engine.tile_key
        self.age_of = engine.age
        self.costs = engine.comp.building_cost
        self.rounds = int(engine.rules["game"]["rounds"])
        self.scorings = list(engine.rules["game"]["scoring_rounds"])
        self._game = None
        self._noise: list[float] = []
        self._pos = 0
        self._values: dict[tuple[str, int], float] = {}
        self._odds: dict[tuple, tuple[float, float]] = {}
        self._best: dict[tuple, float] = {}
        self._war_round: tuple[int, bool] = (-1, False)
        self._left: tuple[int, int] = (-1, 0)
        self._cost: tuple[int, int] = (-1, 0)
        self._capital_asked: tuple[int, int, bool] = (-1, 0, False)
        self.weights = [float(self.k["train_weights"][b - TRAIN[0]]) if b in TRAIN and b != TRAIN_ANY
                        else float(self.k[BOX_WEIGHTS[b]]) for b in range(len(BOXES))]
        self.bonus = [[self.unit_bonus(u, b) for b in range(len(BOXES))] for u in range(UNITS)]
        units = [engine.comp.units[name] for name in UNIT_TYPES]
        self.shipping, self.strength = [u.shipping for u in units], [u.discovery for u in units]

    @property
    def s(self):
        if self._game is None:
            self._game = self.view.game(self.g)
        return self._game

    def jitter(self) -> float:
        """A uniform draw in [0, noise) from the seat's stream, drawn 256 at a time."""
        if self._pos >= len(self._noise):
            self._refill()
        self._pos += 1
        return self._noise[self._pos - 1]

    def jitters(self, n: int) -> list[float]:
        """The next n draws of `jitter`, in one call."""
        out: list[float] = []
        while len(out) < n:
            if self._pos >= len(self._noise):
                self._refill()
            take = min(n - len(out), len(self._noise) - self._pos)
            out += self._noise[self._pos:self._pos + take]
            self._pos += take
        return out

    def _refill(self) -> None:
        self._noise, self._pos = (self.rng.random(256) * self.k["noise"]).tolist(), 0

    def scorings_left(self) -> int:
        s = self.s
        if self._left[0] != s.round:
            self._left = (s.round, sum(r >= s.round for r in self.scorings))
        return self._left[1]

    def rounds_left(self) -> int:
        return self.rounds - self.s.round

    # ---- D1 auction
    def bid(self, choices, high):
        best = [c for c in choices if c is not None and c.amount <= self.k["max_bid"]]
        return best[0] if best else None

    def auction_specialist(self, choices):
        return TRAINED[int(np.argmax(self.k["train_weights"]))]

    def caribbean_colonist(self, choices):
        return True

    # ---- D2 placement
    def place(self, choices):
        """The first choice of the best box value + jitter + the unit's bonus there; each box's
        value and jitter are drawn once per decision, in the order the boxes first appear."""
        values = dict.fromkeys(c.box for c in choices)
        weights, situation = self.weights, self._SITUATION
        for box, noise in zip(values, self.jitters(len(values))):
            check = situation.get(box)
            values[box] = (weights[box] if check is None else check(self, weights[box])) + noise
        bonus = self.bonus
        scores = [values[c.box] + bonus[c.unit][c.box] for c in choices]
        return choices[scores.index(max(scores))]

    def _initiative(self, value: float) -> float:
        return value + self.k["money_vp"] * (len(self.s.boxes[INITIATIVE]) + 1)

    def _trade(self, value: float) -> float:
        s = self.s
        return value if len(s.boxes[TRADE]) < len(s.goods_display) else -5.0

    def _shipping(self, value: float) -> float:
        s, p = self.s, self.p
        if not s.ship_in_box:
            return -5.0
        strength = [0] * s.n
        for q, u in s.boxes[SHIPPING]:
            strength[q] += self.shipping[u]
        mine = strength[p]
        strength[p] = 0
        return value if mine <= max(strength) else value * 0.2

    def _capital(self, value: float) -> float:
        """Only with money for one more purchase and a displayed building worth its price (money
        and the display do not change during placement: asked once per own unit there)."""
        s, p, k = self.s, self.p, self.k
        mine = sum(q == p for q, _ in s.boxes[CAPITAL])
        if self._capital_asked[:2] != (s.round, mine):
            cost = self.cost()
            worth = (s.money[p] >= cost * (mine + 1) and bool(s.display)
                     and self.best_building(tuple(s.display)) >= cost * k["money_vp"] * k["buy_margin"])
            self._capital_asked = (s.round, mine, worth)
        return value if self._capital_asked[2] else -5.0

    def cost(self) -> int:
        """The price of a building in the current age (AOD-6.5.1), asked once a round."""
        s = self.s
        if self._cost[0] != s.round:
            self._cost = (s.round, self.costs[self.age_of(s) - 1])
        return self._cost[1]

    def _discovery(self, value: float) -> float:
        s = self.s
        if all(s.discovered) and not self.view.deck_cards(self.g):
            return -5.0
        strength = sum(map(operator.mul, self.strength, s.discovery_box[self.p]))
        return value if strength < self.k["discovery_strength"] else value * 0.2

    def _train_any(self, value: float) -> float:
        return value if self.s.money[self.p] >= 5 + self.k["money_reserve"] else -5.0

    def _warfare(self, value: float) -> float:
        """Only in a scoring round with own soldiers in the New World (which placement does not
        change, so it is asked once a round)."""
        s = self.s
        if self._war_round[0] != s.round:
            p = self.p
            self._war_round = (s.round, s.round in self.scorings and any(r[p][SOLDIER] for r in s.world))
        return value if self._war_round[1] else -5.0

    _SITUATION: ClassVar[dict[int, Callable[[ScriptedPlayer, float], float]]] = {
        INITIATIVE: _initiative, TRADE: _trade, SHIPPING: _shipping, CAPITAL: _capital, DISCOVERY: _discovery,
        TRAIN_ANY: _train_any, WARFARE: _warfare}

    def unit_bonus(self, unit: int, box: int) -> float:
        """What a unit type adds in a box (AOD-7.1), or the cost of wasting a specialist there."""
        spec, k = self.comp.units[UNIT_TYPES[unit]], self.k
        if unit == 0:
            return 0.0
        if box not in FIT[unit]:
            return -k["specialist_waste"]
        if box == DOCK:
            return (k["money_vp"] * spec.arrival_money + k["unit_vp"] * spec.arrival_colonists
                    + (k["soldier_dock"] if spec.fights else 0.0))
        if box == SHIPPING:
            return 0.5 * (spec.shipping - 1)
        return 0.5 * (spec.discovery - 1) + (0.5 if spec.fights else 0.0)

    # ---- D3 dock, D6 regions
    def region_gain(self, region: int, count: int = 1, seat: int | None = None) -> float:
        """Colony VP added at the scorings left by `count` more own units in a region (the scoring
        kernel), plus the region's good when they make 3 first."""
        return self.region_gains((region,), count, seat)[0]

    def region_gains(self, regions, count: int = 1, seat: int | None = None) -> list[float]:
        """`region_gain` of each region, the rules and the scorings left read once."""
        s, p, rules, k = self.s, self.p if seat is None else seat, self.comp.colonies, self.k
        scale, threshold, world, goods = max(self.scorings_left(), 1), rules.threshold, s.world, s.region_good
        gains = []
        for region in regions:
            here = tuple(map(sum, world[region]))
            gain = colony_gain(here, p, count, rules) * scale
            if goods[region] and here[p] < threshold <= here[p] + count and max(here) < threshold:
                gain += k["good_vp"]
            if here[p] == 0:
                gain += k["spread"]
            gains.append(gain)
        return gains

    def best_of(self, choices, values: list[float]):
        """The first choice of the highest value + jitter (one draw per choice, in order)."""
        scores = [v + noise for v, noise in zip(values, self.jitters(len(values)))]
        return choices[scores.index(max(scores))]

    def dock_destination(self, choices, unit):
        return self.best_of(choices, self.region_gains(choices))

    def building_region(self, choices, building):
        if building == "new_world_cartography":
            return max(choices, key=lambda r: self.token_value(r, 0, 0)[1] + self.claim_value(r) + self.jitter())
        return self.best_of(choices, self.region_gains(choices, 2 if building == "indian_allies" else 3))

    # ---- D4 goods
    def take_good(self, choices):
        """The good whose set income is highest (the first such), one cached holding each."""
        s, p = self.s, self.p
        held = s.goods[p]
        rows = [tuple(x + (t == c) for t, x in enumerate(held)) for c in choices]
        best, pick = -1, choices[0]
        for c, income in zip(choices, trade.incomes_of(self.comp.goods, rows, s.ships[p])):
            if income > best:
                best, pick = income, c
        return pick

    # ---- D5 buildings
    def best_building(self, display: tuple[int, ...]) -> float:
        """The value of the best displayed building (cached per round and display)."""
        key = (display, self.s.round)
        best = self._best.get(key)
        if best is None:
            best = self._best[key] = max(self.building_value(self.building_of(t)) for t in display)
        return best

    def building_value(self, key: str) -> float:
        """Recurring benefit x rounds left (AOD-14) plus fixed and expected conditional VP."""
        cached = self._values.get((key, self.s.round))
        if cached is None:
            cached = self._values[(key, self.s.round)] = self._building_value(key)
        return cached

    def _building_value(self, key: str) -> float:
        k = self.k
        left = self.rounds_left() + 1
        b = next(x for x in self.comp.buildings if x.id == key)
        value = float(b.vp)
        if key in STEP_D_MONEY:
            value += self.comp.amount[key] * k["money_vp"] * left
        elif key in STEP_D_POOL or key in STEP_D_DOCK or key in STEP_D_DISCOVERY_BOX:
            value += k["unit_vp"] * left
        elif key in IMMEDIATE:
            kind = IMMEDIATE[key]
            amount = CARTOGRAPHY_VP if kind == "vp" else self.comp.amount[key]
            value += amount * (k["money_vp"] if kind == "money" else k["unit_vp"] if kind == "units" else 1)
        elif key in ("mint", "distillery", "piracy", "east_india_company"):
            value += k["income_building_vp"] * left
        elif key == "cathedral":         # AOD-14.2: each docked missionary brings one colonist more
            value += k["unit_vp"] * k["missionaries_per_round"] * (self.comp.amount[key] - 1) * left
        elif key == "militia":           # AOD-9.6: a temporary soldier in every fight the seat defends
            value += k["militia_weight"] * self.threatened_regions() * left
        elif key == "migration":         # AOD-14.3 / AOD-18.22: a move of up to 2 units every round
            value += k["migration_weight"] * max(self.best_migration(), 0.0)
        elif key in FINAL_BASIS:
            value += k["final_building_vp"]
        else:
            value += k["other_building_vp"]
        return value * float(k.get("build_bias", 1.0))

    def threatened_regions(self) -> int:
        """The regions where the seat has units and an opponent has soldiers (where it may be
        attacked, AOD-9.1 / AOD-9.2)."""
        p = self.p
        return sum(1 for here in self.s.world
                   if sum(here[p]) and any(units[SOLDIER] for q, units in enumerate(here) if q != p))

    def best_migration(self) -> float:
        """The colony VP the best move of up to `amount` own units from one region to another
        discovered region would gain now (`region_gain` at the target less that at the source)."""
        s, p = self.s, self.p
        most, best = int(self.comp.amount["migration"]), 0.0
        targets = [b for b, d in enumerate(s.discovered) if d]
        for a, here in enumerate(s.world):
            for n in range(1, min(most, sum(here[p])) + 1):
                loss = self.region_gain(a, -n)
                best = max(best, max((g - loss for b, g in zip(targets, self.region_gains(targets, n)) if b != a),
                                     default=0.0))
        return best

    def buy_building(self, choices):
        tiles = [c for c in choices if c is not None]
        if not tiles:
            return None
        cost = self.cost() * self.k["money_vp"] * self.k["buy_margin"]
        value = {t: self.building_value(self.building_of(t)) * (1 + self.jitter()) for t in tiles}
        best = max(tiles, key=value.get)
        if None in choices and value[best] < cost:
            return None
        return best

    def university(self, choices):
        moves = [c for c in choices if c is not None]
        for track in ("capital", "dock", "initiative", "turn_order"):
            for c in moves:
                if c.track == track:
                    return c
        return None

    # ---- D7 discovery
    def pool_for(self, region: int) -> tuple[int, ...]:
        """The ids of the tokens (cards) that may be under a region (on top of the deck)."""
        if region == CARDS:
            return tuple(self.view.deck_cards(self.g))
        known = self.view.known_token(self.g, self.p, region)
        if known >= 0:
            return (known,)
        return tuple(self.view.unseen_tokens(self.g, self.p))

    def token_value(self, region: int, strength: int, soldiers: int,
                    ids: tuple[int, ...] | None = None) -> tuple[float, float]:
        """(success probability, expected VP-equivalent of the item's VP and loot) of an
        expedition (exact odds of the discovery kernel; strength 0 = a free discovery,
        AOD-18.20). The free colonist (AOD-8.3.1) is valued per region by `expedition`; `ids`:
        the region's pool when the caller has it already."""
        ids, cards = self.pool_for(region) if ids is None else ids, region == CARDS
        key = (ids, cards, strength, soldiers)
        found = self._odds.get(key)
        if found is None:
            pool = tuple((self.comp.cards if cards else self.comp.tokens)[i] for i in ids)
            if strength == 0:
                found = (1.0, float(sum(d.vp + d.loot * self.k["money_vp"] for d in pool)) / len(pool))
            else:
                p_win, money, vp = discovery.expedition_means(pool, strength, soldiers)
                found = (float(p_win), float(vp) + float(money) * self.k["money_vp"])
            self._odds[key] = found
        return found

    def claim_value(self, region: int) -> float:
        """What the free colonist of a discovered token is worth (AOD-8.3.1, AOD-22.5: discoveries
        claim territory): `claim_weight` x the colony VP it adds in that region over the scorings
        left, and at least a unit's worth."""
        if region == CARDS:
            return 0.0
        return max(self.k["unit_vp"], self.k["claim_weight"] * self.region_gain(region))

    def expedition(self, choices):
        """The party: captains first, then soldiers (loot), then the rest, as few units as give
        the best value net of the units spent (AOD-8.5: the party is spent either way, while
        units not sent wait in the box for a later round, AOD-8.6). An expedition is launched
        only at an exact success probability of at least `min_success`, except in the last
        round, where units left in the box are worth nothing. Regions whose token the seat has
        not seen share the odds of one pool."""
        have, units = list(choices.units), self.comp.units
        last = self.rounds_left() == 0
        floor, unit_cost = (0.0, 0.0) if last else (self.k["min_success"], self.k["unit_vp"] * 0.5)
        order = sorted(range(UNITS), key=lambda u: (-units[UNIT_TYPES[u]].discovery, not units[UNIT_TYPES[u]].fights))
        claims = {r: self.claim_value(r) for r in choices.targets}
        pools = {r: self.pool_for(r) for r in choices.targets}
        party, best, pick = [0] * UNITS, 0.0 if last else -1.0, None
        strength = soldiers = size = 0                      # discovery.party_strength, kept as units join
        for u in order:
            spec = units[UNIT_TYPES[u]]
            for _ in range(have[u]):
                party[u] += 1
                strength, soldiers, size = strength + spec.discovery, soldiers + spec.fights, size + 1
                odds: dict[tuple[tuple[int, ...], bool], tuple[float, float]] = {}
                for r in choices.targets:
                    key = (pools[r], r == CARDS)
                    if key not in odds:
                        odds[key] = self.token_value(r, strength, soldiers, key[0])
                    p_win, value = odds[key]
                    value += p_win * claims[r] - size * unit_cost
                    if p_win >= floor and value > best:
                        best, pick = value, Expedition(tuple(party), r, p_win)
        return pick

    # ---- D8 training
    def train(self, choices):
        if self.s.money[self.p] < 5 + self.k["money_reserve"]:
            return None
        return TRAINED[int(np.argmax(self.k["train_weights"]))]

    # ---- D9 warfare
    def conflict(self, choices):
        s, p = self.s, self.p
        best, pick = self.k["war_min_gain"], None
        for c in choices:
            if c is None:
                continue
            regions = [c.region] if isinstance(c, Battle) else [r for r in range(len(s.world))
                                                                if sum(s.world[r][p]) and sum(s.world[r][c.opponent])]
            gain = sum(self.swing(r, c.opponent) for r in regions)
            if isinstance(c, War):
                gain -= self.comp.warfare.war_cost * self.k["money_vp"]
            if gain > best:
                best, pick = gain, c
        return pick

    def swing(self, region: int, enemy: int) -> float:
        """Own colony VP minus the enemy's after the kills both sides make (majorities flipped)."""
        s, p = self.s, self.p
        mine, theirs = s.world[region][p], s.world[region][enemy]
        kills = min(mine[SOLDIER], sum(theirs))
        losses = min(theirs[SOLDIER], sum(mine))
        here = [sum(s.world[region][q]) for q in range(s.n)]
        after = list(here)
        after[enemy] -= kills
        after[p] -= losses
        before, now = scoring.region_vp(tuple(here), self.comp.colonies), scoring.region_vp(tuple(after), self.comp.colonies)
        return float((now[p] - before[p]) - (now[enemy] - before[enemy]) * self.k["harm_weight"])

    def victims(self, choices, region, enemy):
        losses, left = [0] * UNITS, choices.kills
        for u in VICTIM_ORDER:
            take = min(left, choices.units[u])
            losses[u] += take
            left -= take
        return tuple(losses)

    # ---- D10 moves
    def move(self, choices, building):
        best, pick = self.k["move_min_gain"], None
        for c in choices:
            if c is None:
                continue
            n = sum(c.units)
            gain = self.region_gain(c.target, n) - self.region_gain(c.source, -n)
            if gain > best:
                best, pick = gain, c
        return pick
