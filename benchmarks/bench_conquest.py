"""Conquest of the Empire battles: bulk land-battle rounds per second against the dice ceiling,
and the exact solver's time for 10 vs 10 and 20 vs 20 mixed armies under the optimal policy."""

from __future__ import annotations

import time

import numpy as np

from benchmarks.harness import Figure, median_seconds
from sim.conquest import combat
from sim.conquest.combat import Army, LandBattle, Tactics, battle_tables
from sim.conquest.components import default_components
from sim.conquest.land_bulk import land_kernel
from sim.conquest.land_exact import solve_land
from sim.conquest.naval import Fleet, naval_kernel
from sim.conquest.policy import OPTIMAL, Objective
from sim.core.random import stream

BATTLES = 200_000
BIG = LandBattle(Army(12, 5, 3, 3), Army(12, 5, 3, 3), fortified=True)
EXACT = {
    "10 vs 10": LandBattle(Army(6, 3, 1, 2), Army(6, 3, 1, 2), fortified=True),
    "20 vs 20": BIG,
    "20 vs 20 (7/7/6 each)": LandBattle(Army(7, 7, 6, 3), Army(7, 7, 6, 3), fortified=True),
}
OBJECTIVE = Objective(unit_weight=0.01, leader_weight=0.3)


def run(dice_rate: float) -> list[Figure]:
    comps = default_components()
    A, D, ext, _ = battle_tables(BIG, comps, Tactics())
    kernel = land_kernel(BIG, comps, A, D, ext, lambda ia, id_: (np.zeros(len(ia), bool), np.zeros(len(ia), bool)))
    rounds = int(kernel(stream(1, 0, "bench"), BATTLES)["rounds"][0])
    seconds = median_seconds(lambda: kernel(stream(1, 0, "bench"), BATTLES), reps=5)
    rate = rounds / seconds
    dice_per_round = float(A.size.max() + D.size.max() + comps.land.fortified_dice_vs_catapult)
    figures = [Figure("CotE bulk land battle rounds (20 vs 20, fortified)", rate / 1e6, "M rounds/s",
                      rate * dice_per_round / dice_rate, f"dice ceiling ({dice_per_round:.0f} dice per round)"),
               Figure("CotE bulk land battles (20 vs 20, fortified)", BATTLES / seconds / 1e3, "k battles/s")]
    naval = naval_kernel(Fleet(8), Fleet(8), comps)
    n_sec = median_seconds(lambda: naval(stream(1, 0, "bench"), BATTLES), reps=5)
    figures.append(Figure("CotE bulk naval battles (8 vs 8 galleys)", BATTLES / n_sec / 1e6, "M battles/s"))
    for name, battle in EXACT.items():
        figures.append(Figure(f"CotE exact battle {name}, optimal policy (cold)", 1e3 * _cold(battle, comps), "ms"))
    return figures


def _cold(battle: LandBattle, comps) -> float:
    """Median seconds of a full exact solve with every per-battle cache emptied first."""
    times = []
    for _ in range(3):
        for cached in (combat.choose_formation, combat.choose_losses, combat.hit_pmf, combat._expected_min,
                       combat._symbol_grid):
            cached.cache_clear()
        start = time.perf_counter()
        solve_land(battle, comps, OPTIMAL, OPTIMAL, objective=OBJECTIVE)
        times.append(time.perf_counter() - start)
    return sorted(times)[1]
