"""Pause Python's cyclic garbage collector while an engine plays a batch of games.

The engines create and drop many small objects per step; each allocation burst triggers a
collector pass over every live object of the batch (players, tables), time spent finding nothing,
since play makes no reference cycles: reference counting frees everything at once. The conformance
suite checks that claim for every game (`cycles_counted`, `conformance.check_no_reference_cycles`).
The collector resumes after the block.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

_counts: list[int] | None = None      # while `cycles_counted` runs: the garbage each paused block left


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic collector inside the block (restored as it was, even on error)."""
    was_enabled = gc.isenabled()
    counts = _counts
    if counts is not None:
        gc.collect()                  # what was garbage before the block is not the block's
    gc.disable()
    try:
        yield
    finally:
        if counts is not None:
            counts.append(gc.collect())
        if was_enabled:
            gc.enable()


@contextmanager
def cycles_counted() -> Iterator[list[int]]:
    """Inside this block, each `collector_paused` block appends to the list it gives the number of
    objects in reference cycles it left behind (a full collection at its end): 0 each where the
    paused loop makes no cycles, the claim the pause rests on."""
    global _counts
    outer, _counts = _counts, []
    try:
        yield _counts
    finally:
        _counts = outer
