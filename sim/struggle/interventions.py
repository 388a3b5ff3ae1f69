"""Interventions on one seat, for causal experiments (sim.core.interventions: filters over the
engine's legal choices; the engine applies bans in `Tiles.buyable` and `Tiles.diplomacy_options`,
the force in `Tiles.forced_buy`, grants at setup).

A strategy spec such as `mixed+force=war_office` plays the mixed strategy but takes the War Office
at its first legal opportunity (its first Buy action while a copy is on the display, SOE-8);
`mixed+ban=war_office` plays mixed but never takes it; `mixed+grant_gold=3` starts with 3 more gold
(SOE-3 start values), `grant_population` with more population (capped at the track's maximum,
SOE-2.4) and `grant_unrest` with hidden unrest tokens (SOE-2.3). Everything else about the seat,
and every other seat, is unchanged, and the game's dice are the same (common random numbers), so
the difference between arms is the causal effect of the intervention.
"""

from __future__ import annotations

from sim.core.interventions import KEYS, parse
from sim.struggle.components import Components

RESOURCES = ("gold", "population", "unrest")
INTERVENTIONS = (*KEYS, *(f"grant_{r}" for r in RESOURCES))
GRANTS = {"gold": 3, "population": 2, "unrest": 3}   # doses of the fair-price experiments


def tile_costs(comp: Components) -> dict[str, dict[str, float]]:
    """Every development, alliance and company tile with the units of gold, population and
    unrest a purchase removes from the buyer (an unrest cost adds unrest: it removes -u)."""
    costs: dict[str, dict[str, float]] = {}
    for key, tile in comp.tiles.items():
        costs[key] = {"gold": tile.cost_gold, "population": tile.cost_population, "unrest": -tile.cost_unrest}
    for key, tile in {**comp.alliances, **comp.companies}.items():
        costs[key] = {"gold": tile.cost_gold, "population": 0, "unrest": 0}
    return costs


def check_spec(spec: str, strategies: tuple[str, ...], comp: Components) -> None:
    """A UserError unless the spec names a known strategy, known interventions and known tiles."""
    parse(spec, strategies, tile_costs(comp), RESOURCES)
