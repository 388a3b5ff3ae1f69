"""`sim.core.matrix_game.solve`: the value and optimal mixtures of a zero-sum matrix game."""

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from sim.core.matrix_game import solve, value


def test_matching_pennies_is_even_with_half_and_half():
    eq = solve(np.array([[1.0, 0.0], [0.0, 1.0]]))
    assert eq.value == pytest.approx(0.5)
    assert eq.rows == pytest.approx([0.5, 0.5]) and eq.columns == pytest.approx([0.5, 0.5])


def test_a_saddle_point_is_played_pure():
    """Row 0 beats row 1 against every column, and column 0 concedes least to it."""
    eq = solve(np.array([[0.6, 0.7], [0.4, 0.5]]))
    assert eq.value == pytest.approx(0.6)
    assert eq.rows == pytest.approx([1.0, 0.0]) and eq.columns == pytest.approx([1.0, 0.0])


def test_rock_paper_scissors_as_win_rates_is_even_with_each_a_third():
    win, tie, loss = 1.0, 0.5, 0.0
    eq = solve(np.array([[tie, loss, win], [win, tie, loss], [loss, win, tie]]))
    assert eq.value == pytest.approx(0.5)
    assert eq.rows == pytest.approx([1 / 3] * 3) and eq.columns == pytest.approx([1 / 3] * 3)


def test_a_strategy_that_never_helps_gets_no_weight():
    """A third British table worse than the first against every French one is never mixed in."""
    eq = solve(np.array([[0.7, 0.3], [0.2, 0.8], [0.6, 0.2]]))
    assert eq.rows[2] == pytest.approx(0.0) and eq.value == pytest.approx(0.5)


@given(arrays(float, st.tuples(st.integers(1, 6), st.integers(1, 6)), elements=st.floats(0, 1)))
def test_each_mixture_holds_the_value_against_every_reply(payoff):
    """The row mixture guarantees the value against every column, the column mixture concedes at
    most it against every row, and the value lies between the pure max-min and min-max."""
    eq = solve(payoff)
    assert eq.rows.sum() == pytest.approx(1) and eq.columns.sum() == pytest.approx(1)
    assert (eq.rows >= 0).all() and (eq.columns >= 0).all()
    assert (eq.rows @ payoff >= eq.value - 1e-7).all()
    assert (payoff @ eq.columns <= eq.value + 1e-7).all()
    assert payoff.min(axis=1).max() - 1e-7 <= eq.value <= payoff.max(axis=0).min() + 1e-7
    assert value(payoff) == pytest.approx(eq.value, abs=1e-9)


@pytest.mark.parametrize("payoff", [np.zeros((0, 2)), np.array([1.0, 0.0]), np.array([[0.5, np.nan]])])
def test_a_payoff_that_is_no_matrix_of_numbers_is_refused(payoff):
    for solver in (solve, value):
        with pytest.raises(ValueError, match="non-empty 2-d array of finite numbers"):
            solver(payoff)
