"""Interventions on one seat, for causal experiments (contract: sim.core.seating).

A strategy spec such as `mixed+force=war_office` plays the mixed strategy but takes the War Office
at its first legal opportunity (its first Buy action while a copy is on the display, SOE-8);
`mixed+ban=war_office` plays mixed but never takes it; `mixed+grant_gold=3` starts with 3 more gold
(SOE-3 start values), `grant_population` with more population (capped at the track's maximum,
SOE-2.4) and `grant_unrest` with hidden unrest tokens (SOE-2.3). Everything else about the seat,
and every other seat, is unchanged, and the game's dice are the same (common random numbers), so
the difference between arms is the causal effect of the intervention.
"""

from __future__ import annotations

from typing import Any

from sim.core.seating import parse_strategy
from sim.struggle.components import Components

INTERVENTIONS = ("force", "ban", "grant_gold", "grant_population", "grant_unrest")
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


def tile_ref(tables: Any, key: str) -> tuple[str, int]:
    """The engine's (kind, index) of a tile key: ("dev", k), ("alliance", i) or ("company", i)."""
    for what, keys in (("dev", tables.dev), ("alliance", tables.alliance), ("company", tables.company)):
        if key in keys:
            return what, keys.index(key)
    raise KeyError(key)


def check_spec(spec: str, strategies: tuple[str, ...], comp: Components) -> None:
    """A UserError unless the spec names a known strategy, known interventions and known tiles."""
    from sim.core.errors import UserError

    parsed = parse_strategy(spec, strategies, INTERVENTIONS)
    known = tile_costs(comp)
    for key, value in parsed.interventions.items():
        if key in ("force", "ban") and value not in known:
            raise UserError(f"strategy {spec!r}: tile {value!r} is unknown; allowed: {', '.join(sorted(known))}")
        if key.startswith("grant_") and not value.isdigit():
            raise UserError(f"strategy {spec!r}: {key}={value!r} is not allowed; use a whole number >= 0")


class Intervened:
    """A player with one seat's interventions; every other decision is the inner player's."""

    def __init__(self, inner: Any, interventions: dict[str, str]) -> None:
        self.inner = inner
        e, g, p = inner.e, inner.g, inner.p
        self.force = tile_ref(e.t, interventions["force"]) if "force" in interventions else None
        if "ban" in interventions:
            e.tile_bans.setdefault((g, p), set()).add(tile_ref(e.t, interventions["ban"]))
        self.grants = {k[len("grant_"):]: int(v) for k, v in interventions.items() if k.startswith("grant_")}

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def choose_action(self, slot: int):
        """Take the forced tile at the first turn it is legal to take, then play as usual."""
        e, g, p = self.inner.e, self.inner.g, self.inner.p
        if self.force is not None and self.force in e.buyable(g, p):
            what, i = self.force
            self.force = None
            name = e.t.dev[i] if what == "dev" else None
            if name in ("pirates", "slave_revolt"):
                r, q = max(e.raid_targets(g, p, name), key=lambda rq: int(e.s.markers[g, rq[1], rq[0]]))
                return ("buy", what, i, r, q)
            return ("buy", what, i)
        return self.inner.choose_action(slot)
