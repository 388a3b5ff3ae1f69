"""Tournament analysis: win rates with intervals, ratings, seat advantage, imbalance flags, plots.

Input: a run folder written by `empires tournament` (or any results table with the columns of
`sim.core.seating.RESULT_COLUMNS` plus `block`). Output: a summary dict (also `empires analyse
RUN_DIR --json`), and CSV + PNG files in RUN_DIR/analysis/.

- Win rate per strategy, power and seat: share of seat-games won, with n and a Wilson 95 %
  interval at the effective sample size (design effect of blocks, `sim.core.stats.clustered_wilson`).
  A shared first place counts as a win for every player sharing it.
- Average VP and rank per level.
- Plackett-Luce ratings with strategy, seat and power effects on the finishing order
  (`sim.core.ratings`), intervals clustered by block (games of a block share their dice).
- Imbalance flags: every seat and every power is tested against the overall win rate per
  seat-game (z-test with the block design effect), Holm-adjusted over the whole family; flagged when the
  adjusted p-value is below 0.05.
- First-seat advantage: seat 0's win rate minus the overall rate per seat-game.
- Distributions of VP per strategy and, when the engine reports a `length` column, of game
  length.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

from sim.core.ratings import plackett_luce
from sim.core.stats import clustered_wilson, holm, mean_interval, wilson_interval

FACTORS = (("by_strategy", "strategy"), ("by_power", "power"), ("by_seat", "seat"))
ALPHA = 0.05


def level_table(results: pd.DataFrame, column: str) -> pd.DataFrame:
    """Per level of one factor: n, wins, win rate with its 95 % interval, mean VP, mean rank.

    The interval is Wilson's at the effective sample size n / deff, deff >= 1 being the design
    effect of blocks (games sharing dice are dependent: a block whose dice favour seat 0 makes
    seat 0 win in many of its games). Without a `block` column, plain Wilson (deff 1)."""
    grouped = results.groupby(column, sort=True)
    table = pd.DataFrame({"n": grouped.size(), "wins": grouped["winner"].sum(),
                          "mean_vp": grouped["vp"].mean(), "mean_rank": grouped["rank"].mean()})
    table["win_rate"] = table["wins"] / table["n"]
    intervals = {level: interval(group) for level, group in grouped}
    for i, name in enumerate(("ci_low", "ci_high", "deff")):
        table[name] = [intervals[level][i] for level in table.index]
    return table


def interval(rows: pd.DataFrame) -> tuple[float, float, float]:
    """(low, high, deff) of the win rate of some seat-games, clustered by block when known."""
    if "block" not in rows:
        return (*wilson_interval(int(rows["winner"].sum()), len(rows)), 1.0)
    per_block = rows.groupby("block")["winner"].agg(["sum", "size"])
    return clustered_wilson(per_block["sum"].to_numpy(), per_block["size"].to_numpy())


def summarise(results: pd.DataFrame) -> dict[str, Any]:
    """The summary every report and `--json` use: games, then by_strategy / by_power / by_seat."""
    out: dict[str, Any] = {"games": int(results["game_index"].nunique())}
    for key, column in FACTORS:
        out[key] = {str(level): {"win_rate": float(row.win_rate), "ci95": [float(row.ci_low), float(row.ci_high)],
                                 "n": int(row.n), "deff": float(row.deff), "mean_vp": float(row.mean_vp),
                                 "mean_rank": float(row.mean_rank)}
                    for level, row in level_table(results, column).iterrows()}
    return out


def null_rate(results: pd.DataFrame) -> float:
    """Win rate per seat-game if no seat or power mattered: all wins over all seat-games."""
    return float(results["winner"].sum() / len(results))


def fair_share(results: pd.DataFrame) -> dict[str, float]:
    """The fair share a level is compared with, and why it is not 1/N: a shared first place
    counts as a win for every player sharing it, so wins per seat-game exceed 1/N by the shared
    wins. Returns the share, 1/N and the fraction of games with a shared first place."""
    players = int(results["players"].iloc[0])
    winners = results.groupby("game_index")["winner"].sum()
    return {"share": null_rate(results), "one_over_n": 1.0 / players, "shared_games": float((winners > 1).mean())}


def revolutions(results: pd.DataFrame) -> dict[str, float] | None:
    """Seat-games ending at 0 VP and how many of those by revolution (SOE-18.2: a player whose
    unrest reaches the threshold scores 0); None for games that report no revolutions."""
    if "revolution" not in results:
        return None
    zero = results["vp"] == 0
    return {"zero_vp": float(zero.mean()), "revolution": float(results["revolution"].astype(bool).mean()),
            "zero_by_revolution": float(results.loc[zero, "revolution"].astype(bool).mean()) if zero.any() else 0.0}


def endings(results: pd.DataFrame) -> dict[str, Any] | None:
    """How the games ended, for a results table with `end_reason` (CotE: victory, draw or the
    turn cap, COE-25; AFAoS: AFS-15): each reason's share of the games with its Wilson 95 %
    interval (at the effective size of blocks when the table has them: games of a block share
    their dice), most frequent first; and, with an `alive` column, the seats eliminated per game
    (mean and normal 95 % interval). None for a table without end reasons."""
    if "end_reason" not in results:
        return None
    games = results.groupby("game_index").agg(end_reason=("end_reason", "first"),
                                              **({"block": ("block", "first")} if "block" in results else {}))
    n = len(games)
    reasons = []
    for reason, count in games["end_reason"].value_counts().items():
        hit = (games["end_reason"] == reason).astype(int)
        if "block" in games:
            per_block = hit.groupby(games["block"]).agg(["sum", "size"])
            low, high, deff = clustered_wilson(per_block["sum"].to_numpy(), per_block["size"].to_numpy())
        else:
            (low, high), deff = wilson_interval(int(count), n), 1.0
        reasons.append({"reason": str(reason), "games": int(count), "share": int(count) / n,
                        "ci95": [float(low), float(high)], "deff": float(deff)})
    out: dict[str, Any] = {"games": n, "reasons": reasons, "eliminated": None}
    if "alive" in results:
        lost = (~results["alive"].astype(bool)).groupby(results["game_index"]).sum()
        mean, low, high = mean_interval(lost.to_numpy())
        out["eliminated"] = {"mean": mean, "ci95": [low, high], "none": float((lost == 0).mean())}
    return out


def turn_cap_note(vp_label: str) -> str:
    """What a game stopped by the turn cap means for the win rates (COE-25.3: the cap is a
    simulator setting, not a rule)."""
    return (f"the simulator's turn cap, not a victory under the rules; such a game's winners are the "
            f"surviving seats with the top {vp_label}")


def imbalance_flags(results: pd.DataFrame, band: float = 0.0,
                    factors: tuple[str, ...] = ("seat", "power")) -> pd.DataFrame:
    """Each level of each factor against the null rate p0, Holm-adjusted over all of them.

    The null hypothesis is "within the band": |win rate - p0| <= band (band 0: "exactly fair").
    z = (|win rate - p0| - band) / se, with the binomial variance inflated by the block design
    effect; p = 2 sf(z), capped at 1. A level is flagged -- "too strong" or "too weak" -- when its
    Holm-adjusted p-value is below ALPHA: further from fair than the band, family-wise 95 %.
    """
    p0 = null_rate(results)
    rows = []
    for column in factors:
        for level, row in level_table(results, column).iterrows():
            se = np.sqrt(row.deff * p0 * (1 - p0) / row.n)
            excess = abs(row.win_rate - p0) - band
            p_value = float(min(1.0, 2 * scipy_stats.norm.sf(excess / se))) if se > 0 else 1.0
            rows.append({"factor": column, "level": str(level), "n": int(row.n), "win_rate": row.win_rate,
                         "ci_low": row.ci_low, "ci_high": row.ci_high, "expected": p0, "band": band,
                         "deff": row.deff, "p_value": p_value})
    flags = pd.DataFrame(rows)
    flags["p_holm"] = holm(flags["p_value"].to_numpy())
    flags["flagged"] = flags["p_holm"] < ALPHA
    flags["flag"] = np.where(~flags["flagged"], "", np.where(flags["win_rate"] > p0, "too strong", "too weak"))
    return flags


def first_seat(results: pd.DataFrame) -> dict[str, Any]:
    """Seat 0's win rate against the null rate, with seat 0's interval shifted by the null rate
    (which is known far more precisely, from all seats)."""
    seat0 = results[results["seat"] == 0]
    wins, n = int(seat0["winner"].sum()), len(seat0)
    low, high, _ = interval(seat0)
    p0 = null_rate(results)
    return {"win_rate": wins / n, "ci95": [low, high], "n": n, "expected": p0,
            "advantage": wins / n - p0, "advantage_ci95": [low - p0, high - p0]}


def ratings(results: pd.DataFrame) -> pd.DataFrame:
    """Plackett-Luce strategy + seat + power effects, clustered by block."""
    ordered = results.sort_values(["game_index", "seat"])
    players = int(ordered["players"].iloc[0])
    shape = (-1, players)

    def grid(column: str) -> np.ndarray:
        return ordered[column].to_numpy().reshape(shape)

    clusters = grid("block")[:, 0] if "block" in ordered else None
    factors = {"strategy": grid("strategy"), "seat": grid("seat"), "power": grid("power")}
    return plackett_luce(grid("rank"), factors, clusters).table


@dataclass(frozen=True)
class Analysis:
    summary: dict[str, Any]
    flags: pd.DataFrame
    ratings: pd.DataFrame
    first_seat: dict[str, Any]
    files: list[Path]

    def as_json(self) -> dict[str, Any]:
        return {**self.summary, "first_seat": self.first_seat,
                "imbalances": self.flags.to_dict(orient="records"),
                "ratings": self.ratings.to_dict(orient="records"),
                "files": [str(f) for f in self.files]}


def analyse(results: pd.DataFrame, out_dir: Path | None = None) -> Analysis:
    """Everything above; with `out_dir`, also write CSV tables and PNG plots there."""
    flags, rating_table, seat0 = imbalance_flags(results), ratings(results), first_seat(results)
    files: list[Path] = []
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
        for key, column in FACTORS:
            path = out_dir / f"{key}.csv"
            level_table(results, column).to_csv(path)
            files.append(path)
        for name, frame in (("imbalances", flags), ("ratings", rating_table)):
            frame.to_csv(out_dir / f"{name}.csv", index=False)
            files.append(out_dir / f"{name}.csv")
        files += plot(results, rating_table, out_dir)
    return Analysis(summarise(results), flags, rating_table, seat0, files)


def plot(results: pd.DataFrame, rating_table: pd.DataFrame, out_dir: Path) -> list[Path]:
    """Win rates, rating effects and distributions as PNG files."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    files = []
    p0 = null_rate(results)
    fig, axes = plt.subplots(1, 3, figsize=(13, 4.4))
    for ax, (key, column) in zip(axes, FACTORS):
        table = level_table(results, column)
        x = np.arange(len(table))
        ax.bar(x, table["win_rate"], color="#7aa6c2", label="win rate")
        ax.errorbar(x, table["win_rate"], yerr=[table["win_rate"] - table["ci_low"], table["ci_high"] - table["win_rate"]],
                    fmt="none", ecolor="black", capsize=3, label="95 % interval (block-clustered)")
        ax.axhline(p0, color="grey", linestyle="--", linewidth=1, label=f"fair share {p0:.3g} (shared wins count)")
        ax.set_xticks(x, [str(i) for i in table.index], rotation=30)
        ax.set_xlabel(column)
        ax.set_ylabel("win rate (share of seat-games won)")
        ax.set_title(f"win rate by {column}")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside lower center", ncol=3, frameon=False)
    fig.set_layout_engine("constrained")
    files.append(_save(fig, out_dir / "win_rates.png"))

    fig, ax = plt.subplots(figsize=(7, 0.35 * len(rating_table) + 1.5))
    labels = [f"{f}: {lvl}" for f, lvl in zip(rating_table["factor"], rating_table["level"])]
    y = np.arange(len(rating_table))[::-1]
    ax.errorbar(rating_table["effect"], y, xerr=[rating_table["effect"] - rating_table["ci_low"],
                                                 rating_table["ci_high"] - rating_table["effect"]], fmt="o", capsize=3)
    ax.axvline(0, color="grey", linewidth=1)
    ax.set_yticks(y, labels)
    ax.set_xlabel("Plackett-Luce log-worth effect (95 % interval, clustered by block)")
    ax.set_ylabel("factor: level")
    files.append(_save(fig, out_dir / "ratings.png"))

    fig, ax = plt.subplots(figsize=(8, 4.4))
    for strategy, group in results.groupby("strategy"):
        ax.hist(group["vp"], bins=30, histtype="step", density=True, label=str(strategy))
    ax.set_xlabel("final VP")
    ax.set_ylabel("density (share of seat-games per VP)")
    spike = revolutions(results)
    ax.set_title("VP distribution by strategy" + (
        f"; the spike at 0 is revolutions ({spike['zero_by_revolution']:.0%} of 0-VP seat-games, SOE-18.2)"
        if spike and spike["zero_vp"] > 0 else ""), fontsize=10)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False, title="strategy")
    files.append(_save(fig, out_dir / "vp.png"))

    if "length" in results:
        lengths = results.groupby("game_index")["length"].first()
        fig, ax = plt.subplots(figsize=(7, 4))
        ax.hist(lengths, bins=min(40, max(5, lengths.nunique())), color="#7aa6c2")
        mean, low, high = mean_interval(lengths)
        ax.set_title(f"game length: mean {mean:.3g} (95 % {low:.3g}..{high:.3g})")
        ax.set_xlabel("length")
        ax.set_ylabel("games")
        files.append(_save(fig, out_dir / "length.png"))
    return files


def _save(fig, path: Path) -> Path:
    import matplotlib.pyplot as plt
    if fig.get_layout_engine() is None:
        fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)
    return path
