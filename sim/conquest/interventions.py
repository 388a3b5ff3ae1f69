"""Interventions on one seat, for causal experiments (sim.core.interventions: filters over the
engine's legal choices; the engine applies bans and the force in `Purchase.buying_phase`, the
grant at setup).

The assets are what a player buys (COE-20.2): the three land unit types, galleys, Cities,
Fortifications and roads. `expansionist+force=catapult` plays the expansionist but buys a
catapult at its first legal chance; `+ban=catapult` never buys one; `+grant_talents=20` starts
with 20 more talents (COE-A29's starting treasury).
"""

from __future__ import annotations

from sim.conquest.components import Components
from sim.conquest.economy import load_economy
from sim.conquest.purchase import ASSETS
from sim.core.interventions import KEYS, parse

RESOURCES = ("talents",)
INTERVENTIONS = (*KEYS, *(f"grant_{r}" for r in RESOURCES))
GRANTS = {"talents": 20}     # the dose of the fair-price experiments: an infantry and a cavalry's worth


def unit_costs(comp: Components) -> dict[str, dict[str, float]]:
    """Every asset with its base price in talents (COE-20.2; inflation multiplies it)."""
    base = load_economy(comp).base
    return {asset: {"talents": float(base[asset])} for asset in ASSETS}


def check_spec(spec: str, strategies: tuple[str, ...], comp: Components) -> None:
    """A UserError unless the spec names a known strategy, known interventions and known assets."""
    parse(spec, strategies, ASSETS, RESOURCES)
