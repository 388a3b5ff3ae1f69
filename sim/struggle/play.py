"""Struggle of Empires as a game module (contract: sim.core.contract): `INFO`, `load_data`,
`play_games`, the asset interface (`INTERVENTIONS`, `GRANTS`, `asset_costs`), `account` for the
replay and `CHECKS` (sim.struggle.checks) for the conformance suite; `ROSTER` / `new_engine` seat
the standard players in an engine.

`play_games(root_seed, game_indices, seatings, data, log)` plays game `game_indices[k]` with
`seatings[k]` in lockstep batches and returns one row per game and seat. Game k uses only the
streams `(root_seed, game_indices[k], purpose)`, so its row is the same alone or in any batch.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.contract import GameInfo
from sim.core.data import GameData, load_game_data
from sim.core.lockstep import play_in_batches, results_table
from sim.core.scoring import competition_places
from sim.core.seating import RESULT_COLUMNS, Seating
from sim.struggle import NAME, TITLE
from sim.struggle.components import Components, default_components, from_data
from sim.struggle.engine import Engine
from sim.struggle.interventions import GRANTS, INTERVENTIONS, check_spec
from sim.struggle.interventions import tile_costs as _tile_costs
from sim.struggle.players import STRATEGIES, RandomPlayer, Roster, SeatPlayer
from sim.struggle import audit
from sim.struggle.audit import audit_records
from sim.struggle.replay import account
from sim.struggle.scripted import ScriptedPlayer, ScriptedWork

INFO = GameInfo(
    name=NAME, title=TITLE, rule_prefix="SOE", powers=tuple(default_components().powers),
    min_players=2, max_players=7, strategies=STRATEGIES,                        # SOE-1.1: 2-7 players
    rules_edition=default_components().data.rules_edition,
    engine_version=9,              # bump with every deliberate change of rules, players or logs (2: SOE-12.10
                                   # ties, SOE-20.12; 3: Reserves by the kernels' rule, SOE-A20; 4: attacks log
                                   # p_win; 5: "action" and "diplomacy" events; 6: attack odds for whole stacks;
                                   # 7: tile plans, adaptive unrest budgets, useful rebuilds, builds before passes;
                                   # 8: idle armies spread off big stacks, last-war unrest margins 6;
                                   # 9: company tiles take a place in the priority lists)
    default_strategy="mixed",      # the skill level of tile-value experiments unless told otherwise
    lineup=("colonial", "european", "mixed", "random"))
BATCH = 512       # games per lockstep batch: larger batches spread the players' array passes (memory is small)
EXTRA_COLUMNS = ("vp_before_penalty", "unrest", "revolution", "tiles_bought", "battles_fought", "battles_won",
                 "units_lost", "gold_borrowed", "unrest_borrowed", "gold", "population", "markers", "shared_win", "tiles")
CHECKS = "sim.struggle.checks"   # the conformance hooks (sim.core.conformance)
__all__ = ["INFO", "INTERVENTIONS", "GRANTS", "load_data", "play_games", "asset_costs", "account", "CHECKS", "audit_records",
           "audit_items"]


def make_player(strategy: str, engine: Engine, g: int, seat: int, rng) -> SeatPlayer:
    """The player of a strategy name: the random-legal baseline or a scripted strategy with its
    parameter table (effective values, `--set` overrides included). Its interventions are the
    engine's filters over the legal choices (sim.core.interventions)."""
    if strategy == "random":
        return RandomPlayer(engine, g, seat, rng)
    return ScriptedPlayer(engine, g, seat, rng, engine.comp.data.tree["strategies"][strategy])


ROSTER = Roster(make=make_player, work=ScriptedWork)    # the players every engine of play_games seats


def new_engine(comp: Components, seatings: Sequence[Seating], root_seed: int, game_indices: Sequence[int],
               log: bool = False, roster: Roster = ROSTER) -> Engine:
    """An engine for a batch of games with the standard players (or another roster)."""
    return Engine(comp, seatings, root_seed, game_indices, roster, log=log)


def load_data(overrides=(), variants=(), strategies=()) -> GameData:
    """The component data after `--set` / `--variant` (sim/struggle/data/*.toml), with the
    shipped named strategies among `strategies` (sim.core.data)."""
    return load_game_data("struggle", overrides, variants, strategies)


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


_BUILT: dict[str, Components] = {}          # components per data hash (the runner passes GameData)


def audit_items(data: GameData | Components | None = None) -> list[str]:
    """Every item the player audit looks for (each tile, each action kind; sim.core.audit)."""
    return audit.audit_items(list(asset_costs(data)))


def check_seating(seating: Seating, comp: Components) -> None:
    """Bad seatings are user errors naming what is allowed (SOE-1.1: 2-7 players); the strategies
    are the random baseline and the tables of the data (named ones included)."""
    INFO.check_seating(seating, lambda spec: check_spec(spec, ("random", *comp.data.strategies), comp))


def asset_costs(data: GameData | Components | None = None) -> dict[str, dict[str, float]]:
    """The asset interface (sim.core.contract): every tile's cost in units removed."""
    return _tile_costs(components_of(data))


def play_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating],
               data: GameData | Components | None = None, log: str | Path | None = None,
               batch: int = BATCH) -> pd.DataFrame:
    """Play the games in lockstep batches of `batch`; one row per game and seat (RESULT_COLUMNS
    plus EXTRA_COLUMNS). With `log`, write the JSONL event log of every game there."""
    comp = components_of(data)
    for s in seatings:
        check_seating(s, comp)

    return play_in_batches(root_seed, game_indices, seatings, batch, functools.partial(new_engine, comp), results_frame,
                           [*RESULT_COLUMNS, *EXTRA_COLUMNS], log)


def winners(vp: np.ndarray, unrest: np.ndarray, active: np.ndarray, rule: str) -> np.ndarray:
    """SOE-18.4 / SOE-A28: the most VP wins; ties shared, or (option) broken by least unrest."""
    score = np.where(active, vp, np.iinfo(np.int64).min).astype(np.int64)
    top = score == score.max(axis=1, keepdims=True)
    if rule == "fewest_unrest":
        u = np.where(top, unrest, np.iinfo(np.int64).max)
        top &= u == u.min(axis=1, keepdims=True)
    return top & active


def acquired_names(engine: Engine) -> list[list[str]]:
    """Each seat's acquired tiles, comma-separated in name order (the `tiles` column)."""
    assets = engine.t.assets
    return [[",".join(sorted(assets[a] for a in np.flatnonzero(row))) for row in game]
            for game in engine.s.acquired]


def results_frame(engine: Engine) -> pd.DataFrame:
    """One row per game and seat of a finished batch."""
    s = engine.s
    active = np.arange(s.power.shape[1])[None, :] < s.n_players[:, None]
    win = winners(s.vp, s.unrest, active, engine.opt("winner_tie"))
    stats = s.stats
    return results_table(engine.seed, engine.game_indices, engine.seatings, {
        "vp": s.vp, "rank": competition_places(s.vp, active) + 1, "winner": win,
        "vp_before_penalty": stats["vp_before_penalty"], "unrest": s.unrest, "revolution": stats["revolution"],
        **{k: stats[k] for k in ("tiles_bought", "battles_fought", "battles_won", "units_lost", "gold_borrowed",
                                 "unrest_borrowed")},
        "gold": s.gold, "population": s.population, "markers": s.markers.sum(axis=2),
        "shared_win": win & (win.sum(axis=1) > 1)[:, None],
        "tiles": acquired_names(engine)})
