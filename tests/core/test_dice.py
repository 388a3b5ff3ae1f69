from fractions import Fraction

import numpy as np

from sim.core import dice
from sim.core.random import stream


def test_pair_tables_enumerate_all_36_outcomes():
    assert sorted(zip(dice.PAIR_FIRST.tolist(), dice.PAIR_SECOND.tolist())) == [
        (a, b) for a in range(1, 7) for b in range(1, 7)]


def test_joint_law_of_difference_and_seven_is_exact():
    """SOE-12.10 / Example SOE-E9: a difference of 5 always sums to 7, a difference of 0 never."""
    law = {(d, s): p for d, s, p in dice.pair_outcomes()}
    assert law[(5, True)] == Fraction(2, 36) and (5, False) not in law
    assert law[(0, False)] == Fraction(6, 36) and (0, True) not in law
    assert law[(1, True)] == Fraction(2, 36) and law[(1, False)] == Fraction(8, 36)
    assert sum(law.values()) == 1
    assert dice.diff_pmf() == {0: Fraction(6, 36), 1: Fraction(10, 36), 2: Fraction(8, 36),
                               3: Fraction(6, 36), 4: Fraction(4, 36), 5: Fraction(2, 36)}


def test_bulk_pair_differences_match_exact_law_within_4_se():
    n = 400_000
    diffs = dice.PAIR_DIFF[dice.pairs(stream(11, 0, "test"), n)]
    observed = np.bincount(diffs, minlength=6) / n
    for d, p in dice.diff_pmf().items():
        se = np.sqrt(float(p) * (1 - float(p)) / n)
        assert abs(observed[d] - float(p)) < 4 * se


def test_d6_range_and_uniformity():
    n = 600_000
    rolls = dice.d6(stream(5, 0, "test"), n)
    assert rolls.dtype == np.int8 and rolls.min() == 1 and rolls.max() == 6
    se = np.sqrt(1 / 6 * 5 / 6 / n)
    assert np.all(np.abs(np.bincount(rolls, minlength=7)[1:] / n - 1 / 6) < 4 * se)


def test_duel_index_decodes_into_two_independent_pairs():
    k = dice.duels(stream(3, 0, "test"), 200_000).astype(np.int64)
    assert k.min() >= 0 and k.max() < 1296
    table = np.histogram2d(k // 36, k % 36, bins=36)[0]
    expected = len(k) / 1296
    assert abs(table.mean() - expected) < 1e-9 and table.std() < 6 * np.sqrt(expected)
