"""SoE sea movement roll (SOE-11): exact law, bulk kernel against it, and the examples."""

from fractions import Fraction

import numpy as np
import pytest

from sim.core.stats import binomial_se
from sim.struggle.sea import (ARRIVE, DESTROYED, RETURN, arrivals_odds, group_odds, roll_outcome, sea_moves,
                              sea_rolls, unit_odds)


def test_example_soe_e2_sea_movement():
    assert roll_outcome(2, 6, navigation=False) == ARRIVE        # fleet: roll 2 -> arrives
    assert roll_outcome(1, 3, navigation=False) == RETURN        # army: 1, then 3 -> back home


def test_example_soe_e8_sea_roll_probabilities():
    assert unit_odds(False) == {"arrive": Fraction(8, 9), "return": Fraction(1, 18), "destroyed": Fraction(1, 18)}
    assert unit_odds(True) == {"arrive": Fraction(17, 18), "return": Fraction(1, 18), "destroyed": Fraction(0)}


def test_navigation_never_destroys():
    assert all(roll_outcome(1, s, navigation=True) != DESTROYED for s in range(1, 7))


@pytest.mark.parametrize("units, navigation", [(1, False), (3, False), (4, True)])
def test_group_law_is_multinomial_and_sums_to_one(units, navigation):
    law = group_odds(units, navigation)
    assert sum(law.values()) == 1
    arrivals = arrivals_odds(units, navigation)
    for a, p in arrivals.items():
        assert sum(q for (x, _, _), q in law.items() if x == a) == p


@pytest.mark.parametrize("navigation", [False, True])
def test_bulk_rolls_within_4_se_of_exact(navigation):
    n = 200_000
    codes = sea_rolls(np.random.default_rng(11), n, navigation)
    exact = unit_odds(navigation)
    for code, name in ((ARRIVE, "arrive"), (RETURN, "return"), (DESTROYED, "destroyed")):
        p = float(exact[name])
        assert abs((codes == code).mean() - p) <= 4 * binomial_se(p, n) + (0 if p else 1e-12)


def test_bulk_group_moves_within_4_se_of_exact():
    n, units = 100_000, 3
    arrived, returned, destroyed = sea_moves(np.random.default_rng(3), np.full(n, units), False)
    assert np.all(arrived + returned + destroyed == units)
    for a, p in arrivals_odds(units).items():
        p = float(p)
        assert abs((arrived == a).mean() - p) <= 4 * binomial_se(p, n)


def test_group_moves_respect_unit_counts_and_navigation_arrays():
    units = np.array([0, 1, 5, 2])
    nav = np.array([True, True, True, True])
    arrived, returned, destroyed = sea_moves(np.random.default_rng(0), units, nav)
    assert (arrived + returned + destroyed).tolist() == units.tolist()
    assert destroyed.sum() == 0
