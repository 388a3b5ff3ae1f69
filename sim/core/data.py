"""Component data: TOML files -> one validated tree, with provenance, bounds and overrides.

Each game keeps its components in `sim/<game>/data/*.toml`; the file name is the first part of
every path (`tiles.toml` holds `tiles.war_office.cost_gold`). Every value is tagged with its
provenance as in the rules references -- FOUND (a source says so), DERIVED (follows from found
facts), ASSUMED (a placeholder a user may want to change):

    [war_office]
    _status = "ASSUMED"                                   # default for everything below
    _source = "SOE-26.5"
    copies = { value = 1, status = "ASSUMED", min = 0 }  # a tagged leaf: value + status
    cost_gold = { value = 4, status = "ASSUMED", min = 0, max = 20 }

A table with `value` and `status` is one tagged leaf (optional `source`, `min`, `max`,
`choices`, `note`); `_status` / `_source` on a table tag every leaf below it. A leaf with no tag
anywhere above it is a data error: nothing enters a simulation untagged. Lists are leaves.

Users change any leaf with `--set path=value` (the value is read as TOML: `4`, `[9, 5, 3]`,
`"north_america"`, `true`) or with a variant file laid out like the data. An unknown path, a
value of the wrong type or one outside the leaf's bounds is a `UserError`. Results record the
overrides, the data hash and every ASSUMED value they depended on.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from sim.core.errors import UserError, allowed_range

STATUSES = ("FOUND", "DERIVED", "ASSUMED")
LEAF_KEYS = {"value", "status", "source", "min", "max", "choices", "note"}


class DataError(UserError):
    """Invalid component data or an invalid override of it."""


@dataclass(frozen=True)
class Leaf:
    """Provenance and bounds of one data value."""

    status: str
    source: str = ""
    note: str = ""
    low: float | None = None
    high: float | None = None
    choices: tuple | None = None


@dataclass(frozen=True)
class GameData:
    """The effective data of one game: defaults, then variant files, then `--set` overrides."""

    game: str
    tree: Mapping[str, Any]
    leaves: Mapping[str, Leaf]
    overrides: Mapping[str, Any] = field(default_factory=dict)

    def get(self, path: str) -> Any:
        """The value at a dotted path (a leaf or a table)."""
        node: Any = self.tree
        for part in path.split("."):
            if not isinstance(node, Mapping) or part not in node:
                raise DataError(f"data path {path!r} does not exist in {self.game} data")
            node = node[part]
        return node

    @property
    def hash(self) -> str:
        """SHA-256 (first 16 hex digits) of the effective data: same numbers, same hash."""
        blob = json.dumps(self.tree, sort_keys=True, separators=(",", ":"), default=list)
        return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]

    @property
    def rules_edition(self) -> str:
        """The rules edition the data describes (`meta.rules_edition`)."""
        return str(self.tree.get("meta", {}).get("rules_edition", "unspecified"))

    def assumed(self, prefixes: Iterable[str] = ()) -> dict[str, Any]:
        """Every ASSUMED leaf (optionally only under some path prefixes) with its effective value."""
        prefixes = tuple(prefixes)
        return {p: self.get(p) for p, leaf in self.leaves.items()
                if leaf.status == "ASSUMED" and (not prefixes or p.startswith(prefixes))}

    def rows(self) -> list[dict[str, Any]]:
        """One row per leaf, for listings: path, value, status, source, overridden."""
        return [{"path": p, "value": self.get(p), "status": leaf.status, "source": leaf.source,
                 "overridden": p in self.overrides} for p, leaf in self.leaves.items()]

    def check(self, condition: bool, path: str, allowed: str) -> None:
        """Raise a DataError naming `path`, its value and what is allowed, unless `condition`."""
        if not condition:
            raise DataError(f"data {path} = {self.get(path)!r} is not allowed; {allowed}")


def load_game_data(game: str, overrides: Iterable[str] | Mapping[str, Any] = (),
                   variants: Iterable[str | Path] = ()) -> GameData:
    """Load `sim/<game>/data/*.toml`, apply variant files and `--set` overrides, and validate."""
    try:
        folder = resources.files(f"sim.{game}").joinpath("data")
    except ModuleNotFoundError:
        raise DataError(f"game {game!r} has no data; known games: struggle, conquest, acres, discovery")
    raw: dict[str, Any] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            raw[entry.name[: -len(".toml")]] = _parse(entry.read_text("utf-8"), f"data file {game}/{entry.name}")
    tree, leaves = untag(raw)
    applied: dict[str, Any] = {}
    origin: dict[str, str] = {}                  # the flag or file an override came from, for messages
    for variant in variants:
        for path, value in _flatten(_read_variant(Path(variant)), ""):
            applied[path], origin[path] = value, f"--variant {str(variant)!r}:"
    pairs = overrides.items() if isinstance(overrides, Mapping) else (parse_assignment(o) for o in overrides)
    for path, value in pairs:
        applied[path], origin[path] = value, "--set"
    for path, value in applied.items():
        _set(tree, path, validate_override(path, value, tree, leaves, game, origin[path]))
    return GameData(game=game, tree=tree, leaves=leaves, overrides=applied)


def untag(raw: Mapping[str, Any], path: str = "", status: str | None = None,
          source: str = "") -> tuple[dict[str, Any], dict[str, Leaf]]:
    """Split a tagged tree into plain values and per-leaf provenance."""
    tree: dict[str, Any] = {}
    leaves: dict[str, Leaf] = {}
    for key, node in raw.items():
        if key.startswith("_"):
            continue
        here = f"{path}.{key}" if path else key
        if isinstance(node, Mapping) and "value" in node and "status" in node:
            unknown = set(node) - LEAF_KEYS
            if unknown:
                raise DataError(f"data {here}: unknown tag keys {sorted(unknown)}; allowed {sorted(LEAF_KEYS)}")
            leaf = Leaf(status=_status(node["status"], here), source=str(node.get("source", source)),
                        note=str(node.get("note", "")), low=node.get("min"), high=node.get("max"),
                        choices=tuple(node["choices"]) if "choices" in node else None)
            tree[key] = node["value"]
            leaves[here] = leaf
            _check_bounds(here, node["value"], leaf)
        elif isinstance(node, Mapping):
            sub_status = _status(node["_status"], here) if "_status" in node else status
            sub_tree, sub_leaves = untag(node, here, sub_status, str(node.get("_source", source)))
            tree[key] = sub_tree
            leaves.update(sub_leaves)
        else:
            if status is None:
                raise DataError(f"data {here} has no provenance tag; tag it FOUND, DERIVED or ASSUMED")
            tree[key] = node
            leaves[here] = Leaf(status=status, source=source)
    return tree, leaves


def parse_assignment(text: str) -> tuple[str, Any]:
    """`path=value` with the value read as TOML (bare words are strings)."""
    path, sep, value_text = text.partition("=")
    path = path.strip()
    if not sep or not path:
        raise DataError(f"--set {text!r} is malformed; use path=value, e.g. tiles.war_office.cost_gold=4")
    return path, parse_value(value_text.strip())


def parse_value(text: str) -> Any:
    """A TOML literal (`4`, `2.5`, `true`, `[1, 2]`, `"x"`), or the text itself as a string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def validate_override(path: str, value: Any, tree: Mapping[str, Any], leaves: Mapping[str, Leaf],
                      game: str, source: str = "--set") -> Any:
    """Check that `path` is a leaf, that `value` has its type and lies inside its bounds; errors
    name `source`, the flag or file the override came from (`--set`, `--variant FILE:`, `--sweep`)."""
    if path not in leaves:
        close = [p for p in leaves if p.split(".")[-1] == path.split(".")[-1]][:3]
        hint = f"; did you mean {', '.join(close)}" if close else f"; `empires data {game}` lists the paths"
        raise DataError(f"{source} {path}: unknown {game} data path{hint}")
    current: Any = tree
    for part in path.split("."):
        current = current[part]
    value = _coerce(path, value, current, source)
    _check_bounds(path, value, leaves[path], source)
    return value


def _coerce(path: str, value: Any, current: Any, source: str) -> Any:
    if isinstance(current, bool):
        ok = isinstance(value, bool)
    elif isinstance(current, int):
        ok = isinstance(value, int) and not isinstance(value, bool)
    elif isinstance(current, float):
        ok = isinstance(value, (int, float)) and not isinstance(value, bool)
        value = float(value) if ok else value
    elif isinstance(current, list):
        ok = isinstance(value, list) and (not current or not value or
                                          all(type(v) is type(current[0]) for v in value))
    else:
        ok = isinstance(value, type(current))
    if not ok:
        raise DataError(f"{source} {path}={value!r}: wrong type; expected {type(current).__name__} like {current!r}")
    return value


def _check_bounds(path: str, value: Any, leaf: Leaf, source: str = "") -> None:
    where = source or "data"
    items = value if isinstance(value, list) else [value]
    for item in items:
        if leaf.choices is not None and item not in leaf.choices:
            raise DataError(f"{where} {path} = {item!r} is not allowed; choose one of {list(leaf.choices)}")
        if isinstance(item, (int, float)) and not isinstance(item, bool):
            if (leaf.low is not None and item < leaf.low) or (leaf.high is not None and item > leaf.high):
                raise DataError(f"{where} {path} = {item!r} is out of range; {allowed_range(leaf.low, leaf.high)}")


def _status(value: Any, path: str) -> str:
    if value not in STATUSES:
        raise DataError(f"data {path}: status {value!r} is not allowed; use one of {', '.join(STATUSES)}")
    return str(value)


def _parse(text: str, name: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise DataError(f"{name} is not valid TOML: {exc}")


def _read_variant(path: Path) -> dict[str, Any]:
    """A variant file's TOML tree; a missing, non-file, unreadable or non-UTF-8 file is the user's to fix."""
    where = f"--variant {str(path)!r}"
    if path.is_dir():
        raise DataError(f"{where} is a folder; give a TOML file laid out like the data files")
    if not path.is_file():
        raise DataError(f"{where} does not exist; give a TOML file laid out like the data files")
    try:
        text = path.read_text("utf-8")
    except UnicodeDecodeError as exc:
        raise DataError(f"{where} is not UTF-8 text (byte {exc.start}); save it as UTF-8 TOML") from None
    except OSError as exc:
        raise DataError(f"{where} cannot be read ({exc.strerror})") from None
    return _parse(text, where)


def _flatten(node: Mapping[str, Any], path: str) -> Iterable[tuple[str, Any]]:
    for key, value in node.items():
        here = f"{path}.{key}" if path else key
        if isinstance(value, Mapping):
            yield from _flatten(value, here)
        else:
            yield here, value


def _set(tree: dict[str, Any], path: str, value: Any) -> None:
    *parents, last = path.split(".")
    node = tree
    for part in parents:
        node = node[part]
    node[last] = value
