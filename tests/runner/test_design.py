"""The balanced design really is balanced, and blocks share their streams (CRN)."""

from collections import Counter

import pytest
from hypothesis import given, strategies as st

from sim.core.design import Design, balanced, canonical, fill_lineup, paired, period
from sim.core.errors import UserError

NAMES = ("a", "b", "c", "d", "e", "f", "g")


@st.composite
def requests(draw):
    powers = tuple(f"p{i}" for i in range(draw(st.integers(2, 7))))
    players = draw(st.integers(2, len(powers)))
    strategies = draw(st.lists(st.sampled_from(NAMES), min_size=1, max_size=players))
    return powers, players, strategies


def seat_counts(design: Design, attribute: str) -> Counter:
    return Counter((value, seat) for arm in design.arms for seat, value in enumerate(getattr(arm, attribute)))


@given(requests())
def test_every_strategy_plays_every_seat_and_power_equally_often_within_a_block(request):
    powers, players, strategies = request
    design = balanced(powers, players, strategies, NAMES, 2, 7)
    # strategy x seat: for each strategy the same count at every seat
    by_strategy = seat_counts(design, "strategies")
    for name in set(strategies):
        assert len({by_strategy[(name, s)] for s in range(players)}) == 1
    # power x seat: every power at every seat exactly (strategy rotations) times
    by_power = seat_counts(design, "powers")
    assert set(by_power.values()) == {design.block_size // len(powers)}
    assert len(by_power) == len(powers) * players
    # strategy x power crossed: each strategy meets every power equally often
    meets = Counter((st_, pw) for arm in design.arms for st_, pw in zip(arm.strategies, arm.powers))
    for name in set(strategies):
        assert len({meets[(name, p)] for p in powers}) == 1


@given(requests(), st.integers(0, 10_000))
def test_games_of_a_block_share_the_stream_key_and_differ_in_seating(request, game):
    powers, players, strategies = request
    design = balanced(powers, players, strategies, NAMES, 2, 7)
    first = design.block(game) * design.block_size
    block = range(first, first + design.block_size)
    assert {design.block(g) for g in block} == {design.block(game)}
    assert len({design.seating(g) for g in block}) == design.block_size  # no arm replays another
    assert design.whole_blocks(game + 1) % design.block_size == 0 and design.whole_blocks(game + 1) > game


@given(st.lists(st.sampled_from(NAMES[:3]), min_size=1, max_size=8))
def test_period_is_the_smallest_repeating_rotation(lineup):
    d = period(lineup)
    assert tuple(lineup[d:] + lineup[:d]) == tuple(lineup)
    assert all(tuple(lineup[k:] + lineup[:k]) != tuple(lineup) for k in range(1, d))
    assert canonical(lineup) == canonical(lineup[d % len(lineup):] + lineup[:d % len(lineup)])


@given(st.integers(2, 7), st.integers(0, 5))
def test_paired_design_mirrors_a_and_b_so_each_plays_every_seat_equally(players, extra_powers):
    powers = tuple(f"p{i}" for i in range(players + extra_powers))
    design = paired(powers, players, "A", "B")
    counts = seat_counts(design, "strategies")
    assert {counts[("A", s)] for s in range(players)} == {counts[("B", s)] for s in range(players)}
    assert len({counts[("A", s)] for s in range(players)}) == 1
    assert sum(arm.strategies.count("A") for arm in design.arms) == sum(arm.strategies.count("B") for arm in design.arms)


def test_lineup_fills_seats_and_refuses_more_strategies_than_seats():
    assert fill_lineup(["a", "b", "c"], 4) == ("a", "b", "c", "a")
    with pytest.raises(UserError, match="3 strategies for 2 seats"):
        fill_lineup(["a", "b", "c"], 2)


def test_bad_requests_are_user_errors():
    with pytest.raises(UserError, match="strategy: 'zz'"):
        balanced(("x", "y"), 2, ["zz"], NAMES, 2, 2)
    with pytest.raises(UserError, match="--players 5 is out of range"):
        balanced(("x", "y"), 5, ["a"], NAMES, 2, 4)


def test_design_round_trips_through_the_manifest_form():
    design = paired(("x", "y", "z"), 3, "a", "b")
    assert Design.from_dict(design.to_dict()) == design


def test_side_bound_strategies_take_their_side_and_a_block_plays_no_game_twice():
    """AFAoS: `hammer` plays British whatever its seat; the power rotation adds no new arm for it."""
    sides = {"hammer": "british", "raider": "french"}
    design = balanced(("british", "french"), 2, ("hammer", "raider"), ("hammer", "raider", "random"), 2, 2, sides)
    assert design.block_size == 2 and len(set(design.arms)) == 2
    assert all(dict(zip(a.strategies, a.powers)) == sides for a in design.arms)
    assert {a.strategies[0] for a in design.arms} == {"hammer", "raider"}
    assert Design.from_dict(design.to_dict()) == design
    free = balanced(("british", "french"), 2, ("hammer", "random"), ("hammer", "raider", "random"), 2, 2)
    assert free.block_size == 4                       # without sides: every rotation, as before
