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

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy import stats as scipy_stats

BOOTSTRAP = 2000
# Fewest blocks for an interval: with fewer, blocks that agree by chance give a zero-width "interval"
# (two blocks of four games each differ by the same 0.5 often), and a bootstrap over B blocks has
# only C(2B-1, B) distinct resamples (3 for two blocks, 35 for four, 126 for five).
MIN_BLOCKS = 5
NOT_IDENTIFIABLE = "not identifiable at this skill level and sample size"
SKILL_DEPENDENT = "skill-dependent"
VERDICTS = ("under-priced", "fair", "over-priced")   # the verdicts that are balance statements


@dataclass(frozen=True)
class Effect:
    """A difference between arms with its 95 % interval, number of blocks and focal games."""

    estimate: float
    ci95: tuple[float, float]
    se: float
    blocks: int
    games: int

    def per_unit(self, dose: float) -> Effect:
        """The effect of one unit of a dose (estimate, interval and standard error divided)."""
        return Effect(self.estimate / dose, (self.ci95[0] / dose, self.ci95[1] / dose), self.se / dose,
                      self.blocks, self.games)

    def to_dict(self) -> dict:
        return {"estimate": self.estimate, "ci95": list(self.ci95), "se": self.se,
                "blocks": self.blocks, "games": self.games}


def block_means(focal: pd.DataFrame, outcome: str) -> pd.DataFrame:
    """Mean outcome of the focal seat per block (rows) and arm (columns)."""
    return focal.pivot_table(index="block", columns="arm_label", values=outcome, aggfunc="mean")


def paired_effect(means: pd.DataFrame, a: str, b: str) -> Effect:
    """Effect of arm a over arm b: mean over blocks of the per-block difference, t interval; no
    interval (NaN bounds) from fewer than MIN_BLOCKS blocks, though the spread is kept so that
    `blocks_to_settle` can say how many would do."""
    both = means[[a, b]].dropna()
    diff = (both[a] - both[b]).to_numpy()
    k = len(diff)
    estimate = float(diff.mean()) if k else float("nan")
    se = float(diff.std(ddof=1) / np.sqrt(k)) if k >= 2 else float("nan")
    if k < MIN_BLOCKS:
        return Effect(estimate, (float("nan"), float("nan")), se, k, 0)
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


def cost_in_gold(removed: Mapping[str, float], rates: Mapping[str, float], currency: str = "gold") -> float:
    """A price paid in several resources, in the game's currency (SoE gold, AoD and AFAoS money,
    CotE talents) at the measured exchange rates (NaN when one unit of currency is not measurably
    worth anything: no exchange rate exists then)."""
    gold = rates.get(currency, float("nan"))
    if not np.isfinite(gold) or gold <= 0:
        return float("nan")
    return float(sum(amount * rates[key] / gold for key, amount in removed.items() if amount))


def fair_price_statistic(tile: tuple[str, str], per_unit: Mapping[str, tuple[str, str, float]],
                         removed: Mapping[str, float], currency: str = "gold") -> Callable[[Mapping[str, float]], float]:
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
        return cost_in_gold(removed, rates, currency) + float(m[force] - m[ban]) / rates[currency] \
            if rates[currency] > 0 else float("nan")

    return statistic


def excludes_zero(ci95: tuple[float, float]) -> bool:
    """Whether a 95 % interval lies entirely on one side of zero (NaN bounds: no)."""
    low, high = ci95
    return bool(low > 0 or high < 0)


def blocks_to_settle(effect: Effect, limit: int = 10**7) -> int | None:
    """Blocks an experiment needs for the 95 % t half-width to fall below |estimate|, assuming
    the per-block spread stays what it was (sd = se * sqrt(blocks)), and at least MIN_BLOCKS.
    None when no finite number would do: a zero estimate, or no spread measured yet."""
    if not (effect.blocks >= 2 and math.isfinite(effect.se) and math.isfinite(effect.estimate)) \
            or effect.estimate == 0:
        return None
    sd, target = effect.se * math.sqrt(effect.blocks), abs(effect.estimate)
    n = max(MIN_BLOCKS, math.ceil((1.96 * sd / target) ** 2))   # the normal approximation, then the t correction
    while n <= limit and float(scipy_stats.t.ppf(0.975, n - 1)) * sd / math.sqrt(n) >= target:
        n += max(1, n // 50)
    return n if n <= limit else None


@dataclass(frozen=True)
class PriceVerdict:
    """A fair price, or why none can be given. `verdict` is one of VERDICTS or NOT_IDENTIFIABLE;
    `note` says in words what the numbers mean (a negative price, the blocks that would settle it)."""

    verdict: str
    note: str
    settle_blocks: int | None = None


def unit_name(currency: str) -> str:
    """One unit of a currency named in the plural (CotE "talents" -> "talent")."""
    return currency[:-1] if currency.endswith("s") else currency


def currency_unpriced(currency: str, currency_value: Effect) -> PriceVerdict | None:
    """Why no price in `currency` can be given (NOT_IDENTIFIABLE with a note naming the blocks that
    would settle it), or None when one unit of it is clearly worth something: its value interval
    lies above zero, so a price (a ratio over that value) has a meaningful sign and size."""
    if currency_value.blocks < MIN_BLOCKS:
        settle = blocks_to_settle(currency_value)
        more = (f"; about {settle} would settle the sign of one {unit_name(currency)}'s value, if the spread per "
                "block stays as measured" if settle else "")
        return PriceVerdict(NOT_IDENTIFIABLE, f"{currency_value.blocks} blocks are too few for an interval "
                                              f"(at least {MIN_BLOCKS}){more}", settle)
    if not currency_value.ci95[0] > 0:
        settle = blocks_to_settle(currency_value)
        sign = "clearly negative" if currency_value.ci95[1] < 0 else "not distinguishable from zero"
        more = ("" if currency_value.ci95[1] < 0 else
                f"; about {settle} blocks would settle its sign, if the spread per block stays as measured"
                if settle else "; the data so far suggest no number of blocks that would settle it")
        return PriceVerdict(NOT_IDENTIFIABLE, f"the value of one {unit_name(currency)} is {sign} at this skill level "
                                              f"({currency_value.blocks} blocks){more}", settle)
    return None


def price_verdict(currency: str, currency_value: Effect, premium_ci95: tuple[float, float],
                  price: float, price_ci95: tuple[float, float]) -> PriceVerdict:
    """The verdict on an asset's price in `currency`, from the interval of the price itself.

    A price in a currency exists only when one unit of it is clearly worth something: its value
    interval lies above zero. Otherwise the price is a ratio over a denominator that may be zero
    or negative, and no verdict is issued; the note names the blocks that would settle it.
    `premium_ci95` is the interval of (fair price - current cost) over the same resamples:
    above zero, the asset is under-priced; below, over-priced; else fair. A negative fair price
    means the asset harms its owner even when free: a player should be paid to take it.
    """
    unpriced = currency_unpriced(currency, currency_value)
    if unpriced is not None:
        return unpriced
    low, high = premium_ci95
    if not (math.isfinite(low) and math.isfinite(high)):
        return PriceVerdict(NOT_IDENTIFIABLE, "the price interval is undefined in most resamples")
    verdict = "under-priced" if low > 0 else "over-priced" if high < 0 else "fair"
    note = ""
    if price_ci95[1] < 0:
        note = f"harmful even when free: worth taking only if paid about {-price:.3g} {currency}"
    elif price < 0:
        note = "a negative fair price means taking the asset free may already hurt (not clear at this size)"
    return PriceVerdict(verdict, note)


def sign_changes(levels: Mapping[str, tuple[float, tuple[float, float], str]]) -> list[tuple[str, str]]:
    """Pairs of skill levels between which an asset's value changes sign.

    `levels` maps a skill level to (estimate, 95 % interval, verdict) of the asset's value. Two
    levels disagree in sign when (a) both intervals exclude zero, on opposite sides, or (b) the
    point estimates have opposite signs and both levels issued a price verdict (VERDICTS; a
    level whose price is not identifiable gives no verdict to disagree with) and these differ.
    """
    names = list(levels)
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            (ea, ca, va), (eb, cb, vb) = levels[a], levels[b]
            both_clear = excludes_zero(ca) and excludes_zero(cb) and (ca[0] > 0) != (cb[0] > 0)
            verdicts_differ = ea * eb < 0 and va in VERDICTS and vb in VERDICTS and va != vb
            if both_clear or verdicts_differ:
                pairs.append((a, b))
    return pairs


def crossing(values: Sequence[float], estimates: Sequence[float], ci95s: Sequence[tuple[float, float]]) -> float:
    """Where an effect crosses zero as one setting varies (linear interpolation of the point
    estimates); NaN when it never does, or when no point's interval excludes zero (the effect is
    then not shown to differ from zero anywhere, so a crossing is noise)."""
    if not any(excludes_zero(c) for c in ci95s):
        return float("nan")
    x, y = np.asarray(values, float), np.asarray(estimates, float)
    for i in range(len(x) - 1):
        if y[i] == 0:
            return float(x[i])
        if y[i] * y[i + 1] < 0:
            return float(x[i] + (x[i + 1] - x[i]) * y[i] / (y[i] - y[i + 1]))
    return float(x[-1]) if len(y) and y[-1] == 0 else float("nan")
