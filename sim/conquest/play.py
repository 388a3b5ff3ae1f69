"""Conquest of the Empire as a game module (contract: sim.core.contract): `INFO`, `load_data`,
`play_games`, the asset interface (`INTERVENTIONS`, `GRANTS`, `asset_costs`), `account` for the
replay and `CHECKS` (sim.conquest.checks) for the conformance suite.

A seating's powers are colours (COE-AS6); seat k takes the k-th Home Province of the player
count's list in turn order (COE-8.2, COE-9.2), so seat 0 moves first. `vp` is the final income
(tax-track value, COE-4) of a surviving seat and 0 for an eliminated one; the winner is the last
Caesar (COE-25.1), and a game stopped by the turn cap (COE-25.3) or drawn (COE-A21) says so in
`end_reason`, its `winner` column marking the seats sharing the top income.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sim.conquest import TITLE
from sim.conquest.audit import audit_items, audit_records
from sim.conquest.components import Components, default_components, from_data
from sim.conquest.engine import NAME, Engine
from sim.conquest.interventions import GRANTS, INTERVENTIONS, check_spec, unit_costs
from sim.conquest.players import STRATEGIES, RandomPlayer, Roster, SeatPlayer
from sim.conquest.purchase import ASSETS
from sim.conquest.replay import account
from sim.conquest.scripted import ScriptedPlayer
from sim.conquest.state import tables_of
from sim.core.contract import GameInfo
from sim.core.data import GameData, load_game_data
from sim.core.lockstep import play_in_batches, results_table
from sim.core.scoring import competition_places
from sim.core.seating import RESULT_COLUMNS, Seating

INFO = GameInfo(
    name=NAME, title=TITLE, rule_prefix="COE", powers=tables_of(default_components()).colours,
    min_players=2, max_players=6, strategies=STRATEGIES,                       # COE-8.2: 2-6 players
    assets="units and buildings", vp_label="final income",   # COE-4: no victory points
    rules_edition=default_components().data.rules_edition,
    engine_version=18,             # bump with every deliberate change of rules, players or logs (2: turn cap 20,
                                   # 3: attack forecasts logged, 4: army mix from the exact odds,
                                   # 5: prisoner swaps, COE-23.1, 6: massed attacks, guards by the exact
                                   # odds, hunting, galleys and roads, turn cap 40, 7: a buying phase
                                   # without purchases logged with what it offered, 8: buildings bought
                                   # beyond the shares once no land unit can be, 9: naval battles on
                                   # the exact odds and the cargo at stake, their forecasts logged,
                                   # 10: the hunter's sea marches towards the hunted Caesar,
                                   # 11: the nearest General leading less than a legion walks home
                                   # for the units waiting there; each turn's units and unled units
                                   # logged, 12: the forecast acted on and its battle's retreat
                                   # decisions solved on the armies as they stand, each side's
                                   # retreat as the board allows it, 13: no army led straight
                                   # back: steps that get nearer, the General called home
                                   # chosen once a turn, a province being taken keeps its taker,
                                   # 14: ransom bids rise after a refusal up to a most paid, bids
                                   # and accepted prices scale with the price multiplier,
                                   # 15: the last two Caesars captured together end the game as a
                                   # draw, COE-A21, not as a victory of the second,
                                   # 16: razing decided by the exact chance a City is taken,
                                   # `raze_at` (never by default, as measured), each City weighed logged,
                                   # 17: the legions next to the hunted Caesar attack him together,
                                   # `converge`, 18: the richer rival's Caesar hunted first, `hunt_leader`)
    default_strategy="fortifier",  # the skill level of asset-value experiments (it buys every asset kind)
    lineup=("expansionist", "fortifier", "hunter", "siege_train"))
BATCH = 256
EXTRA_COLUMNS = ("home", "end_reason", "rounds", "alive", "talents", "provinces", "cities", "units",
                 "battles_fought", "battles_won", "provinces_taken", "units_lost", "units_bought", "talents_spent",
                 "caesars_captured", "generals_captured", "cities_razed", "eliminated_round", "max_income",
                 "multiplier", "assets")
CHECKS = "sim.conquest.checks"
__all__ = [
    "CHECKS",
    "GRANTS",
    "INFO",
    "INTERVENTIONS",
    "account",
    "asset_costs",
    "audit_items",
    "audit_records",
    "load_data",
    "play_games",
]


def make_player(strategy: str, engine: Engine, g: int, seat: int, rng) -> SeatPlayer:
    """The player of a strategy name: the random-legal baseline or a scripted strategy with its
    parameter table (effective values, `--set` overrides included)."""
    if strategy == "random":
        return RandomPlayer(engine, g, seat, rng)
    return ScriptedPlayer(engine, g, seat, rng, engine.comp.data.get(f"strategies.{strategy}"))


ROSTER = Roster(make=make_player)


def new_engine(comp: Components, seatings: Sequence[Seating], root_seed: int, game_indices: Sequence[int],
               log: bool = False, roster: Roster = ROSTER) -> Engine:
    return Engine(comp, seatings, root_seed, game_indices, roster, log=log)


def load_data(overrides=(), variants=(), strategies=()) -> GameData:
    """The component data after `--set` / `--variant` (sim/conquest/data/*.toml)."""
    return load_game_data(NAME, overrides, variants, strategies)


_BUILT: dict[str, Components] = {}


def components_of(data: GameData | Components | None) -> Components:
    """Accept the default data (None), loaded `GameData` (with overrides) or `Components`."""
    if data is None:
        return default_components()
    if isinstance(data, Components):
        return data
    comp = _BUILT.get(data.hash)
    if comp is None or comp.data.overrides != data.overrides:
        comp = _BUILT[data.hash] = from_data(data)
    return comp


def check_seating(seating: Seating, comp: Components) -> None:
    """Bad seatings are user errors naming what is allowed (COE-8.2: 2-6 players)."""
    INFO.check_seating(seating, lambda spec: check_spec(spec, ("random", *comp.data.strategies), comp))


def asset_costs(data: GameData | Components | None = None) -> dict[str, dict[str, float]]:
    """The asset interface (sim.core.contract): every purchasable piece's base price."""
    return unit_costs(components_of(data))


def play_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating],
               data: GameData | Components | None = None, log: str | Path | None = None,
               batch: int = BATCH) -> pd.DataFrame:
    """Play the games in lockstep batches; one row per game and seat (RESULT_COLUMNS plus
    EXTRA_COLUMNS). With `log`, write the JSONL event log of every game there."""
    comp = components_of(data)
    for s in seatings:
        check_seating(s, comp)

    return play_in_batches(root_seed, game_indices, seatings, batch, functools.partial(new_engine, comp), results_frame,
                           [*RESULT_COLUMNS, *EXTRA_COLUMNS], log)


def results_frame(engine: Engine) -> pd.DataFrame:
    """One row per game and seat of a finished batch (COE-25: victory, draw or turn cap)."""
    s, t = engine.s, engine.t
    b, seats = s.alive.shape
    income = np.array([[engine.income(g, q) if q < s.n_players[g] and s.alive[g, q] else 0 for q in range(seats)]
                       for g in range(b)], dtype=np.int64)
    active = np.arange(seats)[None, :] < s.n_players[:, None]
    key = np.where(active, income + (s.alive * (1 + int(income.max(initial=0)))), -1)   # survivors first
    win = active & (key == key.max(axis=1, keepdims=True))
    mine = s.control[:, None, :] == np.arange(seats)[None, :, None]
    units = np.array([[sum(int(s.land[g, c].sum()) + int(s.gal_cargo[g, c].sum()) + int((s.gal_loc[g, c] >= 0).sum())
                           for c in engine.colours_of[g][q]) if q < s.n_players[g] else 0 for q in range(seats)]
                      for g in range(b)], dtype=np.int64)
    assets = [[",".join(a for k, a in enumerate(ASSETS) if s.acquired[g, q, k]) for q in range(seats)]
              for g in range(b)]
    return results_table(engine.seed, engine.game_indices, engine.seatings, {
        "vp": income, "rank": competition_places(key, active) + 1, "winner": win,
        "home": [[t.names[h] if h >= 0 else "" for h in row] for row in s.home.tolist()],
        "end_reason": [[r] * seats for r in s.end_reason],
        "rounds": np.repeat(s.round[:, None], seats, axis=1), "alive": s.alive,
        "talents": s.treasury, "provinces": mine.sum(axis=2), "cities": (mine & s.city[:, None, :]).sum(axis=2),
        "units": units, **{k: s.stats[k] for k in EXTRA_COLUMNS if k in s.stats},
        "multiplier": np.repeat(s.multiplier[:, None], seats, axis=1), "assets": assets})

