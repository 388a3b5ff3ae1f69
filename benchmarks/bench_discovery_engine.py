"""Age of Discovery engine: whole 4-player games per second per core with the scripted players
(target 100, stretch 1,000), with random-legal players, and the projected 10,000-game study.

The players' caches (colony VP per count vector, set income per holding, exact expedition odds)
live for the process, so one warm-up batch is played first; the headline is the median over
fresh seeds.
"""

from __future__ import annotations

import statistics
import time

from benchmarks.harness import Figure, compiled_gain
from sim.core.seating import Seating
from sim.discovery.play import BATCH, components_of, new_engine

POWERS = ("red", "blue", "yellow", "green")
SCRIPTED = Seating(POWERS, ("explorer", "colonist", "merchant", "builder"))
RANDOM = Seating(POWERS, ("random",) * 4)
FRESH_SEEDS = (1, 2, 3)
CHILD = ("import time; from benchmarks.bench_discovery_engine import SCRIPTED, play_once; "
         "play_once(SCRIPTED, 0, 32); t = time.process_time(); play_once(SCRIPTED, 1); "
         "print(time.process_time() - t)")                # `compiled_gain`


def play_once(seating: Seating, seed: int, games: int = BATCH) -> float:
    e = new_engine(components_of(None), [seating] * games, seed, range(games))
    start = time.perf_counter()
    e.play()
    return time.perf_counter() - start


def run(dice_rate: float) -> list[Figure]:
    play_once(SCRIPTED, 0, 32)                     # warm caches and the trade kernel's table
    scripted = BATCH / statistics.median(play_once(SCRIPTED, seed) for seed in FRESH_SEEDS)
    random = BATCH / statistics.median(play_once(RANDOM, seed) for seed in FRESH_SEEDS)
    return [
        Figure(f"AoD 4-player games, scripted players, one core (batch {BATCH})", scripted, "games/s",
               scripted / 100, "target 100 games/s"),
        Figure("AoD 4-player games, random-legal players, one core", random, "games/s"),
        Figure("AoD 10,000-game 4-player study, 2 cores (projected)", 10_000 / scripted / 2, "s", None,
               "target 120 s"),
    ] + compiled_gain("discovery", "AoD", CHILD)
