"""AOD-9 warfare: worked examples AOD-E11..E13, the bulk kernel against the kill-by-kill rule."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from sim.core.errors import UserError
from sim.discovery.components import UNIT_TYPES, load_components
from sim.discovery.warfare import TARGETS, as_units, conflict, fight, fights

RULES = load_components().warfare


def units(**counts):
    return as_units(counts)


def named(vector):
    return {n: int(v) for n, v in zip(UNIT_TYPES, vector) if v}


def test_example_aod_e11_battle():
    albert, bela = units(soldier=2, colonist=3), units(soldier=1, colonist=4)
    result = conflict("battle", albert[None], bela[None], RULES)
    after_a, after_b = result.fight.after(albert[None], bela[None])
    assert result.cost == 0 and result.fought.tolist() == [True]
    assert named(after_a[0]) == {"soldier": 1, "colonist": 3}
    assert named(after_b[0]) == {"colonist": 3}


def test_example_aod_e12_war():
    """Fights in New Granada, New Spain, Florida; none in Canada (no soldiers) or New England
    (Bela absent); the war costs $10."""
    regions = ["new_granada", "new_spain", "new_england", "florida", "canada"]
    albert = np.array([units(soldier=1, colonist=2), units(soldier=1, colonist=1), units(soldier=1, colonist=1),
                       units(colonist=2), units(colonist=1)])
    bela = np.array([units(colonist=2), units(colonist=1), units(), units(soldier=2), units(colonist=3)])
    result = conflict("war", albert, bela, RULES)
    assert result.cost == 10
    assert [r for r, f in zip(regions, result.fought) if f] == ["new_granada", "new_spain", "florida"]
    assert not result.fight.attacker_losses[[2, 4]].any() and not result.fight.defender_losses[[2, 4]].any()


def test_example_aod_e13_militia_and_simultaneous_losses():
    a, b = units(soldier=2, colonist=1), units(colonist=3)
    with_militia = fight(a, b, RULES, militia=True)
    after_a, after_b = with_militia.after(a, b)
    assert named(after_a) == {"soldier": 1, "colonist": 1} and named(after_b) == {"colonist": 1}
    without = fight(a, b, RULES)
    after_a, after_b = without.after(a, b)
    assert named(after_a) == {"soldier": 2, "colonist": 1} and named(after_b) == {"colonist": 1}


def test_killed_soldiers_still_kill():
    """AOD-9.4.3: one soldier each -> both soldiers die."""
    result = fight(units(soldier=1), units(soldier=1), RULES)
    assert named(result.attacker_losses) == {"soldier": 1} and named(result.defender_losses) == {"soldier": 1}


def test_militia_does_not_extend_a_war_unless_the_option_says_so():
    a, b = units(colonist=2)[None], units(colonist=2)[None]
    assert conflict("war", a, b, RULES, militia=True).fought.tolist() == [False]
    counts = load_components(["rules.warfare.militia_counts_for_war=true"]).warfare
    result = conflict("war", a, b, counts, militia=True)
    assert result.fought.tolist() == [True] and result.fight.attacker_losses.sum() == 1


side = st.lists(st.integers(0, 4), min_size=len(UNIT_TYPES), max_size=len(UNIT_TYPES))


@given(st.lists(st.tuples(side, side, st.booleans()), min_size=1, max_size=8),
       st.sampled_from(list(TARGETS)), st.sampled_from(list(TARGETS)))
def test_bulk_matches_kill_by_kill(rows, att_policy, def_policy):
    att = np.array([r[0] for r in rows])
    dfd = np.array([r[1] for r in rows])
    militia = np.array([r[2] for r in rows])
    bulk = fights(att, dfd, RULES, militia, att_policy, def_policy)
    for i in range(len(rows)):
        one = fight(att[i], dfd[i], RULES, bool(militia[i]), att_policy, def_policy)
        assert bulk.attacker_losses[i].tolist() == one.attacker_losses.tolist()
        assert bulk.defender_losses[i].tolist() == one.defender_losses.tolist()
    soldier = UNIT_TYPES.index("soldier")
    assert np.array_equal(bulk.defender_losses.sum(axis=1), np.minimum(att[:, soldier], dfd.sum(axis=1)))
    assert np.array_equal(bulk.attacker_losses.sum(axis=1),
                          np.minimum(dfd[:, soldier] + militia, att.sum(axis=1)))


@pytest.mark.parametrize("call, message", [
    (lambda: units(knight=1), "knight"),
    (lambda: units(soldier=-1), "negative"),
    (lambda: conflict("raid", units()[None], units()[None], RULES), "battle, war"),
    (lambda: conflict("battle", np.zeros((2, 5)), np.zeros((2, 5)), RULES), "one region"),
    (lambda: fight(units(soldier=1), units(colonist=1), RULES, attacker_targets="random"), "soldiers-first"),
])
def test_bad_conflicts_are_user_errors(call, message):
    with pytest.raises(UserError, match=message):
        call()
