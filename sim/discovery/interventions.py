"""Interventions on one seat, for causal experiments (sim.core.interventions): the assets are the
capital buildings (AOD-14), the granted resources are money and the four specialists (AOD-7.1).

`builder+force=factory` plays the builder strategy but puts a unit in Capital Buildings while
the Factory is displayed and affordable, and buys it at that first chance (placement.py,
buildings.py). Until then it keeps the Factory's price in the earlier ages and buys nothing else
in Age III (`options.force_saving` = "reserve", so the chance is rarely lost), or saves nothing
("none": the force arm and the ban arm, `builder+ban=factory`, play alike until the first chance).
`builder+grant_money=5` starts with $5 more (AOD-3.1), `builder+grant_captain=1` with one more
captain in its pool (setup.py). The game's draws are the same in every
arm (common random numbers).
"""

from __future__ import annotations

from sim.core.interventions import KEYS, parse
from sim.discovery.components import Components

SPECIALISTS = ("captain", "merchant", "missionary", "soldier")                   # AOD-7.1
RESOURCES = ("money", *SPECIALISTS)
INTERVENTIONS = (*KEYS, *(f"grant_{r}" for r in RESOURCES))
# The doses of the value experiments: $5, or one specialist in the pool at the start (its value in
# dollars is its win-rate value over that of one dollar).
GRANTS = {"money": 5, **{name: 1 for name in SPECIALISTS}}


def building_costs(comp: Components) -> dict[str, dict[str, float]]:
    """Every building with the money its purchase removes (its age's cost, AOD-6.5.1)."""
    return {b.id: {"money": float(comp.building_cost[b.age - 1])} for b in comp.buildings if b.copies > 0}


def check_spec(spec: str, strategies: tuple[str, ...], comp: Components) -> None:
    """A UserError unless the spec names a known strategy, interventions and buildings."""
    parse(spec, strategies, building_costs(comp), RESOURCES)
