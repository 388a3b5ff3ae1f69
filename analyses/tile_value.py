"""Causal tile value and fair prices (`empires tile-value <game>`).

For each tile T and each strategy S (a skill level: the random baseline or a scripted player),
one paired experiment (sim.core.causal) plays blocks of games in which every seat uses S and one
*focal* seat carries an intervention; the focal seat rotates over all seats and the powers
rotate over all seats, and every arm of a block shares its dice (sim.core.design):

- `force:T`  -- the focal seat takes T at its first legal opportunity (`S+force=T`);
- `ban:T`    -- the focal seat never takes T (`S+ban=T`);
- `grant:R`  -- the focal seat starts with a dose of resource R (`S+grant_R=dose`);
- `base`     -- nobody is changed.

The value of T is the paired difference force - ban in the focal seat's win rate and VP, with a
95 % t interval over blocks. The value of one unit of each resource is (grant - base) / dose;
the fair price of T in gold is its current cost in gold equivalents plus value / (value of one
gold), with a bootstrap interval over blocks -- given only where one gold is clearly worth
something at the skill level (else "not identifiable at this skill level and sample size", with
the blocks that would settle it), its verdict from the interval of fair price minus current
cost (sim.core.causal.price_verdict). `by_asset` puts the skill levels side by side and flags an
asset whose value changes sign between them as skill-dependent. The observational metric --
win rate of seats that own T vs those that do not, in the base arm -- is printed beside it and
labelled biased: good players and good positions buy more tiles.

Per side (`Experiment.powers`, a `power` column): in a game whose assets belong to sides (AFAoS: a
British card is the British player's only; the optional `asset_power(data)` hook, see `sides`),
every value, resource value and fair price is computed once per power of the focal seat, from
the games in which that power is focal; the design seats every power in the focal seat equally
often. Money is worth different amounts to each side, so each side's price uses its own rate. A
side whose forced seat never acquired an asset (a card of the other side) gets no row for it.
Games whose every power can acquire every asset (SoE nations, AoD and CotE colours) pool all
powers, unless one power is asked for.

A game takes part through the asset interface of sim.core.contract: `INTERVENTIONS`
(containing "force", "ban" and "grant_<resource>" keys), `asset_costs(data) -> {asset: {resource:
units removed when paying}}` and `GRANTS` ({resource: dose}); an optional `tiles` results column (comma-separated tiles owned) enables the
observational metric.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from sim import games
from sim.core import runner
from sim.core.causal import (NOT_IDENTIFIABLE, SKILL_DEPENDENT, Effect, block_means, blocks_to_settle,
                             bootstrap_means, cost_in_gold, crossing, excludes_zero, fair_price_statistic,
                             paired_effect, percentile_interval, price_verdict, resource_rates, sign_changes)
from sim.core.conformance import checks_of
from sim.core.contract import has_assets, strategy_sides
from sim.core.design import Design, bound
from sim.core.errors import UserError, one_of
from sim.core.stats import wilson_interval

BASE = "base"


@dataclass(frozen=True)
class Experiment:
    """One paired experiment: a game, a skill level, the tiles and grants it measures."""

    game: str
    strategy: str
    tiles: tuple[str, ...]
    players: int
    blocks: int
    seed: int
    grants: dict[str, int] = field(default_factory=dict)
    overrides: tuple[str, ...] = ()
    variants: tuple[str, ...] = ()        # variant files, applied before the overrides
    powers: tuple[str, ...] = ()          # focal powers valued separately; () pools every power

    @property
    def currency(self) -> str:
        """The resource prices are quoted in: the first of the game's GRANTS (SoE gold, AoD and
        AFAoS money, CotE talents)."""
        return next(iter(self.grants), "gold")

    def lineups(self) -> dict[str, tuple[str, ...]]:
        """Arm label -> lineup (seat 0 is the focal seat; the design rotates it over seats)."""
        rest = (self.strategy,) * (self.players - 1)
        arms = {BASE: (self.strategy,) * self.players}
        for tile in self.tiles:
            arms[f"force:{tile}"] = (f"{self.strategy}+force={tile}", *rest)
            arms[f"ban:{tile}"] = (f"{self.strategy}+ban={tile}", *rest)
        for resource, dose in self.grants.items():
            arms[f"grant:{resource}"] = (f"{self.strategy}+grant_{resource}={dose}", *rest)
        return arms


def require_support(engine: Any, game: str) -> None:
    """Tile-value experiments need the game's interventions, tile costs and grant doses."""
    if not has_assets(engine):
        raise UserError(f"game {game!r} does not support value experiments yet (its engine has no asset "
                        f"interface: INTERVENTIONS, GRANTS, asset_costs)")


def sides(engine: Any) -> tuple[str, ...]:
    """The powers valued separately by default: every power of a game some of whose assets only
    some powers can acquire (its optional `asset_power(data)` hook, sim.core.conformance: AFAoS);
    none -- one value per asset over all powers -- for a game whose every power can acquire every
    asset (SoE's nations differ in position but buy from one tile supply; AoD and CotE colours)."""
    return tuple(engine.INFO.powers) if callable(getattr(checks_of(engine), "asset_power", None)) else ()


def check(engine: Any, experiment: Experiment, data: Any) -> dict[str, dict[str, float]]:
    """Validate the request against what the game supports; return the tile costs."""
    require_support(engine, experiment.game)
    known = games.strategies(experiment.game, engine, data)
    if experiment.strategy not in known:
        raise one_of("strategy", experiment.strategy, known)
    costs = engine.asset_costs(data)
    for tile in experiment.tiles:
        if tile not in costs:
            raise one_of("tile", tile, sorted(costs))
    if experiment.blocks < 2:
        raise UserError(f"--blocks {experiment.blocks}: at least 2 blocks are needed for an interval")
    if not engine.INFO.min_players <= experiment.players <= engine.INFO.max_players:
        raise UserError(f"--players {experiment.players} is out of range; this game allows "
                        f"{engine.INFO.min_players}..{engine.INFO.max_players}")
    for power in experiment.powers:
        if power not in engine.INFO.powers:
            raise UserError(f"--power {power!r} is unknown for {experiment.game}; allowed: "
                            f"{', '.join(engine.INFO.powers)}")
    return costs


def run_experiment(experiment: Experiment, jobs: int = 1, quiet: bool = True) -> pd.DataFrame:
    """Play every arm; one row per game and seat, with `arm_label` and `focal` columns, and
    `took` (the seat holds the asset its arm forces or bans) where the game names its asset
    column (`ASSET_COLUMN`, sim.core.conformance)."""
    engine = games.load(experiment.game)
    data = games.load_data(experiment.game, engine, experiment.overrides, experiment.variants,
                           strategies=[experiment.strategy])
    check(engine, experiment, data)
    design = design_of(experiment, engine, data)
    plan = runner.Plan(module=games.module_path(experiment.game), seed=experiment.seed, design=design,
                       games=experiment.blocks * design.block_size,
                       batch_size=runner.default_batch_size(design, experiment.blocks * design.block_size, jobs),
                       data=data)
    table = runner.run(plan, jobs=jobs, quiet=quiet)
    table["arm_label"] = table["arm"].map(dict(enumerate(arm_labels(experiment, design))))
    table["focal"] = table["strategy"].str.contains("+", regex=False) | (table["arm_label"] == BASE)
    column = getattr(checks_of(engine), "ASSET_COLUMN", None)
    if column in table:
        table["took"] = [bool(asset) and asset in str(owned).split(",") for asset, owned in
                         zip(table["arm_label"].str.partition(":")[2], table[column].fillna(""))]
    return table


def design_of(experiment: Experiment, engine: Any, data: Any) -> Design:
    """The balanced design of an experiment's arms: the focal seat rotates over seats and powers
    (side-bound strategies on their side, sim.core.seating.bind_sides), so in every block each
    power is focal equally often in every arm."""
    return Design(powers=tuple(engine.INFO.powers), lineups=tuple(experiment.lineups().values()),
                  sides=bound(strategy_sides(engine, data)))


def arm_labels(experiment: Experiment, design: Design) -> list[str]:
    """The label (`Experiment.lineups`) of every arm of the design, in arm order."""
    label_of = {lineup: label for label, lineup in experiment.lineups().items()}
    return [_lineup_label(seating.strategies, label_of) for seating in design.arms]


def _lineup_label(strategies: Sequence[str], label_of: dict[tuple[str, ...], str]) -> str:
    """The label of the lineup a seating rotates (the rotation that puts the focal seat first)."""
    n = len(strategies)
    for r in range(n):
        rotated = tuple(strategies[r:]) + tuple(strategies[:r])
        if rotated in label_of:
            return label_of[rotated]
    raise ValueError(f"seating {strategies} matches no lineup")


def focal_parts(table: pd.DataFrame, experiment: Experiment) -> list[tuple[dict[str, str], pd.DataFrame]]:
    """The focal seats' rows (with a `win` column): all of them, or with `experiment.powers` one
    part per power, `({"power": p}, the rows of the games where p is focal)`."""
    focal = table[table["focal"]].assign(win=lambda t: t["winner"].astype(float))
    if not experiment.powers:
        return [({}, focal)]
    return [({"power": power}, focal[focal["power"] == power]) for power in experiment.powers]


def tile_values(table: pd.DataFrame, experiment: Experiment, costs: dict[str, dict[str, float]]) -> pd.DataFrame:
    """One row per tile (per tile and focal power, with `experiment.powers`): causal effects on
    win rate and VP, observational contrast, and -- when one gold is clearly worth something at
    this skill level -- the fair price and its verdict (sim.core.causal.price_verdict); otherwise
    the verdict says the price is not identifiable."""
    rows = [row for side, focal in focal_parts(table, experiment) for row in _tile_rows(focal, side, experiment, costs)]
    return pd.DataFrame(sorted(rows, key=lambda row: experiment.tiles.index(row["tile"])))


def _tile_rows(focal: pd.DataFrame, side: dict[str, str], experiment: Experiment,
               costs: dict[str, dict[str, float]]) -> list[dict[str, Any]]:
    """The rows of `tile_values` measured on one part of the focal seats (`focal_parts`); a
    power's part skips the assets its forced seat never acquired (`took`: it cannot)."""
    wins, vps = block_means(focal, "win"), block_means(focal, "vp")
    per_unit = {r: (f"grant:{r}", BASE, float(dose)) for r, dose in experiment.grants.items()}
    currency = experiment.currency
    priced = currency in per_unit
    gold = paired_effect(wins, f"grant:{currency}", BASE).per_unit(per_unit[currency][2]) if priced else None
    boot = bootstrap_means(wins, seed=experiment.seed).to_dict("records") if priced else []
    rows = []
    for tile in experiment.tiles:
        force, ban = f"force:{tile}", f"ban:{tile}"
        took = _took(focal, force) if side else {}
        if took and not took["force_took"]:
            continue
        d_win, d_vp = paired_effect(wins, force, ban), paired_effect(vps, force, ban)
        row = {"tile": tile, "strategy": experiment.strategy, **side, "currency": currency, "blocks": d_win.blocks,
               "focal_games_per_arm": int((focal["arm_label"] == force).sum()), **took,
               **_effect_columns("win", d_win), **_effect_columns("vp", d_vp),
               **observational(focal, tile)}
        cost = costs[tile]
        row["cost"] = ", ".join(f"{-v if k == 'unrest' else v:g} {k}" for k, v in cost.items() if v) or "free"
        if gold is not None and set(k for k, v in cost.items() if v) <= set(per_unit):
            row.update(_price_columns(fair_price_statistic((force, ban), per_unit, cost, currency), cost, per_unit,
                                      wins, boot, gold, currency))
        rows.append(row)
    return rows


def _took(focal: pd.DataFrame, force: str) -> dict[str, float]:
    """Share of the forced seat's games in which it acquired the asset (none without the game's
    asset column)."""
    if "took" not in focal:
        return {}
    return {"force_took": float(focal.loc[focal["arm_label"] == force, "took"].mean())}


def _price_columns(statistic, cost: dict[str, float], per_unit: dict[str, tuple[str, str, float]],
                   wins: pd.DataFrame, boot: list[dict[str, float]], gold: Effect, currency: str) -> dict[str, Any]:
    """Fair price, its interval, the interval of (fair price - current cost) and the verdict, all
    in the currency (the columns keep the names `*_gold`)."""
    def premium(m: dict[str, float]) -> float:
        return statistic(m) - cost_in_gold(cost, resource_rates(m, per_unit), currency)

    price, current = statistic(wins.mean()), cost_in_gold(cost, resource_rates(wins.mean(), per_unit), currency)
    price_ci = percentile_interval(np.array([statistic(m) for m in boot]))
    premium_ci = percentile_interval(np.array([premium(m) for m in boot]))
    judged = price_verdict(currency, gold, premium_ci, price, price_ci)
    shown = judged.verdict != NOT_IDENTIFIABLE
    nan = float("nan")
    return {"current_cost_gold": current if shown else nan, "fair_price_gold": price if shown else nan,
            "fair_price_low": price_ci[0] if shown else nan, "fair_price_high": price_ci[1] if shown else nan,
            "premium_low": premium_ci[0] if shown else nan, "premium_high": premium_ci[1] if shown else nan,
            "verdict": judged.verdict, "price_note": judged.note,
            "settle_blocks": judged.settle_blocks if judged.settle_blocks is not None else nan}


def by_asset(values: pd.DataFrame) -> pd.DataFrame:
    """One row per asset with its verdict at every skill level side by side, and whether its
    value changes sign between levels (sim.core.causal.sign_changes): such an asset is
    skill-dependent, a statement about the players, not a balance finding. Per side, one row
    per asset and power."""
    levels = list(dict.fromkeys(values["strategy"]))
    keys = [k for k in ("tile", "power") if k in values]
    rows = []
    for key, group in values.groupby(keys, sort=False):
        at = {r.strategy: r for r in group.itertuples()}
        row: dict[str, Any] = dict(zip(keys, key))
        for level in levels:
            r = at.get(level)
            for name, column in (("d_win", "d_win"), ("low", "d_win_low"), ("high", "d_win_high")):
                row[f"{name} {level}"] = getattr(r, column) if r is not None else float("nan")
            row[f"verdict {level}"] = getattr(r, "verdict", "") if r is not None else ""
        pairs = sign_changes({s: (r.d_win, (r.d_win_low, r.d_win_high), getattr(r, "verdict", ""))
                              for s, r in at.items()})
        row["skill_dependent"] = bool(pairs)
        row["sign_changes"] = "; ".join(f"{a} vs {b}" for a, b in pairs)
        issued = {row[f"verdict {s}"] for s in levels} & {"under-priced", "over-priced"}
        row["finding"] = (SKILL_DEPENDENT if pairs else "mixed verdicts" if len(issued) > 1
                          else issued.pop() if issued else "")
        row["mean_d_win"] = float(np.nanmean([row[f"d_win {s}"] for s in levels]))
        rows.append(row)
    return pd.DataFrame(rows).sort_values("mean_d_win", ascending=False, ignore_index=True)


def resource_values(table: pd.DataFrame, experiment: Experiment) -> pd.DataFrame:
    """Win-rate value of one unit of each granted resource, with 95 % intervals; a value whose
    interval includes zero is not measured at this skill level and sample size, and the row
    says how many blocks would settle its sign (sim.core.causal.blocks_to_settle). With
    `experiment.powers`, one row per resource and power: a unit is worth different amounts to
    each side."""
    rows = []
    for side, focal in focal_parts(table, experiment):
        wins = block_means(focal, "win")
        for resource, dose in experiment.grants.items():
            rows.append(_resource_row(wins, resource, dose, experiment.strategy, side))
    return pd.DataFrame(rows)


def _resource_row(wins: pd.DataFrame, resource: str, dose: int, strategy: str, side: dict[str, str]) -> dict[str, Any]:
    effect = paired_effect(wins, f"grant:{resource}", BASE).per_unit(dose)
    settle = None if excludes_zero(effect.ci95) else blocks_to_settle(effect)
    return {"resource": resource, "strategy": strategy, **side, "dose": dose,
            "win_per_unit": effect.estimate, "ci_low": effect.ci95[0], "ci_high": effect.ci95[1],
            "blocks": effect.blocks, "measured": excludes_zero(effect.ci95),
            "settle_blocks": settle if settle is not None else float("nan")}


def observational(table: pd.DataFrame, tile: str) -> dict[str, float]:
    """Win rate of base-arm seats owning the tile vs not (BIASED: owners differ in other ways);
    `table` holds at least the focal rows (every seat of the base arm is focal)."""
    if "tiles" not in table.columns:
        return {}
    base = table[table["arm_label"] == BASE]
    owns = base["tiles"].fillna("").str.split(",").apply(lambda kinds: tile in kinds)
    out = {}
    for name, mask in (("owned", owns), ("not_owned", ~owns)):
        n, k = int(mask.sum()), int(base.loc[mask, "winner"].sum())
        low, high = wilson_interval(k, n)
        out.update({f"obs_win_{name}": k / n if n else float("nan"), f"obs_n_{name}": n,
                    f"obs_win_{name}_low": low, f"obs_win_{name}_high": high})
    return out


def _effect_columns(name: str, effect: Effect) -> dict[str, float]:
    low, high = effect.ci95
    if name == "win":                     # a difference of two win rates lies in [-1, 1]
        low, high = max(low, -1.0), min(high, 1.0)
    return {f"d_{name}": effect.estimate, f"d_{name}_low": low, f"d_{name}_high": high}


def parse_sweep(text: str) -> tuple[str, list[int]]:
    """`path=LOW..HIGH` (integers) -> (path, values)."""
    path, sep, span = text.partition("=")
    low, dots, high = span.partition("..")
    try:
        values = list(range(int(low), int(high) + 1))
    except ValueError:
        values = []
    if not sep or not dots or not values:
        raise UserError(f"--sweep {text!r} is malformed; use PATH=LOW..HIGH with integers LOW <= HIGH, "
                        f"e.g. tiles.war_office.cost_gold=0..6")
    return path.strip(), values


def sweep(experiment: Experiment, path: str, values: Sequence[int], jobs: int = 1,
          quiet: bool = True) -> pd.DataFrame:
    """The force - ban effect of one tile as one data value varies (same seeds at every value)."""
    if len(experiment.tiles) != 1:
        raise UserError("--sweep measures one tile; name it with --tiles TILE")
    if len(experiment.powers) > 1:
        raise UserError(f"--sweep measures one side of {experiment.game}; name it with --power "
                        f"{' or '.join(experiment.powers)}")
    engine = games.load(experiment.game)
    for value in values:                  # every value is checked before any game is played
        games.load_data(experiment.game, engine, (*experiment.overrides, f"{path}={value}"), experiment.variants,
                        strategies=[experiment.strategy])
    rows = []
    for value in values:
        run = Experiment(**{**experiment.__dict__, "grants": {}, "overrides": (*experiment.overrides, f"{path}={value}")})
        table = run_experiment(run, jobs=jobs, quiet=quiet)
        tile = experiment.tiles[0]
        for side, focal in focal_parts(table, run):
            effect = paired_effect(block_means(focal, "win"), f"force:{tile}", f"ban:{tile}")
            rows.append({"path": path, "value": value, "tile": tile, "strategy": experiment.strategy, **side,
                         **_effect_columns("win", effect), "blocks": effect.blocks})
    return pd.DataFrame(rows)


def break_even(sweep_table: pd.DataFrame) -> float:
    """The swept value where the effect crosses zero (sim.core.causal.crossing): NaN when it
    never does, or when no sweep point's interval excludes zero ("no break-even")."""
    return crossing(sweep_table["value"], sweep_table["d_win"],
                    list(zip(sweep_table["d_win_low"], sweep_table["d_win_high"])))


ROWS_PER_FIGURE = 25      # assets per forest plot: readable at normal zoom without scrolling a figure
LEVEL_COLOURS = ("#1d3557", "#e76f51", "#2a9d8f", "#8d5fd3", "#e9c46a")


def _forest(rows: Sequence[str], series: dict[str, pd.DataFrame], column: str, xlabel: str, title: str,
            path: Path, marks: dict[str, pd.Series] | None = None) -> Path:
    """One forest plot: a row per asset (top first), one marker per skill level side by side on the
    row, 95 % intervals as bars; `marks` adds a black tick per row (e.g. the current cost).
    The legend sits above the axes, never over the data."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(8, 0.42 * len(rows) + 1.6))
    y = np.arange(len(rows))[::-1].astype(float)
    width = 0.6 / max(1, len(series))
    for k, (level, frame) in enumerate(series.items()):
        part = frame.set_index("tile").reindex(rows)
        offset = (len(series) - 1) / 2 * width - k * width
        est, low, high = part[column], part[f"{column}_low"], part[f"{column}_high"]
        ax.errorbar(est, y + offset, xerr=[(est - low).clip(lower=0), (high - est).clip(lower=0)], fmt="o", ms=4,
                    capsize=2, color=LEVEL_COLOURS[k % len(LEVEL_COLOURS)], label=level)
    for name, values in (marks or {}).items():
        ax.plot(values.reindex(rows), y, "|", color="black", ms=12, mew=2, label=name)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y, rows)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.set_xlabel(xlabel)
    ax.set_ylabel("asset")
    ax.set_title(title, fontsize=10)
    ax.grid(axis="x", color="#eee")
    fig.legend(loc="outside upper center", ncol=len(series) + len(marks or {}), frameon=False)
    fig.set_layout_engine("constrained")
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path


def _pages(order: Sequence[str], path: Path) -> list[tuple[list[str], Path, str]]:
    """Split the ordered assets into figures of ROWS_PER_FIGURE rows: (rows, file, 'i of n')."""
    chunks = [list(order[i:i + ROWS_PER_FIGURE]) for i in range(0, len(order), ROWS_PER_FIGURE)] or [[]]
    return [(rows, path if i == 0 else path.with_name(f"{path.stem}_{i + 1}{path.suffix}"),
             f"{i + 1} of {len(chunks)}") for i, rows in enumerate(chunks)]


def one_row_each(values: pd.DataFrame, column: str = "tile") -> pd.DataFrame:
    """Per side, each asset (or resource: `column`) and power is one row named `asset (power)`,
    for plots, report tables and headline numbers; a pooled table is returned unchanged."""
    if "power" not in values:
        return values
    return values.assign(**{column: values[column] + " (" + values["power"] + ")"}).drop(columns="power")


def plot_values(values: pd.DataFrame, path: Path) -> list[Path]:
    """Forest plots of force - ban win-rate effects, assets sorted by their mean effect over
    skill levels (best first), the levels side by side on each asset's row."""
    values = one_row_each(values)
    order = by_asset(values)["tile"].tolist()
    series = {level: frame for level, frame in values.groupby("strategy", sort=False)}
    return [_forest(rows, series, "d_win", "change in win rate, take at once vs never (95 % CI)",
                    f"asset value by skill level, best first ({page})", file)
            for rows, file, page in _pages(order, path)]


def plot_prices(values: pd.DataFrame, path: Path) -> list[Path]:
    """Fair price against current cost (both in the game's currency), for the assets with a price at some skill
    level, sorted by how far the fair price lies above the cost; none when no price exists."""
    if "fair_price_gold" not in values:
        return []
    values = one_row_each(values)
    priced = values[values["fair_price_gold"].notna()].assign(
        premium=lambda t: t["fair_price_gold"] - t["current_cost_gold"])
    if priced.empty:
        return []
    order = priced.groupby("tile")["premium"].mean().sort_values(ascending=False).index.tolist()
    series = {level: frame.rename(columns={"fair_price_gold": "price", "fair_price_low": "price_low",
                                           "fair_price_high": "price_high"})
              for level, frame in priced.groupby("strategy", sort=False)}
    cost = priced.groupby("tile")["current_cost_gold"].mean()
    unit = str(values["currency"].iloc[0]) if "currency" in values else "gold"
    return [_forest(rows, series, "price", f"{unit} (fair price with 95 % CI; current cost in {unit} equivalents)",
                    f"fair price against current cost ({page})", file, {"current cost": cost})
            for rows, file, page in _pages(order, path)]


def plot_sweep(table: pd.DataFrame, path: Path) -> Path:
    """Effect of the tile against the swept value, with 95 % intervals and the break-even point."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.fill_between(table["value"], table["d_win_low"], table["d_win_high"], color="#a8dadc", alpha=.7)
    ax.plot(table["value"], table["d_win"], "o-", color="#1d3557")
    ax.axhline(0, color="grey", lw=1)
    crossing_at = break_even(table)
    if not np.isnan(crossing_at):
        ax.axvline(crossing_at, color="#e76f51", ls="--", lw=1)
    ax.set_title(f"{table['tile'].iloc[0]} at skill level {table['strategy'].iloc[0]}: "
                 + (f"break-even {crossing_at:.3g}" if not np.isnan(crossing_at)
                    else "no break-even (no point differs from zero)"), fontsize=10)
    ax.set_xlabel(table["path"].iloc[0])
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.set_ylabel("win rate: take at once - never (95 % CI)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def measure(experiments: Sequence[Experiment], costs: dict[str, dict[str, float]], jobs: int = 1,
            quiet: bool = True) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Run each experiment (one per skill level); tile values and resource values of all."""
    values, resources = [], []
    for experiment in experiments:
        table = run_experiment(experiment, jobs=jobs, quiet=quiet)
        values.append(tile_values(table, experiment, costs))
        resources.append(resource_values(table, experiment))
    return pd.concat(values, ignore_index=True), pd.concat(resources, ignore_index=True)


def write_outputs(out: Path, values: pd.DataFrame, resources: pd.DataFrame) -> list[Path]:
    """CSV tables (per measurement and per asset) and the forest plots into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    values.to_csv(out / "tile_values.csv", index=False)
    resources.to_csv(out / "resource_values.csv", index=False)
    by_asset(values).to_csv(out / "by_asset.csv", index=False)
    return [out / "tile_values.csv", out / "resource_values.csv", out / "by_asset.csv",
            *plot_values(values, out / "tile_values.png"), *plot_prices(values, out / "fair_prices.png")]
