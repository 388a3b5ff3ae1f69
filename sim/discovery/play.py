"""Age of Discovery as a game module (contract: sim.core.contract): `INFO`, `load_data`,
`play_games`, the asset interface (`INTERVENTIONS`, `GRANTS`, `asset_costs`: the capital
buildings, granted money), `account` for the replay, `CHECKS` (sim.discovery.checks) and the
player audit's `audit_records` / `audit_items` (sim.discovery.audit).

`play_games(root_seed, game_indices, seatings, data, log)` plays game `game_indices[k]` with
`seatings[k]`; game k uses only the streams `(root_seed, game_indices[k], purpose)`, so its rows
are the same alone or in any batch. The powers are the colours (AOD-1.1; no game effect).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd

from sim.core.contract import GameInfo
from sim.core.data import GameData, load_game_data
from sim.core.lockstep import play_in_batches, results_table
from sim.core.seating import RESULT_COLUMNS, Seating
from sim.discovery import TITLE, audit
from sim.discovery.audit import audit_records
from sim.discovery.components import Components, from_data, load_components
from sim.discovery.engine import Engine
from sim.discovery.interventions import GRANTS, INTERVENTIONS, building_costs, check_spec
from sim.discovery.players import RandomPlayer, Roster
from sim.discovery.replay import account
from sim.discovery.scripted import ScriptedPlayer

STRATEGIES = ("random", "explorer", "colonist", "merchant", "builder", "general")
INFO = GameInfo(
    name="discovery", title=TITLE, rule_prefix="AOD", powers=load_components().colours,
    min_players=2, max_players=5, strategies=STRATEGIES,                     # AOD-1.1: 2-5 players
    rules_edition=load_components().data.rules_edition, assets="buildings",      # AOD-14: the Capital buildings
    engine_version=9,          # bump with every deliberate change of rules, players or logs (2: strategy tables
                               # retuned; 3: a forced building saves only its price before its age; 4: passes
                               # and the refreshed displays are logged; 5: the explorer's plan, AOD-22.5, and
                               # the expedition forecasts logged for the player audit; 6: the general docks
                               # soldiers and fights before the scorings, AOD-22.7; 7: whether a forced
                               # building saves before its first chance is options.force_saving; 8: the
                               # Cathedral valued by the missionaries a seat expects to dock; 9: Militia valued by the
                               # regions where the seat may be attacked, Migration by its best move)
    default_strategy="builder",    # building-value experiments: it buys often, so the display turns over
    lineup=("explorer", "colonist", "merchant", "builder"))
BATCH = 256
EXTRA_COLUMNS = ("money", "colony_vp", "economy", "discovery_vp", "ships", "goods", "start_position",
                 "shared_win", "buildings_bought", "expeditions", "expeditions_won", "battles", "wars",
                 "units_killed", "units_lost", "ships_won", "goods_taken", "buildings")
CHECKS = "sim.discovery.checks"
__all__ = ["CHECKS", "GRANTS", "INFO", "INTERVENTIONS", "account", "asset_costs", "audit_items", "audit_records",
           "load_data", "play_games"]


def make_player(strategy: str, engine: Engine, g: int, seat: int, rng):
    """The player of a strategy name: the random-legal baseline or a scripted strategy with its
    parameter table (effective values, `--set` overrides included). Its interventions are the
    engine's filters over the legal choices (sim.core.interventions)."""
    if strategy == "random":
        return RandomPlayer(engine, g, seat, rng)
    return ScriptedPlayer(engine, g, seat, rng, engine.comp.data.tree["strategies"][strategy])


ROSTER = Roster(make=make_player)


def new_engine(comp: Components, seatings: Sequence[Seating], root_seed: int, game_indices: Sequence[int],
               log: bool = False, roster: Roster = ROSTER) -> Engine:
    return Engine(comp, seatings, root_seed, game_indices, roster, log=log)


def load_data(overrides=(), variants=(), strategies=()) -> GameData:
    """The component data after `--set` / `--variant` (sim/discovery/data/*.toml)."""
    return load_game_data("discovery", overrides, variants, strategies)


def components_of(data: GameData | Components | None) -> Components:
    """Accept the default data (None), loaded `GameData` (built once per data hash and
    overrides: the runner passes GameData to every batch) or `Components`."""
    if data is None or isinstance(data, Components):
        return data or load_components()
    key = (data.hash, repr(data.overrides))
    if key not in _BUILT:
        _BUILT[key] = from_data(data)
    return _BUILT[key]


_BUILT: dict[tuple[str, str], Components] = {}


def asset_costs(data: GameData | Components | None = None) -> dict[str, dict[str, float]]:
    """The asset interface: every capital building's cost in money."""
    return building_costs(components_of(data))


def audit_items(data: GameData | Components | None = None) -> list[str]:
    """Every item the player audit looks for (sim.core.audit, sim.discovery.audit)."""
    return audit.audit_items(list(asset_costs(data)))


def check_seating(seating: Seating, comp: Components) -> None:
    """Bad seatings are user errors naming what is allowed (AOD-1.1: 2-5 players)."""
    INFO.check_seating(seating, lambda spec: check_spec(spec, ("random", *comp.data.strategies), comp))


def play_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating],
               data: GameData | Components | None = None, log: str | Path | None = None,
               batch: int = BATCH) -> pd.DataFrame:
    """Play the games in lockstep batches; one row per game and seat (RESULT_COLUMNS plus
    EXTRA_COLUMNS). With `log`, write the JSONL event log of every game there."""
    return play_with(root_seed, game_indices, seatings, data, log, batch=batch)


def play_with(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating],
              data: GameData | Components | None = None, log: str | Path | None = None,
              roster: Roster = ROSTER, prepare: Callable[[Engine], None] | None = None,
              batch: int = BATCH) -> pd.DataFrame:
    """`play_games` with another roster and/or a hook on each engine before it plays (the
    conformance hooks of checks.py: invariants, scrambled hidden information)."""
    comp = components_of(data)
    for s in seatings:
        check_seating(s, comp)
    return play_in_batches(root_seed, game_indices, seatings, batch, functools.partial(new_engine, comp, roster=roster),
                           results_frame, [*RESULT_COLUMNS, *EXTRA_COLUMNS], log, prepare)


def ranks(engine: Engine, g: int) -> list[int]:
    """1 + the seats strictly ahead by VP and then the tie-breakers (AOD-13.3): winners rank 1."""
    s = engine.s.games[g]
    keys = [(s.vp[p], s.last_colony_vp[p], s.money[p], sum(s.goods[p])) for p in range(s.n)]
    return [1 + sum(keys[q] > keys[p] for q in range(s.n)) for p in range(s.n)]


def results_frame(engine: Engine) -> pd.DataFrame:
    """One row per game and seat of a finished batch."""
    games = engine.s.games
    comp = engine.comp

    def per_seat(f):
        return [[f(s, p) for p in range(s.n)] for s in games]

    return results_table(engine.seed, engine.game_indices, engine.seatings, {
        "vp": per_seat(lambda s, p: s.vp[p]),
        "rank": [ranks(engine, g) for g in range(len(games))],
        "winner": per_seat(lambda s, p: bool(s.winner[p])),
        "money": per_seat(lambda s, p: s.money[p]),
        "colony_vp": per_seat(lambda s, p: s.colony_vp[p]),
        "economy": per_seat(lambda s, p: s.economy[p]),
        "discovery_vp": per_seat(lambda s, p: sum((comp.cards if k == "card" else comp.tokens)[i].vp
                                                  for k, i in s.discoveries[p])),
        "ships": per_seat(lambda s, p: s.ships[p]),
        "goods": per_seat(lambda s, p: sum(s.goods[p])),
        "shared_win": per_seat(lambda s, p: bool(s.winner[p]) and sum(s.winner) > 1),
        **{k: per_seat(lambda s, p, k=k: s.stats[k][p]) for k in
           ("start_position", "buildings_bought", "expeditions", "expeditions_won", "battles", "wars", "units_killed",
            "units_lost", "ships_won", "goods_taken")},
        "buildings": per_seat(lambda s, p: ",".join(sorted(s.held[p]))),
    })
