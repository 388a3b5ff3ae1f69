"""Bulk Monte Carlo land battles against the exact solver (within 4 standard errors)."""

import numpy as np
import pytest

from sim.conquest.combat import Army, LandBattle, Tactics
from sim.conquest.components import default_components, load_components
from sim.conquest.land_bulk import simulate_land
from sim.conquest.land_exact import solve_land
from sim.conquest.policy import FIGHT, OPTIMAL, Objective, RetreatPolicy
from sim.core.stats import binomial_se

COMPS = default_components()
N = 200_000

CASES = [  # (battle, attacker policy, defender policy, objective, tactics, seed)
    (LandBattle(Army(5, 2, 1, 2), Army(4, 2, 0, 1)), FIGHT, FIGHT, Objective(), Tactics(), 1),
    (LandBattle(Army(5, 2, 1, 2), Army(4, 2, 0, 1), fortified=True), RetreatPolicy("below", 3),
     RetreatPolicy("below", 2), Objective(), Tactics(), 2),
    (LandBattle(Army(6, 3, 2, 1), Army(8, 2, 0, 0), fortified=True), OPTIMAL, OPTIMAL,
     Objective(0.02, 0.3), Tactics(), 3),
    (LandBattle(Army(3, 3, 0, 0), Army(6, 1, 0, 2)), FIGHT, RetreatPolicy("below", 4), Objective(),
     Tactics("loss_order", ("cavalry", "infantry", "catapult"), "loss_order"), 4),
]


def assert_within_4_se(exact, mc, n):
    pe, pm = exact.probabilities(), mc.probabilities()
    for key in set(pe) | set(pm):
        p, q = pe.get(key, 0.0), pm.get(key, 0.0)
        se = float(binomial_se(min(max(p, 0.0), 1.0), n))
        assert abs(p - q) <= 4 * se + 1e-12, (key, p, q, se)


@pytest.mark.parametrize("battle, a_pol, d_pol, obj, tactics, seed", CASES)
def test_bulk_agrees_with_exact_within_4_se(battle, a_pol, d_pol, obj, tactics, seed):
    exact = solve_land(battle, COMPS, a_pol, d_pol, tactics, obj).odds
    mc = simulate_land(battle, COMPS, N, seed, a_pol, d_pol, tactics, obj)
    assert mc.extra["n"] == N and mc.extra["seed"] == seed
    assert_within_4_se(exact, mc, N)


@pytest.mark.parametrize("simultaneous", ["true", "false"])
def test_bulk_agrees_with_exact_under_rules_options(simultaneous):
    comps = load_components(["options.catapult_cap=\"formation_min1\"", "options.pursuit_cap=\"uncapped\"",
                             "options.mutual_annihilation=\"defender_holds_no_capture\"",
                             f"options.simultaneous_hits={simultaneous}"])
    battle = LandBattle(Army(2, 2, 3, 1), Army(5, 1, 0, 1), fortified=True)
    pol = RetreatPolicy("below", 2)
    exact = solve_land(battle, comps, pol, pol).odds
    assert_within_4_se(exact, simulate_land(battle, comps, N, 5, pol, pol), N)


def test_same_seed_same_numbers_and_intervals_cover():
    battle = LandBattle(Army(4, 1, 0, 1), Army(3, 1, 0, 0))
    a = simulate_land(battle, COMPS, 70_000, 9)
    b = simulate_land(battle, COMPS, 70_000, 9)
    assert a == b
    low, high = a.extra["ci95"]["attacker_win"]
    assert low <= a.attacker_win <= high


def test_expected_rounds_agree():
    battle = LandBattle(Army(6, 2, 1, 1), Army(6, 2, 0, 1), fortified=True)
    exact = solve_land(battle, COMPS).odds
    mc = simulate_land(battle, COMPS, N, 6)
    # rounds per battle are at most the units of both sides, so their sd is below that count
    assert abs(mc.expected_rounds - exact.expected_rounds) <= 4 * (battle.attacker.total + battle.defender.total) / np.sqrt(N)
