"""Golden workloads of Conquest of the Empire (see tests/golden.py): 12 four-player games with
the scripted strategies rotating over seats, and 10 games of 2-6 players with random colours,
strategies and interventions."""

from __future__ import annotations

import numpy as np

from sim.conquest.play import INFO
from sim.core.seating import Seating

POWERS = INFO.powers
STRATEGIES = ("expansionist", "fortifier", "hunter", "siege_train", "random")
INTERVENTIONS = ("", "+force=catapult", "+ban=city", "+grant_talents=20", "+force=road")


def four_players() -> tuple[int, list[int], list[Seating]]:
    strat = ("expansionist", "fortifier", "hunter", "siege_train")
    seatings = [Seating(tuple(POWERS[(j + i // 4) % 6] for j in range(4)), tuple(strat[(j + i) % 4] for j in range(4)))
                for i in range(12)]
    return 1, list(range(12)), seatings


def mixed_players() -> tuple[int, list[int], list[Seating]]:
    rng = np.random.default_rng(20261201)
    seatings = []
    for _ in range(10):
        n = int(rng.integers(2, 7))
        powers = tuple(POWERS[i] for i in rng.permutation(6)[:n])
        strategies = tuple(STRATEGIES[int(rng.integers(len(STRATEGIES)))]
                           + (INTERVENTIONS[int(rng.integers(len(INTERVENTIONS)))] if rng.random() < 0.3 else "")
                           for _ in range(n))
        seatings.append(Seating(powers, strategies))
    return 7, [int(i) for i in rng.integers(0, 10**6, 10)], seatings


WORKLOADS = {"four_players": four_players(), "mixed_players": mixed_players()}
