"""The exact solver's inputs kept between solves (`land_exact`: each side's kernel arrays and
padded values, the solving order by unit counts, COE-14, COE-16): a solve from kept inputs
gives exactly the figures of one from a fresh build, so keeping them changes no decision."""

from hypothesis import given, settings
from hypothesis import strategies as st

from sim.conquest import combat, land_exact
from sim.conquest.combat import Army, LandBattle
from sim.conquest.components import default_components
from sim.conquest.land_exact import forecast_land, solve_land
from sim.conquest.policy import FIGHT, OPTIMAL, Objective

armies = st.builds(Army, st.integers(0, 6), st.integers(0, 2), st.integers(0, 2), st.integers(0, 3)).filter(
    lambda a: a.total > 0)


def _fresh() -> None:
    for cache in (land_exact._SIDES, combat._SIDES):
        cache.clear()
    land_exact._layout.cache_clear()


@settings(max_examples=60, deadline=None)
@given(att=armies, dfn=armies, other=armies, fortified=st.booleans(), optimal=st.booleans())
def test_coe16_kept_inputs_give_a_fresh_build_s_figures(att, dfn, other, fortified, optimal):
    comp, policy, obj = default_components(), OPTIMAL if optimal else FIGHT, Objective(0.02, 0.5)
    battle = LandBattle(att, dfn, fortified)
    _fresh()
    fresh = solve_land(battle, comp, policy, policy, objective=obj)
    first = forecast_land(battle, comp, policy, obj)
    solve_land(LandBattle(att, other, fortified), comp, policy, policy, objective=obj)   # the same attacker meets another army
    solve_land(LandBattle(other, dfn, not fortified), comp, policy, policy, objective=obj)
    kept = solve_land(battle, comp, policy, policy, objective=obj)
    assert kept.odds == fresh.odds and kept.value == fresh.value
    assert (kept.attacker_retreats == fresh.attacker_retreats).all() and (kept.reach == fresh.reach).all()
    assert forecast_land(battle, comp, policy, obj) == first
