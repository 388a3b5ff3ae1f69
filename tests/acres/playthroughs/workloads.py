"""Golden workloads of A Few Acres of Snow (see tests/golden.py): 20 games of the scripted
strategies, each British plan against each French plan and the balanced table on both sides, and
10 games with the random-legal player and interventions, all under the default rules."""

from __future__ import annotations

import numpy as np

from sim.core.seating import Seating

BRITISH = ("hammer", "settler", "balanced")
FRENCH = ("raider", "fortress", "balanced")
INTERVENTIONS = ("", "+force=regular_infantry", "+ban=settlers", "+grant_money=3", "+force=albany")


def scripted() -> tuple[int, list[int], list[Seating]]:
    pairs = [(b, f) for b in BRITISH for f in FRENCH] + [("hammer", "raider")]
    seatings = [Seating(("british", "french") if i % 2 == 0 else ("french", "british"),
                        (b, f) if i % 2 == 0 else (f, b)) for i, (b, f) in enumerate(pairs * 2)]
    return 3, list(range(len(seatings))), seatings


def mixed() -> tuple[int, list[int], list[Seating]]:
    rng = np.random.default_rng(20261201)
    strategies = ("random", "balanced", "hammer", "raider")
    seatings = []
    for _ in range(10):
        powers = ("british", "french") if rng.random() < 0.5 else ("french", "british")
        seatings.append(Seating(powers, tuple(strategies[int(rng.integers(len(strategies)))]
                                              + INTERVENTIONS[int(rng.integers(len(INTERVENTIONS)))]
                                              for _ in range(2))))
    return 11, [int(i) for i in rng.integers(0, 10**6, 10)], seatings


WORKLOADS = {"scripted": scripted(), "mixed": mixed()}
