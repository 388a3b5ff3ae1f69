"""Compiled copies of the hottest pure-Python modules, and the rule that decides when they are used.

The modules named in `MODULES` are plain Python, the reference. `setup.py` also compiles them with
Cython (unchanged source, no type declarations): the same games with the same draws, 1.02 to 1.16
times as many per CPU second by game (docs/performance.md). A compiled copy is used only while it
is current: the build records the SHA-256 of the source it compiled (`MANIFEST`, `source_hash`),
and `SourceWhenStale`, put in front of Python's import system by `sim/__init__.py`, loads the
`.py` file instead whenever the source has changed since, the record is missing, or
`EMPIRES_PURE_PYTHON=1` asks for the reference. An edited module therefore never runs as its
stale compiled copy.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.util
import json
import os
import sys
from pathlib import Path

# the modules where each game's scripted games spend their Python time (a profile of the bench's
# games: together about nine tenths of it); a module defining numba kernels stays out (numba
# compiles those itself and cannot read a compiled function). Conquest of the Empire's are out:
# compiled, its games were no faster (its time goes to numpy element reads and the numba
# kernels), and they were three tenths of the compiling (docs/performance.md)
MODULES = (
    # A Few Acres of Snow: the players, their choices and the engine they ask
    "sim.acres.choices", "sim.acres.economy", "sim.acres.engine", "sim.acres.expansion", "sim.acres.network",
    "sim.acres.players", "sim.acres.raids", "sim.acres.scripted", "sim.acres.siege", "sim.acres.sieges",
    "sim.acres.view",
    # Age of Empires III: The Age of Discovery
    "sim.discovery.buildings", "sim.discovery.discovery", "sim.discovery.engine", "sim.discovery.placement",
    "sim.discovery.resolution", "sim.discovery.rounds", "sim.discovery.scoring", "sim.discovery.scripted",
    "sim.discovery.setup", "sim.discovery.trade", "sim.discovery.view",
    # Struggle of Empires
    "sim.struggle.attack_laws", "sim.struggle.attack_scan", "sim.struggle.battle", "sim.struggle.build",
    "sim.struggle.combat_exact", "sim.struggle.dice", "sim.struggle.economy", "sim.struggle.engine",
    "sim.struggle.movement", "sim.struggle.scripted", "sim.struggle.scripted_auction", "sim.struggle.tiles",
    # shared: the lockstep draws of every game
    "sim.core.lockstep",
)
MANIFEST = Path(__file__).with_name("_compiled.json")   # {module: SHA-256 of its compiled source}
PURE_ENV = "EMPIRES_PURE_PYTHON"


def source_path(module: str) -> Path:
    """The `.py` file of a module of sim (where a compiled copy runs, the source it was built from)."""
    return Path(__file__).parent.parent.joinpath(*module.split(".")).with_suffix(".py")


def source_hash(path: Path) -> str:
    """What the build records of a source and the import compares (the one definition of both)."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def recorded() -> dict[str, str]:
    """The build's record of what it compiled (empty without a build)."""
    try:
        return json.loads(MANIFEST.read_text())
    except (OSError, ValueError):
        return {}


def current(module: str, record: dict[str, str]) -> bool:
    """Whether the compiled copy of `module` was built from its source as it is now."""
    path = source_path(module)
    return module in record and path.exists() and record[module] == source_hash(path)


def environment(pure: bool) -> dict[str, str]:
    """This process's environment for a child process that runs the pure-Python reference
    (`pure`) or the compiled copies: the comparisons of the tests and the bench."""
    env = {k: v for k, v in os.environ.items() if k != PURE_ENV}
    if pure:
        env[PURE_ENV] = "1"
    return env


def in_use() -> list[str]:
    """The modules of `MODULES` imported so far from a compiled copy."""
    return [m for m in MODULES if m in sys.modules and not str(getattr(sys.modules[m], "__file__", "")).endswith(".py")]


class SourceWhenStale(importlib.abc.MetaPathFinder):
    """Loads a module of `MODULES` from its `.py` file unless its compiled copy is `current`
    (returning None lets the normal import take the compiled copy), and every other module of sim
    from its `.py` file."""

    def __init__(self) -> None:
        self._record: dict[str, str] | None = None

    def find_spec(self, name, path=None, target=None):
        if name not in MODULES:
            # a compiled copy of a module no longer listed (an earlier build's, left in the
            # checkout) would be taken before its source: the source it is
            source = source_path(name) if name.startswith("sim.") else None
            return importlib.util.spec_from_file_location(name, source) if source and source.is_file() else None
        if os.environ.get(PURE_ENV) != "1":
            if self._record is None:
                self._record = recorded()
            if current(name, self._record):
                return None
        return importlib.util.spec_from_file_location(name, source_path(name))


def install() -> None:
    """Put `SourceWhenStale` first in `sys.meta_path` (once)."""
    if not any(isinstance(f, SourceWhenStale) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceWhenStale())
