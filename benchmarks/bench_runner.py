"""Experiment runner: parallel efficiency (2 workers over 1, same run) and runner overhead per game.

Measured on the toy dice race of tests/runner/toygame.py made CPU-heavy (TOYGAME_WORK, about a
millisecond per game) for the issue's 2,000-game run, and on a short Struggle of Empires run
when that engine is importable and plays.
Targets (issue: experiment runner): efficiency >= 0.85 on 2 cores for a 2,000-game run;
runner overhead < 5 % of the game's own time.
"""

from __future__ import annotations

import os
import tempfile
import time
from pathlib import Path

from benchmarks.harness import Figure
from sim import games
from sim.core import runner
from sim.core.design import balanced

GAMES = 2_000           # toy games per run (the 2,000-game run)
REAL_GAMES = 112        # Struggle of Empires games per run: 4 blocks of 4 strategies x 7 powers
PLAYERS = 4
TOY_WORK = "20"         # repeat each toy game 20 times: about a millisecond of CPU per game


def plan_for(name: str, engine, games_: int) -> runner.Plan:
    strategies = [s for s in engine.INFO.strategies if s != "random"][:PLAYERS]
    design = balanced(engine.INFO.powers, PLAYERS, strategies, engine.INFO.strategies, engine.INFO.min_players, engine.INFO.max_players)
    n = design.whole_blocks(games_)
    return runner.Plan(module=games.module_path(name), seed=1, design=design, games=n,
                       batch_size=runner.default_batch_size(design, n, 2), data=games.load_data(name, engine))


def timed(fn) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def engine_share(plan: runner.Plan, engine) -> tuple[float, float]:
    """(wall seconds of a stored --jobs 1 run, seconds of it spent inside the engine's play_games):
    measured in the same run, so machine noise hits both alike."""
    spent: list[float] = []
    original = engine.play_games

    def play_games(*args, **kwargs):
        start = time.perf_counter()
        try:
            return original(*args, **kwargs)
        finally:
            spent.append(time.perf_counter() - start)

    engine.play_games = play_games  # play_batch imports the same module object in this process
    try:
        with tempfile.TemporaryDirectory() as tmp:
            wall = timed(lambda: runner.run(plan, runner.new_run(Path(tmp) / "run", "bench", plan, engine)))
    finally:
        engine.play_games = original
    return wall, sum(spent)


def measure(name: str, plan: runner.Plan, engine, reps: int) -> list[Figure]:
    """Games/s with 1 and 2 workers (interleaved repetitions, best of each), and the runner's own
    time per game over the engine's."""
    warm = runner.Plan(plan.module, plan.seed, plan.design, 2 * plan.batch_size, plan.batch_size, plan.data)
    runner.run(warm, jobs=2)  # start both workers and import the engine there, outside the timing
    one, two = [], []
    for _ in range(reps):
        one.append(timed(lambda: runner.run(plan, jobs=1)))
        two.append(timed(lambda: runner.run(plan, jobs=2)))
    wall, inside = min((engine_share(plan, engine) for _ in range(reps)), key=lambda pair: pair[0] - pair[1])
    label = f"{name} {PLAYERS}-player games ({plan.games} per run)"
    return [
        Figure(f"{label}, --jobs 1", plan.games / min(one), "games/s"),
        Figure(f"{label}, --jobs 2", plan.games / min(two), "games/s", min(one) / min(two) / 2,
               "perfect 2-core scaling (parallel efficiency)"),
        Figure(f"{name}: runner overhead (batches, parts, manifest)", (wall - inside) / plan.games * 1e6,
               "us/game", (wall - inside) / inside, "the game's own time (overhead share)"),
    ]


def run(dice_rate: float) -> list[Figure]:
    os.environ["TOYGAME_WORK"] = TOY_WORK  # before any worker starts: workers inherit it
    games.register("toy", "tests.runner.toygame")
    figures = measure("toy", plan_for("toy", games.load("toy"), GAMES), games.load("toy"), reps=3)
    try:
        engine = games.load("struggle")
        figures += measure("struggle", plan_for("struggle", engine, REAL_GAMES), engine, reps=1)
    except Exception as exc:  # an engine still being written must not hide the runner's figures
        print(f"  (struggle engine not measured: {type(exc).__name__}: {str(exc)[:120]})")
    return figures
