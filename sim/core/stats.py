"""Interval estimates and small statistical helpers.

Every Monte Carlo estimate in the toolkit reports n and a 95 % interval. For proportions we use
the Wilson score interval: unlike the normal ("Wald") interval it stays inside [0, 1] and keeps
close to nominal coverage for p near 0 or 1 and for small n (Brown, Cai & DasGupta 2001).
"""

from __future__ import annotations

import numpy as np
from scipy import stats as _scipy_stats

Z95 = float(_scipy_stats.norm.ppf(0.975))


def wilson_interval(successes, n, z: float = Z95):
    """Wilson score interval for a binomial proportion; vectorised over arrays.

    Returns (low, high); n == 0 gives the uninformative (0, 1).
    """
    k = np.asarray(successes, dtype=float)
    n_arr = np.asarray(n, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        p = np.where(n_arr > 0, k / n_arr, 0.0)
        denom = 1.0 + z * z / n_arr
        centre = (p + z * z / (2 * n_arr)) / denom
        half = z * np.sqrt(p * (1 - p) / n_arr + z * z / (4 * n_arr * n_arr)) / denom
        # At k = 0 (k = n) the exact lower (upper) limit is 0 (1); rounding must not move it.
        low = np.where((n_arr > 0) & (k > 0), np.clip(centre - half, 0.0, 1.0), 0.0)
        high = np.where((n_arr > 0) & (k < n_arr), np.clip(centre + half, 0.0, 1.0), 1.0)
    if low.ndim == 0:
        return float(low), float(high)
    return low, high


def proportion(successes: int, n: int) -> dict:
    """A proportion with its n and Wilson 95 % interval, ready for JSON."""
    low, high = wilson_interval(successes, n)
    return {"estimate": successes / n if n else float("nan"), "n": int(n), "ci95": [low, high]}


def binomial_se(p, n):
    """Standard error of a proportion estimated from n trials (for Monte Carlo tolerances)."""
    p = np.clip(np.asarray(p, dtype=float), 0.0, 1.0)  # exact sums may exceed 1 by rounding
    return np.sqrt(p * (1 - p) / n)


def mean_interval(values, z: float = Z95) -> tuple[float, float, float]:
    """Mean with a normal-approximation 95 % interval (for VP and other averages of many games)."""
    x = np.asarray(values, dtype=float)
    mean = float(x.mean())
    if x.size < 2:
        return mean, float("nan"), float("nan")
    se = float(x.std(ddof=1) / np.sqrt(x.size))
    return mean, mean - z * se, mean + z * se


def holm(pvalues):
    """Holm's step-down adjustment of p-values: family-wise error control for a few balance claims.

    Adjusted p_(i) = max over j <= i of min(1, (m - j + 1) p_(j)), p sorted ascending; NaN stays NaN.
    """
    p = np.asarray(pvalues, dtype=float)
    out = np.full(p.shape, np.nan)
    valid = np.flatnonzero(~np.isnan(p))
    order = valid[np.argsort(p[valid], kind="stable")]
    m = len(order)
    out[order] = np.minimum(1.0, np.maximum.accumulate((m - np.arange(m)) * p[order]))
    return out


def clustered_wilson(successes, n, z: float = Z95) -> tuple[float, float, float]:
    """Wilson interval for a proportion pooled over clusters of dependent trials (e.g. blocks of
    games sharing dice): the cluster-robust variance of the ratio estimate gives a design
    effect deff >= 1, and the interval is Wilson's at the effective size n / deff.

    `successes` and `n` hold one count per cluster. Returns (low, high, deff).
    """
    k = np.asarray(successes, dtype=float)
    m = np.asarray(n, dtype=float)
    total, clusters = m.sum(), len(m)
    p = k.sum() / total
    binomial = p * (1 - p) / total
    if clusters < 2 or binomial <= 0:
        low, high = wilson_interval(k.sum(), total, z)
        return low, high, 1.0
    robust = clusters / (clusters - 1) * np.sum((k - p * m) ** 2) / total**2
    deff = max(1.0, float(robust / binomial))
    low, high = wilson_interval(p * total / deff, total / deff, z)
    return low, high, deff
