"""Conquest of the Empire, scripted games: how fast the engine alone plays them
(`python -m benchmarks.conquest_ceilings`; docs/conquest_engine.md, "Speed").

The bench's four-player games (`bench_conquest_engine`: one player of each strategy, batches of
64) are played with the scripted players, and every answer they give the engine is recorded (each
decision of `players.SeatPlayer`, per game and seat, in order). The same games are then replayed
by players that return the recorded answers: the players' random streams are their own, so every
draw and every game is the same (checked on the final boards), and the time left is the engine's
own, what players that cost nothing would leave. So the ceiling says how far compiling or
rewriting the players alone could take the games per second. Replays and fresh scripted batches
alternate; medians are printed.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections import deque
from collections.abc import Callable
from typing import Any

import numpy as np

from benchmarks.bench_conquest_engine import BATCH, SEATING
from sim.conquest.components import default_components
from sim.conquest.play import new_engine
from sim.conquest.players import SeatPlayer

DECISIONS = tuple(name for name in vars(SeatPlayer) if not name.startswith("_") and callable(getattr(SeatPlayer, name)))
Answers = dict[tuple[int, int], deque]


def _board(engine) -> bytes:
    """What a game came to, to tell a replay from another game: the end, the treasuries, control and pieces."""
    s = engine.s
    return b"".join(np.ascontiguousarray(a).tobytes() for a in (s.end_reason, s.treasury, s.control, s.land, s.alive))


def _recording(player, answers: deque) -> None:
    """Record every decision of `player` into `answers` (its own methods, wrapped on the instance)."""
    for name in DECISIONS:
        decide = getattr(player, name)

        def recorded(*args, _decide: Callable = decide, **kwargs) -> Any:
            answer = _decide(*args, **kwargs)
            answers.append(_copy(answer))
            return answer

        setattr(player, name, recorded)


def _replaying(player, answers: deque) -> None:
    """Answer every decision of `player` from `answers`, in order."""
    for name in DECISIONS:
        setattr(player, name, lambda *args, **kwargs: _copy(answers.popleft()))


def _copy(answer: Any) -> Any:
    """An answer the engine may change (a list) copied, the rest as it is: the actions are frozen
    dataclasses and the unit counts tuples, and a deep copy of each would cost the engine's time."""
    return list(answer) if isinstance(answer, list) else answer


def play(seed: int, answers: Answers | None = None, record: bool = False, games: int = BATCH) -> tuple[float, bytes]:
    """(CPU seconds of one batch's play, its final boards): scripted, scripted and recorded into
    `answers` (`record`), or replayed from `answers`."""
    engine = new_engine(default_components(), [SEATING] * games, seed, range(games))
    for g, seats in enumerate(engine.players):
        for p, player in enumerate(seats):
            if answers is not None:
                queue = answers.setdefault((g, p), deque()) if record else deque(answers[(g, p)])
                (_recording if record else _replaying)(player, queue)
    start = time.process_time()
    engine.play()
    return time.process_time() - start, _board(engine)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5, help="alternating runs of each (default 5)")
    args = parser.parse_args(argv)
    play(0)                                                   # warm the exact-odds cache and the data
    answers: Answers = {}
    _, board = play(1, answers, record=True)
    scripted, alone = [], []
    for run in range(args.runs):
        scripted.append(play(2 + run)[0])                       # a fresh seed each time, as the bench
        seconds, replayed = play(1, answers)
        if replayed != board:
            raise SystemExit("the replay did not play the recorded games")
        alone.append(seconds)
    fresh, engine = statistics.median(scripted), statistics.median(alone)
    print(f"{BATCH} four-player games a batch, {args.runs} alternating runs, CPU seconds (median):")
    print(f"  scripted players, fresh seeds: {fresh:.2f} s  {BATCH / fresh:.1f} games/s")
    print(f"  the engine alone (recorded answers, seed 1, the same games): {engine:.2f} s  {BATCH / engine:.1f} games/s")
    print(f"  the engine's share of a scripted batch: {engine / fresh:.2f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
