"""Golden workloads of Struggle of Empires (see tests/golden.py): 64 four-player games with the
scripted strategies rotating over seats and powers, and 40 games of 2-7 players with random
powers, strategies and interventions."""

from __future__ import annotations

import numpy as np

from sim.core.seating import Seating
from sim.struggle.play import INFO

POWERS = INFO.powers

STRATEGIES = ("colonial", "european", "mixed", "opportunist", "random")
INTERVENTIONS = ("", "+force=war_office", "+ban=navigation", "+grant_gold=3", "+force=south_sea")


def four_players() -> tuple[int, list[int], list[Seating]]:
    strat = ("colonial", "european", "mixed", "random")
    seatings = [Seating(tuple(POWERS[(j + i // 4) % 7] for j in range(4)),
                        tuple(strat[(j + i) % 4] for j in range(4))) for i in range(64)]
    return 1, list(range(64)), seatings


def mixed_players() -> tuple[int, list[int], list[Seating]]:
    rng = np.random.default_rng(20261201)
    seatings = []
    for _ in range(40):
        n = int(rng.integers(2, 8))
        powers = tuple(POWERS[i] for i in rng.permutation(7)[:n])
        strategies = tuple(STRATEGIES[int(rng.integers(len(STRATEGIES)))]
                           + (INTERVENTIONS[int(rng.integers(len(INTERVENTIONS)))] if rng.random() < 0.3 else "")
                           for _ in range(n))
        seatings.append(Seating(powers, strategies))
    return 7, [int(i) for i in rng.integers(0, 10**6, 40)], seatings


WORKLOADS = {"four_players": four_players(), "mixed_players": mixed_players()}
