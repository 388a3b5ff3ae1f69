"""The players' cut of the exact land solve (`land_exact.forecast_land`, COE-14.5, COE-16): the
win chance and both retreats at the start state are exactly `solve_land`'s, so a forecast does
not change a decision; the compiled solving order is numpy's stable sort of the live pairs."""

import numpy as np

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.conquest import land_kernel
from sim.conquest.combat import Army, LandBattle
from sim.conquest.components import default_components, load_components
from sim.conquest.land_exact import forecast_land, solve_land
from sim.conquest.policy import FIGHT, OPTIMAL, Objective, RetreatPolicy

RULES = (default_components(),
         load_components(["options.mutual_annihilation=\"defender_holds_no_capture\"", "options.pursuit_cap=\"uncapped\""]),
         load_components(["options.simultaneous_hits=false"]))
armies = st.builds(Army, st.integers(0, 6), st.integers(0, 2), st.integers(0, 2), st.integers(0, 3)).filter(
    lambda a: a.total > 0)
policies = st.sampled_from((FIGHT, OPTIMAL, RetreatPolicy("below", 2)))
objectives = st.builds(Objective, st.sampled_from((0.0, 0.01, 0.05)), st.sampled_from((0.0, 0.5, 2.0)))


@settings(max_examples=150, deadline=None)
@given(att=armies, dfn=armies, fortified=st.booleans(), rules=st.integers(0, len(RULES) - 1), policy=policies,
       obj=objectives)
def test_coe16_forecast_is_the_full_solve_cut(att, dfn, fortified, rules, policy, obj):
    battle = LandBattle(att, dfn, fortified)
    full = solve_land(battle, RULES[rules], policy, policy, objective=obj)
    root = full.attacker.index(att.units), full.defender.index(dfn.units)
    assert forecast_land(battle, RULES[rules], policy, obj) == (
        full.odds.attacker_win, bool(full.attacker_retreats[root]), bool(full.defender_retreats[root]))


totals = st.lists(st.integers(0, 12), min_size=1, max_size=30).map(lambda t: np.array(t, dtype=np.int64))


@settings(max_examples=200, deadline=None)
@given(ta=totals, td=totals)
def test_solving_order_is_the_stable_sort_of_the_live_pairs(ta, td):
    live = np.flatnonzero(((ta[:, None] > 0) & (td[None, :] > 0)).ravel())
    expected = live[np.argsort((ta[:, None] + td[None, :]).ravel()[live], kind="stable")]
    assert land_kernel.solving_order(ta, td).tolist() == expected.tolist()
