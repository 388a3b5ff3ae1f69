"""Two-player zero-sum games given by a payoff matrix: the value and an optimal mixed strategy
of each side, by linear programming (scipy's HiGHS).

A balance question such as "with both sides choosing well among these strategies, who is
favoured?" is the value of the game whose payoffs are the measured win rates of each pairing (an
empirical game): the row side picks a mixture of its strategies, the column side one of its own,
and the value is the row side's win rate when each plays a best mixture against the other. It is
the value of the game restricted to the strategies measured, not of the real game: a strategy
outside the population can only move it.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import linprog


@dataclass(frozen=True)
class Equilibrium:
    """The value (the row side's payoff) and an optimal mixture of each side (rows, columns)."""

    value: float
    rows: np.ndarray
    columns: np.ndarray


def solve(payoff: np.ndarray) -> Equilibrium:
    """The row side maximises, the column side minimises the payoff: `value` is what the row
    mixture guarantees against every column and the column mixture concedes against every row.
    Either mixture may be one of several optimal ones."""
    a = _checked(payoff)
    worth, rows = _guarantee(a)
    _, columns = _guarantee(-a.T)
    return Equilibrium(worth, rows, columns)


def value(payoff: np.ndarray) -> float:
    """`solve(payoff).value` by one linear program, without the column side's mixture (a
    bootstrap solves many resampled matrices for their values alone)."""
    return _guarantee(_checked(payoff))[0]


def _checked(payoff: np.ndarray) -> np.ndarray:
    a = np.asarray(payoff, dtype=float)
    if a.ndim != 2 or 0 in a.shape or not np.isfinite(a).all():
        raise ValueError(f"a payoff matrix is a non-empty 2-d array of finite numbers, not shape {a.shape}")
    return a


def _guarantee(a: np.ndarray) -> tuple[float, np.ndarray]:
    """max over row mixtures x of min over columns j of x . a[:, j], and an x that reaches it:
    maximise v subject to v <= x . a[:, j] for every j, x >= 0, sum(x) = 1."""
    m, n = a.shape
    cost = np.zeros(m + 1)
    cost[-1] = -1.0                                          # maximise v
    upper = np.hstack([-a.T, np.ones((n, 1))])                # v - x . a[:, j] <= 0
    equal = np.hstack([np.ones((1, m)), np.zeros((1, 1))])   # the mixture sums to 1
    result = linprog(cost, A_ub=upper, b_ub=np.zeros(n), A_eq=equal, b_eq=[1.0],
                     bounds=[(0, None)] * m + [(None, None)], method="highs")
    if not result.success:                                    # a bounded, feasible program: never expected
        raise RuntimeError(f"the matrix game's linear program failed: {result.message}")
    mix = np.clip(result.x[:m], 0.0, None)
    return float(-result.fun), mix / mix.sum()
