"""The army mix a scripted buyer aims for, read off the exact battle odds (COE-14, COE-E15).

What wins a battle per talent: `best_army` plays every army whose price spends a budget (at most
two legions, each led by a leader, COE-11.2) against a reference defender -- a full legion of
infantry, fortified or not (COE-14.7) -- with the exact solver, and keeps the one most likely to
win (the cheaper one on a tie). Mixed formations hit more than a line of one type (each symbol
hits its own unit type, COE-14.3), so a few cavalry (and, against a Fortification, catapults)
in a mass of infantry beat the same talents of infantry alone; the buyer keeps those shares.
"""

from __future__ import annotations

import itertools

from sim.conquest.combat import Army, LandBattle
from sim.conquest.components import LAND_UNITS, Components
from sim.conquest.land_exact import solve_land

Units = tuple[int, int, int]
LEGIONS = 2               # the largest army compared (the exact solver's size limit)


def best_army(comp: Components, legion: int, budget: int, fortified: bool) -> Units:
    """The land units costing at most `budget` (base prices, COE-20.2) and more than `budget`
    less the cheapest unit, in at most two legions of `legion`, most likely to beat `legion`
    infantry led by one leader, fortified or not (ties: cheaper). All infantry if none fits."""
    key = (id(comp), legion, budget, fortified)
    found = _FOUND.get(key)
    if found is None:
        found = _FOUND[key] = _best(comp, legion, budget, fortified)
    return found


_FOUND: dict[tuple, Units] = {}


def _best(comp: Components, legion: int, budget: int, fortified: bool) -> Units:
    cost = [comp.cost(u) for u in LAND_UNITS]
    limits = [min(comp.units[u].limit, LEGIONS * legion) for u in LAND_UNITS]
    defender = Army(legion, 0, 0, leaders=1)
    best: tuple[float, int, Units] = (-1.0, 0, (legion, 0, 0))
    for units in itertools.product(*(range(lim + 1) for lim in limits)):
        price = sum(u * c for u, c in zip(units, cost))
        if not 0 < sum(units) <= LEGIONS * legion or not budget - min(cost) < price <= budget:
            continue
        leaders = -(-sum(units) // legion)
        odds = solve_land(LandBattle(Army(*units, leaders=leaders), defender, fortified), comp).odds
        best = max(best, (odds.attacker_win, -price, units))   # type: ignore[arg-type]
    return best[2]
