"""AOD-8 expedition odds: worked examples AOD-E14..E16, exact counting, bulk agreement."""

from collections import Counter
from fractions import Fraction

import pytest
from hypothesis import given, strategies as st

from sim.core.errors import UserError
from sim.core.stats import binomial_se
from sim.discovery.components import load_components
from sim.discovery.discovery import (card_pool, expedition_mc, expedition_odds, party_strength,
                                     token_pool)

C = load_components()


def test_example_aod_e14_successful_expedition():
    strength, soldiers = party_strength({"captain": 1, "soldier": 1, "colonist": 1}, C.units)
    assert (strength, soldiers) == (4, 1)
    odds = expedition_odds(token_pool(C, C.region("canada"), known="T12"), strength, soldiers)
    assert odds.p_success == 1
    assert odds.money_pmf == {7: 1}        # $3 + 1 x $4
    assert odds.expected_vp == 6 and odds.expected_colonists == 1


def test_example_aod_e15_failed_expedition():
    strength, soldiers = party_strength({"captain": 1, "colonist": 1}, C.units)
    odds = expedition_odds(token_pool(C, known="T15"), strength, soldiers)
    assert strength == 3 and odds.p_success == 0
    assert odds.money_pmf == {0: 1} and odds.expected_colonists == 0


def test_example_aod_e16_discovery_card():
    strength, soldiers = party_strength({"captain": 2, "soldier": 2}, C.units)
    india = [card for card in C.cards if card.name == "India"]
    odds = expedition_odds(india, strength, soldiers, colonist=False)
    assert strength == 6 and odds.p_success == 1
    assert odds.expected_money == 12 and odds.expected_vp == 6 and odds.expected_colonists == 0
    assert expedition_odds(india, 5, 2, colonist=False).p_success == 0   # variant: strength 5 fails


def test_token_data_matches_derived_statistics():
    """AOD-15.1 derived: natives 1 x2, 2 x3, 3 x6, 4 x3, 5 x2 (mean 3.0); VP 4/4/5/6/7."""
    assert Counter(t.natives for t in C.tokens) == {1: 2, 2: 3, 3: 6, 4: 3, 5: 2}
    assert {t.natives: t.vp for t in C.tokens} == {1: 4, 2: 4, 3: 5, 4: 6, 5: 7}


@pytest.mark.parametrize("strength, expected", [(0, 0), (1, Fraction(2, 16)), (2, Fraction(5, 16)),
                                                (3, Fraction(11, 16)), (4, Fraction(14, 16)), (5, 1)])
def test_unknown_token_success_counts_tokens(strength, expected):
    assert expedition_odds(token_pool(C), strength).p_success == expected


def test_seen_tokens_leave_the_pool():
    """Tokens taken elsewhere are out: with T01, T02 (natives 1) gone, strength 1 never wins."""
    rest = [t.id for t in C.tokens if t.id not in ("T01", "T02")]
    odds = expedition_odds(token_pool(C, C.region("peru"), rest), 1)
    assert odds.p_success == 0 and len(odds.pool) == 14


def test_expected_money_counts_soldier_loot():
    odds = expedition_odds(token_pool(C), 5, 2)
    assert odds.expected_money == Fraction(sum(t.loot + 2 * t.per_soldier for t in C.tokens), 16)
    assert sum(odds.money_pmf.values()) == 1


@pytest.mark.parametrize("cards, strength, soldiers", [(False, 3, 1), (True, 4, 2), (False, 2, 0)])
def test_bulk_agrees_with_exact_within_4_se(cards, strength, soldiers):
    pool = card_pool(C) if cards else token_pool(C)
    exact = expedition_odds(pool, strength, soldiers, colonist=not cards)
    n = 200_000
    mc = expedition_mc(pool, strength, soldiers, n, seed=20261130)
    p = float(exact.p_success)
    assert abs(mc["success"]["estimate"] - p) <= 4 * binomial_se(p, n)
    assert abs(mc["money"]["estimate"] - float(exact.expected_money)) <= 4 * mc["money"]["se"]


def test_bulk_same_seed_same_numbers():
    pool = token_pool(C)
    assert expedition_mc(pool, 3, 0, 70_000, 5) == expedition_mc(pool, 3, 0, 70_000, 5)


@given(st.sets(st.sampled_from([t.id for t in C.tokens]), min_size=1), st.integers(0, 6))
def test_odds_are_a_distribution_and_monotone(ids, strength):
    pool = token_pool(C, unrevealed=sorted(ids))
    odds = expedition_odds(pool, strength)
    assert sum(odds.money_pmf.values()) == 1 and sum(odds.natives_pmf.values()) == 1
    assert expedition_odds(pool, strength + 1).p_success >= odds.p_success


@pytest.mark.parametrize("call, message", [
    (lambda: token_pool(C, C.region("caribbean")), "already discovered"),
    (lambda: token_pool(C, unrevealed=["T01", "T01"]), "named twice"),
    (lambda: token_pool(C, unrevealed=["T17"]), "T17"),
    (lambda: card_pool(C, ["T01"]), "discovery card"),
    (lambda: expedition_odds(token_pool(C), 2, 3), "exceed"),
    (lambda: expedition_odds((), 2), "empty"),
    (lambda: party_strength({"admiral": 1}, C.units), "admiral"),
])
def test_bad_expeditions_are_user_errors(call, message):
    with pytest.raises(UserError, match=message):
        call()
