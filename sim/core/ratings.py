"""Plackett-Luce ratings with additive effects (strategy + seat + power) from finishing orders.

A game's finishing order is read as successive choices: the best player is chosen from all
players with probability proportional to worth exp(eta), the next from those left, and so on
(Plackett 1975, Luce 1959), with log-worth eta = sum of one effect per factor (strategy, seat,
power...). Fitting batch maximum likelihood on all games separates the factors even in an
unbalanced design; in a balanced one it sharpens them. Tied players share a choice stage
(Breslow's approximation: each tied player is chosen from everyone not ranked better).

Effects are reported per factor on the log-worth scale and sum to zero over the levels of a
factor (an effect of +0.2 means worth exp(0.2) = 1.22 times the factor's average). Intervals
are Wald intervals from a cluster-robust (sandwich) covariance with one cluster per block of
games, because games sharing dice (common random numbers) are not independent; a standard
error is never taken below the model-based one (inverse information), which keeps intervals
honest when there are only a few blocks (one block gives no sandwich estimate at all). A very weak
ridge penalty (RIDGE) keeps estimates finite when some level never wins.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np
import pandas as pd
from scipy.linalg import null_space

from sim.core.stats import Z95

RIDGE = 1e-3
MAX_ITER = 100
COLUMNS = ["factor", "level", "effect", "se", "ci_low", "ci_high"]


@dataclass(frozen=True)
class Ratings:
    """A fitted Plackett-Luce model: one row per factor level."""

    table: pd.DataFrame  # factor, level, effect, se, ci_low, ci_high
    loglik: float
    iterations: int


def _contrasts(levels: int) -> np.ndarray:
    """An orthonormal basis (levels x levels-1) of the effects summing to zero."""
    return null_space(np.ones((1, levels)))


def _stages(eta: np.ndarray, beats: np.ndarray) -> tuple[np.ndarray, float]:
    """Choice weights w[g,i,j] (j's share of the stage where i is chosen) and the log-likelihood."""
    shift = eta.max(axis=1, keepdims=True)
    expo = np.exp(eta - shift)[:, None, :] * beats           # (G, i, j): j still in when i chosen
    total = expo.sum(axis=2)
    loglik = float(np.sum(eta - shift - np.log(total)))
    return expo / total[:, :, None], loglik


def plackett_luce(ranks: np.ndarray, factors: Mapping[str, np.ndarray],
                  clusters: np.ndarray | None = None) -> Ratings:
    """Fit log-worth = sum of factor effects to rank arrays (games x players, 1 = best).

    `factors` maps a factor name to a (games x players) array of level labels; factors with one
    level only are left out. `clusters` (one label per game) groups games that are not
    independent; by default every game is its own cluster.
    """
    ranks = np.asarray(ranks)
    games = ranks.shape[0]
    blocks, names = [], []
    for factor, labels in factors.items():
        labels = np.asarray(labels)
        levels, codes = np.unique(labels, return_inverse=True)
        if len(levels) < 2:
            continue
        basis = _contrasts(len(levels))
        blocks.append(basis[codes.reshape(labels.shape)])   # (G, P, L-1)
        names.append((factor, levels, basis))
    if not blocks:
        return Ratings(table=pd.DataFrame(columns=COLUMNS), loglik=float("nan"), iterations=0)
    x = np.concatenate(blocks, axis=2)
    beats = ranks[:, None, :] >= ranks[:, :, None]          # beats[g,i,j]: j not ranked better than i
    theta = np.zeros(x.shape[2])
    penalty = RIDGE * np.eye(len(theta))
    objective = -np.inf
    for iteration in range(1, MAX_ITER + 1):
        eta = x @ theta
        w, loglik = _stages(eta, beats)
        objective = loglik - 0.5 * RIDGE * theta @ theta
        xbar = np.einsum("gij,gjf->gif", w, x)
        grad = (x - xbar).sum(axis=(0, 1)) - RIDGE * theta
        weight = w.sum(axis=1)
        info = (np.einsum("gj,gjf,gjh->fh", weight, x, x) - np.einsum("gif,gih->fh", xbar, xbar)) + penalty
        step = np.linalg.solve(info, grad)
        scale = 1.0
        while scale > 1e-6:
            trial = theta + scale * step
            _, trial_ll = _stages(x @ trial, beats)
            if trial_ll - 0.5 * RIDGE * trial @ trial >= objective - 1e-12:
                break
            scale /= 2
        theta = theta + scale * step
        if np.max(np.abs(scale * step), initial=0.0) < 1e-9:
            break
    eta = x @ theta
    w, loglik = _stages(eta, beats)
    xbar = np.einsum("gij,gjf->gif", w, x)
    weight = w.sum(axis=1)
    info = np.einsum("gj,gjf,gjh->fh", weight, x, x) - np.einsum("gif,gih->fh", xbar, xbar) + penalty
    scores = (x - xbar).sum(axis=1)                           # per game (G, F)
    clusters = np.arange(games) if clusters is None else np.asarray(clusters)
    _, cluster_codes = np.unique(clusters, return_inverse=True)
    per_cluster = np.zeros((cluster_codes.max() + 1, x.shape[2]))
    np.add.at(per_cluster, cluster_codes, scores)
    n_clusters = len(per_cluster)
    bread = np.linalg.inv(info)
    correction = n_clusters / (n_clusters - 1) if n_clusters > 1 else 1.0
    cov = correction * bread @ (per_cluster.T @ per_cluster) @ bread
    rows, start = [], 0
    for factor, levels, basis in names:
        stop = start + basis.shape[1]
        effect = basis @ theta[start:stop]
        robust = np.diag(basis @ cov[start:stop, start:stop] @ basis.T)
        model = np.diag(basis @ bread[start:stop, start:stop] @ basis.T)
        se = np.sqrt(np.maximum(robust, model))  # never narrower than for independent games
        rows += [{"factor": factor, "level": lvl, "effect": e, "se": s,
                  "ci_low": e - Z95 * s, "ci_high": e + Z95 * s} for lvl, e, s in zip(levels, effect, se)]
        start = stop
    table = pd.DataFrame(rows, columns=COLUMNS)
    return Ratings(table=table, loglik=loglik, iterations=iteration)
