"""Struggle of Empires scoring on batches: region VP (SOE-16) and end-game unrest (SOE-18).

Both are majority rankings with dense ties, so they use `sim.core.scoring.dense_places` and
`award_by_place`. Arrays have a leading batch axis: `counts` is (batch, players) for one region
or (batch, regions, players) for all regions.
"""

from __future__ import annotations

import numpy as np

from sim.core.scoring import award_by_place, dense_places


def region_vp(counts, values) -> np.ndarray:
    """SOE-16.1-16.3: VP of each player in one region. The most markers score the 1st value;
    tied players all score the full value of their place and the next lower count takes the
    next place (dense ranking, Example SOE-E4: 3,3,2,1 in 8/5/3 -> 8,8,5,3); places beyond the
    region's values and players without a marker score nothing."""
    counts = np.asarray(counts)
    return award_by_place(dense_places(counts, counts > 0), np.asarray(values))


def regions_vp(counts, values) -> np.ndarray:
    """SOE-16 for every region at once: `counts` (..., regions, players), `values` a list of
    each region's place values (2 or 3 each). Returns VP per (..., region, player)."""
    counts = np.asarray(counts)
    width = max(len(v) for v in values)
    table = np.zeros((len(values), width), dtype=np.int64)
    for i, v in enumerate(values):
        table[i, : len(v)] = v
    places = dense_places(counts, counts > 0)
    valid = (places >= 0) & (places < np.array([len(v) for v in values])[:, None])
    region_index = np.arange(len(values))[:, None]
    return np.where(valid, table[region_index, np.clip(places, 0, width - 1)], 0)


def unrest_penalties(unrest, threshold: int = 20, penalties=(7, 4),
                     penalty_at_zero: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """SOE-18.2/18.3: (revolution mask, VP penalty) per player. A player with `threshold` or more
    unrest has a revolution (his VP drop to 0, see `final_vp`). Among the others the most unrest
    loses 7, the second most 4, ties sharing the penalty with dense ranking (Example SOE-E13).
    `penalty_at_zero=False` spares players with no unrest (SOE-A27 alternative)."""
    unrest = np.asarray(unrest)
    revolution = unrest >= threshold
    eligible = ~revolution & ((unrest > 0) | penalty_at_zero)
    penalty = award_by_place(dense_places(unrest, eligible), np.asarray(penalties))
    return revolution, penalty


def final_vp(vp, unrest, threshold: int = 20, penalties=(7, 4), penalty_at_zero: bool = True) -> np.ndarray:
    """SOE-18: VP after the unrest reveal: 0 on revolution, otherwise VP minus the penalty."""
    revolution, penalty = unrest_penalties(unrest, threshold, penalties, penalty_at_zero)
    return np.where(revolution, 0, np.asarray(vp) - penalty)
