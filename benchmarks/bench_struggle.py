"""Struggle of Empires combat kernels: bulk battles against the dice ceiling / 4, whole attacks,
and exact odds per new and per repeated configuration (the d6 rate itself is in bench_core_dice)."""

from __future__ import annotations

import statistics
import time

import numpy as np

from benchmarks.harness import Figure, median_seconds
from sim.struggle import combat, combat_exact

N = 10_000_000
N_ATTACKS = 1_000_000


def run(dice_rate: float) -> list[Figure]:
    rng = np.random.default_rng(7)
    att = rng.integers(1, 9, N).astype(np.int8)
    dfn = rng.integers(1, 9, N).astype(np.int8)
    duel_rate = N / median_seconds(lambda: combat.duel(rng, att, dfn))
    a = att[:N_ATTACKS]
    d = dfn[:N_ATTACKS]
    land_rate = N_ATTACKS / median_seconds(lambda: combat.resolve_attacks(rng, a, def_armies=d, def_forts=1), reps=3)
    naval_rate = N_ATTACKS / median_seconds(
        lambda: combat.resolve_attacks(rng, a, def_armies=d, att_fleets=2, def_fleets=1, naval_phase=True,
                                       att_reserves=1, def_reserves=1), reps=3)
    new, repeated = _exact_times()
    return [
        Figure("bulk battles: combat.duel (winner + two 7 flags)", duel_rate / 1e6, "M battles/s",
               4 * duel_rate / dice_rate, "dice ceiling / 4 (target >= 1.2)"),
        Figure("bulk attacks: resolve_attacks, land + losses + control", land_rate / 1e6, "M attacks/s",
               4 * land_rate / dice_rate, "dice ceiling / 4"),
        Figure("bulk attacks: naval then land, reserves 1/1", naval_rate / 1e6, "M attacks/s",
               4 * naval_rate / dice_rate, "dice ceiling / 4"),
        Figure("exact odds, new configuration (median)", new * 1e6, "us (target <= 50)"),
        Figure("exact odds, repeated configuration (median)", repeated * 1e6, "us (target <= 1)"),
    ]


def _exact_times() -> tuple[float, float]:
    """Median time of `attack_odds` for configurations not seen before (land battles with forts,
    training and bonuses; the per-margin dice laws are warm, as in any session after the first
    call) and for a configuration asked again."""
    combat_exact.duel_law.cache_clear()
    combat_exact.attack_odds.cache_clear()
    for base in range(-combat.MARGIN_CLIP, combat.MARGIN_CLIP + 1):
        combat_exact.duel_law(base)
    configs = [combat_exact.Attack(att_armies=a, def_armies=d, def_forts=f, att_army_training=t, att_bonus=b)
               for a in range(1, 15) for d in range(0, 15) for f in range(3) for t in range(2) for b in range(3)]
    new = []
    for attack in configs[:2000]:
        start = time.perf_counter()
        combat_exact.attack_odds(attack)
        new.append(time.perf_counter() - start)
    again = configs[0]
    repeated = []
    for _ in range(2000):
        start = time.perf_counter()
        combat_exact.attack_odds(again)
        repeated.append(time.perf_counter() - start)
    return statistics.median(new), statistics.median(repeated)
