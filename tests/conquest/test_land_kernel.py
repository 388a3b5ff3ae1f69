"""The compiled exact land solver against the previous numpy solver (COE-14, COE-16): the win
chance, every outcome probability and both retreat maps (COE-14.5) agree on hypothesis-drawn
battles, rules, policies and objectives, so the players' decisions do not change."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.conquest.combat import Army, LandBattle
from sim.conquest.components import default_components, load_components
from sim.conquest.land_exact import solve_land
from sim.conquest.policy import FIGHT, OPTIMAL, Objective, RetreatPolicy
from tests.conquest.land_reference import solve_reference

RULES = (default_components(),
         load_components(["options.simultaneous_hits=false", "options.catapult_cap=\"formation_min1\""]),
         load_components(["options.mutual_annihilation=\"defender_holds_no_capture\"", "options.pursuit_cap=\"uncapped\""]))
TOLERANCE = 1e-12

armies = st.builds(Army, st.integers(0, 7), st.integers(0, 2), st.integers(0, 2), st.integers(0, 3)).filter(
    lambda a: a.total > 0)
policies = st.sampled_from((FIGHT, OPTIMAL, RetreatPolicy("below", 2), RetreatPolicy("below", 4)))
objectives = st.builds(Objective, st.sampled_from((0.0, 0.002, 0.01, 0.05)), st.sampled_from((0.0, 0.1, 0.5, 2.0)))


@settings(max_examples=300, deadline=None)
@given(att=armies, dfn=armies, fortified=st.booleans(), rules=st.integers(0, len(RULES) - 1),
       a_pol=policies, d_pol=policies, obj=objectives)
def test_coe14_kernel_equals_the_numpy_chain(att, dfn, fortified, rules, a_pol, d_pol, obj):
    battle = LandBattle(att, dfn, fortified)
    new = solve_land(battle, RULES[rules], a_pol, d_pol, objective=obj)
    odds, value, a_ret, d_ret, reach = solve_reference(battle, RULES[rules], a_pol, d_pol, objective=obj)
    mine, theirs = new.odds.probabilities(), odds.probabilities()
    assert mine.keys() == theirs.keys()
    for key, p in theirs.items():
        assert abs(mine[key] - p) <= TOLERANCE, key
    assert abs(new.odds.attacker_win - odds.attacker_win) <= TOLERANCE
    assert abs(new.value - value) <= TOLERANCE
    assert abs(new.odds.expected_rounds - odds.expected_rounds) <= TOLERANCE * odds.expected_rounds
    assert np.array_equal(new.attacker_retreats, a_ret) and np.array_equal(new.defender_retreats, d_ret)
    assert np.abs(new.reach - reach).max() <= TOLERANCE

