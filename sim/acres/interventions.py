"""Interventions on one side, for causal experiments (sim.core.interventions: filters over the
engine's legal choices). The assets are the recruitable cards (empire and neutral card kinds,
AFS-13.1) and the locations neutral at setup (settled, AFS-7.1, or occupied after a siege,
AFS-8.9.3). `hammer+ban=regular_infantry` never recruits Regular Infantry; `+force=albany`
settles Albany at the first legal chance; `+grant_money=3` starts with 3 more money (AFS-4.5).
The engine applies bans in `Choices` / `Engine.recruit_ok` / `occupy_options`, the force in
`Engine.forced_action` and grants in `Engine.setup`.
"""

from __future__ import annotations

import heapq

from sim.acres.components import SIDES, TRANSPORTS
from sim.acres.state import Tables
from sim.core.interventions import KEYS, parse

RESOURCES = ("money",)
INTERVENTIONS = (*KEYS, *(f"grant_{r}" for r in RESOURCES))
GRANTS = {"money": 3}           # the dose of a fair-price experiment


def asset_costs(t: Tables) -> dict[str, dict[str, float]]:
    """Every recruitable card kind with its recruit cost (the cheapest copy), and every location
    neutral at setup (settling costs cards and a cube, no money) except a dead end behind one
    other neutral location (Michillimackinac, reached only from Detroit): its value is part of
    the location before it, and a force seldom finds a legal settle of it."""
    costs: dict[str, dict[str, float]] = {}
    for c, kind in enumerate(t.kind):
        if t.start_zone[c] in ("empire", "neutral"):
            now = costs.get(kind.key, {}).get("money", float("inf"))
            costs[kind.key] = {"money": float(min(now, t.card_cost[c]))}
    for i in _location_assets(t):
        costs[t.locs[i]] = {"money": 0.0}
    return costs


def _location_assets(t: Tables) -> list[int]:
    sources: dict[int, set[int]] = {}
    for side in range(len(SIDES)):
        for c in t.loc_card[side].values():
            for dests in t.kind[c].links.values():
                for d in dests:
                    sources.setdefault(d, set()).add(t.kind[c].loc)
    neutral = {i for i, loc in enumerate(t.locations) if loc.start == "neutral"}
    return [i for i in sorted(neutral) if not (len(sources.get(i, ())) == 1 and sources[i] <= neutral)]


def asset_power(t: Tables) -> dict[str, str]:
    """The side that can acquire each asset soonest: a card's owner (neutral cards: British, who
    move first); a neutral location, the side with the shorter journey to it along its own cards'
    printed links from its starting locations (AFS-19.7), a link costing 1 where the side's
    starting deck holds two or more cards with its transport symbol and 2 where it holds fewer
    (AFS-19.11: the British have one boat and one wagon card, the French no wagon); ties British."""
    out = {}
    for c, kind in enumerate(t.kind):
        if t.start_zone[c] in ("empire", "neutral"):
            out[kind.key] = SIDES[kind.owner] if kind.owner < len(SIDES) else SIDES[0]
    far = [_journeys(t, side) for side in range(len(SIDES))]
    for i in _location_assets(t):
        out[t.locs[i]] = SIDES[int(far[1].get(i, 99) < far[0].get(i, 99))]
    return out


def _journeys(t: Tables, side: int) -> dict[int, int]:
    """Dijkstra over the side's printed travel links (see `asset_power`)."""
    start = [c for c in range(t.n_cards) if t.start_side[c] == side and t.start_zone[c] == "draw"]
    plenty = {tr: sum(getattr(t.kind[c], tr) > 0 for c in start) >= 2 for tr in TRANSPORTS}
    links = {t.kind[c].loc: t.kind[c].links for c in t.loc_card[side].values()}
    prefix = "gb" if side == 0 else "fr"
    dist = {i: 0 for i, loc in enumerate(t.locations) if loc.start.startswith(prefix)}
    todo = [(0, i) for i in dist]
    while todo:
        d, v = heapq.heappop(todo)
        if d > dist[v]:
            continue
        for tr, dests in links.get(v, {}).items():
            for n in dests:
                nd = d + (1 if plenty[tr] else 2)
                if nd < dist.get(n, 99):
                    dist[n] = nd
                    heapq.heappush(todo, (nd, n))
    return dist


def check_spec(spec: str, strategies: tuple[str, ...], t: Tables) -> None:
    """A UserError unless the spec names a known strategy, intervention and asset."""
    parse(spec, strategies, asset_costs(t), RESOURCES)
