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


def bootstrap_means(means: pd.DataFrame, seed: int, reps: int = BOOTSTRAP) -> pd.DataFrame:
    """Column means of `reps` resamples of whole blocks (the independent units; every arm of a
    block is resampled together, which keeps the correlations common dice create)."""
    values = means.to_numpy(dtype=float)
    rows = np.random.default_rng(seed).integers(0, len(values), (reps, len(values)))
    with np.errstate(invalid="ignore"):
        return pd.DataFrame(np.nanmean(values[rows], axis=1), columns=means.columns)


def percentile_interval(values: np.ndarray) -> tuple[float, float]:
    """95 % percentile interval of bootstrap values; NaN when most resamples are undefined."""
    finite = values[np.isfinite(values)]
    if finite.size < values.size // 2:
        return float("nan"), float("nan")
    return float(np.percentile(finite, 2.5)), float(np.percentile(finite, 97.5))


def resource_rates(m: Mapping[str, float], per_unit: Mapping[str, tuple[str, str, float]]) -> dict[str, float]:
    """Win-rate value of one more unit of each resource from arm means: (grant - base) / dose."""
    return {key: float((m[grant] - m[base]) / dose) for key, (grant, base, dose) in per_unit.items()}


def cost_in_gold(removed: Mapping[str, float], rates: Mapping[str, float]) -> float:
    """A price paid in several resources, in gold at the measured exchange rates (NaN when one
    gold is not measurably worth anything: no exchange rate exists then)."""
    gold = rates.get("gold", float("nan"))
    if not np.isfinite(gold) or gold <= 0:
        return float("nan")
    return float(sum(amount * rates[key] / gold for key, amount in removed.items() if amount))


def fair_price_statistic(tile: tuple[str, str], per_unit: Mapping[str, tuple[str, str, float]],
                         removed: Mapping[str, float]) -> Callable[[Mapping[str, float]], float]:
    """The gold a tile should cost so that taking it is worth exactly as much as not taking it.

    Taking the tile at its current cost changes the win rate by d = mean(force) - mean(ban).
    One more unit of resource k is worth r_k (`resource_rates`; gold and population r > 0,
    unrest r < 0). Paying the tile removes `removed[k]` units of each resource (an unrest cost of
    3 removes -3 units), so its current cost in gold is c = sum_k removed[k] * r_k / r_gold, and
    the fair price is c + d / r_gold: an over-priced tile (d < 0) should cost less than it does.
    """
    force, ban = tile

    def statistic(m: Mapping[str, float]) -> float:
        """The fair price from the mean focal win rate of each arm."""
        rates = resource_rates(m, per_unit)
        return cost_in_gold(removed, rates) + float(m[force] - m[ban]) / rates["gold"] \
            if rates["gold"] > 0 else float("nan")

    return statistic
