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
overrides, the data hash and every ASSUMED value they depended on. Keys starting with `_` are
comments in a variant file, as in the data files.

*Named strategies.* A game with strategy tables (`strategies.toml`) can have more of them
defined from data: `[strategies.mixed-tuned]` with `base = "mixed"` and any parameter overrides,
in a variant file or as `--set strategies.mixed-tuned.base=mixed`. The new table is a copy of
its base with the overrides, each checked against the base table's types and bounds, and can be
played under its name like any other. A game may ship such tables in its data folder, in a file
laid out like a variant whose only table is `[strategies.*]` (e.g. `sim/struggle/data/tuned.toml`):
that file is not part of the default data. A shipped table joins the data only when a strategy it
defines is asked for (`load_game_data(..., strategies=[...])`) or overridden, and then as
overrides -- so the default data hash stays what it was, and a result that plays a named
strategy records its whole definition in its overrides (a resumed run reads it back from there).
"""

from __future__ import annotations

import copy
import hashlib
import json
import re
import tomllib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from importlib import resources
from pathlib import Path
from typing import Any

from sim.core.errors import UserError, allowed_range

STATUSES = ("FOUND", "DERIVED", "ASSUMED")
LEAF_KEYS = {"value", "status", "source", "min", "max", "choices", "note"}
STRATEGIES = "strategies"            # the data file whose tables named strategies derive from
BASE = "base"                        # the key of a named strategy that names the table it copies
NAME_PATTERN = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")   # a strategy name inside a seat spec


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
    def strategies(self) -> tuple[str, ...]:
        """The names of the strategy tables in the data (built-in and named ones)."""
        return tuple(self.tree.get(STRATEGIES, {}))

    def base_of(self, strategy: str) -> str:
        """The built-in table a strategy derives from (itself for a built-in one)."""
        return str(self.overrides.get(f"{STRATEGIES}.{strategy}.{BASE}", strategy))

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
                   variants: Iterable[str | Path] = (), strategies: Iterable[str] = ()) -> GameData:
    """Load `sim/<game>/data/*.toml`, apply variant files and `--set` overrides, and validate.
    `strategies`: the strategy specs to be played; the shipped named ones among them join the data."""
    raw, shipped = _game_files(game)
    tree, leaves = untag(raw)
    applied: dict[str, Any] = {}
    origin: dict[str, str] = {}                  # the flag or file an override came from, for messages
    for variant in variants:
        for path, value in _flatten(_read_variant(Path(variant)), ""):
            applied[path], origin[path] = value, f"--variant {str(variant)!r}:"
    pairs = overrides.items() if isinstance(overrides, Mapping) else (parse_assignment(o) for o in overrides)
    for path, value in pairs:
        applied[path], origin[path] = value, "--set"
    applied = {**_shipped_definitions(shipped, tree, applied, strategies), **applied}
    _derive_strategies(tree, leaves, applied, game)
    for path, value in applied.items():
        if not _is_base_path(path):
            _set(tree, path, validate_override(path, value, tree, leaves, game,
                                               origin.get(path, "shipped strategy file:")))
    return GameData(game=game, tree=tree, leaves=leaves, overrides=applied)


def named_strategies(game: str) -> dict[str, dict[str, Any]]:
    """The strategy tables a game ships in its data folder (name -> flat overrides, `base`
    included); empty for a game without them or without a data folder."""
    try:
        return _game_files(game)[1]
    except DataError:
        return {}


def _game_files(game: str) -> tuple[dict[str, Any], dict[str, dict[str, Any]]]:
    """The data files of a game (file name -> tagged tree) and its shipped named strategies."""
    try:
        folder = resources.files(f"sim.{game}").joinpath("data")
    except ModuleNotFoundError:
        raise DataError(f"game {game!r} has no data; known games: struggle, conquest, acres, discovery")
    raw: dict[str, Any] = {}
    named: dict[str, dict[str, Any]] = {}
    for entry in sorted(folder.iterdir(), key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            stem = entry.name[: -len(".toml")]
            parsed = _parse(entry.read_text("utf-8"), f"data file {game}/{entry.name}")
            if stem != STRATEGIES and {k for k in parsed if not k.startswith("_")} == {STRATEGIES}:
                for name, table in parsed[STRATEGIES].items():
                    named[name] = dict(_flatten(table, f"{STRATEGIES}.{name}"))
            else:
                raw[stem] = parsed
    return raw, named


def _is_base_path(path: str) -> bool:
    parts = path.split(".")
    return len(parts) == 3 and parts[0] == STRATEGIES and parts[2] == BASE


def _shipped_definitions(shipped: Mapping[str, Mapping[str, Any]], tree: Mapping[str, Any],
                         applied: Mapping[str, Any], wanted: Iterable[str]) -> dict[str, Any]:
    """The shipped definitions of the named strategies asked for or overridden, unless the
    overrides define them anew (with their own `base`)."""
    built_in = set(tree.get(STRATEGIES, {}))
    names = {spec.split("+")[0] for spec in wanted}
    names |= {p.split(".")[1] for p in applied if p.startswith(f"{STRATEGIES}.") and p.count(".") >= 2}
    names -= {p.split(".")[1] for p in applied if _is_base_path(p)} | built_in
    return {path: value for name in sorted(names) for path, value in shipped.get(name, {}).items()}


def _derive_strategies(tree: dict[str, Any], leaves: dict[str, Leaf], applied: Mapping[str, Any],
                       game: str) -> None:
    """Add the named strategy tables the overrides define (`strategies.NAME.base = "BASE"`): a
    copy of the built-in table BASE whose leaves keep BASE's provenance and bounds."""
    tables = tree.get(STRATEGIES)
    built_in = tuple(tables or ())
    for path, base in applied.items():
        if not _is_base_path(path):
            continue
        name = path.split(".")[1]
        if tables is None:
            raise DataError(f"--set {path}: {game} has no strategy tables to derive a strategy from")
        if name in built_in:
            raise DataError(f"--set {path}: {name!r} is a built-in strategy; `{BASE}` defines new names only")
        if not NAME_PATTERN.fullmatch(name) or name == "random":
            raise DataError(f"--set {path}: strategy name {name!r} is not allowed; use letters, digits, "
                            f"'-' and '_' (not 'random')")
        if base not in built_in:
            raise DataError(f"--set {path}={base!r}: unknown base strategy; allowed: {', '.join(built_in)}")
        tables[name] = copy.deepcopy(tables[base])
        prefix = f"{STRATEGIES}.{base}."
        for leaf_path, leaf in list(leaves.items()):
            if leaf_path.startswith(prefix):
                leaves[f"{STRATEGIES}.{name}.{leaf_path[len(prefix):]}"] = leaf
    for path in applied:
        parts = path.split(".")
        if tables is not None and parts[0] == STRATEGIES and len(parts) > 2 and parts[1] not in tables:
            raise DataError(f"--set {path}: strategy {parts[1]!r} is not defined; define it with "
                            f"{STRATEGIES}.{parts[1]}.{BASE} = one of {', '.join(built_in)}")


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


def user_overrides(data: GameData) -> dict[str, Any]:
    """The data paths a `--set` / `--variant` changed, with their values, strategy tables
    included (`strategies.fortifier.raze_at=0.9`); the shipped named tables that join the data
    when played (`hammer-tuned`) are the game's own, not overrides, and stay out."""
    shipped = {path: value for table in named_strategies(data.game).values() for path, value in table.items()}
    return {path: value for path, value in sorted(data.overrides.items())
            if path not in shipped or shipped[path] != value}


def override_texts(values: Mapping[str, Any]) -> tuple[str, ...]:
    """Overrides (path -> value) as the `PATH=VALUE` texts `--set` takes, so an analysis can put
    its own after them: a later text for the same path wins."""
    return tuple(f"{path}={json.dumps(value)}" for path, value in values.items())


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
        if key.startswith("_"):
            continue
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
