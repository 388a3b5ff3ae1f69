"""A small but real game for testing the runner: a dice race with effects of known size.

Every turn each seat, in seat order, rolls a d6 and adds its strategy's and its power's bonus;
the first seat to reach TARGET points wins at once (so moving first is an advantage). The dice
of seat s come from `stream(root_seed, game_index, f"seat{s}")`: under common random numbers
the same dice go to whoever sits at s. No component data (`play_games(..., data=None)`).

Environment knobs, read at call time: TOYGAME_SLEEP (seconds per game, for kill-and-resume
tests) and TOYGAME_WORK (repeat each game's computation, to give it a measurable CPU cost).
"""

from __future__ import annotations

import os
import time

import numpy as np
import pandas as pd

from sim.core.contract import GameInfo
from sim.core.random import stream
from sim.core.lockstep import check_no_data, game_header, write_jsonl
from sim.core.seating import RESULT_COLUMNS, Seating

STRATEGY_BONUS = {"random": 0.0, "random2": 0.0, "strong": 1.0, "weak": -0.5}
POWER_BONUS = {"red": 0.25, "blue": 0.0, "green": 0.0, "yellow": -0.25}
INFO = GameInfo(name="toy", title="Toy dice race", rule_prefix="TOY", powers=tuple(POWER_BONUS),
                min_players=2, max_players=4, strategies=tuple(STRATEGY_BONUS),
                rules_edition="toy dice race 1", engine_version=1)
POWERS, STRATEGIES = INFO.powers, INFO.strategies
TARGET = 30
MAX_TURNS = TARGET  # a d6 roll of at least 1 - 0.75 > 0 per turn ends the race in time


def play_one(root_seed: int, game_index: int, seating: Seating) -> tuple[np.ndarray, int]:
    """Points per seat at the end of the race, and the number of turns played."""
    p = seating.players
    rolls = np.stack([stream(root_seed, game_index, f"seat{s}").integers(1, 7, MAX_TURNS) for s in range(p)])
    bonus = np.array([STRATEGY_BONUS[st] + POWER_BONUS[pw] for st, pw in zip(seating.strategies, seating.powers)])
    totals = np.cumsum(rolls + bonus[:, None], axis=1)              # (seat, turn)
    reached = totals >= TARGET
    first_turn = np.where(reached.any(axis=1), reached.argmax(axis=1), MAX_TURNS)
    turn = int(first_turn.min())
    winner = int(np.flatnonzero(first_turn == turn)[0])              # lowest seat moves first
    before = totals[:, turn - 1] if turn else np.zeros(p)
    points = np.where(np.arange(p) <= winner, totals[:, turn], before)  # later seats did not move yet
    return points, turn + 1


def load_data(overrides=(), variants=(), strategies=()) -> None:
    """The toy race has no component data."""
    check_no_data(INFO.name, overrides, variants)


def play_games(root_seed: int, game_indices, seatings, data=None, log=None) -> pd.DataFrame:
    """The game contract (sim.core.contract): one row per game and seat; `log`: a header and
    one "turns" event per game."""
    for seating in seatings:
        INFO.check_seating(seating)
    events = []
    sleep = float(os.environ.get("TOYGAME_SLEEP", "0"))
    work = int(os.environ.get("TOYGAME_WORK", "1"))
    rows = []
    for g, seating in zip(game_indices, seatings):
        for _ in range(work):
            points, turns = play_one(root_seed, int(g), seating)
        events.append((game_header(INFO.name, root_seed, g, seating),
                       [{"event": "race", "turns": turns, "points": [float(x) for x in points]}]))
        if sleep:
            time.sleep(sleep)
        rank = 1 + (points[None, :] > points[:, None]).sum(axis=1)  # tied players share a rank
        for s in range(seating.players):
            rows.append({"game_index": int(g), "seed": root_seed, "players": seating.players, "seat": s,
                         "power": seating.powers[s], "strategy": seating.strategies[s],
                         "vp": float(points[s]), "rank": int(rank[s]), "winner": bool(rank[s] == 1),
                         "length": turns})
    if log is not None:
        write_jsonl(log, events)
    return pd.DataFrame(rows, columns=[*RESULT_COLUMNS, "length"])


def check_games(root_seed: int, game_indices, seatings, data=None, step_cap: int = MAX_TURNS) -> pd.DataFrame:
    """The conformance hook (sim.core.conformance): `play_games` with the race's invariants
    checked after every turn -- points never fall, nobody passes the target before the winner's
    turn, the race ends within `step_cap` turns."""
    for g, seating in zip(game_indices, seatings):
        rolls = np.stack([stream(root_seed, int(g), f"seat{s}").integers(1, 7, MAX_TURNS)
                          for s in range(seating.players)])
        assert ((rolls >= 1) & (rolls <= 6)).all()
        points, turns = play_one(root_seed, int(g), seating)
        assert turns <= step_cap, f"game {g}: {turns} turns"
        assert points.max() >= TARGET and (points >= 0).all()
    return play_games(root_seed, game_indices, seatings, data)


def pid_after_a_pause() -> int:
    """The worker's process id, after a pause long enough for every worker of a pool to take a
    task (tests of worker reuse: a function a worker can import, unlike a test module's)."""
    time.sleep(0.2)
    return os.getpid()
