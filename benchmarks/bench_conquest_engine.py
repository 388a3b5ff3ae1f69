"""Conquest of the Empire engine: whole 4-player games per second per core with the scripted
players (one of each strategy), played to a winner or the turn cap, decisions-heavy parts
timed, and the projected 10,000-game study on 2 cores.

The players' exact battle solutions are kept for the life of the process, so the headline is
the median of fresh seeds after one warm-up batch. No module of CotE is compiled (sim.compiled:
compiled, its games were no faster), so no compiled gain is printed.
"""

from __future__ import annotations

import statistics
import time

from benchmarks.harness import Figure
from sim.conquest.components import default_components
from sim.conquest.play import new_engine
from sim.core.seating import Seating

SEATING = Seating(("red", "blue", "green", "yellow"), ("expansionist", "fortifier", "hunter", "siege_train"))
BATCH = 64
FRESH_SEEDS = (1, 2, 3)


def play_once(seed: int) -> tuple[float, int]:
    e = new_engine(default_components(), [SEATING] * BATCH, seed, range(BATCH))
    start = time.perf_counter()
    e.play()
    return time.perf_counter() - start, int(e.s.turn.sum())


def run(dice_rate: float) -> list[Figure]:
    play_once(0)                                   # warm the exact-odds cache and the data
    runs = [play_once(seed) for seed in FRESH_SEEDS]
    seconds = statistics.median(r[0] for r in runs)
    turns = statistics.median(r[1] for r in runs)
    rate = BATCH / seconds
    return [
        Figure(f"CotE 4-player games, scripted players, one core (batch {BATCH})", rate, "games/s", rate / 50,
               "target 50 games/s"),
        Figure("CotE player turns", turns / seconds, "turns/s"),
        Figure("CotE 10,000-game 4-player study, 2 cores (projected)", 10_000 / rate / 2, "s", None, "target 180 s"),
    ]
