"""Struggle of Empires engine: whole 4-player games per second per core with the scripted
players, decisions per second, and where the time goes (array passes of the players over the
batch, bulk steps, per-game player logic, the engine's rules).

Games run in batches of `play.BATCH` (the batch of every study). The players' exact attack
laws are kept for the life of the process, so the first games of a process compute many new
laws and later ones few: the headline is the median of fresh seeds after one warm-up batch; a
second figure replays seeds already played (every law known), the floor a long study tends to.
"""

from __future__ import annotations

import statistics
import time
from contextlib import contextmanager

from benchmarks.harness import Figure, compiled_gain
from sim.core.seating import Seating
from sim.struggle import scripted
from sim.struggle.components import default_components
from sim.struggle.engine import Engine
from sim.struggle.play import BATCH, new_engine

SEATING = Seating(("great_britain", "france", "spain", "russia"), ("colonial", "european", "mixed", "opportunist"))
BULK = ("_duels", "income_upkeep_growth", "score_war", "end_game")
PLAYER = ("choose_action", "bid", "place_setup_unit", "free_actions", "war_office_attack", "help", "fight_naval",
          "refuse_battle", "use_blockade_defence")
FRESH_SEEDS = (1, 2, 3, 4, 5)
CHILD = ("import time; from benchmarks.bench_struggle_engine import play_once; play_once(0); "
         "t = time.process_time(); play_once(1); print(time.process_time() - t)")   # `compiled_gain`


@contextmanager
def timed(owner, names, bucket: list[float]):
    """Wrap functions `names` of a class or module so their wall time adds to bucket[0]
    (outermost calls only)."""
    originals = {n: getattr(owner, n) for n in names}
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
        setattr(owner, n, wrap(fn))
    try:
        yield
    finally:
        for n, fn in originals.items():
            setattr(owner, n, fn)


def play_once(seed: int) -> tuple[float, int]:
    e = new_engine(default_components(), [SEATING] * BATCH, seed, range(BATCH))
    start = time.perf_counter()
    e.play()
    return time.perf_counter() - start, e.decisions


def run(dice_rate: float) -> list[Figure]:
    play_once(0)                                   # warm caches (exact laws, data)
    runs = [play_once(seed) for seed in FRESH_SEEDS]
    seconds = statistics.median(r[0] for r in runs)
    decisions = statistics.median(r[1] for r in runs)
    known = statistics.median(play_once(seed)[0] for seed in FRESH_SEEDS[:3])
    passes, bulk, player = [0.0], [0.0], [0.0]
    with timed(scripted.ScriptedWork, ("prepare",), passes), timed(Engine, BULK, bulk), \
            timed(scripted.ScriptedPlayer, PLAYER, player):
        total, _ = play_once(FRESH_SEEDS[0])
    rate = BATCH / seconds
    return [
        Figure(f"SoE 4-player games, scripted players, one core (batch {BATCH})", rate, "games/s", rate / 100,
               "target 100 games/s"),
        Figure("SoE 4-player games, exact laws all known (seeds replayed)", BATCH / known, "games/s",
               BATCH / known / 100, "target 100 games/s"),
        Figure("SoE player decisions", decisions / seconds, "decisions/s"),
        Figure("SoE share of time in the players' array passes over the batch", 100 * passes[0] / total, "%"),
        Figure("SoE share of time in bulk steps (duels, income, scoring, end)", 100 * bulk[0] / total, "%"),
        Figure("SoE share of time in per-game player logic", 100 * player[0] / total, "%"),
        Figure("SoE share of time in the engine's rules and bookkeeping",
               100 * (total - passes[0] - bulk[0] - player[0]) / total, "%"),
        Figure("SoE 10,000-game 4-player study, 2 cores (projected)", 10_000 / rate / 2, "s", None, "target 120 s"),
    ] + compiled_gain("struggle", "SoE", CHILD)
