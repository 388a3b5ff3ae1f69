"""Majority scoring with ties, vectorised over a batch.

The games share one pattern: players are ranked by a count (influence markers, colonists,
VP, unrest); tied players share a place; what differs is how the next place is numbered and
what each place pays. Everything here works on arrays with a leading batch axis:
`counts` has shape (batch, players).
"""

from __future__ import annotations

import numpy as np


def dense_places(counts: np.ndarray, eligible: np.ndarray | None = None) -> np.ndarray:
    """Dense rank of each player (0 = highest count); tied players share a place and the next
    distinct count takes the next place (SOE-16, Example SOE-E4: 3, 3, 2, 1 -> 0, 0, 1, 2).

    Ineligible players (e.g. a count of zero, where a game scores only present players) get -1.
    """
    counts = np.asarray(counts, dtype=np.int64)
    eligible = np.ones(counts.shape, dtype=bool) if eligible is None else np.asarray(eligible, dtype=bool)
    key = np.where(eligible, counts, np.iinfo(np.int64).min)
    order = np.argsort(key, axis=-1, kind="stable")[..., ::-1]
    ordered = np.take_along_axis(key, order, axis=-1)
    new_value = np.ones(ordered.shape, dtype=bool)
    new_value[..., 1:] = ordered[..., 1:] != ordered[..., :-1]
    places = np.empty(ordered.shape, dtype=np.int64)
    np.put_along_axis(places, order, np.cumsum(new_value, axis=-1) - 1, axis=-1)
    return np.where(eligible, places, -1)


def competition_places(counts: np.ndarray, eligible: np.ndarray | None = None) -> np.ndarray:
    """Standard competition rank (0 = highest): tied players share a place and the following
    players skip the places the tie used up (1, 1, 3)."""
    counts = np.asarray(counts)
    if eligible is None:
        eligible = np.ones(counts.shape, dtype=bool)
    higher = (counts[..., None, :] > counts[..., :, None]) & eligible[..., None, :]
    return np.where(eligible, higher.sum(axis=-1), -1)


def award_by_place(places: np.ndarray, payouts: np.ndarray | list[int]) -> np.ndarray:
    """Pay `payouts[place]` to each player; places beyond the payout list (or -1) get 0."""
    payouts = np.asarray(payouts)
    places = np.asarray(places)
    valid = (places >= 0) & (places < len(payouts))
    return np.where(valid, payouts[np.clip(places, 0, max(len(payouts) - 1, 0))], 0)
