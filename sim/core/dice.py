"""Bulk dice kernels.

Pure functions over arrays: the caller passes a `Generator` (from `sim.core.random.stream`) and
a size, and gets int8/uint8 arrays back. The fastest numpy route to dice is
`Generator.integers(..., dtype=int8)`; for two-dice rolls we draw **one** number per pair
(0..35) and read the difference and the sum-is-7 flag from 36-entry tables, so their joint law
is exact by construction (a difference of 5 always sums to 7; a difference of 1 sums to 7 in
2 of its 10 outcomes). For a duel of two 2d6 rolls one uint16 per duel (0..1295) indexes
1296-entry tables: the attacker's pair is `k // 36`, the defender's `k % 36`.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

PAIR_FIRST = np.repeat(np.arange(1, 7, dtype=np.int8), 6)
PAIR_SECOND = np.tile(np.arange(1, 7, dtype=np.int8), 6)
PAIR_DIFF = np.abs(PAIR_FIRST - PAIR_SECOND).astype(np.int8)
PAIR_SEVEN = (PAIR_FIRST + PAIR_SECOND == 7)
PAIR_SUM = (PAIR_FIRST + PAIR_SECOND).astype(np.int8)

DUEL_FIRST = np.repeat(np.arange(36), 36)
DUEL_SECOND = np.tile(np.arange(36), 36)


def d6(rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
    """Independent six-sided dice as int8 (the numpy API's fastest dice)."""
    return rng.integers(1, 7, size=size, dtype=np.int8)


def faces(rng: np.random.Generator, n_faces: int, size: int | tuple[int, ...]) -> np.ndarray:
    """Face indices 0..n_faces-1 of a fair die with any number of faces, as uint8."""
    return rng.integers(0, n_faces, size=size, dtype=np.uint8)


def pairs(rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
    """One index 0..35 per roll of two dice; decode with PAIR_DIFF / PAIR_SEVEN / PAIR_SUM."""
    return rng.integers(0, 36, size=size, dtype=np.uint8)


def duels(rng: np.random.Generator, size: int | tuple[int, ...]) -> np.ndarray:
    """One index 0..1295 per pair of two-dice rolls (attacker pair = k // 36, defender = k % 36)."""
    return rng.integers(0, 1296, size=size, dtype=np.uint16)


def pair_outcomes() -> list[tuple[int, bool, Fraction]]:
    """Exact joint law of (difference, sum is 7) for two dice, as (diff, seven, probability)."""
    law: dict[tuple[int, bool], int] = {}
    for d, s in zip(PAIR_DIFF.tolist(), PAIR_SEVEN.tolist()):
        law[(d, s)] = law.get((d, s), 0) + 1
    return [(d, s, Fraction(c, 36)) for (d, s), c in sorted(law.items())]


def diff_pmf() -> dict[int, Fraction]:
    """Exact law of the difference of two dice: 0 -> 6/36, 1 -> 10/36, ..., 5 -> 2/36."""
    pmf: dict[int, Fraction] = {}
    for d, _, p in pair_outcomes():
        pmf[d] = pmf.get(d, Fraction(0)) + p
    return pmf
