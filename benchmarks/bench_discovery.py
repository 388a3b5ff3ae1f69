"""Age of Discovery trade grouping (AOD-10): player-evaluations per second for a batch.

The optimum of every sorted count vector is tabulated once (timed separately); a batch is then
sorted, ranked and looked up. The ratio is players per 1000 dice of the numpy int8 ceiling
(one player-evaluation costs as much time as 1000 / ratio dice).
"""

from __future__ import annotations

import time

import numpy as np

from benchmarks.harness import Figure, median_seconds
from sim.discovery import trade
from sim.discovery.components import load_components

BATCH = 200_000


def run(dice_rate: float) -> list[Figure]:
    goods = load_components().goods
    trade._solver.cache_clear()
    start = time.perf_counter()
    trade.income(goods, np.zeros((1, len(goods.names)), dtype=np.int64), 0)
    build = time.perf_counter() - start
    rng = np.random.default_rng(1)
    stock = np.repeat(np.arange(len(goods.names)), goods.stock)
    drawn = stock[rng.random((BATCH, len(stock))).argsort(axis=1)[:, :12]]
    counts = (drawn[..., None] == np.arange(len(goods.names))).sum(axis=1)
    ships = rng.integers(0, 4, BATCH)
    grouped = BATCH / median_seconds(lambda: trade.arrange(goods, counts, ships), reps=5)
    value = BATCH / median_seconds(lambda: trade.income(goods, counts, ships), reps=5)
    per_k_dice = dice_rate / 1e3
    return [
        Figure("trade optimum table build (once per rules configuration)", build, "s"),
        Figure(f"trade grouping + income, batch of {BATCH:,} (12 goods, 0-3 ships)", grouped / 1e3,
               "k players/s", grouped / per_k_dice, "1000 int8 dice"),
        Figure(f"trade income only, batch of {BATCH:,}", value / 1e3, "k players/s", value / per_k_dice,
               "1000 int8 dice"),
    ]
