"""Timing helpers for `make bench`.

The machine is shared and noisy, so every figure is the median of several repetitions, and
every throughput is also given as a ratio to a ceiling measured in the same run (the numpy
int8 dice rate): ratios stay stable when absolute speed drifts.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from sim import compiled

CEILING_DICE = 10_000_000
PAIRED_RUNS = 5                   # alternating compiled / pure-Python child runs of `compiled_gain` (3 were too few:
                                  # the same code gave 0.7 % and 7 % on one day, docs/performance.md)


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


def _child_cpu_seconds(code: str, pure: bool) -> float:
    out = subprocess.run([sys.executable, "-c", code], env=compiled.environment(pure), capture_output=True, text=True,
                         check=True)
    return float(out.stdout.split()[-1])


def compiled_gain(game: str, title: str, code: str) -> list[Figure]:
    """The compiled modules of `game` in use (sim.compiled) and, where there are any, how many
    more of the same games a CPU second plays with them than in pure Python: `code` (which prints
    its CPU seconds last) run in fresh processes, alternately with and without
    EMPIRES_PURE_PYTHON=1, the median of `PAIRED_RUNS` pairs."""
    listed = [m for m in compiled.MODULES if m.startswith(f"sim.{game}.")]
    used = [m for m in compiled.in_use() if m in listed]
    figures = [Figure(f"{title} compiled modules in use (sim.compiled)", len(used), f"of {len(listed)}")]
    if used:
        gain = statistics.median(_child_cpu_seconds(code, True) / _child_cpu_seconds(code, False)
                                 for _ in range(PAIRED_RUNS))
        figures.append(Figure(f"{title} games per CPU second, compiled over pure Python (median of {PAIRED_RUNS} pairs)",
                              100 * (gain - 1), "% more"))
    return figures
