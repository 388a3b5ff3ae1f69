"""A Few Acres of Snow engine: whole games per second per core with the scripted players (and
with the random-legal player), and the game length beside the real games.

The length check: turns per game of the scripted pairings (one turn = one side's turn, AFS-5.2)
printed beside the five real Yucata games of shared/data/yucata_acres (82-215 history moves:
123, 215, 96, 186, 175). A history move is one recorded move of the game page, an action or a
reaction rather than a turn, so the two scales are close but not equal: the check is only that
the simulated games are neither a handful of turns nor hundreds. The 10,000-game study is also run
as a user runs it, on 2 cores, and timed whole. It plays the default pairing (hammer against
raider), whose games are shorter and ask for fewer siege estimates than the bench's mix of four
pairings, so the rate of that pairing alone is printed beside the mix: it, not a warmer cache,
is why the study beats the projection from the mix (the siege-odds cache takes about as many new
estimates per game after 3,000 games as in the first 256).

The compiled modules (sim.compiled) are compared with the pure-Python reference in the same run
(`harness.compiled_gain`).
"""

from __future__ import annotations

import subprocess
import sys
import time

import numpy as np

from benchmarks.harness import Figure, compiled_gain
from sim.acres.play import play_games
from sim.core.seating import Seating

PAIRS = (("hammer", "raider"), ("settler", "fortress"), ("balanced", "balanced"), ("hammer", "fortress"))
GAMES = 16                                        # per pairing
REAL_MOVES = (123, 215, 96, 186, 175)             # shared/data/yucata_acres/README.md
CHILD = ("from benchmarks.bench_acres_engine import GAMES, PAIRS, _play; _play(PAIRS[:1], 2, 0); "
         "print(_play(PAIRS, GAMES, 1)[1])")      # the headline games' CPU seconds (`compiled_gain`)


def _play(pairs, games: int, seed: int):
    """(wall seconds, CPU seconds, the British rows) of `games` games per pairing."""
    seatings = [Seating(("british", "french"), pair) for pair in pairs for _ in range(games)]
    start, cpu = time.perf_counter(), time.process_time()
    table = play_games(seed, list(range(len(seatings))), seatings)
    return time.perf_counter() - start, time.process_time() - cpu, table[table.seat == 0]


def measured_study(games: int = 10_000, jobs: int = 2) -> float:
    """Wall seconds of the study itself: `empires play acres --games 10000 --jobs 2` (the default
    strategies, seats rotated), start-up and workers included."""
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "sim", "play", "acres", "--games", str(games), "--jobs", str(jobs), "--quiet"],
                   check=True, capture_output=True)
    return time.perf_counter() - start


def run(dice_rate: float) -> list[Figure]:
    _play(PAIRS[:1], 2, 0)                        # warm the data and the siege-odds cache
    seconds, cpu, rows = _play(PAIRS, GAMES, 1)
    rate = len(rows) / seconds
    study_seconds, _, study_rows = _play(PAIRS[:1], 4 * GAMES, 3)
    study_rate = len(study_rows) / study_seconds
    random_seconds, _, _ = _play((("random", "random"),), GAMES, 2)
    turns = rows.turns.to_numpy()
    q = np.percentile(turns, [5, 50, 95])
    figures = [
        Figure("AFAoS games, scripted players, one core", rate, "games/s", rate / 200, "target 200 games/s"),
        Figure("AFAoS games, scripted players, per CPU second (a shared machine's load aside)", len(rows) / cpu,
               "games/s"),
        Figure("AFAoS games, random-legal players, one core", GAMES / random_seconds, "games/s"),
        Figure("AFAoS games, hammer against raider (the study's default pairing), one core", study_rate, "games/s",
               study_rate / 200, "target 200 games/s"),
        Figure("AFAoS 10,000-game scripted study, 2 cores (projected from the mix)", 10_000 / rate / 2, "s", None,
               "target 60 s"),
        Figure("AFAoS 10,000-game scripted study, 2 cores (projected from its pairing)", 10_000 / study_rate / 2, "s",
               None, "target 60 s"),
        Figure("AFAoS 10,000-game scripted study, 2 cores (measured: empires play acres --games 10000 --jobs 2)",
               measured_study(), "s", None, "target 60 s"),
        Figure("AFAoS turns per game, scripted: 5th percentile", float(q[0]), "turns"),
        Figure("AFAoS turns per game, scripted: median", float(q[1]), "turns"),
        Figure("AFAoS turns per game, scripted: 95th percentile", float(q[2]), "turns"),
        Figure("AFAoS real Yucata games: fewest history moves", float(min(REAL_MOVES)), "moves"),
        Figure("AFAoS real Yucata games: median history moves", float(np.median(REAL_MOVES)), "moves"),
        Figure("AFAoS real Yucata games: most history moves", float(max(REAL_MOVES)), "moves"),
    ]
    for reason, share in rows.end_reason.value_counts(normalize=True).sort_index().items():
        figures.append(Figure(f"AFAoS scripted games ending by {reason}", 100 * share, "%"))
    return figures + compiled_gain("acres", "AFAoS", CHILD)
