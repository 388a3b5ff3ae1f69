"""Plackett-Luce ratings recover known effects with honest intervals; Holm adjustment; SPRT."""

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

from sim.core.ratings import plackett_luce
from sim.core.sprt import Sprt, block_scores, bounds, elo_to_score, llr
from sim.core.stats import holm

SEAT = np.array([0.4, 0.0, -0.4])          # true log-worth effects, summing to zero
STRATEGY = {"a": 0.3, "b": -0.3}


def simulate(rng, games: int):
    """Plackett-Luce orders by the Gumbel trick: sort eta + Gumbel noise descending."""
    seats = np.tile(np.arange(3), (games, 1))
    strategies = np.where(rng.random((games, 3)) < 0.5, "a", "b")
    eta = SEAT[seats] + np.vectorize(STRATEGY.get)(strategies)
    order = np.argsort(-(eta + rng.gumbel(size=eta.shape)), axis=1)
    ranks = np.empty_like(order)
    np.put_along_axis(ranks, order, np.broadcast_to(np.arange(1, 4), order.shape), axis=1)
    return ranks, {"seat": seats, "strategy": strategies}


def test_plackett_luce_intervals_cover_the_true_effects_at_close_to_95_percent():
    rng = np.random.default_rng(77)
    reps, hits = 200, []
    for _ in range(reps):
        table = plackett_luce(*simulate(rng, 150)).table
        truth = np.concatenate([SEAT, [STRATEGY["a"], STRATEGY["b"]]])
        hits.append(((table["ci_low"] <= truth) & (truth <= table["ci_high"])).to_numpy())
    coverage = np.mean(hits, axis=0)
    # 200 reps: SE of a coverage near 0.95 is 0.015; allow 4 SE below and any excess.
    assert (coverage > 0.95 - 4 * np.sqrt(0.95 * 0.05 / reps)).all(), coverage


def test_plackett_luce_estimates_are_within_4_se_of_the_truth_on_a_large_sample():
    table = plackett_luce(*simulate(np.random.default_rng(5), 4000)).table
    truth = np.concatenate([SEAT, [STRATEGY["a"], STRATEGY["b"]]])
    assert (np.abs(table["effect"] - truth) < 4 * table["se"]).all()
    assert np.allclose(table.groupby("factor")["effect"].sum(), 0.0)


def test_ties_share_a_stage_and_a_single_level_factor_is_left_out():
    ranks = np.array([[1, 1, 3], [1, 2, 2], [2, 1, 3]] * 20)
    factors = {"seat": np.tile(np.arange(3), (60, 1)), "strategy": np.full((60, 3), "only")}
    table = plackett_luce(ranks, factors).table
    assert set(table["factor"]) == {"seat"}
    assert table.set_index("level")["effect"].idxmin() == 2  # seat 2 is never better than 2nd


def test_holm_matches_the_step_down_by_hand():
    # p sorted: 0.01, 0.02, 0.03, 0.5 -> 4*0.01, max(3*0.02, .04), max(2*0.03, .06), max(0.5, .06)
    assert np.allclose(holm([0.03, 0.5, 0.01, 0.02]), [0.06, 0.5, 0.04, 0.06])
    assert np.isnan(holm([np.nan, 0.2])[0]) and holm([np.nan, 0.2])[1] == 0.2


@given(st.lists(st.floats(0, 1), min_size=1, max_size=30))
def test_holm_is_monotone_and_never_below_the_raw_p(ps):
    adjusted = holm(ps)
    assert (adjusted >= np.asarray(ps) - 1e-15).all() and (adjusted <= 1).all()
    order = np.argsort(ps, kind="stable")
    assert (np.diff(adjusted[order]) >= -1e-15).all()


def test_sprt_bounds_and_elo_scale():
    low, high = bounds(0.05, 0.05)
    assert low == pytest.approx(-2.944, abs=1e-3) and high == pytest.approx(2.944, abs=1e-3)
    assert elo_to_score(0) == 0.5 and elo_to_score(400) == pytest.approx(10 / 11)


def test_sprt_error_rates_on_known_bernoulli_blocks_stay_near_alpha_and_beta():
    """Blocks of 8 coin flips with p = s0 (H0 true) and p = s1 (H1 true); 300 tests each."""
    rng = np.random.default_rng(123)
    s0, s1, reps = 0.5, 0.6, 300
    wrong = {}
    for truth, p in (("H0", s0), ("H1", s1)):
        decisions = []
        for _ in range(reps):
            test = Sprt(s0, s1, 0.05, 0.05)
            decision = None
            while decision is None:
                decision = test.add(rng.binomial(8, p) / 8)
            decisions.append(decision)
        wrong[truth] = np.mean([d != truth for d in decisions])
    # alpha = beta = 0.05; SE of an error rate from 300 tests ~ 0.0126: allow 4 SE above.
    assert wrong["H0"] < 0.05 + 4 * 0.0126 and wrong["H1"] < 0.05 + 4 * 0.0126, wrong


def test_llr_sign_follows_the_nearer_hypothesis():
    assert llr([0.5] * 10, 0.5, 0.6) < 0 < llr([0.6] * 10, 0.5, 0.6)
    assert llr([], 0.5, 0.6) == 0.0


def test_block_scores_count_shared_wins_by_head():
    table = pd.DataFrame({
        "game_index": [0, 0, 1, 1, 2, 2, 2],
        "block": [0, 0, 0, 0, 1, 1, 1],
        "strategy": ["a", "b", "a", "b", "a", "b", "c"],
        "winner": [True, False, True, True, False, False, True],
    })
    scores = block_scores(table, "a", "b")
    assert scores.tolist() == [pytest.approx((1.0 + 0.5) / 2), 0.5]


def test_clustered_wilson_keeps_coverage_where_plain_wilson_loses_it():
    """40 blocks of 12 dependent games (beta-binomial, intra-block correlation 0.2, p = 0.3)."""
    from sim.core.stats import clustered_wilson, wilson_interval
    rng = np.random.default_rng(31)
    p, rho, blocks, size, reps = 0.3, 0.2, 40, 12, 1000
    a = p * (1 - rho) / rho
    b = (1 - p) * (1 - rho) / rho
    clustered, plain = [], []
    for _ in range(reps):
        wins = rng.binomial(size, rng.beta(a, b, blocks))
        low, high, deff = clustered_wilson(wins, np.full(blocks, size))
        clustered.append(low <= p <= high)
        low, high = wilson_interval(wins.sum(), blocks * size)
        plain.append(low <= p <= high)
    se = np.sqrt(0.95 * 0.05 / reps)
    assert np.mean(clustered) > 0.95 - 4 * se
    assert np.mean(plain) < 0.95 - 4 * se  # the dependence is real: plain Wilson under-covers


def test_clustered_wilson_on_independent_games_only_adds_the_small_sample_factor():
    """Blocks of one game: the robust variance is p(1-p)/(C-1), so deff = C/(C-1) exactly."""
    from sim.core.stats import clustered_wilson, wilson_interval
    wins = np.array([1, 0, 0, 1, 1, 0, 0, 0, 1, 0])
    low, high, deff = clustered_wilson(wins, np.ones(10))
    assert deff == pytest.approx(10 / 9)
    assert (low, high) == pytest.approx(wilson_interval(4 * 0.9, 9.0))
