"""Findings tied to the assumptions they rest on, and a robustness pass that tests them.

*Assumption groups.* The ASSUMED data leaves of a game (sim.core.data), collapsed by data file
and field kind: `tiles.*.cost_gold` (tile costs in gold), `regions.*.vp` (region VP), `tokens.*`
(token mix), every strategy table (`strategies.*`: player weights and thresholds), `options.*`,
`rules.*` ... Names, labels and other free text (a string leaf without `choices`) are left out:
nothing is played differently when they change.

*Perturbations.* `--set` override sets derived from the effective data, never written by hand:
gold costs of tiles and costs of cards +1 / -1, region VP x1.2 / x0.8, player weights (`strategies.*.*_weight`)
x1.2 / x0.8 and CotE's turn cap x1.5 / x0.75 (a game stopped by it is won by the top income, so
most CotE findings rest on it) -- integers rounded, every value clipped to its leaf's bounds -- and the token mix
reshuffled: in each region one token of its commonest kind becomes one of its rarest kind (the
same number of tokens, only kinds the region already has). Only ASSUMED leaves are perturbed; a
perturbation that changes nothing is dropped. Each one is loaded through `load_game_data`, so
bounds and types are checked like any `--set`.

*Findings and verdicts.* The headline findings of a tournament: the strongest and the weakest
strategy, power and seat (highest / lowest win rate; none where every level wins alike), and every
flagged imbalance. Under a
perturbation (a smaller tournament, same seed) a strongest / weakest finding *holds* when the
same level is still the argmax / argmin of the win rate; a flag holds when the level's point
estimate is still on the same side of that run's fair share (its interval need not exclude it at
the smaller size). A finding is *robust* when it holds under every perturbation, *fragile* when
it does not under some (named), *untested* when nothing was replayed (no engine, or the pass is
off). Win rates come out of play, and every ASSUMED group feeds play, so each finding rests on
all of the game's groups. Mis-priced assets stay untested: re-measuring them needs the whole tile
step (every skill level, every tile, two arms each) once per perturbation.
"""

from __future__ import annotations

import fnmatch
import html as html_lib
import math
import re
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

import pandas as pd

from analyses import html
from analyses.tile_value import one_row_each
from analyses.tournament import level_table, null_rate
from sim.core.data import STRATEGIES, GameData, Leaf, load_game_data

FACTORS = ("strategy", "power", "seat")
LABELS = {"tiles.*.cost_gold": "tile costs (gold)", "tiles.*.cost_unrest": "tile costs (unrest)",
          "tiles.*.cost_population": "tile costs (population)", "tiles.*.copies": "tile copies",
          "regions.*.vp": "region VP", "tokens.*": "token mix", f"{STRATEGIES}.*": "player weights and thresholds",
          "options.*": "rules options"}
SHIFTS = (("tiles.*.cost_gold", "tile costs", (1, -1)),                    # add, clipped to the bounds
          ("cards.*.*.cost", "card costs", (1, -1)))
SCALES = (("regions.*.vp", "region VP", (1.2, 0.8)),                       # multiply, rounded, clipped
          (f"{STRATEGIES}.*.*_weight", "player weights", (1.2, 0.8)),
          ("rules.turn_cap", "turn cap", (1.5, 0.75)))    # COE-25.3: the cap that ends most CotE games
MIXES = (("tokens.*", "token mix"),)                                       # one token changes kind
RULE_ID = re.compile(r"[A-Z]+-\d+(?:\.\d+)*")
UNTESTED_ASSETS = ("re-measuring a tile's value needs the whole tile step (every skill level, every tile, two arms "
                   "each) once per perturbation, too costly for the report")


@dataclass(frozen=True)
class Group:
    """One group of ASSUMED values: a data file and field kind."""

    label: str
    pattern: str
    paths: tuple[str, ...]
    sources: tuple[str, ...]


@dataclass(frozen=True)
class Perturbation:
    """A set of `--set` overrides that changes one assumption group."""

    name: str
    group: str
    overrides: Mapping[str, Any]


@dataclass(frozen=True)
class Finding:
    """A headline finding, the groups it rests on and its verdict. `direction`: max / min (the
    level is the strongest / weakest), above / below (a flag: outside the fair share that way),
    or a tile verdict."""

    finding: str
    factor: str
    level: str
    direction: str
    rests_on: str
    verdict: str = "untested"
    flips: tuple[str, ...] = ()
    note: str = ""

    def verdict_text(self) -> str:
        if self.verdict == "fragile":
            return f"fragile: flips under {', '.join(self.flips)}"
        return f"{self.verdict}: {self.note}" if self.note else self.verdict


def pattern_of(path: str, tree: Mapping[str, Any]) -> str:
    """The group pattern of a leaf path: the item level replaced by `*` -- `tiles.*.cost_gold`
    when sibling tables share the field (at least three, or more than half of them), else
    `map.region_adjacency.*`; every strategy table is one group."""
    parts = path.split(".")
    if parts[0] == STRATEGIES:
        return f"{STRATEGIES}.*"
    if len(parts) >= 3:
        grandparent = tree
        for part in parts[:-2]:
            grandparent = grandparent[part]
        tables = [v for v in grandparent.values() if isinstance(v, Mapping)]
        sharing = sum(parts[-1] in t for t in tables)
        if len(tables) == len(grandparent) and (sharing >= 3 or 2 <= sharing > len(tables) / 2):
            return ".".join([*parts[:-2], "*", parts[-1]])
    return ".".join([*parts[:-1], "*"]) if len(parts) >= 2 else path


def is_text(value: Any, leaf: Leaf) -> bool:
    """A name, label or other free text: a string leaf that is not a choice among options."""
    return isinstance(value, str) and leaf.choices is None


def groups(data: GameData) -> list[Group]:
    """The game's ASSUMED leaves, text left out, one group per data file and field kind, in data order."""
    members: dict[str, list[str]] = {}
    for path, value in data.assumed().items():
        if not is_text(value, data.leaves[path]):
            members.setdefault(pattern_of(path, data.tree), []).append(path)
    out = []
    for pattern, paths in members.items():
        ids = {i for p in paths for i in (RULE_ID.findall(data.leaves[p].source) or [data.leaves[p].source]) if i}
        label = LABELS.get(pattern, pattern.replace(".*", "").replace(".", " "))
        out.append(Group(label, pattern, tuple(paths), tuple(sorted(ids))))
    return out


def _clip(value: float, leaf: Leaf) -> float:
    low = -math.inf if leaf.low is None else leaf.low
    high = math.inf if leaf.high is None else leaf.high
    return min(max(value, low), high)


def _number(value: Any, change: Callable[[float], float], leaf: Leaf) -> Any:
    """A number (or each number of a list) changed, clipped; integers stay integers."""
    if isinstance(value, list):
        return [_number(v, change, leaf) for v in value]
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return value
    new = _clip(change(value), leaf)
    return round(new) if isinstance(value, int) else round(float(new), 6)


def reshuffled(tokens: list[str]) -> list[str]:
    """One token of the commonest kind (the first on ties) becomes one of the rarest kind (the
    last on ties); unchanged when the list has a single kind."""
    counts = Counter(tokens)
    if len(counts) < 2:
        return list(tokens)
    kinds = list(counts)
    common = max(kinds, key=lambda k: counts[k])
    rare = min(reversed(kinds), key=lambda k: counts[k])
    out = list(tokens)
    out[len(out) - 1 - out[::-1].index(common)] = rare
    return out


def _changed(data: GameData, pattern: str, change: Callable[[Any, Leaf], Any]) -> dict[str, Any]:
    out = {}
    for path, value in data.assumed().items():
        if fnmatch.fnmatchcase(path, pattern):
            new = change(value, data.leaves[path])
            if new != value:
                out[path] = new
    return out


def perturbations(data: GameData) -> list[Perturbation]:
    """Every perturbation of the game's ASSUMED values that changes something (module docstring)."""
    label = {p: g.label for g in groups(data) for p in g.paths}
    made: list[tuple[str, dict[str, Any]]] = []
    for pattern, name, steps in SHIFTS:
        made += [(f"{name} {d:+d}", _changed(data, pattern, lambda v, leaf, d=d: _number(v, lambda x: x + d, leaf)))
                 for d in steps]
    for pattern, name, factors in SCALES:
        made += [(f"{name} x{f:g}", _changed(data, pattern, lambda v, leaf, f=f: _number(v, lambda x: x * f, leaf)))
                 for f in factors]
    for pattern, name in MIXES:
        made.append((f"{name} reshuffled", _changed(
            data, pattern, lambda v, leaf: reshuffled(v) if isinstance(v, list) and v and
            all(isinstance(t, str) for t in v) else v)))
    return [Perturbation(name, label[next(iter(overrides))], overrides) for name, overrides in made if overrides]


def load(data: GameData, perturbation: Perturbation) -> GameData:
    """The data with a perturbation on top of its own overrides (variant files and `--set`
    included), checked by `load_game_data` like any `--set`."""
    return load_game_data(data.game, {**data.overrides, **perturbation.overrides})


def rates(results: pd.DataFrame) -> pd.DataFrame:
    """Win rate per level of every factor, with the run's fair share: the numbers a verdict uses."""
    share = null_rate(results)
    frames = []
    for factor in FACTORS:
        table = level_table(results, factor)
        frames.append(pd.DataFrame({"factor": factor, "level": [str(i) for i in table.index], "n": table["n"].to_numpy(),
                                    "win_rate": table["win_rate"].to_numpy(), "fair_share": share}))
    return pd.concat(frames, ignore_index=True)


def findings(results: pd.DataFrame, flags: pd.DataFrame, rests_on: str) -> list[Finding]:
    """The strongest and weakest strategy, power and seat (none for a factor whose levels all win
    alike, e.g. CotE's colours, which take no part in play), and every flagged imbalance."""
    table = rates(results)
    out = []
    for factor in FACTORS:
        rows = table[table["factor"] == factor]
        if rows["win_rate"].max() == rows["win_rate"].min():
            continue
        for word, direction, pick in (("strongest", "max", rows["win_rate"].idxmax()),
                                      ("weakest", "min", rows["win_rate"].idxmin())):
            level = rows.loc[pick, "level"]
            out.append(Finding(f"{word} {factor}: {level} ({rows.loc[pick, 'win_rate']:.3g})", factor, level,
                               direction, rests_on))
    for r in flags[flags["flag"] != ""].itertuples():
        out.append(Finding(f"{r.factor} {r.level} {r.flag} ({r.win_rate:.3g} against {r.expected:.3g})", r.factor,
                           str(r.level), "above" if r.flag == "too strong" else "below", rests_on))
    return out


def asset_findings(assets: pd.DataFrame | None, rests_on: str) -> list[Finding]:
    """Mis-priced assets (tile_value.by_asset), untested (UNTESTED_ASSETS says why)."""
    if assets is None:
        return []
    hits = one_row_each(assets[assets["finding"].isin(("under-priced", "over-priced"))])
    return [Finding(f"{r['tile']} {r['finding']}", "tile", r["tile"], r["finding"], rests_on, note=UNTESTED_ASSETS)
            for _, r in hits.iterrows()]


def holds(finding: Finding, table: pd.DataFrame) -> bool:
    """Whether a finding still holds in one run's `rates` table (module docstring)."""
    rows = table[table["factor"] == finding.factor].set_index("level")
    if finding.level not in rows.index:
        return False
    if finding.direction in ("max", "min"):
        best = rows["win_rate"].idxmax() if finding.direction == "max" else rows["win_rate"].idxmin()
        return best == finding.level
    rate, share = rows.loc[finding.level, "win_rate"], rows.loc[finding.level, "fair_share"]
    return bool(rate > share) if finding.direction == "above" else bool(rate < share)


def judge(found: list[Finding], perturbed: Mapping[str, pd.DataFrame], untested: str) -> list[Finding]:
    """Verdicts of the win-rate findings against every perturbed run's `rates` table; without
    runs, every finding is untested (`untested` says why). Tile findings keep their verdict."""
    out = []
    for f in found:
        if f.factor not in FACTORS:
            out.append(f)
        elif not perturbed:
            out.append(replace(f, verdict="untested", note=untested))
        else:
            flips = tuple(name for name, table in perturbed.items() if not holds(f, table))
            out.append(replace(f, verdict="fragile" if flips else "robust", flips=flips,
                               note="" if flips else f"holds under all {len(perturbed)} perturbations"))
    return out


def replay(perturbations: list[Perturbation], play: Callable[[Perturbation], pd.DataFrame],
           say: Callable[[str], None] = lambda _: None) -> dict[str, pd.DataFrame]:
    """The `rates` table of each perturbation's tournament (`play` runs one)."""
    out = {}
    for i, p in enumerate(perturbations, 1):
        say(f"robustness {i}/{len(perturbations)}: {p.name} ({len(p.overrides)} values)")
        out[p.name] = rates(play(p))
    return out


def numbers(baseline: pd.DataFrame, perturbed: Mapping[str, pd.DataFrame],
            plan: list[Perturbation]) -> pd.DataFrame:
    """Every run's win rates in one table (`<game>/robustness.csv`): the report's own run first."""
    groups_of = {p.name: (p.group, len(p.overrides)) for p in plan}
    frames = [baseline.assign(perturbation="none (the report's tournament)", group="", values_changed=0)]
    frames += [t.assign(perturbation=name, group=groups_of[name][0], values_changed=groups_of[name][1])
               for name, t in perturbed.items()]
    columns = ["perturbation", "group", "values_changed", "factor", "level", "n", "win_rate", "fair_share"]
    return pd.concat(frames, ignore_index=True)[columns]


def rests_on(found: list[Group]) -> str:
    """What a win-rate finding rests on: every group, since all feed play."""
    return f"all {len(found)} ASSUMED groups (every one feeds play)" if found else "no ASSUMED values"


def findings_table(found: list[Finding], plan: list[Perturbation], games: int) -> str:
    """The 'Findings and the assumptions behind them' table at the top of a game's section."""
    tried = ", ".join(p.name for p in plan) or "none"
    intro = (f"<p>Each finding, the ASSUMED data groups it rests on (listed in the provenance box below) and whether "
             f"it survives when they change. Perturbations tried{f' ({games} games each, same seed)' if games else ''}: "
             f"{html_lib.escape(tried)}. <em>Robust</em>: the same level stays strongest / weakest, or a flagged "
             "level stays on the same side of the fair share, under every perturbation; <em>fragile</em>: not "
             "under those named; <em>untested</em>: not replayed. Groups not perturbed are not tested."
             + (" The perturbed runs' numbers are in robustness.csv beside this page." if plan else "") + "</p>")
    rows = [(f.finding, f.rests_on, f.verdict_text()) for f in found]
    return ("<h3>Findings and the assumptions behind them</h3>" + intro
            + html.table(rows, ["finding", "rests on", "verdict"]))


def groups_table(found: list[Group]) -> str:
    """The ASSUMED values as one collapsed row per group: count, example paths, source ids."""
    rows = [(g.label, g.pattern, len(g.paths), ", ".join(g.paths[:3]) + (" ..." if len(g.paths) > 3 else ""),
             ", ".join(g.sources)) for g in found]
    total = sum(len(g.paths) for g in found)
    return (f"<details><summary><strong>ASSUMED values these numbers depend on</strong> ({total} values in "
            f"{len(found)} groups; names and labels left out)</summary>"
            + html.table(rows, ["group", "paths", "values", "examples", "sources"]) + "</details>")


def as_json(found: list[Finding]) -> list[dict[str, Any]]:
    """The verdicts for headline.json."""
    return [{"finding": f.finding, "factor": f.factor, "level": f.level, "rests_on": f.rests_on,
             "verdict": f.verdict, "flips": list(f.flips), "note": f.note} for f in found]
