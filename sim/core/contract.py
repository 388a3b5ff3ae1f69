"""The typed contract between a game engine and everything that plays it (runner, CLI, analyses).

A game module (`sim/<game>/play.py`) exposes:

- `INFO`: a `GameInfo` (who can sit, which strategies exist, which rules and engine version);
- `load_data(overrides, variants, strategies)`: the component data `play_games` plays with
  (after `--set` / `--variant`, holding the named strategies among the specs `strategies`, see
  sim.core.data), or None for a game without data;
- `play_games(root_seed, game_indices, seatings, data, log=None) -> DataFrame`: game
  `game_indices[k]` with `seatings[k]`, using only the streams `stream(root_seed,
  game_indices[k], purpose)`; one row per game and seat, games in the order given and seats in
  order, with at least `RESULT_COLUMNS` (sim.core.seating); with `log`, the JSONL event log of
  every game (a `{"event": "game", ...}` header line per game) written there;
- optionally `account(head, events) -> list[str]`: a readable text of one logged game (its
  header line and events) for `empires replay`; without it, the replay lists each event's fields
  (sim.core.replay.account).

Value experiments (analyses.tile_value) also need the *asset interface*: `INTERVENTIONS` (the
intervention keys a strategy spec may carry: "force", "ban", "grant_<resource>"), `GRANTS` (the
dose of each resource a fair-price experiment grants) and `asset_costs(data) -> {asset:
{resource: units removed when acquiring it}}`. An asset is whatever a seat can acquire: a tile
(Struggle of Empires), a building (Age of Discovery), a card (A Few Acres of Snow).

`check(module)` is how the registry checks a module; `typing.Protocol` documents the shape for a
type checker, and the check adds the types and values a Protocol cannot express.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

import pandas as pd

from sim.core.errors import UserError
from sim.core.seating import Seating


@dataclass(frozen=True)
class GameInfo:
    """What a game is: its names, who may sit, its strategies, and what its results depend on.

    `engine_version` grows with every deliberate change of rules or players (golden playthroughs
    are re-recorded with it); run folders record it and `--resume` refuses a mismatch.
    `assumed_prefixes`: data paths whose ASSUMED values the results depend on (empty: all).
    `lineup`: the strategies of a default `empires play` game, one per seat (empty: the first
    `max_players` strategies).
    `vp_label`: what the results' `vp` column holds, as tables name its mean ("VP", or e.g. a
    game without victory points: "final income").
    `assets`: what the asset-value experiments measure, in the plural ("tiles", "cards and locations").
    `turn_order`: where the rules, not the seat, decide who moves first, a clause saying so with
    its rule id (empty: the seats move in order); a seat is then only a label, and the report
    says that instead of measuring a first-seat advantage.
    """

    name: str
    title: str
    rule_prefix: str
    powers: tuple[str, ...]
    min_players: int
    max_players: int
    strategies: tuple[str, ...]
    rules_edition: str
    engine_version: int
    default_strategy: str = "random"
    assumed_prefixes: tuple[str, ...] = ()
    lineup: tuple[str, ...] = ()
    vp_label: str = "VP"
    assets: str = "tiles"
    turn_order: str = ""

    def __post_init__(self) -> None:
        problems = []
        if not self.name.isidentifier():
            problems.append(f"name {self.name!r} is not an identifier")
        if not 1 <= self.min_players <= self.max_players:
            problems.append(f"players {self.min_players}..{self.max_players} is not a range")
        if len(set(self.powers)) != len(self.powers) or len(self.powers) < self.max_players:
            problems.append("powers must be distinct and at least max_players of them")
        if "random" not in self.strategies:
            problems.append("strategies must include the random-legal baseline 'random'")
        if self.default_strategy not in self.strategies:
            problems.append(f"default strategy {self.default_strategy!r} is not a strategy")
        if not set(self.lineup) <= set(self.strategies) or (
                self.lineup and not self.min_players <= len(self.lineup) <= self.max_players):
            problems.append("lineup must name strategies, one per seat of an allowed game")
        if not isinstance(self.engine_version, int) or self.engine_version < 1:
            problems.append("engine_version must be a whole number >= 1")
        if problems:
            raise ValueError(f"GameInfo {self.name!r}: " + "; ".join(problems))

    def check_seating(self, seating: Seating, check_strategy: Callable[[str], None] | None = None) -> None:
        """A UserError naming what is allowed for a bad player count, power or strategy."""
        if not self.min_players <= seating.players <= self.max_players:
            raise UserError(f"players: {seating.players} is not allowed for {self.name}; "
                            f"use {self.min_players}..{self.max_players}")
        for p in seating.powers:
            if p not in self.powers:
                raise UserError(f"power {p!r} is unknown for {self.name}; allowed: {', '.join(self.powers)}")
        for s in seating.strategies:
            if check_strategy is not None:
                check_strategy(s)
            elif s not in self.strategies:
                raise UserError(f"strategy {s!r} is unknown for {self.name}; allowed: {', '.join(self.strategies)}")


@runtime_checkable
class GameModule(Protocol):
    """A playable game (see the module docstring)."""

    INFO: GameInfo

    def load_data(self, overrides: Sequence[str] = (), variants: Sequence[str] = (),
                  strategies: Sequence[str] = ()) -> Any: ...

    def play_games(self, root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating],
                   data: Any = None, log: str | Path | None = None) -> pd.DataFrame: ...


@runtime_checkable
class AssetGame(GameModule, Protocol):
    """A game whose assets can be valued (force / ban / grant experiments)."""

    INTERVENTIONS: tuple[str, ...]
    GRANTS: Mapping[str, int]

    def asset_costs(self, data: Any = None) -> dict[str, dict[str, float]]: ...


def check(module: ModuleType, name: str) -> GameModule:
    """The module if it keeps the contract; else a UserError saying what it lacks."""
    where = f"game {name!r}: engine {module.__name__}"
    info = getattr(module, "INFO", None)
    if not isinstance(info, GameInfo):
        raise UserError(f"{where} has no INFO of type sim.core.contract.GameInfo")
    if info.name != name:
        raise UserError(f"{where}: INFO.name is {info.name!r}, registered as {name!r}")
    missing = [f for f in ("load_data", "play_games") if not callable(getattr(module, f, None))]
    if missing:
        raise UserError(f"{where} lacks {', '.join(missing)} (see sim.core.contract)")
    return module  # type: ignore[return-value]


def has_assets(module: ModuleType) -> bool:
    """Whether a game module offers the asset interface (checked, not guessed)."""
    if not all(hasattr(module, a) for a in ("INTERVENTIONS", "GRANTS", "asset_costs")):
        return False
    keys = set(module.INTERVENTIONS)
    if not {"force", "ban"} <= keys or not all(f"grant_{r}" in keys for r in module.GRANTS):
        raise UserError(f"engine {module.__name__}: INTERVENTIONS must hold force, ban and grant_<r> "
                        f"for every resource of GRANTS")
    return True


def strategy_sides(module: ModuleType, data: Any) -> dict[str, str]:
    """The game's side-bound strategies, {strategy: power}, from the optional module hook
    `strategy_sides(data)` (AFAoS: `hammer` plays British whatever its seat); designs and
    rotations seat them on their side (sim.core.seating.bind_sides)."""
    hook = getattr(module, "strategy_sides", None)
    return dict(hook(data)) if callable(hook) else {}
