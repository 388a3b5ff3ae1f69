"""Whole games of Struggle of Empires for the experiment runner (contract: sim.core.seating).

`play_games(root_seed, game_indices, seatings, data)` plays game `game_indices[k]` with
`seatings[k]` in lockstep batches and returns one row per game and seat. Game k uses only the
streams `(root_seed, game_indices[k], purpose)`, so its row is the same alone or in any batch.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.data import GameData
from sim.core.errors import UserError
from sim.core.random import check_seed
from sim.core.scoring import competition_places
from sim.core.seating import RESULT_COLUMNS, Seating
from sim.struggle.components import Components, default_components, from_data
from sim.struggle.engine import Engine
from sim.struggle.interventions import GRANTS, INTERVENTIONS, check_spec
from sim.struggle.interventions import tile_costs as _tile_costs
from sim.struggle.players import STRATEGIES

POWERS = tuple(default_components().powers)
MIN_PLAYERS = 2
MAX_PLAYERS = 7
BATCH = 512       # games per lockstep batch: larger batches spread the players' array passes (memory is small)
DEFAULT_STRATEGY = "mixed"   # the skill level of tile-value experiments unless told otherwise
EXTRA_COLUMNS = ("vp_before_penalty", "unrest", "revolution", "tiles_bought", "battles_fought", "battles_won",
                 "units_lost", "gold_borrowed", "unrest_borrowed", "gold", "population", "markers", "shared_win", "tiles")


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


def check_seating(seating: Seating, comp: Components) -> None:
    """Bad seatings are user errors naming what is allowed (SOE-1.1: 2-7 players)."""
    if not MIN_PLAYERS <= seating.players <= MAX_PLAYERS:
        raise UserError(f"players: {seating.players} is not allowed; use {MIN_PLAYERS}..{MAX_PLAYERS}")
    for p in seating.powers:
        if p not in POWERS:
            raise UserError(f"power {p!r} is unknown; allowed: {', '.join(POWERS)}")
    for s in seating.strategies:
        check_spec(s, STRATEGIES, comp)


def tile_costs(data: GameData | Components | None = None) -> dict[str, dict[str, float]]:
    """Tile-value contract (analyses.tile_value): every tile's cost in units removed."""
    return _tile_costs(components_of(data))


def play_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating],
               data: GameData | Components | None = None, log: str | Path | None = None,
               batch: int = BATCH) -> pd.DataFrame:
    """Play the games in batches of `batch`; one row per game and seat (RESULT_COLUMNS plus
    EXTRA_COLUMNS). With `log`, write the JSONL event log of every game there."""
    root_seed = check_seed(root_seed)
    game_indices = [int(i) for i in game_indices]
    if len(game_indices) != len(seatings):
        raise UserError("play_games needs one seating per game index")
    comp = components_of(data)
    for s in seatings:
        check_seating(s, comp)
    frames, logs = [], []
    for start in range(0, len(game_indices), batch):
        idx = game_indices[start: start + batch]
        engine = Engine(comp, seatings[start: start + batch], root_seed, idx, log=log is not None)
        engine.play()
        frames.append(results_frame(engine))
        if log is not None:
            logs.append(engine)
    if log is not None:
        _write_logs(log, logs)
    if not frames:
        return pd.DataFrame(columns=[*RESULT_COLUMNS, *EXTRA_COLUMNS])
    return pd.concat(frames, ignore_index=True)


def winners(vp: np.ndarray, unrest: np.ndarray, active: np.ndarray, rule: str) -> np.ndarray:
    """SOE-18.4 / SOE-A28: the most VP wins; ties shared, or (option) broken by least unrest."""
    score = np.where(active, vp, np.iinfo(np.int64).min).astype(np.int64)
    top = score == score.max(axis=1, keepdims=True)
    if rule == "fewest_unrest":
        u = np.where(top, unrest, np.iinfo(np.int64).max)
        top &= u == u.min(axis=1, keepdims=True)
    return top & active


def results_frame(engine: Engine) -> pd.DataFrame:
    """One row per game and seat of a finished batch."""
    s = engine.s
    active = np.arange(s.power.shape[1])[None, :] < s.n_players[:, None]
    rank = competition_places(s.vp, active) + 1
    win = winners(s.vp, s.unrest, active, engine.opt("winner_tie"))
    n_win = win.sum(axis=1)
    rows = []
    for g in range(s.n):
        seating = engine.seatings[g]
        for p in range(seating.players):
            rows.append({
                "game_index": engine.game_indices[g], "seed": engine.seed, "players": seating.players, "seat": p,
                "power": seating.powers[p], "strategy": seating.strategies[p], "vp": int(s.vp[g, p]),
                "rank": int(rank[g, p]), "winner": bool(win[g, p]),
                "vp_before_penalty": int(s.stats["vp_before_penalty"][g, p]), "unrest": int(s.unrest[g, p]),
                "revolution": bool(s.stats["revolution"][g, p]),
                **{k: int(s.stats[k][g, p]) for k in ("tiles_bought", "battles_fought", "battles_won",
                                                     "units_lost", "gold_borrowed", "unrest_borrowed")},
                "gold": int(s.gold[g, p]), "population": int(s.population[g, p]),
                "markers": int(s.markers[g, p].sum()), "shared_win": bool(win[g, p] and n_win[g] > 1),
                "tiles": ",".join(sorted(engine.bought_kinds[g][p])),
            })
    return pd.DataFrame(rows)


def _write_logs(path: str | Path, engines: list[Engine]) -> None:
    with open(path, "w", encoding="utf-8") as fh:
        for engine in engines:
            engine.write_log_to(fh)
