"""The scripted buyer's army mix (sim.conquest.army_mix): the army the exact odds (COE-14,
COE-14.7) say wins most for a budget, checked against the armies of the same talents it was
preferred to."""

from __future__ import annotations

import pytest

from sim.conquest.army_mix import LEGIONS, best_army
from sim.conquest.combat import Army, LandBattle
from sim.conquest.components import LAND_UNITS, default_components, load_components
from sim.conquest.land_exact import solve_land

LEGION = 7


def win(comp, units, fortified: bool) -> float:
    leaders = -(-sum(units) // LEGION)
    battle = LandBattle(Army(*units, leaders=leaders), Army(LEGION, 0, 0, leaders=1), fortified)
    return solve_land(battle, comp).odds.attacker_win


@pytest.mark.parametrize("fortified", [False, True])
@pytest.mark.parametrize("budget", [100, 130])
def test_coe_14_best_army_spends_the_budget_and_beats_its_alternatives(budget, fortified):
    comp = default_components()
    cost = [comp.cost(u) for u in LAND_UNITS]
    army = best_army(comp, LEGION, budget, fortified)
    price = sum(u * c for u, c in zip(army, cost))
    assert budget - min(cost) < price <= budget and sum(army) <= LEGIONS * LEGION
    p = win(comp, army, fortified)
    assert p >= win(comp, (budget // cost[0], 0, 0), fortified)          # the same talents of infantry
    if army[1]:                                                          # a cavalry for two infantry
        assert p >= win(comp, (army[0] + 2, army[1] - 1, army[2]), fortified)
    if army[2]:                                                          # a catapult for three infantry
        assert p >= win(comp, (army[0] + 3, army[1], army[2] - 1), fortified)


def test_coe_20_2_a_unit_priced_beyond_the_budget_is_never_in_the_army():
    comp = load_components({"units.cavalry.cost": 200, "units.catapult.cost": 200})
    assert best_army(comp, LEGION, 100, True) == (100 // comp.cost("infantry"), 0, 0)
