"""The invariants of sim.struggle.checks after every step of many random-legal and scripted games
(2-7 players) and under every alternative rules option, and determinism of whole games alone or in
a batch. (The conformance suite runs 500 random-legal games per player count besides.)"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.seating import Seating
from sim.struggle.components import default_components
from sim.struggle.play import new_engine
from sim.struggle.play import INFO, play_games
from sim.struggle.players import STRATEGIES
from sim.struggle.checks import Invariants



def random_seatings(rng: np.random.Generator, n: int, strategies=STRATEGIES) -> list[Seating]:
    out = []
    for _ in range(n):
        k = int(rng.integers(2, 8))
        powers = tuple(rng.permutation(INFO.powers)[:k].tolist())
        out.append(Seating(powers, tuple(rng.choice(strategies, k).tolist())))
    return out


def run_checked(seed: int, seatings: list[Seating]) -> Invariants:
    e = new_engine(default_components(), seatings, seed, range(len(seatings)))
    checker = Invariants(e)
    e.on_step = checker
    e.play()
    return checker


@settings(max_examples=8)
@given(seed=st.integers(0, 2**32), players=st.integers(2, 7))
def test_invariants_random_legal_property(seed, players):
    """Property form: any seed, any player count, random-legal players."""
    powers = tuple(INFO.powers[:players])
    run_checked(seed, [Seating(powers, ("random",) * players)] * 3)


@pytest.mark.parametrize("block", range(10))
def test_invariants_1000_mixed_games(block):
    """10 blocks of 100 games of 2-7 players with random-legal and scripted players mixed
    (blocks run in parallel under pytest-xdist)."""
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
        "options.rebuild_pays_population=false", "options.naval_support_on_decline=always",
        "options.blockade_b_scope=any_support", "options.fort_moves_later=after_failed_roll",
        "options.two_symbol_alliance=owner", "options.free_actions_when=any_time"])
    rng = np.random.default_rng(21)
    seatings = random_seatings(rng, 40)
    e = new_engine(comp, seatings, 21, range(len(seatings)))
    e.on_step = Invariants(e)
    e.play()
    df = play_games(21, range(6), seatings[:6], data=comp)
    assert len(df) == sum(s.players for s in seatings[:6])
