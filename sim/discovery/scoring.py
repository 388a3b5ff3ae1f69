"""AOD-12 colony scoring and AOD-13 final scoring, vectorised over a batch.

Arrays have a leading batch axis and players on the last axis; colony counts may carry a
region axis before it, `(batch, regions, players)`. Ranks come from `sim.core.scoring`.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence

import numpy as np

from sim.core.errors import UserError
from sim.core.scoring import award_by_place, dense_places
from sim.discovery.components import Building, ColonyRules, FinalRules

BREAKERS = ("last_colony_vp", "money", "goods")


def colony_vp(counts, rules: ColonyRules, reading: str | None = None) -> np.ndarray:
    """AOD-12.2 / AOD-12.3 / AOD-18.7 / AOD-18.8: VP of each player in each region.

    Only players with at least one unit take a place (AOD-12.3 "only one player present").
    The region scores only if someone has `threshold` units. Most units: 6 VP, second: 2 VP;
    exactly two tied for most: 2 VP each and no second place; three or more tied for most:
    nobody scores; two or more tied for second: they get nothing. `reading` (default the data
    option) "region": the runner-up scores with any positive count; "per_player": a player
    needs `threshold` units to score at all.
    """
    reading = reading or rules.threshold_reading
    if reading not in ("region", "per_player"):
        raise UserError(f"colony threshold reading {reading!r} is not allowed; choose one of: region, per_player")
    counts = np.asarray(counts, dtype=np.int64)
    if np.any(counts < 0):
        raise UserError(f"colony counts: {int(counts[counts < 0][0])} is negative; counts must be >= 0")
    places = dense_places(counts, eligible=counts > 0)
    firsts = (places == 0).sum(axis=-1, keepdims=True)
    seconds = (places == 1).sum(axis=-1, keepdims=True)
    vp = award_by_place(places, [rules.first_vp, rules.second_vp])
    vp = np.where((places == 0) & (firsts == 2), rules.tied_first_vp, vp)
    vp = np.where((places == 0) & (firsts >= 3), 0, vp)
    vp = np.where((places == 1) & ((firsts > 1) | (seconds > 1)), 0, vp)
    eligible = counts.max(axis=-1, keepdims=True) >= rules.threshold
    if reading == "per_player":
        eligible = eligible & (counts >= rules.threshold)
    return np.where(eligible, vp, 0)


@functools.lru_cache(maxsize=1 << 16)
def region_vp(counts: tuple[int, ...], rules: ColonyRules) -> tuple[int, ...]:
    """`colony_vp` of one region, per player, cached: the engine and the players ask about the
    same few count vectors over and over."""
    return tuple(int(v) for v in colony_vp(np.array([counts]), rules)[0])


def building_vp(buildings: Sequence[Building], owned, rules: FinalRules,
                basis: Mapping[str, np.ndarray], prosperity_counts_itself: bool = True) -> np.ndarray:
    """AOD-13.2.2 / AOD-14: fixed red VP plus the conditional VP of the Age III buildings.

    `owned` has shape (..., players, len(buildings)) (copies owned); `basis` maps each basis of
    AOD-14.3 -- goods, units, ships, soldiers, regions, money -- to a (..., players) array.
    Prosperity counts every building owned, itself included (ASSUMED, AOD-14.3; the option
    `options.prosperity_counts_itself` false leaves it out of its own count).
    """
    owned = np.asarray(owned, dtype=np.int64)
    counts = {
        "": np.zeros(owned.shape[:-1], dtype=np.int64),
        "goods": np.asarray(basis["goods"]),
        "unit_pairs": np.asarray(basis["units"]) // 2,
        "ships": np.asarray(basis["ships"]),
        "soldiers": np.asarray(basis["soldiers"]),
        "buildings": owned.sum(axis=-1),
        "regions": np.asarray(basis["regions"]),
        "five_dollars": np.asarray(basis["money"]) // 5,
    }
    total = np.zeros(owned.shape[:-1], dtype=np.int64)
    for j, b in enumerate(buildings):
        per = rules.navy_vp_per_ship if b.vp_basis == "ships" else b.vp_per
        count = counts[b.vp_basis]
        if b.vp_basis == "buildings" and not prosperity_counts_itself:
            count = count - owned[..., j]
        total += b.vp * owned[..., j] + np.minimum(owned[..., j], 1) * per * count
    return total


def final_vp(colonies, buildings, discoveries, economy) -> np.ndarray:
    """AOD-13.2: colonies (three age scorings) + buildings + discoveries + economy, where the
    economy is the round-8 set income scored as VP (AOD-18.15)."""
    return sum(np.asarray(x, dtype=np.int64) for x in (colonies, buildings, discoveries, economy))


def winners(total, tie_values: Mapping[str, np.ndarray], rules: FinalRules) -> np.ndarray:
    """AOD-13.1 / AOD-13.3: who wins each game (bool, players on the last axis). Ties on VP go
    to the most VP from the round-8 colony scoring, then most money, then most trade goods;
    players still tied share the victory (ASSUMED)."""
    unknown = [b for b in rules.tie_breakers if b not in BREAKERS]
    if unknown:
        raise UserError(f"tie-breaker {unknown[0]!r} is not allowed; choose from: {', '.join(BREAKERS)}")
    best = _leaders(np.asarray(total), np.ones(np.shape(total), dtype=bool))
    for name in rules.tie_breakers:
        best = _leaders(np.asarray(tie_values[name]), best)
    return best


def _leaders(values: np.ndarray, among: np.ndarray) -> np.ndarray:
    masked = np.where(among, values, np.iinfo(np.int64).min)
    return among & (masked == masked.max(axis=-1, keepdims=True))
