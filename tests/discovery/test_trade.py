"""AOD-10 trade income: worked examples AOD-E9, AOD-E10, AOD-E23, AOD-E24 and an exhaustive
search on random holdings."""

import functools
import itertools
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, strategies as st

from sim.core.errors import UserError
from sim.discovery import trade
from sim.discovery.components import load_components

GOODS = load_components().goods
DISTINCT = replace(GOODS, sets=replace(GOODS.sets, any_three_requires_distinct=True))


def exhaustive(counts, ships, distinct=False):
    """The reference recursion of AOD-10.6, written independently: try every set that can be
    formed from the tokens left (every type for kind-sets, every combination for any-three)."""
    @functools.cache
    def best(cs, s):
        cs, top = list(cs), 0
        for t in range(len(cs)):
            for need, ship, value in ((4, 0, 6), (3, 1, 6), (3, 0, 3), (2, 1, 3)):
                if cs[t] >= need and s >= ship:
                    cs[t] -= need
                    top = max(top, value + best(tuple(cs), s - ship))
                    cs[t] += need
        present = [t for t in range(len(cs)) if cs[t]]
        for size, ship in ((3, 0), (2, 1)):
            if s < ship:
                continue
            for combo in itertools.combinations_with_replacement(present, size):
                if any(combo.count(t) > cs[t] for t in combo) or (distinct and len(set(combo)) < size):
                    continue
                for t in combo:
                    cs[t] -= 1
                top = max(top, 1 + best(tuple(cs), s - ship))
                for t in combo:
                    cs[t] += 1
        return top
    return best(tuple(int(c) for c in counts), int(ships))


def one(holding, ships, goods=GOODS):
    return trade.arrange_one(goods, holding, ships)


def check_groups(goods, holding, ships, income, groups):
    """Every set legal, no token used twice, values add up to the income."""
    used = dict.fromkeys(goods.names, 0)
    ships_used = 0
    for g in groups:
        real = [t for t in g.tokens if t != trade.SHIP]
        ship = len(g.tokens) - len(real)
        assert ship <= 1
        ships_used += ship
        for t in real:
            used[t] += 1
        if g.kind == "four_of_a_kind":
            assert len(g.tokens) == 4 and len(set(real)) == 1 and g.value == 6
        elif g.kind == "three_of_a_kind":
            assert len(g.tokens) == 3 and len(set(real)) == 1 and g.value == 3
        else:
            assert g.kind == "any_three" and len(g.tokens) == 3 and g.value == 1
            if goods.sets.any_three_requires_distinct:
                assert len(set(real)) == len(real)
    assert ships_used <= ships
    assert all(used[k] <= holding.get(k, 0) for k in used)
    assert sum(g.value for g in groups) == income


def test_example_aod_e9_set_values():
    assert one({"indigo": 1, "silver": 1, "tobacco": 1}, 0)[0] == 1
    assert one({"indigo": 2}, 1)[0] == 3
    assert one({"sugar": 4}, 0)[0] == 6


E10 = [
    ("gold_x5", {"gold": 5}, 0, 6),
    ("sugar_x3_ship", {"sugar": 3}, 1, 6),
    ("ships_only", {}, 3, 0),
    ("fur_x2_two_ships", {"fur": 2}, 2, 3),
    ("fur_fish_two_ships", {"fur": 1, "fish": 1}, 2, 1),
    ("gold4_silver2_cattle_ship", {"gold": 4, "silver": 2, "cattle": 1}, 1, 9),
    ("sugar_x6", {"sugar": 6}, 0, 6),
    ("gold2_silver2_fur2", {"gold": 2, "silver": 2, "fur": 2}, 0, 2),
    ("gold2_silver2_fur2_two_ships", {"gold": 2, "silver": 2, "fur": 2}, 2, 6),
    ("six_singles", {"gold": 1, "silver": 1, "fur": 1, "fish": 1, "rice": 1, "cocoa": 1}, 0, 2),
    ("gold3_silver3_ship", {"gold": 3, "silver": 3}, 1, 9),
]


@pytest.mark.parametrize("name, holding, ships, expected", E10, ids=[e[0] for e in E10])
def test_example_aod_e10_optimal_arrangement(name, holding, ships, expected):
    income, groups = one(holding, ships)
    assert income == expected
    check_groups(GOODS, holding, ships, income, groups)


def test_example_aod_e10_sugar_x7_and_x8_with_larger_stock():
    """Rows sugar x7 = $9 and sugar x8 = $12 need more sugar than the box holds (6): raise the
    stock with an override, as a what-if would."""
    goods = load_components(["goods.english.sugar=8"]).goods
    assert one({"sugar": 7}, 0, goods)[0] == 9
    assert one({"sugar": 8}, 0, goods)[0] == 12
    assert [g.kind for g in one({"sugar": 8}, 0, goods)[1]] == ["four_of_a_kind"] * 2


def test_example_aod_e10_any_three_variant_switch():
    assert one({"indigo": 2, "silver": 1}, 0)[0] == 1
    assert one({"indigo": 2, "silver": 1}, 0, DISTINCT)[0] == 0


def test_example_aod_e10_grouping_gold4_silver2():
    _, groups = one({"gold": 4, "silver": 2, "cattle": 1}, 1)
    assert sorted(g.tokens for g in groups) == [("gold",) * 4, ("silver", "silver", "ship")]


def test_example_aod_e23_sets_part():
    """P's sets: 3 sugar ($3) + {gold, silver, fur} ($1) = $4 under both any-three readings."""
    holding = {"gold": 2, "silver": 1, "fur": 1, "sugar": 3}
    assert one(holding, 0)[0] == 4
    assert one(holding, 0, DISTINCT)[0] == 4


def test_example_aod_e24_economy():
    """Round-8 goods {sugar x4, gold, silver, fur} + 1 ship: economy 7 VP."""
    income, groups = one({"sugar": 4, "gold": 1, "silver": 1, "fur": 1}, 1)
    assert income == 7
    check_groups(GOODS, {"sugar": 4, "gold": 1, "silver": 1, "fur": 1}, 1, income, groups)


holdings = st.dictionaries(st.sampled_from(GOODS.names), st.integers(1, 6), max_size=5)


@given(holdings, st.integers(0, 4), st.booleans())
def test_optimum_matches_exhaustive_search(holding, ships, distinct):
    goods = DISTINCT if distinct else GOODS
    holding = {k: min(v, goods.stock[goods.index(k)]) for k, v in holding.items()}
    counts = [holding.get(name, 0) for name in goods.names]
    income, groups = trade.arrange_one(goods, holding, ships)
    assert income == exhaustive(counts, ships, distinct)
    check_groups(goods, holding, ships, income, groups)


def test_batch_equals_one_by_one_and_direct_solver(monkeypatch):
    rng = np.random.default_rng(7)
    counts = np.minimum(rng.integers(0, 7, (400, len(GOODS.names))), GOODS.stock)
    ships = rng.integers(0, GOODS.ships + 1, 400)
    batch = trade.arrange(GOODS, counts, ships)
    assert np.array_equal(trade.income(GOODS, counts, ships), batch.income)
    assert all(batch.income[i] == trade.arrange(GOODS, counts[i], ships[i]).income[0] for i in range(0, 400, 37))
    monkeypatch.setattr(trade, "TABLE_LIMIT", 0)
    trade._solver.cache_clear()
    try:
        direct = trade.arrange(GOODS, counts, ships)
        assert np.array_equal(trade.income(GOODS, counts, ships), batch.income)
    finally:
        trade._solver.cache_clear()
    assert np.array_equal(batch.income, direct.income)
    for i in range(0, 400, 23):
        holding = dict(zip(GOODS.names, counts[i].tolist()))
        check_groups(GOODS, holding, int(ships[i]), int(batch.income[i]), batch.groups(i))


def test_income_is_monotone_in_goods_and_ships():
    rng = np.random.default_rng(11)
    counts = np.minimum(rng.integers(0, 5, (300, len(GOODS.names))), np.array(GOODS.stock) - 1)
    ships = rng.integers(0, GOODS.ships, 300)
    base = trade.income(GOODS, counts, ships)
    assert np.all(trade.income(GOODS, counts, ships + 1) >= base)
    bump = counts.copy()
    bump[:, 0] += 1
    assert np.all(trade.income(GOODS, bump, ships) >= base)


@pytest.mark.parametrize("counts, ships, message", [
    ([[-1] + [0] * 10], [0], "count -1"),
    ([[7] + [0] * 10], [0], "allowed 0..5"),
    ([[0] * 10], [0], "expected 11 counts"),
    ([[0] * 11], [9], "allowed 0..8"),
])
def test_bad_holdings_are_user_errors(counts, ships, message):
    with pytest.raises(UserError, match=message):
        trade.arrange(GOODS, counts, ships)


def test_unknown_good_is_a_user_error():
    with pytest.raises(UserError, match="spice"):
        one({"spice": 1}, 0)


def test_sets_override_that_breaks_the_optimiser_is_refused():
    goods = load_components(["goods.sets.any_three=2"]).goods
    with pytest.raises(UserError, match="three_of_a_kind"):
        trade.income(goods, [[0] * 11], [0])


@given(st.lists(holdings, min_size=1, max_size=6), st.integers(0, 4), st.booleans())
def test_cached_incomes_equal_the_kernel_aod_10_6(batch, ships, distinct):
    """`incomes_of` (the players' cache, keyed by the sorted count vector) gives what `income`
    gives for every holding, on a cold and on a warm cache, in each rules configuration."""
    goods = DISTINCT if distinct else GOODS
    rows = [tuple(min(h.get(name, 0), goods.stock[t]) for t, name in enumerate(goods.names)) for h in batch]
    expected = trade.income(goods, np.array(rows), np.full(len(rows), ships)).tolist()
    trade._INCOMES.pop(goods, None)
    assert trade.incomes_of(goods, rows, ships) == expected
    assert trade.incomes_of(goods, rows[::-1], ships) == expected[::-1]


def test_cached_incomes_check_unseen_holdings_against_the_stock():
    trade._INCOMES.pop(GOODS, None)
    with pytest.raises(UserError, match="allowed 0..5"):
        trade.incomes_of(GOODS, [(7,) + (0,) * 10], 0)
