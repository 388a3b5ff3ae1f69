"""Exact probability helpers: probability mass functions and absorbing Markov chains.

A pmf is a dict mapping an outcome to its probability. Exact answers are the oracles against
which every bulk Monte Carlo kernel is tested, and they answer odds questions directly where
the state space is small (SoE battles, CotE battles by absorbing-chain recursion).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Mapping
from typing import TypeVar

import numpy as np

K = TypeVar("K", bound=Hashable)
PMF_TOLERANCE = 1e-9


def normalise(pmf: Mapping[K, float]) -> dict[K, float]:
    """Scale a non-negative weight map so that it sums to one."""
    total = float(sum(pmf.values()))
    if total <= 0:
        raise ValueError("a pmf needs positive total weight")
    return {k: float(v) / total for k, v in pmf.items()}


def accumulate(items: Iterable[tuple[K, float]]) -> dict[K, float]:
    """Sum probabilities of equal outcomes; drop zero entries."""
    out: dict[K, float] = {}
    for key, p in items:
        if p:
            out[key] = out.get(key, 0.0) + float(p)
    return out


def mixture(components: Iterable[tuple[float, Mapping[K, float]]]) -> dict[K, float]:
    """The pmf of 'pick component i with weight w_i, then draw from it'."""
    return accumulate((k, w * p) for w, pmf in components for k, p in pmf.items())


def map_pmf(pmf: Mapping[K, float], f: Callable[[K], Hashable]) -> dict:
    """The pmf of f(X)."""
    return accumulate((f(k), p) for k, p in pmf.items())


def convolve(a: Mapping[int, float], b: Mapping[int, float]) -> dict[int, float]:
    """The pmf of X + Y for independent integer-valued X and Y."""
    return accumulate((x + y, px * py) for x, px in a.items() for y, py in b.items())


def expectation(pmf: Mapping[int, float]) -> float:
    """E[X] for a numeric pmf."""
    return float(sum(k * p for k, p in pmf.items()))


def is_pmf(pmf: Mapping[object, float], tol: float = PMF_TOLERANCE) -> bool:
    """All probabilities in [0, 1] and summing to one within `tol`."""
    values = np.fromiter(pmf.values(), dtype=float)
    return bool(np.all(values >= -tol) and np.all(values <= 1 + tol) and abs(values.sum() - 1) <= tol)


def absorption_probabilities(q: np.ndarray, r: np.ndarray) -> np.ndarray:
    """B = (I - Q)^-1 R for an absorbing chain in canonical form.

    q: transient-to-transient transition matrix (t x t); r: transient-to-absorbing (t x a).
    Row i of the result is the distribution of the absorbing state reached from transient i.
    """
    t = q.shape[0]
    return np.linalg.solve(np.eye(t) - q, r)


def monotone_layers(level: np.ndarray, members: np.ndarray) -> list[np.ndarray]:
    """Indices `members` grouped by `level[members]`, lowest level first.

    For an absorbing chain whose transitions never raise the level except by a self-loop
    (units only ever decrease), solving the layers in this order needs no matrix inversion:
    every successor of a layer is solved before it, and a self-loop with probability p is a
    geometric series, V(s) = sum_{s' != s} P(s -> s') V(s') / (1 - p).
    """
    members = np.asarray(members)
    order = members[np.argsort(level[members], kind="stable")]
    cuts = np.flatnonzero(np.diff(level[order])) + 1
    return np.split(order, cuts) if len(order) else []
