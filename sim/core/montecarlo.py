"""Block-seeded Monte Carlo: the same seed gives the same numbers however the work is chunked.

Trials are cut into fixed blocks of `BLOCK` trials; block b draws from
`stream(seed, b, purpose)`. A kernel turns (rng, size) into count arrays (e.g. `np.bincount` of
outcomes), which are summed over blocks. Memory use is one block at a time; the answer depends
only on (seed, n, purpose), never on how many blocks are processed per call or by which worker.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import numpy as np

from sim.core.errors import UserError
from sim.core.random import stream

BLOCK = 1 << 16

Kernel = Callable[[np.random.Generator, int], dict[str, np.ndarray]]


def blocks(n: int, block: int = BLOCK) -> Iterator[tuple[int, int]]:
    """(block index, trials in it) for n trials."""
    if n < 1:
        raise UserError(f"--mc {n}: the number of Monte Carlo trials must be at least 1")
    for b in range((n + block - 1) // block):
        yield b, min(block, n - b * block)


def run_blocks(kernel: Kernel, n: int, seed: int, purpose: str, first: int = 0,
               count: int | None = None, block: int = BLOCK) -> dict[str, np.ndarray]:
    """Sum the kernel's count arrays over blocks `first .. first+count-1` (default: all)."""
    totals: dict[str, np.ndarray] = {}
    for b, size in blocks(n, block):
        if b < first or (count is not None and b >= first + count):
            continue
        for key, counts in kernel(stream(seed, b, purpose), size).items():
            totals[key] = add_counts(totals.get(key), counts)
    return totals


def add_counts(a: np.ndarray | None, b: np.ndarray) -> np.ndarray:
    """Sum two count arrays of possibly different lengths (bincount results)."""
    b = np.asarray(b, dtype=np.int64)
    if a is None:
        return b.copy()
    if len(a) < len(b):
        a, b = b, a
    out = a.astype(np.int64, copy=True)
    out[: len(b)] += b
    return out
