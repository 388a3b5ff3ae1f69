"""Argument types and output helpers shared by every command."""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from sim.core.errors import UserError, allowed_range
from sim.core.random import MAX_SEED


def int_in(low: int | None = None, high: int | None = None, name: str = "value"):
    """An argparse type: an integer inside [low, high], with a one-line error otherwise."""
    return _number_in(int, "an integer", low, high, name)


def real_in(low: float | None = None, high: float | None = None, name: str = "value"):
    """An argparse type: a finite number inside [low, high] (no nan, no inf)."""
    return _number_in(float, "a number", low, high, name)


def _number_in(convert: Callable[[str], float], what: str, low: float | None, high: float | None, name: str):
    def parse(text: str) -> float:
        try:
            value = convert(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not {what}")
        if not math.isfinite(value) or (low is not None and value < low) or (high is not None and value > high):
            raise argparse.ArgumentTypeError(f"{value} is out of range; {allowed_range(low, high)}")
        return value

    parse.__name__ = name
    return parse


def name_list(text: str, flag: str, what: str = "NAME", choices: Sequence[str] = ()) -> list[str]:
    """`a,b,c` -> ["a", "b", "c"], refusing an empty list or an empty item: either would silently
    select everything or drop a seat's strategy. `choices` are named in the message."""
    items = [s.strip() for s in text.split(",")]
    allowed = f"; allowed: {', '.join(choices)}" if choices else ""
    if not any(items):
        raise UserError(f"{flag} {text!r} is empty; give {what}[,{what}...]{allowed}")
    if not all(items):
        raise UserError(f"{flag} {text!r}: item {items.index('') + 1} is empty; give {what}[,{what}...] "
                        f"with no empty items{allowed}")
    return items


def key_counts(text: str, allowed: Iterable[str] | None = None, what: str = "name",
               flag: str = "") -> dict[str, int]:
    """Parse `a=3,b=1` into {"a": 3, "b": 1}; counts are integers >= 0, names from `allowed`. A blank
    text is no entries; an empty item between commas is refused. Errors start with `flag`."""
    allowed_set = None if allowed is None else list(allowed)
    at = f"{flag} " if flag else ""
    if not text.strip():
        return {}
    out: dict[str, int] = {}
    for item in name_list(text, flag or "counts", f"{what}=COUNT"):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UserError(f"{at}{item!r} is malformed; use {what}=COUNT[,{what}=COUNT...]")
        if allowed_set is not None and key not in allowed_set:
            raise UserError(f"{at}{what} {key!r} is unknown; allowed: {', '.join(allowed_set)}")
        try:
            count = int(value)
        except ValueError:
            raise UserError(f"{at}{item!r}: count {value.strip()!r} is not an integer")
        if count < 0:
            raise UserError(f"{at}{item!r}: count {count} is negative; counts must be >= 0")
        if key in out:
            raise UserError(f"{at}{what} {key!r} is given twice")
        out[key] = count
    return out


def flagged(flag: str, parse: Callable[[str], Any], text: str) -> Any:
    """`parse(text)`, with a UserError's message prefixed by the flag the text came from."""
    try:
        return parse(text)
    except UserError as exc:
        raise UserError(f"{flag}: {exc}") from None


def _given_path(text: str) -> Path:
    if not text.strip():
        raise argparse.ArgumentTypeError(f"{text!r} is empty; give a path")
    return Path(text)


def _folder_must_exist(folder: Path, text: str) -> None:
    if not folder.is_dir():
        what = "is a file, not a folder" if folder.exists() else "does not exist; create it first"
        raise argparse.ArgumentTypeError(f"{text!r}: its folder {str(folder)!r} {what}")
    if not os.access(folder, os.W_OK | os.X_OK):
        raise argparse.ArgumentTypeError(f"{text!r}: its folder {str(folder)!r} is not writable")


def out_folder(text: str) -> Path:
    """An argparse type for an output folder: the folder itself may be created, nothing above it,
    so its parent must exist and be writable; an existing file of that name is refused."""
    path = _given_path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a file; give a folder")
    _folder_must_exist(path if path.is_dir() else path.parent, text)
    return path


def out_file(*suffixes: str):
    """An argparse type for an output file (one of `suffixes`, if given) in an existing, writable
    folder; a folder of that name is refused."""

    def parse(text: str) -> Path:
        path = _given_path(text)
        if suffixes and not text.endswith(suffixes):
            raise argparse.ArgumentTypeError(f"{text!r}: use a {' or '.join(suffixes)} file name")
        if path.is_dir() or text.endswith(("/", os.sep)):
            raise argparse.ArgumentTypeError(f"{text!r} is a folder; give a file name")
        _folder_must_exist(path.parent, text)
        return path

    parse.__name__ = "file"
    return parse


def in_file(text: str) -> Path:
    """An argparse type for an input file that must exist (and not be a folder)."""
    path = _given_path(text)
    if path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a folder; give a file")
    if not path.is_file():
        raise argparse.ArgumentTypeError(f"{text!r} does not exist")
    return path


def in_folder(text: str) -> Path:
    """An argparse type for an input folder that must exist (and not be a file)."""
    path = _given_path(text)
    if path.exists() and not path.is_dir():
        raise argparse.ArgumentTypeError(f"{text!r} is a file; give a folder")
    if not path.is_dir():
        raise argparse.ArgumentTypeError(f"folder {text!r} does not exist")
    return path


def strategy_list(info: Any, text: str | None, flag: str = "--strategies") -> list[str]:
    """A comma list of strategy specs with no empty items (default: the game's lineup). The names
    are checked once the data is loaded (sim.games.check_strategies): the data may define named
    strategies."""
    if text is None:
        return list(info.lineup or info.strategies[:info.max_players])
    return name_list(text, flag, "STRATEGY", info.strategies)


def add_seed(parser: argparse.ArgumentParser, default: int = 1) -> None:
    parser.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), default=default,
                        help=f"root seed of every random stream (default {default})")


def add_json(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--json", action="store_true", help="machine-readable JSON on stdout")


def add_mc(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--mc", type=int_in(1, 10**10, "trials"), metavar="N",
                        help="estimate by Monte Carlo with N trials instead of exactly")


def add_overrides(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="PATH=VALUE",
                        help="override a component data value (see `empires data GAME`)")
    parser.add_argument("--variant", dest="variants", action="append", default=[], metavar="FILE",
                        help="a TOML file of data overrides laid out like the data files")


def emit_json(payload: Mapping[str, Any]) -> None:
    json.dump(_jsonable(payload), sys.stdout, indent=2, sort_keys=False)
    sys.stdout.write("\n")


def print_table(rows: Sequence[Sequence[Any]], headers: Sequence[str]) -> None:
    """A plain aligned text table."""
    cells = [[_fmt(c) for c in row] for row in rows]
    widths = [max(len(h), *(len(r[i]) for r in cells)) if cells else len(h) for i, h in enumerate(headers)]
    print("  ".join(h.ljust(w) for h, w in zip(headers, widths)))
    print("  ".join("-" * w for w in widths))
    for row in cells:
        print("  ".join(c.ljust(w) for c, w in zip(row, widths)))


def _fmt(value: Any) -> str:
    if isinstance(value, float):
        return f"{value:.4f}"
    return str(value)


def _jsonable(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if hasattr(value, "item") and callable(value.item):
        return _jsonable(value.item())
    if isinstance(value, float) and math.isnan(value):
        return None
    return value
