"""Registry of the games: every game package, and the engines the runner can play.

`PACKAGES` lists the game packages in report order; each package's `__init__` names its `TITLE`.
An engine module (`sim/<game>/play.py`) keeps the contract of `sim.core.contract` (`INFO`,
`load_data`, `play_games`, and for value experiments the asset interface); `load` checks it.
Modules are imported lazily, so a game whose engine is still being written does not break the
other commands.

Other games plug in with `register(name, module_path)`; the module path (not the module) is what
travels to worker processes, so it must be importable there (for Dask on other hosts the package
must be installed on the workers).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterable
from types import ModuleType
from typing import Any

from sim.core import contract
from sim.core.data import GameData, named_strategies
from sim.core.errors import UserError, one_of
from sim.core.seating import parse_strategy

PACKAGES = ("struggle", "conquest", "acres", "discovery")

_REGISTRY: dict[str, str] = {"struggle": "sim.struggle.play", "conquest": "sim.conquest.play",
                             "acres": "sim.acres.play", "discovery": "sim.discovery.play"}


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
    """Import a registered game's engine and check it keeps the contract (sim.core.contract)."""
    path = module_path(name)
    try:
        module = importlib.import_module(path)
    except ModuleNotFoundError as exc:
        if exc.name and (path == exc.name or path.startswith(exc.name + ".")):
            raise UserError(f"game {name!r}: its engine {path} is not available yet "
                            f"(registered games: {', '.join(names())})") from None
        raise
    contract.check(module, name)
    return module


def info(name: str) -> contract.GameInfo:
    """The `GameInfo` of a registered game."""
    return load(name).INFO


def title(name: str) -> str:
    """A game's title: its engine's `INFO.title`, else its package's `TITLE`."""
    if name in _REGISTRY:
        return info(name).title
    return importlib.import_module(f"sim.{name}").TITLE


def load_data(name: str, module: ModuleType, overrides=(), variants=(), strategies=()) -> Any:
    """The component data a game's engine plays with, after `--set` / `--variant`, holding the
    named strategies among `strategies` (the specs to be played; sim.core.data)."""
    return module.load_data(overrides, variants, strategies)


def strategies(name: str, module: ModuleType, data: Any) -> tuple[str, ...]:
    """Every strategy a game can play with this data: its built-in ones, the named strategies the
    data defines and those the game ships (sim.core.data.named_strategies)."""
    defined = data.strategies if isinstance(data, GameData) else ()
    return tuple(dict.fromkeys((*module.INFO.strategies, *defined, *named_strategies(name))))


def check_strategies(name: str, module: ModuleType, data: Any, specs: Iterable[str]) -> None:
    """A one-line UserError for a spec whose strategy or intervention key the game does not know."""
    known = strategies(name, module, data)
    for spec in specs:
        parse_strategy(spec, known, getattr(module, "INTERVENTIONS", ()))
