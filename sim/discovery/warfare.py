"""AOD-9: battles and wars -- who loses which units.

There are no dice: each soldier kills exactly one enemy unit in the region (AOD-9.4), the
soldier's owner picks the victims, losses are simultaneous (a killed soldier still makes its
kill) and a side cannot lose more units than it has. The outcome is therefore fixed once each
side's victim policy is fixed. The rules leave the victim choice to the players; the policies
offered are "soldiers-first" (kill enemy soldiers, then other units -- the choice shown in
Examples AOD-E11 and AOD-E13, and the one that removes the units that can still fight or score
Power) and "soldiers-last". Every non-soldier counts the same in the New World (AOD-7.1), so the
order among them only names which figure is removed.

`fight` follows the rule text one kill at a time (the oracle); `fights` is the bulk kernel over
arrays `(..., unit types)`; `conflict` resolves a battle (one region) or a war (every region
where both players have a unit and either has a soldier, AOD-9.3, AOD-18.28).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from sim.core.errors import UserError, one_of
from sim.discovery.components import UNIT_TYPES, WarRules

SOLDIER = UNIT_TYPES.index("soldier")
TARGETS = {
    "soldiers-first": ("soldier", "colonist", "missionary", "merchant", "captain"),
    "soldiers-last": ("colonist", "missionary", "merchant", "captain", "soldier"),
}


@dataclass(frozen=True)
class Fight:
    """Losses of one regional fight, per unit type in `UNIT_TYPES` order (arrays may be batched)."""

    attacker_losses: np.ndarray
    defender_losses: np.ndarray

    def after(self, attacker, defender) -> tuple[np.ndarray, np.ndarray]:
        """Both sides' units after the fight."""
        return np.asarray(attacker) - self.attacker_losses, np.asarray(defender) - self.defender_losses


@dataclass(frozen=True)
class Conflict:
    """AOD-9.2 / AOD-9.3: a battle or war between two players over regions (leading axis)."""

    kind: str
    cost: int
    fought: np.ndarray
    fight: Fight


def as_units(counts: Mapping[str, int]) -> np.ndarray:
    """{unit type: count} -> a vector in `UNIT_TYPES` order; unknown types are a UserError."""
    out = np.zeros(len(UNIT_TYPES), dtype=np.int64)
    for name, count in counts.items():
        if name not in UNIT_TYPES:
            raise one_of("unit type", name, UNIT_TYPES)
        if count < 0:
            raise UserError(f"{name}={count} is negative; counts must be >= 0")
        out[UNIT_TYPES.index(name)] = count
    return out


def fight(attacker: np.ndarray, defender: np.ndarray, rules: WarRules, militia: bool = False,
          attacker_targets: str = "soldiers-first", defender_targets: str = "soldiers-first") -> Fight:
    """AOD-9.4 / AOD-9.6, one region, kill by kill as the rules describe it.

    Each soldier kills one enemy unit chosen by its owner in the order of his policy; all kills
    are chosen from the units present before the fight, then removed together. The Militia
    owner (defender) fights with one extra temporary soldier; the attacker never wastes a kill
    on it, as it leaves after the fight anyway (Example AOD-E13).
    """
    attacker, defender = np.asarray(attacker), np.asarray(defender)
    kills_by_attacker = int(attacker[SOLDIER]) * rules.kills_per_soldier
    kills_by_defender = (int(defender[SOLDIER]) + (rules.militia_soldiers if militia else 0)) * rules.kills_per_soldier
    return Fight(attacker_losses=_pick(attacker, kills_by_defender, defender_targets),
                 defender_losses=_pick(defender, kills_by_attacker, attacker_targets))


def _pick(victims: np.ndarray, kills: int, policy: str) -> np.ndarray:
    losses = np.zeros(len(UNIT_TYPES), dtype=np.int64)
    for name in _order(policy):
        t = UNIT_TYPES.index(name)
        while kills > 0 and losses[t] < victims[t]:
            losses[t] += 1
            kills -= 1
    return losses


def fights(attacker, defender, rules: WarRules, militia=False, attacker_targets: str = "soldiers-first",
           defender_targets: str = "soldiers-first") -> Fight:
    """AOD-9.4 / AOD-9.6, bulk: arrays `(..., unit types)`, `militia` broadcast over `...`."""
    attacker = np.asarray(attacker, dtype=np.int64)
    defender = np.asarray(defender, dtype=np.int64)
    extra = np.where(np.asarray(militia, dtype=bool), rules.militia_soldiers, 0)
    kills_by_attacker = attacker[..., SOLDIER] * rules.kills_per_soldier
    kills_by_defender = (defender[..., SOLDIER] + extra) * rules.kills_per_soldier
    return Fight(attacker_losses=_allocate(attacker, kills_by_defender, defender_targets),
                 defender_losses=_allocate(defender, kills_by_attacker, attacker_targets))


def _allocate(victims: np.ndarray, kills: np.ndarray, policy: str) -> np.ndarray:
    """Spend `kills` on the victim types in policy order, each capped by the units present."""
    order = np.array([UNIT_TYPES.index(n) for n in _order(policy)])
    ranked = victims[..., order]
    before = np.cumsum(ranked, axis=-1) - ranked
    taken = np.clip(np.asarray(kills)[..., None] - before, 0, ranked)
    losses = np.empty_like(taken)
    losses[..., order] = taken
    return losses


def conflict(kind: str, attacker, defender, rules: WarRules, militia: bool = False,
             attacker_targets: str = "soldiers-first", defender_targets: str = "soldiers-first") -> Conflict:
    """AOD-9.2 / AOD-9.3 / AOD-18.25 / AOD-18.28: a battle in one region or a war in every region.

    `attacker`, `defender`: arrays (regions, unit types). A battle is one region (ASSUMED
    AOD-9.2: both players must be present). A war fights wherever both players have a unit and
    at least one of them has a real soldier (the Militia soldier does not count unless the
    option `rules.warfare.militia_counts_for_war` says so).
    """
    attacker = np.atleast_2d(np.asarray(attacker, dtype=np.int64))
    defender = np.atleast_2d(np.asarray(defender, dtype=np.int64))
    if attacker.shape != defender.shape or attacker.shape[-1] != len(UNIT_TYPES):
        raise UserError(f"warfare: attacker and defender need the same regions and {len(UNIT_TYPES)} unit types")
    if np.any(attacker < 0) or np.any(defender < 0):
        raise UserError("warfare: unit counts must be >= 0")
    if kind not in ("battle", "war"):
        raise one_of("conflict kind", kind, ("battle", "war"))
    if kind == "battle" and attacker.shape[0] != 1:
        raise UserError(f"a battle is fought in one region; {attacker.shape[0]} were given (use war)")
    fought = np.array([fights_here(kind, a, d, rules, militia) for a, d in zip(attacker, defender)], dtype=bool)
    cost = rules.battle_cost if kind == "battle" else rules.war_cost
    result = fights(attacker, defender, rules, militia & fought, attacker_targets, defender_targets)
    mask = fought[:, None]
    return Conflict(kind=kind, cost=cost, fought=fought,
                    fight=Fight(np.where(mask, result.attacker_losses, 0), np.where(mask, result.defender_losses, 0)))


def fights_here(kind: str, attacker, defender, rules: WarRules, militia: bool = False) -> bool:
    """AOD-9.2 / AOD-9.3 / AOD-18.25 / AOD-18.28: whether a battle or a war fights in one region,
    given both sides' units there (per unit type). A battle fights where both players are present
    (ASSUMED, AOD-9.2; anywhere under the option); a war wherever both are present and either has a
    real soldier (the Militia soldier counts only under `militia_counts_for_war`)."""
    both = sum(attacker) > 0 and sum(defender) > 0
    if kind == "battle":
        return both or not rules.battle_needs_both_present
    extra = rules.militia_soldiers if (militia and rules.militia_counts_for_war) else 0
    return both and (attacker[SOLDIER] > 0 or defender[SOLDIER] + extra > 0)


def kill_counts(attacker, defender, rules: WarRules, militia: bool = False) -> tuple[int, int]:
    """AOD-9.4 / AOD-9.6: the kills the attacker's and the defender's soldiers make in one fight
    (the Militia owner defends with a temporary soldier), each capped by the enemy units present."""
    by_attacker = int(attacker[SOLDIER]) * rules.kills_per_soldier
    by_defender = (int(defender[SOLDIER]) + (rules.militia_soldiers if militia else 0)) * rules.kills_per_soldier
    return min(by_attacker, int(sum(defender))), min(by_defender, int(sum(attacker)))


def _order(policy: str) -> tuple[str, ...]:
    if policy not in TARGETS:
        raise one_of("victim policy", policy, TARGETS)
    return TARGETS[policy]
