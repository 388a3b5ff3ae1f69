"""Headline numbers of a balance report, machine-readable, and the comparison of two reports.

Each game the report plays gets `<game>/headline.json`: win rates by strategy, power and seat, the
first-seat advantage, each tile's causal effect and fair price per skill level and the value of one
unit of each resource -- every number with its 95 % interval -- plus the report's provenance.
`empires report --compare BASE_DIR` puts two reports' numbers side by side: the difference and
its 95 % interval, from the two intervals' standard errors (half-width / 1.96) added in quadrature.
That treats the reports as independent samples; two reports with the same seed share their dice
(common random numbers), so for them the interval is conservative (too wide, never too narrow).
"""

from __future__ import annotations

import html as html_lib
import json
import math
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from analyses import html
from analyses.tile_value import one_row_each
from analyses.tournament import first_seat, summarise
from sim.core.errors import UserError

FORMAT = "empires-headline/1"
FILE = "headline.json"
Z95 = 1.959964


def number(group: str, key: str, value: float, low: float, high: float, n: int | None = None) -> dict[str, Any]:
    return {"group": group, "key": key, "value": float(value), "low": float(low), "high": float(high), "n": n}


def numbers(results: pd.DataFrame, tiles: pd.DataFrame | None, resources: pd.DataFrame | None,
            seats_move_in_order: bool = True) -> list[dict]:
    """The headline numbers of one game's section, each with its 95 % interval; the first seat's
    advantage only where the seats move in order (`GameInfo.turn_order` empty)."""
    summary = summarise(results)
    out = [number(f"win rate by {key[3:]}", f"{key[3:]} {level}", v["win_rate"], *v["ci95"], v["n"])
           for key in ("by_strategy", "by_power", "by_seat") for level, v in summary[key].items()]
    if seats_move_in_order:
        seat0 = first_seat(results)
        out.append(number("first seat", "seat 0 advantage over the fair share", seat0["advantage"],
                          *seat0["advantage_ci95"], seat0["n"]))
    for r in (one_row_each(tiles).itertuples() if tiles is not None else ()):
        if math.isfinite(r.d_win_low):        # no interval from fewer than MIN_BLOCKS blocks: no headline number
            out.append(number("tile effect on win rate (take at once - never)", f"{r.tile} ({r.strategy})",
                              r.d_win, r.d_win_low, r.d_win_high, int(r.blocks)))
        price = (getattr(r, "fair_price_gold", math.nan), getattr(r, "fair_price_low", math.nan),
                 getattr(r, "fair_price_high", math.nan))
        if all(math.isfinite(x) for x in price):
            out.append(number(f"fair price ({getattr(r, 'currency', 'gold')})", f"{r.tile} ({r.strategy})", *price,
                              int(r.blocks)))
    for r in (one_row_each(resources, "resource").itertuples() if resources is not None else ()):
        if math.isfinite(r.ci_low):
            out.append(number("win rate per unit of resource", f"{r.resource} ({r.strategy})",
                              r.win_per_unit, r.ci_low, r.ci_high, int(r.blocks)))
    return out


def write(folder: Path, game: str, title: str, rows: list[dict], provenance: dict[str, Any],
          findings: Sequence[dict[str, Any]] = ()) -> Path:
    """`headline.json`: the numbers, the provenance and the findings with their robustness
    verdicts (analyses.robustness.as_json)."""
    path = folder / FILE
    payload = {"format": FORMAT, "game": game, "title": title, "provenance": provenance, "numbers": rows,
               "findings": list(findings)}
    path.write_text(json.dumps(payload, indent=2, default=str) + "\n", encoding="utf-8")
    return path


def read_report(folder: Path, games: tuple[str, ...]) -> dict[str, dict[str, Any]]:
    """Every played game's headline of a report folder; a UserError naming --compare otherwise."""
    out = {}
    for game in games:
        path = folder / game / FILE
        if not path.is_file():
            raise UserError(f"--compare {folder}: not a report folder (no {game}/{FILE}); give a folder "
                            f"written by `empires report`")
        try:
            payload = json.loads(path.read_text("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise UserError(f"--compare {folder}: {game}/{FILE} is corrupt") from None
        if not isinstance(payload, dict) or payload.get("format") != FORMAT:
            raise UserError(f"--compare {folder}: {game}/{FILE} is not in the {FORMAT} format")
        out[game] = payload
    return out


def _se(row: dict[str, Any]) -> float:
    return (row["high"] - row["low"]) / (2 * Z95)


def compare(base: dict[str, Any], new: dict[str, Any]) -> list[dict[str, Any]]:
    """Rows of both headlines joined on (group, key): base, new, new - base and its 95 % interval."""
    old = {(r["group"], r["key"]): r for r in base["numbers"]}
    rows = []
    for r in new["numbers"]:
        b = old.get((r["group"], r["key"]))
        if b is None:
            continue
        diff, se = r["value"] - b["value"], math.hypot(_se(r), _se(b))
        low, high = diff - Z95 * se, diff + Z95 * se
        rows.append({"group": r["group"], "key": r["key"], "base": b["value"], "new": r["value"], "diff": diff,
                     "low": low, "high": high, "differs": bool(low > 0 or high < 0)})
    return rows


def settings_line(payload: dict[str, Any]) -> str:
    prov = payload.get("provenance", {})
    overrides = prov.get("overrides") or {}
    variants = prov.get("variants") or {}
    what = ", ".join([*(f"{k}={v}" for k, v in overrides.items()), *variants]) or "default rules"
    return f"{what}; seed {prov.get('seed')}, data hash {prov.get('data_hash')}"


def page(base_dir: Path, comparisons: dict[str, tuple[dict, dict, list[dict]]]) -> str:
    """The comparison page: per game, the two reports' settings and every shared headline number."""
    body = [html.summary(f"Headline numbers of this report (new) against the report in {base_dir} (base). "
                         "Difference = new - base with a 95 % interval from both reports' intervals, treating them "
                         "as independent: with the same seed the two share their dice and the interval is "
                         "conservative. 'differs' marks intervals that exclude zero (no correction for the "
                         "number of rows: expect about 1 in 20 by chance).")]
    for game, (base, new, rows) in comparisons.items():
        body.append(f"<h2>{html_lib.escape(new.get('title', game))}</h2>"
                    f"<p>base: {html_lib.escape(settings_line(base))}<br>new: {html_lib.escape(settings_line(new))}</p>")
        body.append(html.table([(r["group"], r["key"], html.number(r["base"], 3), html.number(r["new"], 3),
                                 html.number(r["diff"], 3), f"[{html.number(r['low'], 3)}, {html.number(r['high'], 3)}]",
                                 "yes" if r["differs"] else "") for r in rows],
                               ["number", "level", "base", "new", "new - base", "95% CI", "differs"]))
    return html.page("empires-lab report comparison", "\n".join(body))


def text_table(game: str, rows: list[dict]) -> list[str]:
    """The comparison as plain text lines for the terminal."""
    lines = [f"{game}: new - base (95 % CI)"]
    for r in rows:
        mark = "  *" if r["differs"] else ""
        lines.append(f"  {r['group']}: {r['key']}: {r['base']:.3f} -> {r['new']:.3f}, "
                     f"{r['diff']:+.3f} [{r['low']:+.3f}, {r['high']:+.3f}]{mark}")
    return lines
