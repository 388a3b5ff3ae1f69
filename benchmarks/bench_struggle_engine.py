"""Struggle of Empires engine: whole 4-player games per second per core with the scripted
players, decisions per second, and the share of time in the bulk steps vs player logic.

The players' exact attack odds are memoised per configuration for the life of the process, so
the first games of a process compute many new laws; the headline figure is measured on fresh
seeds after one warm-up batch, and a second figure replays a seed already played (every law
cached), which is the steady state of a long study."""

from __future__ import annotations

import time
from contextlib import contextmanager

from benchmarks.harness import Figure
from sim.core.seating import Seating
from sim.struggle import players as players_module
from sim.struggle.components import default_components
from sim.struggle.engine import Engine

GAMES = 64
SEATING = Seating(("great_britain", "france", "spain", "russia"), ("colonial", "european", "mixed", "opportunist"))
BULK = ("_duels", "income_upkeep_growth", "score_war", "end_game")
PLAYER = ("choose_action", "bid", "place_setup_unit", "free_actions", "war_office_attack", "help", "fight_naval",
          "refuse_battle", "use_blockade_defence")


@contextmanager
def timed(cls, names, bucket: list[float]):
    """Wrap methods of `cls` so their wall time adds to bucket[0] (outermost calls only)."""
    originals = {n: getattr(cls, n) for n in names}
    depth = [0]

    def wrap(fn):
        def inner(*args, **kw):
            if depth[0]:
                return fn(*args, **kw)
            depth[0] += 1
            start = time.perf_counter()
            try:
                return fn(*args, **kw)
            finally:
                bucket[0] += time.perf_counter() - start
                depth[0] -= 1
        return inner

    for n, fn in originals.items():
        setattr(cls, n, wrap(fn))
    try:
        yield
    finally:
        for n, fn in originals.items():
            setattr(cls, n, fn)


def play_once(seed: int) -> tuple[float, int]:
    e = Engine(default_components(), [SEATING] * GAMES, seed, range(GAMES))
    start = time.perf_counter()
    e.play()
    return time.perf_counter() - start, e.decisions


def run(dice_rate: float) -> list[Figure]:
    play_once(0)                                   # warm caches (exact odds, data)
    runs = [play_once(seed) for seed in (1, 2, 3)]
    seconds = sorted(r[0] for r in runs)[1]
    decisions = sorted(r[1] for r in runs)[1]
    warm = sorted(play_once(seed)[0] for seed in (1, 2, 3))[1]
    bulk, player = [0.0], [0.0]
    with timed(Engine, BULK, bulk), timed(players_module.ScriptedPlayer, PLAYER, player):
        total, _ = play_once(4)
    games_rate = GAMES / seconds
    return [
        Figure("SoE 4-player games, scripted players, one core", games_rate, "games/s", games_rate / 100,
               "target 100 games/s"),
        Figure("SoE 4-player games, exact-odds cache warm (seeds replayed)", GAMES / warm, "games/s",
               GAMES / warm / 100, "target 100 games/s"),
        Figure("SoE player decisions", decisions / seconds, "decisions/s"),
        Figure("SoE share of time in bulk steps (duels, income, scoring, end)", 100 * bulk[0] / total, "%"),
        Figure("SoE share of time in player logic", 100 * player[0] / total, "%"),
        Figure("SoE 10,000-game 4-player study, 2 cores (projected)", 10_000 / games_rate / 2, "s", None,
               "target 120 s"),
    ]
