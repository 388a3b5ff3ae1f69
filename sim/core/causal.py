"""Causal effects from paired simulation experiments (common random numbers).

A paired experiment plays the same blocks of games -- same seeds, same seats, same powers --
under two or more *arms* that differ in one intervention on one seat (take a tile at once vs
never take it; start with 3 more gold vs not). Games of one block share their dice, so the
per-block difference of the focal seat's outcome between two arms is far less noisy than two
independent samples would be, and blocks are independent replicates: intervals come from the
spread of per-block differences (a t interval), or from a bootstrap over blocks when the
quantity is a ratio of effects (a fair price). See notes/statistics_methods.md section 4.3-4.4.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

BOOTSTRAP = 2000


@dataclass(frozen=True)
class Effect:
    """A difference between arms with its 95 % interval, number of blocks and focal games."""

    estimate: float
    ci95: tuple[float, float]
    se: float
    blocks: int
    games: int

    def to_dict(self) -> dict:
        return {"estimate": self.estimate, "ci95": list(self.ci95), "se": self.se,
                "blocks": self.blocks, "games": self.games}


def block_means(focal: pd.DataFrame, outcome: str) -> pd.DataFrame:
    """Mean outcome of the focal seat per block (rows) and arm (columns)."""
    return focal.pivot_table(index="block", columns="arm_label", values=outcome, aggfunc="mean")


def paired_effect(means: pd.DataFrame, a: str, b: str) -> Effect:
    """Effect of arm a over arm b: mean over blocks of the per-block difference, t interval."""
    both = means[[a, b]].dropna()
    diff = (both[a] - both[b]).to_numpy()
    k = len(diff)
    estimate = float(diff.mean()) if k else float("nan")
    if k < 2:
        return Effect(estimate, (float("nan"), float("nan")), float("nan"), k, 0)
    se = float(diff.std(ddof=1) / np.sqrt(k))
    half = float(scipy_stats.t.ppf(0.975, k - 1)) * se
    return Effect(estimate, (estimate - half, estimate + half), se, k, 0)


def bootstrap_blocks(means: pd.DataFrame, statistic: Callable[[pd.DataFrame], float],
                     seed: int, reps: int = BOOTSTRAP) -> tuple[float, tuple[float, float]]:
    """A statistic of the block means and its 95 % percentile interval, resampling whole blocks
    (they are the independent units; every arm of a block is resampled together)."""
    rng = np.random.default_rng(seed)
    estimate = statistic(means)
    values = np.array([statistic(means.iloc[rng.integers(0, len(means), len(means))]) for _ in range(reps)])
    values = values[np.isfinite(values)]
    if values.size < reps // 2:
        return estimate, (float("nan"), float("nan"))
    return estimate, (float(np.percentile(values, 2.5)), float(np.percentile(values, 97.5)))


def fair_price_statistic(tile: tuple[str, str], per_unit: Mapping[str, tuple[str, str, float]],
                         removed: Mapping[str, float]) -> Callable[[pd.DataFrame], float]:
    """The gold a tile should cost so that taking it is worth exactly as much as not taking it.

    Taking the tile at its current cost changes the win rate by d = mean(force) - mean(ban).
    One more unit of resource k is worth r_k = (mean(grant_k) - mean(base)) / dose_k in win
    rate (gold and population r > 0; unrest r < 0). Paying the tile removes `removed[k]` units
    of each resource (an unrest cost of 3 removes -3 units), so its current cost in gold is
    c = sum_k removed[k] * r_k / r_gold, and the fair price is c + d / r_gold: an over-priced
    tile (d < 0) should cost less than it does.
    """
    force, ban = tile

    def statistic(means: pd.DataFrame) -> float:
        m = means.mean()
        rates = {key: (m[grant] - m[base]) / dose for key, (grant, base, dose) in per_unit.items()}
        gold = rates["gold"]
        if not np.isfinite(gold) or gold <= 0:
            return float("nan")
        current = sum(amount * rates[key] / gold for key, amount in removed.items() if amount)
        return float(current + (m[force] - m[ban]) / gold)

    return statistic
