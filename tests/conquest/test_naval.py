"""Naval battles (COE-15): worked examples COE-E7 and COE-E15, exact vs bulk, the 3-round limit."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.conquest.components import default_components, load_components
from sim.conquest.naval import Fleet, naval_hit_pmf, naval_hits, simulate_naval, solve_naval
from sim.core.errors import UserError
from sim.core.stats import binomial_se

COMPS = default_components()


def test_example_coe_e7_naval_battle_egypt_against_galatia():
    """COE-E7: Egypt's galley (General, 3 INF, 1 CAT aboard) rolls [INF, BLANK]: no hit; Galatia
    rolls [GAL, CAV]: one hit. Egypt's galley sinks with its 4 land units; its General is captured."""
    egypt, galatia = Fleet(1, ((4, 1),)), Fleet(1)
    assert naval_hits(("infantry", "blank"), egypt.galleys) == 0
    assert naval_hits(("galley", "cavalry"), galatia.galleys) == 1
    assert egypt.lost(1) == (4, 1)
    odds = solve_naval(egypt, galatia, COMPS)
    # this very outcome in round 1: Egypt no hit, Galatia at least one
    p_round1 = (25 / 36) * (11 / 36)
    assert odds.defender_win >= p_round1
    assert odds.attacker_units_lost[4] == pytest.approx(odds.defender_win + odds.both_sunk)
    assert odds.attacker_leaders_lost[1] == pytest.approx(odds.attacker_units_lost[4])


def test_example_coe_e15_one_galley():
    """COE-E15: one galley, 2 dice, uncapped: E[hits] = 1/3 and P(at least 1 hit) = 11/36."""
    pmf = naval_hit_pmf(1, COMPS)
    assert sum(h * p for h, p in pmf.items()) == pytest.approx(1 / 3)
    assert 1 - pmf[0] == pytest.approx(11 / 36)


def test_hits_capped_option_coe_a17():
    comps = load_components(["options.naval_hits_capped=true"])
    assert max(naval_hit_pmf(1, comps)) == 1
    assert naval_hits(("galley", "galley"), 1, capped=True) == 1


def test_at_most_three_rounds():
    odds = solve_naval(Fleet(8), Fleet(8), COMPS)
    assert odds.undecided > 0.05 and odds.expected_rounds <= 3
    one = load_components(["battle.naval.max_rounds=1"])
    assert solve_naval(Fleet(8), Fleet(8), one).expected_rounds == 1


def test_owner_sinks_empty_galleys_first():
    fleet = Fleet(3, ((5, 0), (2, 1)))
    assert fleet.lost(1) == (0, 0) and fleet.lost(2) == (5, 0) and fleet.lost(3) == (7, 1)


@settings(max_examples=30)
@given(a=st.integers(1, 8), d=st.integers(1, 8))
def test_naval_laws_sum_to_one(a, d):
    odds = solve_naval(Fleet(a), Fleet(d), COMPS)
    assert odds.attacker_win + odds.defender_win + odds.both_sunk + odds.undecided == pytest.approx(1.0)
    assert sum(odds.attacker_galleys.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("a, d, seed", [(1, 1, 1), (3, 2, 2), (6, 8, 3)])
def test_naval_bulk_agrees_with_exact_within_4_se(a, d, seed):
    n = 200_000
    att, dfn = Fleet(a, ((4, 1),)), Fleet(d, ((7, 0), (3, 2)) if d > 1 else ())
    exact, mc = solve_naval(att, dfn, COMPS), simulate_naval(att, dfn, COMPS, n, seed)
    pe, pm = exact.probabilities(), mc.probabilities()
    for key in set(pe) | set(pm):
        p, q = pe.get(key, 0.0), pm.get(key, 0.0)
        assert abs(p - q) <= 4 * float(binomial_se(min(max(p, 0.0), 1.0), n)) + 1e-12, key


def test_bad_fleets():
    with pytest.raises(UserError):
        Fleet(0)
    with pytest.raises(UserError):
        Fleet(1, ((1, 0), (2, 0)))
    assert math.isclose(sum(naval_hit_pmf(4, COMPS).values()), 1.0)
