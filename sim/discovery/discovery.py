"""AOD-8: the odds of an expedition against a region's face-down token or the discovery deck.

AOD-3.4 / AOD-19.6: the 16 tokens are shuffled, 8 go face down on the regions other than the
Caribbean and 8 stay out of play unseen. A player who has seen some tokens (taken by a
successful expedition, or shown by a failed one, AOD-8.4) knows only that every unseen token is
equally likely to lie under any face-down region whose token he has not seen -- so the odds are
exact by counting over the unseen tokens. A token shown by a failed expedition is known: the
odds against that region are 0 or 1. AOD-8.7: the deck is shuffled and a failed card is
shuffled back, so the top card is uniform over the cards still in the deck.

The bulk counterpart (`expedition_mc`) shuffles the unseen tokens over their slots (the region,
the other unknown regions, the out-of-play pile) and reads the region's slot; it exists to
cross-check the counting argument.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from sim.core.errors import UserError, one_of
from sim.core.montecarlo import run_blocks
from sim.core.stats import Z95, proportion
from sim.discovery.components import Components, Discovery, Region, UnitType


@dataclass(frozen=True)
class ExpeditionOdds:
    """Exact odds of one expedition: the hidden token/card is uniform over `pool`."""

    strength: int
    soldiers: int
    colonist: bool
    pool: tuple[Discovery, ...]
    p_success: Fraction
    expected_money: Fraction
    expected_vp: Fraction
    money_pmf: dict[int, Fraction]
    natives_pmf: dict[int, Fraction]

    @property
    def expected_colonists(self) -> Fraction:
        """AOD-8.3.1: one free colonist on a successful token expedition (none for cards)."""
        return self.p_success if self.colonist else Fraction(0)


def party_strength(party: Mapping[str, int], units: Mapping[str, UnitType]) -> tuple[int, int]:
    """AOD-8.2: (strength, soldiers) of a party given as {unit type: count}; captains count 2."""
    for name, count in party.items():
        if name not in units:
            raise one_of("unit type", name, units)
        if count < 0:
            raise UserError(f"party: {name}={count} is negative; counts must be >= 0")
    strength = sum(units[name].discovery * count for name, count in party.items())
    soldiers = sum(count for name, count in party.items() if units[name].fights)
    return strength, soldiers


def expedition_odds(pool: Sequence[Discovery], strength: int, soldiers: int = 0,
                    colonist: bool = True) -> ExpeditionOdds:
    """AOD-8.3 / AOD-8.4 / AOD-8.9: success iff strength >= natives; on success the loot plus
    loot per soldier sent, the item's VP and (tokens only) a free colonist; nothing on failure."""
    p_success, expected_money, expected_vp = expedition_means(pool, strength, soldiers)
    p = Fraction(1, len(pool))
    money: dict[int, Fraction] = {}
    natives: dict[int, Fraction] = {}
    for d in pool:
        gain = d.reward(soldiers) if strength >= d.natives else 0
        money[gain] = money.get(gain, Fraction(0)) + p
        natives[d.natives] = natives.get(d.natives, Fraction(0)) + p
    return ExpeditionOdds(
        strength=strength, soldiers=soldiers, colonist=colonist, pool=tuple(pool),
        p_success=p_success, expected_money=expected_money, expected_vp=expected_vp,
        money_pmf=dict(sorted(money.items())), natives_pmf=dict(sorted(natives.items())))


def expedition_means(pool: Sequence[Discovery], strength: int, soldiers: int = 0) -> tuple[Fraction, Fraction, Fraction]:
    """AOD-8.3: the exact success probability, expected money and expected VP of an expedition
    whose hidden item is uniform over `pool` (the part of `expedition_odds` a player weighs)."""
    _check_party(strength, soldiers)
    if not pool:
        raise UserError("the pool of hidden tokens/cards is empty; name at least one")
    won = [d for d in pool if strength >= d.natives]
    n = len(pool)
    return (Fraction(len(won), n), Fraction(sum(d.reward(soldiers) for d in won), n),
            Fraction(sum(d.vp for d in won), n))


def token_pool(c: Components, region: Region | None = None, unrevealed: Iterable[str] | None = None,
               known: str | None = None) -> tuple[Discovery, ...]:
    """AOD-3.4 / AOD-8.4 / AOD-19.6: the tokens that may lie under a face-down region.

    `unrevealed`: ids of the tokens nobody has seen (default all 16). `known`: the region's
    token was shown by an earlier failed expedition, so it is certain.
    """
    if region is not None and region.discovered:
        raise one_of("region (already discovered, no token)", region.id,
                     [r.id for r in c.regions if not r.discovered])
    if known is not None:
        return (c.discovery(known),)
    return _pool(c, unrevealed, cards=False)


def card_pool(c: Components, deck: Iterable[str] | None = None) -> tuple[Discovery, ...]:
    """AOD-8.7: the cards still in the deck (default all 16); the top card is uniform over them."""
    return _pool(c, deck, cards=True)


def expedition_mc(pool: Sequence[Discovery], strength: int, soldiers: int, n: int, seed: int) -> dict:
    """Bulk check of `expedition_odds` (AOD-3.4): shuffle the unseen tokens over the unseen
    slots -- this region, the other unknown regions, the out-of-play pile; as many slots as
    tokens -- and read this region's slot. Returns success and mean money with n and 95 %
    intervals."""
    _check_party(strength, soldiers)
    u = len(pool)
    if u == 0:
        raise UserError("the pool of hidden tokens/cards is empty; name at least one")

    def kernel(rng: np.random.Generator, size: int) -> dict[str, np.ndarray]:
        order = rng.permuted(np.broadcast_to(np.arange(u, dtype=np.int8), (size, u)), axis=1)
        return {"item": np.bincount(order[:, 0], minlength=u)}

    counts = run_blocks(kernel, n, seed, "discovery.expedition")["item"]
    win = np.array([strength >= d.natives for d in pool])
    gain = np.array([d.reward(soldiers) if w else 0 for d, w in zip(pool, win)], dtype=float)
    mean = float(counts @ gain / n)
    se = float(np.sqrt(max(counts @ gain ** 2 / n - mean ** 2, 0.0) / n))
    return {"success": proportion(int(counts[win].sum()), n),
            "money": {"estimate": mean, "n": n, "se": se, "ci95": [mean - Z95 * se, mean + Z95 * se]}}


def _pool(c: Components, ids: Iterable[str] | None, cards: bool) -> tuple[Discovery, ...]:
    items = c.cards if cards else c.tokens
    if ids is None:
        return items
    chosen = [c.discovery(i, cards=cards) for i in ids]
    if len({d.id for d in chosen}) != len(chosen):
        dup = next(d.id for d in chosen if sum(e.id == d.id for e in chosen) > 1)
        raise UserError(f"{'card' if cards else 'token'} {dup} is named twice; name each once")
    return tuple(chosen)


def _check_party(strength: int, soldiers: int) -> None:
    if strength < 0 or soldiers < 0:
        raise UserError(f"party strength {strength} / soldiers {soldiers}: both must be >= 0")
    if soldiers > strength:
        raise UserError(f"party: {soldiers} soldiers exceed the party strength {strength} "
                        f"(each soldier adds 1 to the strength, AOD-8.2)")
