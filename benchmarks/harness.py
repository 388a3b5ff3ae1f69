"""Timing helpers for `make bench`.

The machine is shared and noisy, so every figure is the median of several repetitions, and
every throughput is also given as a ratio to a ceiling measured in the same run (the numpy
int8 dice rate): ratios stay stable when absolute speed drifts.
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

CEILING_DICE = 10_000_000


@dataclass(frozen=True)
class Figure:
    """One printed benchmark line."""

    name: str
    value: float
    unit: str
    ratio: float | None = None
    ratio_to: str = ""


def median_seconds(fn: Callable[[], object], reps: int = 7, warmup: int = 1) -> float:
    """Median wall time of `fn()` over `reps` runs after `warmup` untimed runs."""
    for _ in range(warmup):
        fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def dice_ceiling(reps: int = 7) -> float:
    """Dice per second of `Generator.integers(1, 7, n, dtype=int8)`: the numpy API ceiling."""
    rng = np.random.default_rng(0)
    seconds = median_seconds(lambda: rng.integers(1, 7, CEILING_DICE, dtype=np.int8), reps)
    return CEILING_DICE / seconds
