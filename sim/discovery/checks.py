"""The Age of Discovery engine's invariants and its hooks for the conformance suite
(sim.core.conformance): games played with the invariants checked after every engine step,
games played with the hidden components scrambled around every decision, and a seat's money
after setup (for the grant check)."""

from __future__ import annotations

import contextlib
from collections.abc import Sequence

import numpy as np
import pandas as pd

from sim.core.seating import Seating
from sim.discovery.components import UNIT_TYPES
from sim.discovery.engine import Engine
from sim.discovery.interventions import SPECIALISTS
from sim.discovery.play import BATCH, ROSTER, components_of, new_engine, play_with
from sim.discovery.players import Roster, SeatPlayer
from sim.discovery.state import CAPITAL, COLONIST, DOCK, INITIATIVE, TRADE, TRAIN, UNITS, WARFARE, GameState

ASSET_COLUMN = "buildings"     # each seat's buildings (sim.core.conformance)
STEP_CAP = 600 * BATCH         # steps of one batch: at most ~600 per game (placements, boxes, end steps)
DECISIONS = tuple(name for name in SeatPlayer.__dict__ if not name.startswith("_"))


class Invariants:
    """Checked after every engine step (`Engine.on_step`): units conserved per colour and type
    (AOD-0.5, AOD-6.9), box capacities (AOD-5.5, AOD-3.10), money >= 0, trade goods and ships
    within their stock (AOD-2.4, AOD-2.6), every building tile and discovery token in at most one
    place (in exactly one while still in play), and a step cap."""

    def __init__(self, engine: Engine, step_cap: int = STEP_CAP) -> None:
        self.steps, self.step_cap = 0, step_cap
        c = engine.comp
        self.stock, self.ships, self.tokens = list(c.goods.stock), c.goods.ships, len(c.tokens)

    def __call__(self, e: Engine, g: int, where: str) -> None:
        self.steps += 1
        assert self.steps <= self.step_cap, f"more than {self.step_cap} steps: the game does not end"
        s = e.s.games[g]
        here = f"game {e.game_indices[g]}, round {s.round}, after {where}"
        self.units(s, here)
        if e.opts["limited_supply"]:
            figures = int(e.rules["supply"]["colonists"])
            assert max(out[COLONIST] for out in s.out) <= figures, f"{here}: more than {figures} colonists out"
        for box, limit in ((INITIATIVE, s.n), (DOCK, e.capacity(g, DOCK)), (TRADE, e.capacity(g, TRADE)),
                           (CAPITAL, e.capacity(g, CAPITAL)), (WARFARE, e.capacity(g, WARFARE)),
                           *((b, 1) for b in TRAIN)):
            assert len(s.boxes[box]) <= limit, f"{here}: box {box} over its capacity {limit}"
        initiative = [p for p, _ in s.boxes[INITIATIVE]]
        assert len(set(initiative)) == len(initiative), f"{here}: two units of a player on Initiative"
        assert min(s.money) >= 0, f"{here}: negative money {s.money}"
        self.goods(e, s, here)
        self.components(e, s, here)

    def units(self, s: GameState, here: str) -> None:
        counted = [[0] * UNITS for _ in range(s.n)]
        placed = [u for box in s.boxes for u in box] + s.dock_x + s.dock_y
        for p, unit in placed:
            counted[p][unit] += 1
        for p in range(s.n):
            counted[p][s.markers[p]] += 1
            for u in range(UNITS):
                counted[p][u] += s.pool[p][u] + s.discovery_box[p][u] + sum(r[p][u] for r in s.world)
                assert min(s.pool[p][u], s.discovery_box[p][u], *(r[p][u] for r in s.world)) >= 0, here
        assert counted == s.out, f"{here}: units in play {counted} differ from units taken {s.out}"

    def goods(self, e: Engine, s: GameState, here: str) -> None:
        held = [sum(s.goods[p][k] for p in range(s.n)) + s.goods_pool.count(k) + s.goods_display.count(k)
                + sum(1 for r, good in enumerate(e.t.region_goods) if good == k and s.region_good[r])
                for k in range(len(self.stock))]
        assert held == self.stock, f"{here}: trade goods {held} differ from the stock {self.stock}"
        assert sum(s.ships) + s.ship_in_box + s.ships_left <= self.ships, f"{here}: too many ships"

    def components(self, e: Engine, s: GameState, here: str) -> None:
        places = [t for stack in s.stacks for t in stack] + s.display + [t for own in s.owned for t in own]
        assert len(places) == len(set(places)), f"{here}: a building tile in two places"
        age = e.age(s)
        live = {k for k, a in enumerate(e.t.tile_age) if a >= age}
        assert live <= set(places), f"{here}: a building tile of this or a later age is missing"
        tokens = [t for t in s.token_at if t >= 0] + s.out_tokens + [i for own in s.discoveries for k, i in own
                                                                     if k == "token"]
        assert sorted(tokens) == list(range(self.tokens)), f"{here}: discovery tokens not each in one place"
        cards = s.deck + [i for own in s.discoveries for k, i in own if k == "card"]
        assert sorted(cards) == list(range(len(e.comp.cards))), f"{here}: discovery cards not each in one place"


def check_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating], data=None,
                step_cap: int = STEP_CAP) -> pd.DataFrame:
    """`play_games` with the invariants checked after every step (AssertionError when one
    breaks, RuleViolation for an illegal choice)."""

    def watch(engine: Engine) -> None:
        engine.on_step = Invariants(engine, step_cap)

    return play_with(root_seed, game_indices, seatings, data, prepare=watch)


def scrambled_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating], data=None,
                    log=None) -> pd.DataFrame:
    """`play_games` with the hidden components (AOD-4.5: face-down tokens nobody has seen, the
    tokens out of play, the deck order, the building stacks, the trade-good pool) scrambled around
    each decision and restored after it: equal to `play_games` exactly when no decision reads them."""
    return play_with(root_seed, game_indices, seatings, data, log, roster=scrambling(ROSTER, np.random.default_rng(20261201)))


def scrambling(roster: Roster, noise: np.random.Generator) -> Roster:
    """The roster's players with the hidden components scrambled around each decision."""

    def make(strategy, engine, g, seat, rng):
        player = roster.make(strategy, engine, g, seat, rng)
        for name in DECISIONS:
            setattr(player, name, _around(getattr(player, name), engine, g, noise))
        return player

    return Roster(make=make)


def _around(method, engine: Engine, g: int, noise: np.random.Generator):
    def call(*args, **kw):
        with _hidden_changed(engine.s.games[g], noise):
            return method(*args, **kw)
    return call


@contextlib.contextmanager
def _hidden_changed(s: GameState, noise: np.random.Generator):
    """Permute the tokens nobody has seen over their face-down places, shuffle the deck, the
    stacks and the goods pool; put everything back afterwards."""
    saved = (list(s.token_at), list(s.out_tokens), list(s.deck), [list(x) for x in s.stacks], list(s.goods_pool))
    seen = set().union(*s.seen)
    slots = [("region", r) for r, t in enumerate(s.token_at) if t >= 0 and not s.shown[t] and t not in seen]
    slots += [("out", i) for i in range(len(s.out_tokens))]
    hidden = [s.token_at[i] if kind == "region" else s.out_tokens[i] for kind, i in slots]
    for (kind, i), t in zip(slots, noise.permutation(hidden).tolist()):
        if kind == "region":
            s.token_at[i] = t
        else:
            s.out_tokens[i] = t
    noise.shuffle(s.deck)
    for stack in s.stacks:
        noise.shuffle(stack)
    noise.shuffle(s.goods_pool)
    try:
        yield
    finally:
        s.token_at[:], s.out_tokens[:], s.deck[:], s.goods_pool[:] = saved[0], saved[1], saved[2], saved[4]
        for stack, old in zip(s.stacks, saved[3]):
            stack[:] = old


def start_resources(root_seed: int, game_index: int, seating: Seating, data=None) -> dict[str, list[int]]:
    """Each seat's money (AOD-3.1, AOD-3.3) and pool of each specialist (AOD-3.2) after setup,
    grants included."""
    e = new_engine(components_of(data), [seating], root_seed, [game_index])
    e.setup()
    s = e.s.games[0]
    return {"money": list(s.money), **{name: [pool[u] for pool in s.pool] for u, name in enumerate(UNIT_TYPES)
                                       if name in SPECIALISTS}}
