"""A synthetic game whose tile values and resource values are known exactly.

Four seats; each seat's final score is its own standard normal noise plus the effects of what it
holds: a tile's bonus, 0.1 per gold kept, -0.2 per unrest. The highest score wins (ties have
probability 0). Each seat starts with 10 gold; the plain strategy (and its alias random) buys
nothing; `force=T` buys
tile T (paying its gold and unrest), `ban=T` buys nothing, `grant_R=k` adds k units of R.

Seat s's noise is draw s of `stream(root_seed, block, "noise")`, so arms of one block share it
(common random numbers). The exact win probability of a seat whose score is shifted by mu
against three unshifted seats is  integral phi(x - mu) Phi(x)^3 dx  (`exact_win`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
from scipy import integrate, stats

from sim.core.contract import GameInfo
from sim.core.lockstep import check_no_data, game_header, write_jsonl
from sim.core.random import stream
from sim.core.seating import Seating, parse_strategy

INFO = GameInfo(name="tilegame", title="Synthetic tile game", rule_prefix="TILE",
                powers=("north", "east", "south", "west"), min_players=4, max_players=4,
                strategies=("plain", "random"), rules_edition="synthetic tile game 1", engine_version=1,
                default_strategy="plain")
POWERS, STRATEGIES = INFO.powers, INFO.strategies
INTERVENTIONS = ("force", "ban", "grant_gold", "grant_unrest")
GRANTS = {"gold": 3, "unrest": 2}
GOLD_VALUE, UNREST_VALUE = 0.1, -0.2
TILES = {"good": {"bonus": 0.6, "gold": 2, "unrest": 0},  # net +0.4: under-priced at 2 gold
         "dud": {"bonus": 0.1, "gold": 3, "unrest": 1}}   # net -0.4: over-priced


def load_data(overrides=(), variants=(), strategies=()) -> None:
    """The synthetic game has no component data."""
    check_no_data(INFO.name, overrides, variants)


def asset_costs(data=None) -> dict[str, dict[str, float]]:
    """Units of each resource a purchase removes (an unrest cost adds unrest: removes -u)."""
    return {t: {"gold": c["gold"], "unrest": -c["unrest"]} for t, c in TILES.items()}


def shift(spec: str) -> float:
    """Score shift of a seat under its strategy spec."""
    s = parse_strategy(spec, STRATEGIES, INTERVENTIONS).interventions
    total = 0.0
    if "force" in s:
        tile = TILES[s["force"]]
        total += tile["bonus"] - GOLD_VALUE * tile["gold"] + UNREST_VALUE * tile["unrest"]
    total += GOLD_VALUE * float(s.get("grant_gold", 0)) + UNREST_VALUE * float(s.get("grant_unrest", 0))
    return total


def exact_win(mu: float) -> float:
    """P(a seat shifted by mu beats three unshifted seats)."""
    f = lambda x: stats.norm.pdf(x - mu) * stats.norm.cdf(x) ** 3  # noqa: E731
    return integrate.quad(f, -12, 12)[0]


def play_games(root_seed, game_indices, seatings, data=None, log=None) -> pd.DataFrame:
    for seating in seatings:
        check_seating(seating)
    rows, events = [], []
    for g, seating in zip(game_indices, seatings):
        noise = stream(root_seed, int(g), "noise").standard_normal(4)
        score = noise + np.array([shift(spec) for spec in seating.strategies])
        rank = 1 + (score[None, :] > score[:, None]).sum(axis=1)
        for s in range(4):
            spec = parse_strategy(seating.strategies[s])
            rows.append({"game_index": int(g), "seed": root_seed, "players": 4, "seat": s,
                         "power": seating.powers[s], "strategy": seating.strategies[s], "vp": float(score[s]),
                         "rank": int(rank[s]), "winner": bool(rank[s] == 1),
                         "tiles": spec.interventions.get("force", "")})
        events.append((game_header(INFO.name, root_seed, g, seating),
                       [{"event": "scores", "vp": score.tolist()}]))
    if log is not None:
        write_jsonl(log, events)
    return pd.DataFrame(rows)


def check_seating(seating: Seating) -> None:
    """Four seats, known powers, known strategies and interventions (a UserError otherwise)."""
    INFO.check_seating(seating, lambda spec: parse_strategy(spec, STRATEGIES, INTERVENTIONS))


ASSET_COLUMN = "tiles"                  # conformance hooks (sim.core.conformance)
START_GOLD = 10


def check_games(root_seed: int, game_indices, seatings, data=None, step_cap: int = 1) -> pd.DataFrame:
    """One step per game: scores are finite and exactly one seat wins."""
    table = play_games(root_seed, game_indices, seatings, data)
    assert np.isfinite(table.vp).all() and (table.groupby("game_index").winner.sum() == 1).all()
    return table


def start_resources(root_seed: int, game_index: int, seating, data=None) -> dict[str, list[int]]:
    """Each seat's gold and unrest at the start: 10 gold, no unrest, plus its grants."""
    grants = [parse_strategy(spec).interventions for spec in seating.strategies]
    return {"gold": [START_GOLD + int(g.get("grant_gold", 0)) for g in grants],
            "unrest": [int(g.get("grant_unrest", 0)) for g in grants]}
