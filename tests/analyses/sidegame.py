"""A synthetic two-sided game whose per-side asset and money values are known exactly.

Two seats play the sides blue and red. Each seat's final score is its own standard normal noise
plus what it holds; the higher score wins (ties have probability 0). Money kept is worth 0.1 a
unit to blue and 0.3 to red. `common` can be taken by both sides (worth 0.8 to blue, 0.2 to red,
for 2 money); `keep` (worth 0.6, for 1 money) only by blue: a red seat forced to take it finds
no legal way and nothing changes, like a card of one side in A Few Acres of Snow. The
`asset_power` hook marks the game as one whose assets belong to sides.

Seat s's noise is draw s of `stream(root_seed, block, "noise")`, so arms of one block share it.
A seat shifted by mu against an unshifted one wins with probability Phi(mu / sqrt 2) (`exact_win`).
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats

from sim.core.contract import GameInfo
from sim.core.lockstep import check_no_data
from sim.core.random import stream
from sim.core.seating import parse_strategy

INFO = GameInfo(name="sidegame", title="Synthetic two-sided game", rule_prefix="SIDE", powers=("blue", "red"),
                min_players=2, max_players=2, strategies=("plain", "random"), rules_edition="synthetic side game 1",
                engine_version=1, default_strategy="plain")
INTERVENTIONS = ("force", "ban", "grant_money")
GRANTS = {"money": 3}
MONEY_VALUE = {"blue": 0.1, "red": 0.3}
ASSETS = {"common": {"cost": 2, "bonus": {"blue": 0.8, "red": 0.2}},
          "keep": {"cost": 1, "bonus": {"blue": 0.6}}}
ASSET_COLUMN = "cards"                  # conformance hook (sim.core.conformance)


def load_data(overrides=(), variants=(), strategies=()) -> None:
    """The synthetic game has no component data."""
    check_no_data(INFO.name, overrides, variants)


def asset_costs(data=None) -> dict[str, dict[str, float]]:
    return {a: {"money": float(c["cost"])} for a, c in ASSETS.items()}


def asset_power(data=None) -> dict[str, str]:
    """The side that can acquire each asset first (both can take `common`)."""
    return {"common": "blue", "keep": "blue"}


def taken(spec: str, power: str) -> str:
    """The asset a seat ends with: its forced asset when its side can take it."""
    asset = parse_strategy(spec, INFO.strategies, INTERVENTIONS).interventions.get("force", "")
    return asset if power in ASSETS.get(asset, {}).get("bonus", {}) else ""


def shift(spec: str, power: str) -> float:
    """Score shift of a seat of side `power` under its strategy spec."""
    s = parse_strategy(spec, INFO.strategies, INTERVENTIONS).interventions
    asset = taken(spec, power)
    total = MONEY_VALUE[power] * float(s.get("grant_money", 0))
    if asset:
        total += ASSETS[asset]["bonus"][power] - MONEY_VALUE[power] * ASSETS[asset]["cost"]
    return total


def exact_win(mu: float) -> float:
    """P(a seat shifted by mu beats one unshifted seat)."""
    return float(stats.norm.cdf(mu / math.sqrt(2)))


def play_games(root_seed, game_indices, seatings, data=None, log=None) -> pd.DataFrame:
    rows = []
    for g, seating in zip(game_indices, seatings):
        INFO.check_seating(seating, lambda spec: parse_strategy(spec, INFO.strategies, INTERVENTIONS))
        noise = stream(root_seed, int(g), "noise").standard_normal(2)
        score = noise + np.array([shift(spec, p) for spec, p in zip(seating.strategies, seating.powers)])
        for s in range(2):
            rows.append({"game_index": int(g), "seed": root_seed, "players": 2, "seat": s,
                         "power": seating.powers[s], "strategy": seating.strategies[s], "vp": float(score[s]),
                         "rank": 1 + int(score[1 - s] > score[s]), "winner": bool(score[s] > score[1 - s]),
                         "cards": taken(seating.strategies[s], seating.powers[s])})
    return pd.DataFrame(rows)
