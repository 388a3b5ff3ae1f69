"""Invariants checked after every step of many random-legal and scripted games (2-7 players),
and determinism of whole games alone or in a batch."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.seating import Seating
from sim.struggle.components import default_components
from sim.struggle.engine import Engine
from sim.struggle.play import new_engine
from sim.struggle.play import INFO, play_games
from sim.struggle.players import STRATEGIES
from sim.struggle.state import IN_BAG, MAX_SEATS, ON_MAP



class Checker:
    """Checks the invariants of issue 4 item 6 after every engine step."""

    def __init__(self, engine: Engine) -> None:
        self.prev_unrest = engine.s.unrest.copy()
        self.prev_reforms = engine.s.stats["reforms"].copy()
        self.steps = 0
        original = engine.declare_attack

        def declare(g, p, r, target, *args, **kw):
            if target[0] == "player":
                assert not engine.allied(g, p, target[1]), "allies never attack each other (SOE-6.7)"
            return original(g, p, r, target, *args, **kw)

        engine.declare_attack = declare

    def __call__(self, e: Engine, where: str) -> None:
        s, t = e.s, e.t
        self.steps += 1
        active = np.arange(MAX_SEATS)[None, :] < s.n_players[:, None]
        # pieces conserved per colour: never more than the supply, never negative
        assert (s.units >= 0).all()
        for kind, limit in enumerate(e.limits):
            assert (s.units[:, :, :, kind].sum(axis=2) <= limit).all()
        assert (s.units[~active] == 0).all() and (s.markers[~active] == 0).all()
        # population 0..9, gold >= 0
        assert ((s.population >= 0) & (s.population <= e.pop_max)).all()
        assert (s.gold >= 0).all(), where
        # control markers per region <= its spaces (tokens on the map / in the bag hold theirs)
        captured = s.captured_batch()
        occupied = s.markers.sum(axis=1) + captured.sum(axis=1)
        for r in range(len(t.regions)):
            in_region = t.token_region == r
            held = ((s.token_state == ON_MAP) | (s.token_state == IN_BAG))[:, in_region].sum(axis=1)
            assert (occupied[:, r] + held <= t.spaces[r]).all()
        assert (s.markers.sum(axis=2) + captured.sum(axis=2) <= e.marker_limit).all()
        # unrest only grows, except through Government Reform
        dropped = s.unrest < self.prev_unrest
        assert not (dropped & (s.stats["reforms"] == self.prev_reforms)).any()
        self.prev_unrest = s.unrest.copy()
        self.prev_reforms = s.stats["reforms"].copy()
        # tiles conserved: display + owners (+ placed / active tiles) = copies
        owned = s.dev_owned.sum(axis=1) + s.dev_display
        owned[:, e.k["blockade"]] += s.blockade_region >= 0
        owned[:, e.k["pirates"]] += s.pirates_region >= 0
        owned[:, e.k["slave_revolt"]] += s.revolt_region >= 0
        assert (owned <= t.dev_copies).all()


def random_seatings(rng: np.random.Generator, n: int, strategies=STRATEGIES) -> list[Seating]:
    out = []
    for _ in range(n):
        k = int(rng.integers(2, 8))
        powers = tuple(rng.permutation(INFO.powers)[:k].tolist())
        out.append(Seating(powers, tuple(rng.choice(strategies, k).tolist())))
    return out


def run_checked(seed: int, seatings: list[Seating]) -> Checker:
    e = new_engine(default_components(), seatings, seed, range(len(seatings)))
    checker = Checker(e)
    e.on_step = checker
    e.play()
    return checker


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 7))
def test_invariants_random_legal_property(seed, players):
    """Property form: any seed, any player count, random-legal players."""
    powers = tuple(INFO.powers[:players])
    run_checked(seed, [Seating(powers, ("random",) * players)] * 3)


@pytest.mark.parametrize("block", range(20))
def test_invariants_2000_games(block):
    """The full fuzz of issue 4, in 20 blocks of 100 random-legal and scripted games of 2-7
    players (blocks run in parallel under pytest-xdist): 2,000 games in every test run."""
    rng = np.random.default_rng([2000, block])
    checker = run_checked(2000 + block, random_seatings(rng, 100))
    assert checker.steps > 100


def test_same_seed_same_games_alone_or_in_a_batch():
    """A game's row depends only on (root seed, game index, seating): alone = in a batch."""
    rng = np.random.default_rng(5)
    seatings = random_seatings(rng, 6)
    batch = play_games(42, range(10, 16), seatings)
    again = play_games(42, range(10, 16), seatings, batch=2)
    pd_alone = play_games(42, [13], [seatings[3]])
    assert batch.equals(again)
    mine = batch[batch.game_index == 13].reset_index(drop=True)
    assert mine.equals(pd_alone)
    other = play_games(43, [13], [seatings[3]])
    assert not other[["vp", "unrest"]].equals(pd_alone[["vp", "unrest"]])


def test_results_table_columns_and_winner():
    """Issue 4 item 4: one row per seat with the contract columns; winners have the top VP."""
    from sim.core.seating import RESULT_COLUMNS
    from sim.struggle.play import EXTRA_COLUMNS
    seatings = [Seating(("spain", "france", "russia"), ("mixed", "random", "colonial"))] * 4
    df = play_games(1, range(4), seatings)
    assert list(df.columns[: len(RESULT_COLUMNS)]) == list(RESULT_COLUMNS)
    assert set(EXTRA_COLUMNS) <= set(df.columns) and len(df) == 12
    for _, game in df.groupby("game_index"):
        assert game.winner.any()
        assert (game[game.winner].vp == game.vp.max()).all()
        assert (game[game.revolution].vp == 0).all()


def test_invariants_with_every_alternative_option():
    """The SOE-25 alternatives (options.toml) keep the invariants too."""
    from sim.struggle.components import load_components
    comp = load_components([
        "options.fleets_at_home=anywhere_home", "options.reserves_policy=not_winning",
        "options.naval_only_defender_must_fight=false", "options.naval_support_needs_own_fleet=false",
        "options.setup_units_at_home=true", "options.trained_natives_once_per_war=false",
        "options.logistics_stacks=false", "options.blockade_stops_trained_natives=true",
        "options.unrest_memory=none", "options.winner_tie=fewest_unrest", "options.neutral_attacker_allies=false",
        "options.land_loss_order=forts_first", "options.reserves_in_naval_battle=false",
        "options.unrest_from_sea_losses=true", "options.unrest_penalty_at_zero=false", "options.militia_stacks=true",
        "options.move_same_unit_again=true", "options.rebuild_same_type=false",
        "options.rebuild_pays_population=false"])
    rng = np.random.default_rng(21)
    seatings = random_seatings(rng, 40)
    e = new_engine(comp, seatings, 21, range(len(seatings)))
    e.on_step = Checker(e)
    e.play()
    df = play_games(21, range(6), seatings[:6], data=comp)
    assert len(df) == sum(s.players for s in seatings[:6])
