"""Struggle of Empires sea movement roll (SOE-11.1, SOE-20.11 Navigation): exact and bulk.

A unit moving into or out of a colonial region rolls one die: 2-6 it arrives; on a 1 it rolls
again: 1-2 destroyed, 3-4 back where it started, 5-6 arrives after all. Navigation adds 2 to
the second roll (never destroyed). Units moved together roll independently.

Bulk API: `sea_rolls(rng, n, navigation)` -> per-unit outcome codes (ARRIVE 0, RETURN 1,
DESTROYED 2) from ONE draw 0..35 per unit (first and second roll read from a 36-entry table,
so the joint law is exact); `sea_moves(rng, units, navigation)` -> per-move counts of units
that arrived / returned / were destroyed.
"""

from __future__ import annotations

from fractions import Fraction
from math import comb

import numpy as np

from sim.struggle.components import SeaRules

ARRIVE, RETURN, DESTROYED = 0, 1, 2
OUTCOMES = ("arrive", "return", "destroyed")


def roll_outcome(first: int, second: int, navigation: bool, rules: SeaRules = SeaRules()) -> int:
    """SOE-11.1: the outcome of one unit's roll (first die, and the re-roll used after a 1)."""
    if first >= rules.arrive_min_first:
        return ARRIVE
    second += rules.navigation_bonus if navigation else 0
    if second <= rules.destroyed_max_second:
        return DESTROYED
    if second <= rules.return_max_second:
        return RETURN
    return ARRIVE


def outcome_table(navigation: bool, rules: SeaRules = SeaRules()) -> np.ndarray:
    """Outcome code for each of the 36 (first, second) rolls, index (first-1)*6 + (second-1)."""
    return np.array([roll_outcome(f, s, navigation, rules) for f in range(1, 7) for s in range(1, 7)],
                    dtype=np.uint8)


def unit_odds(navigation: bool = False, rules: SeaRules = SeaRules()) -> dict[str, Fraction]:
    """SOE-11.1 exact law for one unit (Example SOE-E8: 8/9, 1/18, 1/18; Navigation 17/18,
    1/18, 0)."""
    counts = np.bincount(outcome_table(navigation, rules), minlength=3)
    return {name: Fraction(int(c), 36) for name, c in zip(OUTCOMES, counts)}


def group_odds(units: int, navigation: bool = False,
               rules: SeaRules = SeaRules()) -> dict[tuple[int, int, int], Fraction]:
    """Exact joint law of (arrived, returned, destroyed) for `units` moved together (independent
    rolls, SOE-11.1): multinomial."""
    p = unit_odds(navigation, rules)
    law: dict[tuple[int, int, int], Fraction] = {}
    for a in range(units + 1):
        for r in range(units - a + 1):
            d = units - a - r
            q = comb(units, a) * comb(units - a, r) * p["arrive"] ** a * p["return"] ** r * p["destroyed"] ** d
            if q:
                law[(a, r, d)] = q
    return law


def arrivals_odds(units: int, navigation: bool = False, rules: SeaRules = SeaRules()) -> dict[int, Fraction]:
    """Exact law of the number of units (of `units` moved together) that arrive: binomial."""
    p = unit_odds(navigation, rules)["arrive"]
    return {a: comb(units, a) * p ** a * (1 - p) ** (units - a) for a in range(units + 1)}


def sea_rolls(rng: np.random.Generator, n: int, navigation=False, rules: SeaRules = SeaRules()) -> np.ndarray:
    """SOE-11.1 in bulk: one outcome code per unit from one draw 0..35 each; `navigation` may be
    a per-unit boolean array."""
    k = rng.integers(0, 36, size=n, dtype=np.uint8)
    tables = np.stack([outcome_table(False, rules), outcome_table(True, rules)])
    nav = np.asarray(navigation, dtype=bool)
    if nav.ndim == 0:
        return tables[int(nav)][k]
    return tables[nav.astype(np.intp), k]


def sea_moves(rng: np.random.Generator, units, navigation=False,
              rules: SeaRules = SeaRules()) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """SOE-11.1 for N moves of `units[i]` units each (independent rolls): per-move counts of
    (arrived, returned, destroyed). Draws max(units) rolls per move; unused rolls are ignored."""
    units = np.asarray(units, dtype=np.int64).reshape(-1)
    if np.any(units < 0):
        raise ValueError("sea_moves: unit counts must be >= 0")
    width = int(units.max(initial=0))
    nav = np.broadcast_to(np.asarray(navigation, dtype=bool).reshape(-1) if np.ndim(navigation) else
                          np.asarray(navigation, dtype=bool), units.shape)
    codes = sea_rolls(rng, units.size * width, np.repeat(nav, width), rules).reshape(units.size, width)
    used = np.arange(width) < units[:, None]
    return tuple((used & (codes == c)).sum(axis=1) for c in (ARRIVE, RETURN, DESTROYED))
