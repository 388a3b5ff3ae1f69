"""Core dice kernels against the numpy int8 dice ceiling."""

from __future__ import annotations

import numpy as np

from benchmarks.harness import Figure, median_seconds
from sim.core import dice

N = 10_000_000


def run(dice_rate: float) -> list[Figure]:
    rng = np.random.default_rng(1)
    d6_rate = N / median_seconds(lambda: dice.d6(rng, N))
    pair_rate = N / median_seconds(lambda: dice.PAIR_DIFF[dice.pairs(rng, N)])
    duel_rate = N / median_seconds(lambda: dice.duels(rng, N))
    return [
        Figure("sim.core.dice.d6", d6_rate / 1e6, "M dice/s", d6_rate / dice_rate, "numpy int8 dice"),
        Figure("2d6 difference via one draw per pair (+ table)", pair_rate / 1e6, "M pairs/s",
               2 * pair_rate / dice_rate, "dice ceiling (2 dice per pair)"),
        Figure("two 2d6 rolls via one uint16 draw per duel", duel_rate / 1e6, "M duels/s",
               4 * duel_rate / dice_rate, "dice ceiling (4 dice per duel)"),
    ]
