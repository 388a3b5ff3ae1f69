"""One land round with given dice, formations, hit laws: the worked examples COE-E4, E5, E8, E9,
E11 and E15, plus the bulk dice scorer against the exact hit laws."""

import numpy as np
import pytest

from sim.conquest.combat import (Army, Tactics, expected_hits, hit_pmf, pursuit_hits, resolve_round, score,
                                 symbol_probabilities)
from sim.conquest.components import default_components, load_components
from sim.conquest.land_bulk import face_table, hits, roll_symbols
from sim.core.errors import UserError
from sim.core.random import stream

INF, CAV, CAT, GAL, BLANK = "infantry", "cavalry", "catapult", "galley", "blank"


@pytest.fixture(scope="module")
def comps():
    return default_components()


def test_example_coe_e4_jacks_hit_count():
    """COE-E4: [INF, CAV, CAV, CAT, BLANK] against 3 INF, 1 CAV, 1 CAT scores 1 + 1 + 1 = 3."""
    rolled = {INF: 1, CAV: 2, CAT: 1, BLANK: 1}
    assert score(rolled, {INF: 3, CAV: 1, CAT: 1}, catapults_present=1) == 3


def test_example_coe_e5_fred_attacks_alice(comps):
    """COE-E5 round 1: Fred (2 Generals; 5 INF, 2 CAV, 1 CAT) forms 5 INF + 2 CAV, his reserve
    catapult still scores: 5 hits; Alice (1 General; 4 INF, 2 CAV) forms all 6 and scores 5 with
    units already hit (simultaneous). Left: Alice 1 INF; Fred 1 INF, 1 CAV, 1 CAT."""
    fred, alice = Army(5, 2, 1, leaders=2), Army(4, 2, 0, leaders=1)
    r1 = resolve_round(fred, alice, (INF, INF, INF, CAV, CAT, GAL, BLANK), (INF, INF, INF, INF, CAV, GAL), comps)
    assert r1.attacker_formation == (5, 2, 0) and r1.defender_formation == (4, 2, 0)
    assert (r1.attacker_hits, r1.defender_hits) == (5, 5)
    assert r1.defender_after == Army(1, 0, 0, leaders=1)
    assert r1.attacker_after == Army(1, 1, 1, leaders=2)
    # round 2: Fred forms all 3; INF + CAT (third die blank) = 2 hits, one lost on Alice's
    # 1-unit formation; Alice's hit infantry still rolls and scores 1.
    r2 = resolve_round(r1.attacker_after, r1.defender_after, (INF, CAT, BLANK), (INF,), comps)
    assert r2.attacker_formation == (1, 1, 1) and r2.defender_formation == (1, 0, 0)
    assert (r2.attacker_hits, r2.defender_hits) == (2, 1)
    assert r2.defender_after.total == 0 and r2.attacker_after.total == 2
    # Fred "chooses his INF": the cheapest-first loss rule reproduces his choice exactly
    cheapest = Tactics(losses="loss_order")
    r2b = resolve_round(r1.attacker_after, r1.defender_after, (INF, CAT, BLANK), (INF,), comps, tactics=cheapest)
    assert r2b.attacker_after == Army(0, 1, 1, leaders=2)


def test_coe_a1_alternative_defender_rolls_after_removing_casualties():
    """COE-A1 alternative: Alice's 5 hit units are removed before she rolls, so she rolls 1 die."""
    comps = load_components(["options.simultaneous_hits=false"])
    fred, alice = Army(5, 2, 1, leaders=2), Army(4, 2, 0, leaders=1)
    fred_roll = (INF, INF, INF, CAV, CAT, GAL, BLANK)
    with pytest.raises(UserError, match="needs 1"):
        resolve_round(fred, alice, fred_roll, (INF,) * 6, comps)
    r = resolve_round(fred, alice, fred_roll, (INF,), comps)
    assert r.defender_hits == 1 and r.defender_after == Army(1, 0, 0, leaders=1)
    assert r.attacker_after.total == 7


def test_example_coe_e5_unreported_third_die_does_not_matter(comps):
    """COE-E5 checks: had the third die been CAV, Fred would score 3 with the same result."""
    r = resolve_round(Army(1, 1, 1, leaders=2), Army(1, 0, 0, leaders=1), (INF, CAT, CAV), (INF,), comps)
    assert r.attacker_hits == 3 and r.defender_after.total == 0 and r.attacker_after.total == 2


@pytest.mark.parametrize("leaders, units, formation", [
    (0, 3, 3), (0, 8, 5), (1, 5, 5), (1, 6, 6), (2, 8, 7), (3, 2, 2), (5, 14, 10)])
def test_example_coe_e8_formation_sizes(comps, leaders, units, formation):
    assert comps.land.formation_size(units, leaders) == formation


def test_example_coe_e9_fortified_city_dice(comps):
    """COE-E9: 6 INF + General in a fortified City: 7 dice while the attacker has a catapult,
    8 after it is destroyed, 6 with a plain City; still at most 6 hits."""
    land = comps.land
    assert 6 + land.extra_dice(True, attacker_has_catapult=True) == 7
    assert 6 + land.extra_dice(True, attacker_has_catapult=False) == 8
    assert 6 + land.extra_dice(False, attacker_has_catapult=True) == 6
    p = symbol_probabilities(comps)
    assert len(hit_pmf(8, (6, 0, 0), p)) == 9 and hit_pmf(8, (6, 0, 0), p)[7:].sum() == 0
    defender = Army(6, 0, 0, leaders=1)
    with pytest.raises(UserError, match="needs 7"):
        resolve_round(Army(0, 0, 1, leaders=1), defender, (INF,), (INF,) * 6, comps, fortified=True)
    r = resolve_round(Army(0, 0, 1, leaders=1), defender, (BLANK,), (INF,) * 7, comps, fortified=True)
    assert r.defender_hits == 6  # 7 infantry symbols, matched by only 6 infantry
    assert r.attacker_hits == 0 and r.attacker_after.total == 0  # excess hits are lost (COE-A2)


def test_example_coe_e11_pursuit_hits():
    """COE-E11: 5 dice [CAV, CAV, CAV, INF, BLANK] with 2 cavalry: 3 symbols capped to 2 hits;
    variant 3: no cavalry, no pursuit hits."""
    rolled = {CAV: 3, INF: 1, BLANK: 1}
    assert pursuit_hits(rolled, winner_cavalry=2) == 2
    assert pursuit_hits(rolled, winner_cavalry=0) == 0
    assert pursuit_hits(rolled, winner_cavalry=0, pursuit_cap="uncapped") == 3


E15 = [  # (dice, caps (inf, cav, cat), E[hits]) -- COE-E15
    (5, (5, 0, 0), 1.6667), (5, (3, 1, 1), 2.8135), (5, (5, 0, 1), 2.2648), (6, (4, 2, 0), 2.9091),
    (7, (5, 2, 1), 4.0981), (6, (6, 0, 0), 2.0000), (7, (6, 0, 0), 2.3329), (8, (6, 0, 0), 2.6639),
    (6, (2, 2, 2), 3.4177), (1, (1, 0, 0), 0.3333)]


@pytest.mark.parametrize("dice, caps, expected", E15)
def test_example_coe_e15_exact_expected_hits(comps, dice, caps, expected):
    assert expected_hits(dice, caps, symbol_probabilities(comps)) == pytest.approx(expected, abs=5e-5)


@pytest.mark.parametrize("dice, caps, expected", E15)
def test_example_coe_e15_bulk_dice_converge(comps, dice, caps, expected):
    """The bulk scorer (real dice, packed symbol counts) matches the exact law within 4 SE."""
    n = 200_000
    table, _ = face_table(comps)
    symbols = roll_symbols(stream(15, dice, "test"), np.full(n, dice), table)
    formation = np.tile(np.array(caps), (n, 1))
    got = hits(symbols, formation, formation[:, 2])
    pmf = hit_pmf(dice, caps, symbol_probabilities(comps))
    k = np.arange(len(pmf))
    mean = float(k @ pmf)
    sd = float(np.sqrt((k ** 2) @ pmf - mean ** 2))
    assert mean == pytest.approx(expected, abs=5e-5)
    assert abs(got.mean() - mean) < 4 * sd / np.sqrt(n)
    observed = np.bincount(got, minlength=len(pmf)) / n
    assert np.all(np.abs(observed - pmf) <= 4 * np.sqrt(pmf * (1 - pmf) / n) + 1e-12)


def test_hit_pmf_is_a_law(comps):
    p = symbol_probabilities(comps)
    for dice in range(1, 13):
        for caps in ((dice, 0, 0), (1, 1, 1), (3, 2, 6)):
            pmf = hit_pmf(dice, caps, p)
            assert pmf.min() >= 0 and pmf.sum() == pytest.approx(1.0, abs=1e-12)
