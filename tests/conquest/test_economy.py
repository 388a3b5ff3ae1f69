"""Prices and inflation (COE-20.2, COE-21, COE-A11, COE-A12, Example COE-E10)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.conquest.components import default_components, load_components
from sim.conquest.economy import (Reading, buys_at_old_prices, load_economy, multiplier_in_force, price_list,
                                  triggers, turn_multipliers)
from sim.core.data import DataError
from sim.core.errors import UserError

ECONOMY = load_economy(default_components())
RULES = ECONOMY.inflation
E10_ORDER = ("macedonia", "egypt", "hispania")  # COE-E10: 3 players, Macedonia -> Egypt -> Hispania


def turn(round_no: int, player: str) -> int:
    """Index of `player`'s turn in round `round_no` (rounds from 1) in COE-E10's order."""
    return (round_no - 1) * len(E10_ORDER) + E10_ORDER.index(player)


def schedule(rounds: int) -> list[str]:
    return [p for _ in range(rounds) for p in E10_ORDER]


def mult(mults: list[int], round_no: int, player: str) -> int:
    return mults[turn(round_no, player)]


def e10_readings(egypt_phase: int) -> list[Reading]:
    """COE-E10's incomes: Egypt 100 -> 110 in round 5, later down to 95 and back over 105;
    Macedonia 200 -> 205 by a new City in its round-8 phase 6."""
    return [
        Reading(turn(5, "egypt"), 2, "egypt", 100),
        Reading(turn(5, "egypt"), egypt_phase, "egypt", 110),
        Reading(turn(6, "egypt"), 2, "egypt", 95),
        Reading(turn(7, "macedonia"), 2, "macedonia", 200),
        Reading(turn(7, "egypt"), 2, "egypt", 110),
        Reading(turn(8, "macedonia"), 6, "macedonia", 205),
    ]


def test_coe_20_2_price_list():
    """COE-20.2: base prices of every item, x2 after the first inflation, x3 of base after the second."""
    printed = {"infantry": (10, 20, 30), "cavalry": (20, 40, 60), "galley": (20, 40, 60),
               "catapult": (30, 60, 90), "fortified_city": (50, 100, 150), "city": (30, 60, 90),
               "fortification": (20, 40, 60), "road": (10, 20, 30)}
    assert list(ECONOMY.base) == list(printed)
    for level in range(3):
        listed = price_list(ECONOMY, RULES.multiplier(level))
        assert {k: v[level] for k, v in printed.items()} == listed


def test_coe_2_4_shared_pools():
    assert ECONOMY.pools == {"city": 16, "fortification": 16, "road": 20}


def test_example_coe_e10_inflation_timing():
    """COE-E10, every statement of the main line (default COE-A12)."""
    mults = turn_multipliers(schedule(10), e10_readings(egypt_phase=2), RULES)
    first, second = triggers(schedule(10), e10_readings(egypt_phase=2), RULES)
    # Round 5, Egypt's phase 2: first inflation triggered by Egypt.
    assert (first.level, first.reading.player, first.reading.turn) == (1, "egypt", turn(5, "egypt"))
    # Multiplier x1 before, Egypt's own phase 5 this turn x1, Hispania round 5 x1, Macedonia round 6 x1.
    assert all(m == 1 for m in mults[:turn(6, "egypt")])
    assert mult(mults, 5, "egypt") == mult(mults, 5, "hispania") == mult(mults, 6, "macedonia") == 1
    # Egypt round 6 and every later turn of every player: x2 (infantry 20, fortified city 100) ...
    assert first.effective_turn == turn(6, "egypt")
    assert all(m == 2 for m in mults[turn(6, "egypt"):turn(9, "macedonia")])
    x2 = price_list(ECONOMY, mult(mults, 6, "egypt"))
    assert (x2["infantry"], x2["fortified_city"]) == (20, 100)
    # ... Egypt's income falls to 95: prices stay x2; 105 never triggers again (Egypt is back at 110).
    assert [t.level for t in triggers(schedule(10), e10_readings(egypt_phase=2), RULES)] == [1, 2]
    assert mult(mults, 7, "egypt") == 2
    # Round 8, Macedonia phase 6: second inflation triggered by Macedonia (200 -> 205).
    assert (second.level, second.reading.player, second.reading.phase) == (2, "macedonia", 6)
    # Macedonia already bought this turn at x2; Egypt and Hispania round 8: x2.
    assert mult(mults, 8, "macedonia") == mult(mults, 8, "egypt") == mult(mults, 8, "hispania") == 2
    # From Macedonia's round-9 turn on: x3 of base (infantry 30, catapult 90, road 30).
    assert second.effective_turn == turn(9, "macedonia")
    assert all(m == 3 for m in mults[turn(9, "macedonia"):])
    x3 = price_list(ECONOMY, mult(mults, 9, "macedonia"))
    assert (x3["infantry"], x3["catapult"], x3["road"]) == (30, 90, 30)
    # COE-21.1: everyone still buys once at the old prices, beginning with the trigger player.
    assert buys_at_old_prices(schedule(10), e10_readings(2), RULES, 1) == dict.fromkeys(E10_ORDER, 1)
    # The second inflation came in Macedonia's phase 6: Macedonia gets no further x2 buy.
    assert buys_at_old_prices(schedule(10), e10_readings(2), RULES, 2) == {"macedonia": 0, "egypt": 1,
                                                                            "hispania": 1}


def test_example_coe_e10_variant_city_in_phase_6():
    """COE-E10 variant: Egypt reaches 105 only in its phase 6 (a City): Egypt's very next turn is
    already x2 while Hispania and Macedonia still buy once at x1 (COE-I11)."""
    mults = turn_multipliers(schedule(10), e10_readings(egypt_phase=6), RULES)
    assert mult(mults, 6, "egypt") == 2
    assert mult(mults, 5, "hispania") == mult(mults, 6, "macedonia") == 1
    assert buys_at_old_prices(schedule(10), e10_readings(6), RULES, 1) == {"macedonia": 1, "egypt": 0,
                                                                           "hispania": 1}


def test_coe_a12_both_thresholds_in_one_event_go_straight_to_x3():
    order = schedule(3)
    mults = turn_multipliers(order, [Reading(turn(1, "egypt"), 2, "egypt", RULES.thresholds[-1] + 5)], RULES)
    assert 2 not in mults and mults[turn(2, "egypt")] == 3 and mults[turn(2, "macedonia")] == 1


def test_coe_a12_multiplier_never_goes_down_when_the_second_takes_effect_first():
    """Macedonia triggers the first inflation, Egypt (during Macedonia's turn) the second one; Egypt's
    next turn comes first, so x3 applies from then and Macedonia's x2 changes nothing."""
    order = schedule(3)
    readings = [Reading(turn(1, "macedonia"), 2, "macedonia", 105),
                Reading(turn(1, "macedonia"), 2, "egypt", 205)]
    assert turn_multipliers(order, readings, RULES) == [1, 3, 3, 3, 3, 3, 3, 3, 3]


def test_coe_a11_threshold_is_inclusive_and_measure_is_income():
    order = schedule(2)
    below = [Reading(0, 2, "macedonia", RULES.thresholds[0] - 5)]
    assert turn_multipliers(order, below, RULES) == [1] * 6
    treasury = [Reading(0, 3, "macedonia", 500, measure="treasury")]
    assert turn_multipliers(order, treasury, RULES) == [1] * 6  # the treasury is not the tax track


def test_coe_a11_treasury_reading_as_an_option():
    rules = load_economy(load_components(["economy.inflation.inflation_measure=treasury"])).inflation
    readings = [Reading(0, 2, "macedonia", 300), Reading(0, 3, "macedonia", 110, measure="treasury")]
    assert turn_multipliers(schedule(2), readings, rules) == [1, 1, 1, 2, 2, 2]


def test_an_eliminated_trigger_player_has_no_next_turn():
    order = ["macedonia", "egypt", "hispania", "macedonia", "hispania"]  # Egypt eliminated in round 1
    (t,) = triggers(order, [Reading(1, 2, "egypt", 110)], RULES)
    assert t.effective_turn is None and turn_multipliers(order, [Reading(1, 2, "egypt", 110)], RULES) == [1] * 5


@pytest.mark.parametrize("override, message", [
    ("economy.inflation.inflation_measure=taxes", "choose one of"),
    ("economy.inflation.inflation_thresholds=[205, 105]", "strictly increasing"),
    ("economy.inflation.inflation_multipliers=[2]", "one multiplier per threshold"),
    ("economy.inflation.inflation_multipliers=[3, 2]", "never decrease"),
    ("economy.inflation.inflation_multipliers=[1, 3]", "never decrease"),
    ("economy.prices.road=-10", "out of range"),
])
def test_bad_inflation_data_names_the_path(override, message):
    with pytest.raises(DataError, match=message):
        load_economy(load_components([override]))


def test_readings_out_of_game_order_are_refused():
    with pytest.raises(UserError, match="game order"):
        triggers(schedule(2), [Reading(2, 2, "hispania", 50), Reading(1, 2, "egypt", 50)], RULES)
    with pytest.raises(UserError, match="phase 1..6"):
        triggers(schedule(2), [Reading(0, 7, "macedonia", 50)], RULES)


@st.composite
def histories(draw):
    players = draw(st.integers(2, 6))
    order = [p % players for p in range(players * draw(st.integers(1, 8)))]
    events = sorted(draw(st.lists(st.tuples(st.integers(0, len(order) - 1), st.integers(1, 6),
                                            st.integers(0, players - 1), st.integers(0, 300),
                                            st.sampled_from(["income", "treasury"])), max_size=25)),
                    key=lambda e: e[:2])
    return [str(p) for p in order], [Reading(t, ph, str(p), v, m) for t, ph, p, v, m in events]


@settings(max_examples=200, deadline=None)
@given(histories())
def test_multiplier_is_monotone_and_one_of_1_2_3(history):
    """COE-21.3 / COE-A12: the multiplier never decreases and is x1, x2 or x3 with the default data."""
    order, readings = history
    mults = turn_multipliers(order, readings, RULES)
    assert len(mults) == len(order)
    assert all(m in (1, 2, 3) for m in mults)
    assert all(a <= b for a, b in zip(mults, mults[1:]))
    fired = triggers(order, readings, RULES)
    assert [t.level for t in fired] == list(range(1, len(fired) + 1))  # each threshold at most once
    if not any(r.measure == "income" and r.value >= RULES.thresholds[0] for r in readings):
        assert set(mults) == {1}


@settings(max_examples=300, deadline=None)
@given(histories(), st.sampled_from([RULES, load_economy(load_components(
    ["economy.inflation.inflation_thresholds=[40, 60, 80]", "economy.inflation.inflation_multipliers=[2, 2, 4]"])).inflation]))
def test_multiplier_in_force_is_the_last_turn_s(history, rules):
    """COE-21 / COE-A12: the engine's multiplier of the turn is `turn_multipliers`' last, for every
    prefix of a game's history (a turn is asked as it comes)."""
    order, readings = history
    for n in range(1, len(order) + 1):
        seen = [r for r in readings if r.turn < n]
        assert multiplier_in_force(order[:n], seen, rules) == turn_multipliers(order[:n], seen, rules)[-1]


@settings(max_examples=200, deadline=None)
@given(histories())
def test_at_most_one_buy_at_old_prices_per_player_in_seat_order(history):
    """COE-21.1 / COE-A12: in seat order, between a trigger and its effect nobody buys twice at the
    old prices (the trigger player's next turn ends it); the trigger player himself buys once more
    only if the trigger came in his own turn before his buying phase (COE-I11)."""
    order, readings = history
    for t in triggers(order, readings, RULES):
        counts = buys_at_old_prices(order, readings, RULES, t.level)
        assert set(counts.values()) <= {0, 1}
        own_turn = order[t.reading.turn] == t.reading.player
        assert counts[t.reading.player] == int(own_turn and t.reading.phase < 5)


def run(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_cli_prices_json(capsys):
    code, out, _ = run(capsys, ["score", "conquest", "prices", "--multiplier", "2", "--json"])
    res = json.loads(out)
    assert code == 0 and res["multiplier"] == 2 and res["inflation"] == 1
    assert res["prices"]["fortified_city"] == {"base": 50, "price": 100}
    assert "economy.inflation.inflation_measure" in res["provenance"]["assumed"]
    code, out, _ = run(capsys, ["score", "conquest", "prices", "--inflation", "2", "--json"])
    assert json.loads(out)["prices"]["infantry"]["price"] == 30


def test_cli_prices_table(capsys):
    code, out, _ = run(capsys, ["score", "conquest", "prices"])
    assert code == 0 and "fortified city" in out and "road" in out


@pytest.mark.parametrize("args", [["--multiplier", "4"], ["--inflation", "3"], ["--inflation", "-1"],
                                  ["--inflation", "1", "--multiplier", "2"]])
def test_cli_prices_bad_input_is_one_line_exit_2(capsys, args):
    code, out, err = run(capsys, ["score", "conquest", "prices"] + args)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
