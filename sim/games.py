"""Registry of the games the experiment runner can play: game name -> engine module path.

An engine module follows the contract of `sim.core.seating` (POWERS, MIN_PLAYERS,
MAX_PLAYERS, STRATEGIES, play_games). Modules are imported lazily, so a game whose engine is
still being written does not break the other commands. Optional module attributes:

- `load_data(overrides, variants)`: the component data passed to `play_games` (default: the
  game's `sim/<game>/data/*.toml` through `sim.core.data.load_game_data`, or None when the game
  has no data folder);
- `RULES_EDITION` (games without data), `ASSUMED_PREFIXES` (data paths whose ASSUMED values
  the results depend on; default all).

Other games plug in with `register(name, module_path)`; the module path (not the module) is
what travels to worker processes, so it must be importable there (for Dask on other hosts the
package must be installed on the workers).
"""

from __future__ import annotations

import importlib
from importlib import resources
from types import ModuleType
from typing import Any

from sim.core.errors import UserError, one_of

CONTRACT = ("POWERS", "MIN_PLAYERS", "MAX_PLAYERS", "STRATEGIES", "play_games")

_REGISTRY: dict[str, str] = {"struggle": "sim.struggle.play"}


def register(name: str, module_path: str) -> None:
    """Make a game playable by the runner (e.g. `register("toy", "tests.runner.toygame")`)."""
    _REGISTRY[name] = module_path


def names() -> tuple[str, ...]:
    return tuple(sorted(_REGISTRY))


def module_path(name: str) -> str:
    """The engine module path of a registered game."""
    if name not in _REGISTRY:
        raise one_of("game", name, names())
    return _REGISTRY[name]


def load(name: str) -> ModuleType:
    """Import a registered game's engine and check it exposes the runner contract."""
    path = module_path(name)
    try:
        module = importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name and (path == exc.name or path.startswith(exc.name + ".")):
            raise UserError(f"game {name!r}: its engine {path} is not available yet "
                            f"(registered games: {', '.join(names())})") from None
        raise
    missing = [attr for attr in CONTRACT if not hasattr(module, attr)]
    if missing:
        raise UserError(f"game {name!r}: engine {path} lacks {', '.join(missing)} (see sim.core.seating)")
    return module


def load_data(name: str, module: ModuleType, overrides=(), variants=()) -> Any:
    """The component data a game's engine plays with, after `--set` / `--variant`."""
    loader = getattr(module, "load_data", None)
    if loader is not None:
        return loader(overrides, variants)
    if _has_data_folder(name):
        from sim.core.data import load_game_data
        return load_game_data(name, overrides, variants)
    if overrides or variants:
        raise UserError(f"--set/--variant: game {name!r} has no component data to override")
    return None


def _has_data_folder(name: str) -> bool:
    try:
        folder = resources.files(f"sim.{name}").joinpath("data")
    except ModuleNotFoundError:
        return False
    return folder.is_dir() and any(e.name.endswith(".toml") for e in folder.iterdir())
