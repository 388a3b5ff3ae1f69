"""The Struggle of Empires engine's own invariants and its hooks for the conformance suite
(sim.core.conformance): games played with the invariants checked after every engine step, games
played with the other seats' hidden unrest scrambled around every decision, and a seat's
resources at the start (for the grant check).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from sim.core.lockstep import play_in_batches
from sim.core.seating import RESULT_COLUMNS, Seating
from sim.struggle.engine import Engine
from sim.struggle.play import BATCH, EXTRA_COLUMNS, ROSTER, components_of, new_engine, results_frame
from sim.struggle.players import Roster
from sim.struggle.state import IN_BAG, MAX_SEATS, ON_MAP

ASSET_COLUMN = "tiles"  # the acquired tiles of each seat (sim.core.conformance)
STEP_CAP = 1500        # engine steps of one batch: 3 wars x 6 rounds x 7 seats x 3 slots, and the phases
DECISIONS = ("place_setup_unit", "bid", "war_office_attack", "choose_action", "help", "fight_naval",
             "use_blockade_defence", "refuse_battle")


class Invariants:
    """Checked after every engine step (`Engine.on_step`): pieces within their supply (SOE-1.3),
    population 0..9 and gold >= 0 (SOE-2), control markers within a region's spaces (SOE-1.4.5),
    unrest falling only through Government Reform (SOE-2.3, SOE-20.14), tiles conserved (SOE-19),
    and allies never attacking each other (SOE-6.7)."""

    def __init__(self, engine: Engine, step_cap: int = STEP_CAP) -> None:
        self.prev_unrest = engine.s.unrest.copy()
        self.prev_reforms = engine.s.stats["reforms"].copy()
        self.steps, self.step_cap = 0, step_cap
        original = engine.declare_attack

        def declare(g, p, r, target, *args, **kw):
            if target[0] == "player":
                assert not engine.allied(g, p, target[1]), "allies never attack each other (SOE-6.7)"
            return original(g, p, r, target, *args, **kw)

        engine.declare_attack = declare

    def __call__(self, e: Engine, where: str) -> None:
        s, t = e.s, e.t
        self.steps += 1
        assert self.steps <= self.step_cap, f"more than {self.step_cap} steps: the game does not end"
        active = np.arange(MAX_SEATS)[None, :] < s.n_players[:, None]
        assert (s.units >= 0).all(), where
        for kind, limit in enumerate(e.limits):
            assert (s.units[:, :, :, kind].sum(axis=2) <= limit).all(), where
        assert (s.units[~active] == 0).all() and (s.markers[~active] == 0).all(), where
        assert ((s.population >= 0) & (s.population <= e.pop_max)).all(), where
        assert (s.gold >= 0).all(), where
        captured = s.captured_batch()
        occupied = s.markers.sum(axis=1) + captured.sum(axis=1)
        for r in range(len(t.regions)):
            in_region = t.token_region == r
            held = ((s.token_state == ON_MAP) | (s.token_state == IN_BAG))[:, in_region].sum(axis=1)
            assert (occupied[:, r] + held <= t.spaces[r]).all(), where
        assert (s.markers.sum(axis=2) + captured.sum(axis=2) <= e.marker_limit).all(), where
        dropped = s.unrest < self.prev_unrest
        assert not (dropped & (s.stats["reforms"] == self.prev_reforms)).any(), where
        self.prev_unrest = s.unrest.copy()
        self.prev_reforms = s.stats["reforms"].copy()
        owned = s.dev_owned.sum(axis=1) + s.dev_display
        owned[:, e.k["blockade"]] += s.blockade_region >= 0
        owned[:, e.k["pirates"]] += s.pirates_region >= 0
        owned[:, e.k["slave_revolt"]] += s.revolt_region >= 0
        assert (owned <= t.dev_copies).all(), where


def check_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating], data=None,
                step_cap: int = STEP_CAP) -> pd.DataFrame:
    """`play_games` with the invariants checked after every step (AssertionError when one
    breaks, RuleViolation for an illegal choice)."""
    comp = components_of(data)

    def watch(e: Engine) -> None:
        e.on_step = Invariants(e, step_cap)

    return play_in_batches(root_seed, game_indices, seatings, BATCH, functools.partial(new_engine, comp), results_frame,
                           [*RESULT_COLUMNS, *EXTRA_COLUMNS], prepare=watch)


def scrambled_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating], data=None,
                    log=None) -> pd.DataFrame:
    """`play_games` with every other seat's hidden unrest (SOE-2.3) changed around each decision
    and restored after it: equal to `play_games` exactly when no decision reads it."""
    comp = components_of(data)
    noise = np.random.default_rng(20261201)
    make = functools.partial(new_engine, comp, roster=scrambling(ROSTER, noise))
    return play_in_batches(root_seed, game_indices, seatings, BATCH, make, results_frame,
                           [*RESULT_COLUMNS, *EXTRA_COLUMNS], log)


def start_resources(root_seed: int, game_index: int, seating: Seating, data=None) -> dict[str, list[int]]:
    """Each seat's gold, population and unrest after setup (SOE-3), grants included."""
    e = new_engine(components_of(data), [seating], root_seed, [game_index])
    e.setup()
    n = seating.players
    return {"gold": e.s.gold[0, :n].tolist(), "population": e.s.population[0, :n].tolist(),
            "unrest": e.s.unrest[0, :n].tolist()}


@contextlib.contextmanager
def _hidden_changed(e: Engine, deciders: dict[int, int], noise: np.random.Generator):
    """Add noise to the unrest of every seat but the decider of each game, then take it away."""
    games = list(deciders)
    offsets = noise.integers(1, 30, (len(games), MAX_SEATS))
    for row, g in enumerate(games):
        offsets[row, deciders[g]] = 0
    e.s.unrest[games] += offsets
    try:
        yield
    finally:
        e.s.unrest[games] -= offsets


def scrambling(roster: Roster, noise: np.random.Generator) -> Roster:
    """The roster's players with the hidden unrest of the other seats scrambled around each of
    their decisions and around the batch preparation."""

    def make(strategy, engine, g, seat, rng):
        player = roster.make(strategy, engine, g, seat, rng)
        for name in DECISIONS:
            setattr(player, name, _around(getattr(player, name), engine, {g: seat}, noise))
        player.free_actions = _around_generator(player.free_actions, engine, {g: seat}, noise)
        return player

    def work(engine):
        shared = roster.work(engine)
        prepare = shared.prepare

        def scrambled_prepare(players, war_office=False):
            with _hidden_changed(engine, {pl.g: pl.p for pl in players}, noise):
                prepare(players, war_office)

        shared.prepare = scrambled_prepare
        return shared

    return Roster(make=make, work=work)


def _around(method, engine, deciders, noise):
    @functools.wraps(method)
    def decide(*args, **kwargs):
        with _hidden_changed(engine, deciders, noise):
            return method(*args, **kwargs)
    return decide


def _around_generator(method, engine, deciders, noise):
    @functools.wraps(method)
    def decide(*args, **kwargs):
        it = method(*args, **kwargs)
        while True:
            with _hidden_changed(engine, deciders, noise):
                try:
                    action = next(it)
                except StopIteration:
                    return
            yield action                       # the engine applies it with the true state
    return decide
