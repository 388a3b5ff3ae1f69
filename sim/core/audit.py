"""The player audit's records and statistics, for any game: are the scripted players competent?

A game turns one logged game into `AuditRecords` (its `audit_records(head, events)`, optional in
the contract of sim.core.contract): the forecasts its players acted on (a probability and whether
the event happened), what each seat chose (tiles, cards, buildings, action kinds), its actions
(to measure idleness), the wasted moves the log shows and the resources it left unused (CotE:
units no leader could lead, units led straight back, Generals a ransom offer left captive). `audit` plays games with logs and
`summarise` pools their records into calibration bins with Wilson intervals, coverage per
strategy, idleness, waste and unused shares (Wilson intervals widened for the games'
clustering) -- the numbers that say whether a balance figure measures the game or the scripts;
`miscalibrated` is the test the conformance suite applies to the bins, `in_the_large` the test of each
strategy's forecasts of each kind taken together.

Coverage is judged where it means something: a game may say which powers can choose each item
under its rules (the optional hook `audit_item_powers(data) -> {item: powers}`; an item it does
not name is open to every power). An item a strategy's side cannot choose is not held against it
(`not_applicable`), an item no power can choose under these rules (a variant's action with the
variant off) is `unavailable`, and `never_chosen_by_any` is the items that no scripted strategy
chose in any game: the ones the players, between them, leave unused (passing aside: it is
measured as idleness).
"""

from __future__ import annotations

import functools
import importlib
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from types import ModuleType
from typing import Any

import numpy as np
from scipy import stats

from sim.core import runner
from sim.core.contract import strategy_sides
from sim.core.design import rotation
from sim.core.errors import UserError
from sim.core.stats import clustered_wilson, wilson_interval

BIN_EDGES = tuple(np.round(np.linspace(0.0, 1.0, 11), 2).tolist())


@dataclass(frozen=True)
class Forecast:
    """A probability a player acted on (`kind`, e.g. "attack") and whether the event happened."""

    strategy: str
    kind: str
    predicted: float
    happened: bool


CYCLE = "cycle"   # an action kind: cards cycled for want of anything worth doing (idle, though not a pass)


@dataclass
class AuditRecords:
    """What one game shows of its players. `chosen`: (strategy, seat, item) for each choice of an
    item (e.g. "tile:war_office", "action:build"); `actions`: (strategy, kind, in the last round
    of its war; kind "pass", or `CYCLE` for an action that only cycles cards for want of anything
    worth doing); `wasted`: (strategy, kind); `unused`: (strategy, resource, left unused, in all)
    at one moment (e.g. "unled units", 12, 40 at the start of a turn)."""

    forecasts: list[Forecast] = field(default_factory=list)
    chosen: list[tuple[str, int, str]] = field(default_factory=list)
    actions: list[tuple[str, str, bool]] = field(default_factory=list)
    wasted: list[tuple[str, str]] = field(default_factory=list)
    unused: list[tuple[str, str, int, int]] = field(default_factory=list)


def base_strategy(spec: str) -> str:
    """The strategy name of a spec, without its interventions."""
    return spec.split("+", 1)[0]


def calibration(forecasts: Sequence[Forecast]) -> list[dict]:
    """Forecasts in ten bins of predicted probability: mean prediction, realised rate, n and the
    realised rate's Wilson 95 % interval (`calibrated`: the mean prediction lies inside it)."""
    if not forecasts:
        return []
    p = np.array([f.predicted for f in forecasts])
    hit = np.array([f.happened for f in forecasts])
    which = np.clip(np.digitize(p, BIN_EDGES[1:-1]), 0, len(BIN_EDGES) - 2)
    out = []
    for b in range(len(BIN_EDGES) - 1):
        mask = which == b
        n = int(mask.sum())
        if not n:
            continue
        wins = int(hit[mask].sum())
        low, high = wilson_interval(wins, n)
        predicted = float(p[mask].mean())
        out.append({"bin": [BIN_EDGES[b], BIN_EDGES[b + 1]], "predicted": predicted, "realised": wins / n, "n": n,
                    "ci95": [low, high], "calibrated": bool(low <= predicted <= high)})
    return out


def in_the_large(forecasts: Sequence[Forecast], games: Sequence[int] | None = None, alpha: float = 0.05,
                 min_n: int = 30) -> list[dict]:
    """Calibration in the large of each strategy's forecasts of each kind: the realised count less
    the summed forecasts, in standard errors of that sum (`z`). The bins pool strategies and
    spread one strategy's forecasts thin, so a player whose sieges all fall short of their
    forecasts can pass every bin; this is its direct test. The standard error is the binomial
    one (sqrt of the sum of p(1 - p)) or, when `games` gives each forecast's game, the larger of
    that and the one with games as clusters (sqrt of the sum over games of the squared gap of the
    game's forecasts): a game's forecasts share its board and are not independent. `calibrated`:
    |z| within a two-sided test at `alpha`, Bonferroni-corrected over the groups with at least
    `min_n` forecasts (None for smaller groups: too few to judge; a group of certain forecasts only
    is calibrated when every one came true or false as forecast)."""
    groups: dict[tuple[str, str], list[tuple[int, Forecast]]] = defaultdict(list)
    for i, f in enumerate(forecasts):
        groups[(f.strategy, f.kind)].append((-1 if games is None else games[i], f))
    tested = sum(len(g) >= min_n for g in groups.values())
    limit = stats.norm.ppf(1 - alpha / (2 * max(tested, 1)))
    out = []
    for (strategy, kind), group in sorted(groups.items()):
        n = len(group)
        expected = sum(f.predicted for _, f in group)
        hits = sum(f.happened for _, f in group)
        spread = float(np.sqrt(sum(f.predicted * (1 - f.predicted) for _, f in group)))
        if games is not None:
            gaps: dict[int, float] = defaultdict(float)
            for game, f in group:
                gaps[game] += f.happened - f.predicted
            spread = max(spread, float(np.sqrt(sum(g * g for g in gaps.values()))))
        z = (hits - expected) / spread if spread > 0 else None
        judged = None if n < min_n else bool(abs(z) <= limit) if z is not None else abs(hits - expected) < 1e-9
        out.append({"strategy": strategy, "kind": kind, "n": n, "predicted": expected / n, "realised": hits / n,
                    "z": z, "calibrated": judged})
    return out


def verdict(calibrated: bool | None) -> str:
    """How `in_the_large` judged a group, in a word for tables."""
    return "too few" if calibrated is None else "yes" if calibrated else "NO"


def in_the_large_rows(result: dict) -> list[tuple]:
    """(strategy, kind, n, mean forecast, realised, z, verdict) per group of `in_the_large`."""
    return [(g["strategy"], g["kind"], g["n"], f"{g['predicted']:.3f}", f"{g['realised']:.3f}",
             "-" if g["z"] is None else f"{g['z']:+.1f}", verdict(g["calibrated"]))
            for g in result.get("in_the_large", [])]


IN_THE_LARGE_HEADERS = ["strategy", "kind", "n", "mean forecast", "realised", "z", "calibrated"]


def summarise(games: Iterable[tuple[Sequence[str], AuditRecords]], items: Sequence[str],
              item_powers: Mapping[str, Sequence[str]] | None = None,
              strategy_powers: Mapping[str, str] | None = None) -> dict:
    """Pool the records of many games (each with its seats' strategy specs). `items`: every item
    a player could choose, so the ones never chosen are flagged per strategy; `item_powers`: the
    powers that can choose an item (others: every power); `strategy_powers`: the power a
    side-bound strategy plays (others play any)."""
    forecasts: list[Forecast] = []
    forecast_games: list[int] = []                            # the game of each forecast
    chose: dict[str, Counter] = defaultdict(Counter)          # strategy -> item -> games chosen in
    played: Counter = Counter()                               # strategy -> games it sat in
    kinds: dict[str, Counter] = defaultdict(Counter)
    last_round: dict[str, Counter] = defaultdict(Counter)
    wasted: dict[str, Counter] = defaultdict(Counter)
    unused: dict[tuple[str, str], list[tuple[int, int]]] = defaultdict(list)   # per game: (unused, all)
    n_games = 0
    for strategies, rec in games:
        n_games += 1
        for key, counts in _unused_per_game(rec.unused).items():
            unused[key].append(counts)
        for name in {base_strategy(s) for s in strategies}:
            played[name] += 1
        forecasts += rec.forecasts
        forecast_games += [n_games] * len(rec.forecasts)
        for name, found in _items_per_strategy(rec.chosen).items():
            chose[name].update(found)
        for name, kind, late in rec.actions:
            kinds[name][kind] += 1
            last_round[name][kind] += late
        for name, kind in rec.wasted:
            wasted[name][kind] += 1
    coverage = {name: {item: chose[name][item] / played[name] for item in items} for name in sorted(played)}
    item_powers = item_powers or {}
    usable = _usable(items, played, item_powers, strategy_powers or {})
    never = {name: [item for item, share in shares.items() if share == 0 and item in usable[name]]
             for name, shares in coverage.items()}
    scripted = [name for name in played if name != "random"] or list(played)
    open_items = [item for item in items if tuple(item_powers.get(item, ("any",)))]
    idle = {}
    cycles = any(k[CYCLE] for k in kinds.values())         # a game whose players cycle rather than pass
    for name in sorted(played):
        total, passes = sum(kinds[name].values()), kinds[name]["pass"]
        early = total - sum(last_round[name].values())
        early_passes = passes - last_round[name]["pass"]
        idle[name] = {"actions": total, "pass_share": passes / total if total else None,
                      "pass_share_outside_last_round": early_passes / early if early else None,
                      "cycle_share": kinds[name][CYCLE] / total if cycles and total else None}
    by_strategy, by_kind = defaultdict(list), defaultdict(list)
    for f in forecasts:
        by_strategy[f.strategy].append(f)
        by_kind[f.kind].append(f)
    return {"calibration": calibration(forecasts),
            "calibration_by_strategy": {k: calibration(v) for k, v in sorted(by_strategy.items())},
            "calibration_by_kind": {k: calibration(v) for k, v in sorted(by_kind.items())},
            "in_the_large": in_the_large(forecasts, forecast_games),
            "coverage": coverage, "never_chosen": never,
            "not_applicable": {name: [item for item in items if item in open_items and item not in usable[name]]
                               for name in sorted(played)},
            "unavailable": [item for item in items if item not in open_items],
            "never_chosen_by_any": [item for item in open_items if not _is_pass(item)
                                    and not any(chose[name][item] for name in scripted)],
            "idle": idle,
            "wasted": {name: dict(wasted[name]) for name in sorted(played)},
            "unused": _unused_shares(unused), "games": n_games}


def idle_table(result: dict, share: Callable[[float | None], str]) -> tuple[list[tuple], list[str]]:
    """The idleness table (rows, headers) of `summarise`'s result, each share written by `share`;
    the cycle column only for a game whose players cycle rather than pass."""
    cycles = any(v["cycle_share"] is not None for v in result["idle"].values())
    rows = [(s, v["actions"], share(v["pass_share"]), share(v["pass_share_outside_last_round"]),
             *([share(v["cycle_share"])] if cycles else [])) for s, v in result["idle"].items()]
    return rows, ["strategy", "actions", "passed", "passed outside the last round",
                  *(["cycled, nothing worth doing"] if cycles else [])]


def _unused_per_game(unused: Sequence[tuple[str, str, int, int]]) -> dict[tuple[str, str], tuple[int, int]]:
    """For one game: (strategy, resource) -> (left unused, in all), summed over its moments."""
    out: dict[tuple[str, str], tuple[int, int]] = {}
    for name, resource, part, whole in unused:
        a, b = out.get((name, resource), (0, 0))
        out[(name, resource)] = (a + part, b + whole)
    return out


def _unused_shares(unused: Mapping[tuple[str, str], list[tuple[int, int]]]) -> dict[str, dict[str, dict]]:
    """strategy -> resource -> the pooled share left unused, with its Wilson 95 % interval at the
    effective size of games as clusters (a game's moments are not independent), n games, deff."""
    out: dict[str, dict[str, dict]] = defaultdict(dict)
    for (name, resource), per_game in sorted(unused.items()):
        part = np.array([a for a, _ in per_game])
        whole = np.array([b for _, b in per_game])
        if not whole.sum():
            continue
        low, high, deff = clustered_wilson(part, whole)
        out[name][resource] = {"share": float(part.sum() / whole.sum()), "ci95": [low, high],
                               "unused": int(part.sum()), "total": int(whole.sum()), "games": len(per_game),
                               "deff": deff}
    return dict(out)


def _is_pass(item: str) -> bool:
    """Passing is measured as idleness: a side that never passes has left nothing unused."""
    return item.lower() == "action:pass"


def _usable(items: Sequence[str], strategies: Iterable[str], item_powers: Mapping[str, Sequence[str]],
            strategy_powers: Mapping[str, str]) -> dict[str, set[str]]:
    """The items each strategy's side can choose under the rules (a strategy of no one side: any)."""
    out = {}
    for name in strategies:
        power = strategy_powers.get(name)
        out[name] = {item for item in items
                     if (powers := item_powers.get(item)) is None or (powers and (power is None or power in powers))}
    return out


def _items_per_strategy(chosen: Sequence[tuple[str, int, str]]) -> dict[str, set[str]]:
    """For one game: the items some seat of each strategy chose."""
    out: dict[str, set[str]] = defaultdict(set)
    for name, _, item in chosen:
        out[name].add(item)
    return out


def has_audit(engine: ModuleType) -> bool:
    """A game takes part with `audit_records(head, events)` and `audit_items(data)`."""
    return callable(getattr(engine, "audit_records", None)) and callable(getattr(engine, "audit_items", None))


def require_audit(engine: ModuleType) -> None:
    if not has_audit(engine):
        raise UserError(f"game {engine.INFO.name!r} offers no player audit yet (its module has no audit_records)")


def audit(engine: ModuleType, data: Any, strategies: Sequence[str], players: int, games: int,
          seed: int, jobs: int = 1, quiet: bool = True) -> dict:
    """Play `games` games (strategies cycled over seats, seats and powers rotated) and summarise
    what their logs show; the result holds the audit and its provenance. `jobs` > 1 plays them on
    that many workers (`runner.play_logged`, with its progress unless `quiet`): the result is
    the same for any `jobs`."""
    require_audit(engine)
    seatings = rotation(engine.INFO.powers, players, list(strategies), games, strategy_sides(engine, data))
    parts = runner.play_logged(engine.__name__, seed, list(enumerate(seatings)), data, jobs,
                               functools.partial(_records, engine.__name__), quiet)
    logged = [record for part in parts for record in part]
    hook = getattr(engine, "audit_item_powers", None)
    result = summarise(logged, engine.audit_items(data), hook(data) if callable(hook) else None,
                       strategy_sides(engine, data))
    result["provenance"] = {"seed": seed, "games": games, "players": players, "strategies": list(strategies),
                            **runner.provenance(data, engine)}
    return result


def _records(module: str, table: Any, logged: Iterable[tuple[dict, list[dict]]]) -> list[tuple[list[str], AuditRecords]]:
    """(strategies, records) of each logged game, where it was played (`runner.play_logged`)."""
    engine = importlib.import_module(module)
    return [(head["strategies"], engine.audit_records(head, events)) for head, events in logged]


def miscalibrated(bins: Sequence[dict], alpha: float = 0.05, min_n: int = 30) -> list[dict]:
    """The bins (with at least `min_n` forecasts) whose realised rate differs from the mean
    forecast beyond chance: a two-sided binomial z test at the forecast, Bonferroni-corrected
    over the bins tested, so a calibrated player fails with probability at most `alpha`."""
    tested = [b for b in bins if b["n"] >= min_n and 0 < b["predicted"] < 1]
    if not tested:
        return []
    z = stats.norm.ppf(1 - alpha / (2 * len(tested)))
    return [b for b in tested
            if abs(b["realised"] - b["predicted"]) > z * np.sqrt(b["predicted"] * (1 - b["predicted"]) / b["n"])]
