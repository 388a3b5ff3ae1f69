"""Golden workloads of Age of Discovery (see tests/golden.py): 24 four-player games with the
scripted strategies and the random baseline rotating over seats and colours, and 20 games of 2-5
players with random colours, strategies and interventions (building force / ban, granted money)."""

from __future__ import annotations

import numpy as np

from sim.core.seating import Seating
from sim.discovery.play import INFO

POWERS = INFO.powers
STRATEGIES = INFO.strategies
INTERVENTIONS = ("", "+force=factory", "+ban=settlers", "+grant_money=5", "+force=new_world_cartography")


def four_players() -> tuple[int, list[int], list[Seating]]:
    strat = ("explorer", "colonist", "merchant", "builder", "general", "random")
    seatings = [Seating(tuple(POWERS[(j + i) % 5] for j in range(4)),
                        tuple(strat[(j + i) % 6] for j in range(4))) for i in range(24)]
    return 1, list(range(24)), seatings


def mixed_players() -> tuple[int, list[int], list[Seating]]:
    rng = np.random.default_rng(20261201)
    seatings = []
    for _ in range(20):
        n = int(rng.integers(2, 6))
        powers = tuple(POWERS[i] for i in rng.permutation(5)[:n])
        strategies = tuple(STRATEGIES[int(rng.integers(len(STRATEGIES)))]
                           + (INTERVENTIONS[int(rng.integers(len(INTERVENTIONS)))] if rng.random() < 0.3 else "")
                           for _ in range(n))
        seatings.append(Seating(powers, strategies))
    return 7, [int(i) for i in rng.integers(0, 10**6, 20)], seatings


WORKLOADS = {"four_players": four_players(), "mixed_players": mixed_players()}
