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
gold), with a bootstrap interval over blocks. The observational metric -- win rate of seats that
own T vs those that do not, in the base arm -- is printed beside it and labelled biased: good
players and good positions buy more tiles.

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
from sim.core.contract import has_assets
from sim.core.causal import (Effect, block_means, bootstrap_means, cost_in_gold, fair_price_statistic,
                             paired_effect, percentile_interval, resource_rates)
from sim.core.design import Design
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
    return costs


def run_experiment(experiment: Experiment, jobs: int = 1, quiet: bool = True) -> pd.DataFrame:
    """Play every arm; one row per game and seat, with `arm_label` and `focal` columns."""
    engine = games.load(experiment.game)
    data = games.load_data(experiment.game, engine, experiment.overrides, strategies=[experiment.strategy])
    check(engine, experiment, data)
    arms = experiment.lineups()
    design = Design(powers=tuple(engine.INFO.powers), lineups=tuple(arms.values()))
    plan = runner.Plan(module=games.module_path(experiment.game), seed=experiment.seed, design=design,
                       games=experiment.blocks * design.block_size,
                       batch_size=runner.default_batch_size(design, experiment.blocks * design.block_size, jobs),
                       data=data)
    table = runner.run(plan, jobs=jobs, quiet=quiet)
    label_of = {lineup: label for label, lineup in arms.items()}
    arm_labels = [_lineup_label(seating.strategies, label_of) for seating in design.arms]
    table["arm_label"] = table["arm"].map(dict(enumerate(arm_labels)))
    table["focal"] = table["strategy"].str.contains("+", regex=False) | (table["arm_label"] == BASE)
    return table


def _lineup_label(strategies: Sequence[str], label_of: dict[tuple[str, ...], str]) -> str:
    """The label of the lineup a seating rotates (the rotation that puts the focal seat first)."""
    n = len(strategies)
    for r in range(n):
        rotated = tuple(strategies[r:]) + tuple(strategies[:r])
        if rotated in label_of:
            return label_of[rotated]
    raise ValueError(f"seating {strategies} matches no lineup")


def tile_values(table: pd.DataFrame, experiment: Experiment, costs: dict[str, dict[str, float]],
                value_of: dict[str, float] | None = None) -> pd.DataFrame:
    """One row per tile: causal effects on win rate and VP, observational contrast, fair price."""
    focal = table[table["focal"]].assign(win=lambda t: t["winner"].astype(float))
    wins, vps = block_means(focal, "win"), block_means(focal, "vp")
    per_unit = {r: (f"grant:{r}", BASE, float(dose)) for r, dose in experiment.grants.items()}
    boot = bootstrap_means(wins, seed=experiment.seed).to_dict("records") if "gold" in per_unit else []
    rows = []
    for tile in experiment.tiles:
        force, ban = f"force:{tile}", f"ban:{tile}"
        d_win, d_vp = paired_effect(wins, force, ban), paired_effect(vps, force, ban)
        row = {"tile": tile, "strategy": experiment.strategy, "blocks": d_win.blocks,
               "focal_games_per_arm": int((focal["arm_label"] == force).sum()),
               **_effect_columns("win", d_win), **_effect_columns("vp", d_vp),
               **observational(table, tile)}
        cost = costs[tile]
        row["cost"] = ", ".join(f"{-v if k == 'unrest' else v:g} {k}" for k, v in cost.items() if v) or "free"
        if "gold" in per_unit and set(k for k, v in cost.items() if v) <= set(per_unit):
            statistic = fair_price_statistic((force, ban), per_unit, cost)
            price = statistic(wins.mean())
            lo, hi = percentile_interval(np.array([statistic(m) for m in boot]))
            current = cost_in_gold(cost, resource_rates(wins.mean(), per_unit))
            row.update(current_cost_gold=current, fair_price_gold=price, fair_price_low=lo, fair_price_high=hi,
                       verdict=_verdict(current, lo, hi))
        rows.append(row)
    return pd.DataFrame(rows)


def resource_values(table: pd.DataFrame, experiment: Experiment) -> pd.DataFrame:
    """Win-rate value of one unit of each granted resource, with 95 % intervals."""
    focal = table[table["focal"]].assign(win=lambda t: t["winner"].astype(float))
    wins = block_means(focal, "win")
    rows = []
    for resource, dose in experiment.grants.items():
        effect = paired_effect(wins, f"grant:{resource}", BASE)
        rows.append({"resource": resource, "strategy": experiment.strategy, "dose": dose,
                     "win_per_unit": effect.estimate / dose, "ci_low": effect.ci95[0] / dose,
                     "ci_high": effect.ci95[1] / dose, "blocks": effect.blocks})
    return pd.DataFrame(rows)


def observational(table: pd.DataFrame, tile: str) -> dict[str, float]:
    """Win rate of base-arm seats owning the tile vs not (BIASED: owners differ in other ways)."""
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


def _verdict(current: float, low: float, high: float) -> str:
    if not (np.isfinite(low) and np.isfinite(current)):
        return "unknown (gold has no measurable value here)"
    if current > high:
        return "over-priced"
    if current < low:
        return "under-priced"
    return "fair"


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
    engine = games.load(experiment.game)
    for value in values:                  # every value is checked before any game is played
        games.load_data(experiment.game, engine, (*experiment.overrides, f"{path}={value}"),
                        strategies=[experiment.strategy])
    rows = []
    for value in values:
        run = Experiment(**{**experiment.__dict__, "grants": {}, "overrides": (*experiment.overrides, f"{path}={value}")})
        table = run_experiment(run, jobs=jobs, quiet=quiet)
        focal = table[table["focal"]].assign(win=lambda t: t["winner"].astype(float))
        tile = experiment.tiles[0]
        effect = paired_effect(block_means(focal, "win"), f"force:{tile}", f"ban:{tile}")
        rows.append({"path": path, "value": value, "tile": tile, "strategy": experiment.strategy,
                     **_effect_columns("win", effect), "blocks": effect.blocks})
    return pd.DataFrame(rows)


def break_even(sweep_table: pd.DataFrame) -> float:
    """The swept value where the effect crosses zero (linear interpolation); NaN if it never does."""
    x, y = sweep_table["value"].to_numpy(float), sweep_table["d_win"].to_numpy(float)
    for i in range(len(x) - 1):
        if y[i] == 0:
            return float(x[i])
        if y[i] * y[i + 1] < 0:
            return float(x[i] + (x[i + 1] - x[i]) * y[i] / (y[i] - y[i + 1]))
    return float(x[-1]) if len(y) and y[-1] == 0 else float("nan")


def plot_values(values: pd.DataFrame, path: Path) -> Path:
    """Forest plot of force - ban win-rate effects per tile and strategy, with 95 % intervals."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(values) + 1.2))
    labels = [f"{r.tile} ({r.strategy})" for r in values.itertuples()]
    y = np.arange(len(values))
    ax.errorbar(values["d_win"], y, xerr=[values["d_win"] - values["d_win_low"], values["d_win_high"] - values["d_win"]],
                fmt="o", color="#1d3557", ecolor="#457b9d", capsize=3)
    ax.axvline(0, color="grey", lw=1)
    ax.set_yticks(y, labels)
    ax.set_xlabel("change in win rate, take at once vs never (95 % CI)")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def plot_sweep(table: pd.DataFrame, path: Path) -> Path:
    """Effect of the tile against the swept value, with 95 % intervals and the break-even point."""
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.fill_between(table["value"], table["d_win_low"], table["d_win_high"], color="#a8dadc", alpha=.7)
    ax.plot(table["value"], table["d_win"], "o-", color="#1d3557")
    ax.axhline(0, color="grey", lw=1)
    ax.set_xlabel(table["path"].iloc[0])
    ax.set_ylabel("win rate: take at once - never")
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
    """CSV tables and the forest plot into `out`."""
    out.mkdir(parents=True, exist_ok=True)
    values.to_csv(out / "tile_values.csv", index=False)
    resources.to_csv(out / "resource_values.csv", index=False)
    return [out / "tile_values.csv", out / "resource_values.csv", plot_values(values, out / "tile_values.png")]
