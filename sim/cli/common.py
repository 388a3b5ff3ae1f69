"""Argument types and output helpers shared by every command."""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from sim.core.errors import UserError
from sim.core.random import MAX_SEED


def int_in(low: int | None = None, high: int | None = None, name: str = "value"):
    """An argparse type: an integer inside [low, high], with a one-line error otherwise."""

    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"{text!r} is not an integer")
        if (low is not None and value < low) or (high is not None and value > high):
            lo = "-inf" if low is None else low
            hi = "inf" if high is None else high
            raise argparse.ArgumentTypeError(f"{value} is out of range; allowed {lo}..{hi}")
        return value

    parse.__name__ = name
    return parse


def key_counts(text: str, allowed: Iterable[str] | None = None, what: str = "name") -> dict[str, int]:
    """Parse `a=3,b=1` into {"a": 3, "b": 1}; counts are integers >= 0, names from `allowed`."""
    allowed_set = None if allowed is None else list(allowed)
    out: dict[str, int] = {}
    for item in filter(None, (s.strip() for s in text.split(","))):
        key, sep, value = item.partition("=")
        key = key.strip()
        if not sep or not key:
            raise UserError(f"{item!r} is malformed; use {what}=COUNT[,{what}=COUNT...]")
        if allowed_set is not None and key not in allowed_set:
            raise UserError(f"{what} {key!r} is unknown; allowed: {', '.join(allowed_set)}")
        try:
            count = int(value)
        except ValueError:
            raise UserError(f"{item!r}: count {value.strip()!r} is not an integer")
        if count < 0:
            raise UserError(f"{item!r}: count {count} is negative; counts must be >= 0")
        if key in out:
            raise UserError(f"{what} {key!r} is given twice")
        out[key] = count
    return out


def strategy_list(info: Any, text: str | None, flag: str = "--strategies") -> list[str]:
    """A comma list of strategy specs (default: the game's lineup). The names are checked once
    the data is loaded (sim.games.check_strategies): the data may define named strategies."""
    if text is None:
        return list(info.lineup or info.strategies[:info.max_players])
    strategies = [s.strip() for s in text.split(",") if s.strip()]
    if not strategies:
        raise UserError(f"{flag} {text!r}: name at least one of {', '.join(info.strategies)}")
    return strategies


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
