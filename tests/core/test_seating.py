"""Side-bound strategies take their side whatever their seat (sim.core.seating.bind_sides)."""

from hypothesis import given
from hypothesis import strategies as st

from sim.core.seating import Seating, bind_sides

SIDES = {"hammer": "british", "settler": "british", "raider": "french"}
POWERS = ("british", "french", "dutch")


def test_a_sides_strategy_plays_that_side_in_either_seat_order():
    for powers in (("british", "french"), ("french", "british")):
        bound = bind_sides(Seating(powers, ("raider", "hammer")), SIDES.get)
        assert bound.powers == ("french", "british")
        bound = bind_sides(Seating(powers, ("hammer", "random")), SIDES.get)
        assert bound.powers == ("british", "french")


def test_two_strategies_of_one_side_leave_the_second_on_the_other_side():
    assert bind_sides(Seating(("french", "british"), ("hammer", "settler")), SIDES.get).powers == ("british", "french")


@given(st.permutations(POWERS), st.lists(st.sampled_from(["hammer", "settler", "raider", "random"]), min_size=3, max_size=3))
def test_binding_keeps_the_powers_and_serves_every_bound_seat_whose_side_is_free(powers, strategies):
    seating = Seating(tuple(powers), tuple(strategies))
    bound = bind_sides(seating, SIDES.get)
    assert sorted(bound.powers) == sorted(powers) and bound.strategies == seating.strategies
    for side in ("british", "french"):
        first = next((i for i, s in enumerate(strategies) if SIDES.get(s) == side), None)
        if first is not None:
            assert bound.powers[first] == side
    if not any(s in SIDES for s in strategies):
        assert bound == seating


def test_a_rotated_lineup_puts_each_strategy_in_every_seat_once_per_turn():
    from sim.core.seating import rotated

    powers, lineup = ("a", "b", "c"), ("x", "y", "z", "w")
    games = [rotated(powers, lineup, g) for g in range(len(lineup))]
    assert games[0].strategies == ("x", "y", "z") and games[1].strategies == ("y", "z", "w")
    for seat in range(len(powers)):
        assert sorted(s.strategies[seat] for s in games) == sorted(lineup)
    assert all(s.powers == powers for s in games)
