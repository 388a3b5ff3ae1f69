"""The player audit hooks of Conquest of the Empire (sim.conquest.audit, docs/player_audit.md):
each scripted attack's logged forecast (COE-11.6) is paired with the battle it starts (COE-16),
every purchasable piece (COE-20) and move kind is an audit item, idle buying phases count
(a phase with nothing to buy is not idle), and so do the units no leader can lead (COE-5.2,
COE-11.1) at the start of each turn and the units led straight back (COE-11)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from sim.conquest.actions import Buy
from sim.conquest.audit import LED_BACK, LEFT_CAPTIVE, audit_items, audit_records
from sim.conquest.play import INFO, load_data, play_games
from sim.conquest.purchase import ASSETS
from sim.core.replay import read_games
from sim.core.seating import Seating
from tests.conquest.engine_setup import clear, engine, leader, units
from tests.conquest.engine_setup import events as logged

GAMES = 8


def logged_games(lineup: tuple[str, ...]) -> list[tuple[dict, list[dict]]]:
    seatings = [Seating(INFO.powers[:len(lineup)], lineup[i % len(lineup):] + lineup[:i % len(lineup)])
                for i in range(GAMES)]
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "games.jsonl"
        play_games(5, list(range(GAMES)), seatings, log=log)
        return list(read_games(log))


def test_coe_11_6_every_forecast_pairs_a_scripted_step_with_its_land_battle():
    games = logged_games(INFO.lineup)
    data = load_data()
    n_forecasts = 0
    for head, events in games:
        rec = audit_records(head, events)
        battles = sum(e["event"] == "battle" and e["kind"] == "land" for e in events)
        assert len(rec.forecasts) <= battles
        for f in rec.forecasts:
            assert f.strategy in INFO.lineup and f.kind == "attack"
            assert data.get(f"strategies.{f.strategy}.min_win") <= f.predicted <= 1.0   # attacks at the threshold
        n_forecasts += len(rec.forecasts)
    assert n_forecasts > 0


def test_coe_20_random_players_forecast_nothing_and_every_choice_is_an_item():
    items = set(audit_items(load_data()))
    assert {f"buy:{a}" for a in ASSETS} <= items
    for head, events in logged_games(("random", "random", "random")):
        rec = audit_records(head, events)
        assert not rec.forecasts
        assert {item for _, _, item in rec.chosen} <= items
        phases = sum(e["event"] == "tax" for e in events)                 # one buying phase a taxed turn
        assert {kind for _, kind, _ in rec.actions} <= {"buy", "pass", "none"} and len(rec.actions) == phases


@pytest.mark.parametrize(("talents", "on_board", "buys", "offered", "kind"), [
    (0, (20, 20, 6), [], [], "none"),               # supply out, 15 talents: nothing else affordable
    (10, (20, 20, 6), [], ["galley"], "pass"),      # supply out, 25 talents: a galley left unbought
    (0, (5, 0, 0), [], ["infantry"], "pass"),
    (0, (5, 0, 0), ["infantry"], None, "buy"),
])
def test_coe_2_3_coe_20_a_phase_is_idle_only_if_something_could_be_bought(talents, on_board, buys, offered, kind):
    """COE-2.3 / COE-20: with every unit of its colour on the board and 15 talents after taxes
    (an infantry's price) a seat can buy nothing, so its phase is not idle; with 25 it could buy a
    galley; with units in supply it could buy them."""
    probe = engine(2, log=False)
    home = int(probe.s.home[0, 0])
    e = engine(2, {0: {"buys": [Buy(item, home) for item in buys]}})
    units(e, 0, e.t.names[home], on_board)
    e.s.treasury[0, 0] = talents
    e.pos[0] = 0
    e.play_turn(0)
    assert logged(e, "tax")[0]["treasury"] == talents + 15 >= e.prices(0)["infantry"]
    assert [x["offered"] for x in logged(e, "no_purchase")] == ([] if offered is None else [offered])
    ((head, log),) = e.game_logs()
    assert audit_records(head, log).actions == [("random", kind, False)]


def test_coe_5_2_coe_11_1_units_beyond_seven_per_leader_are_logged_as_unled():
    """The home holds 20 infantry with the Caesar and a General (14 led: 6 unled), a province 3
    infantry with no leader (3 unled), a third 2 cavalry with a General (none unled)."""
    e = engine(2)
    home = e.t.names[int(e.s.home[0, 0])]
    clear(e, 0)
    units(e, 0, home, (20, 0, 0))
    leader(e, 0, 1, home)
    away, third = (e.t.names[q] for q in e.t.steps[int(e.s.home[0, 0])][:2])
    units(e, 0, away, (3, 0, 0))
    units(e, 0, third, (0, 2, 0))
    leader(e, 0, 2, third)
    assert e.unled(0, 0) == (25, 9)
    e.pos[0] = 0
    e.play_turn(0)
    turn = logged(e, "turn")[0]
    assert (turn["units"], turn["unled"]) == (25, 9)
    ((head, log),) = e.game_logs()
    assert [u for u in audit_records(head, log).unused if u[1] == "unled units"] == [
        ("random", "unled units", 9, 25)]


def test_coe_11_units_led_back_along_a_move_made_earlier_that_turn_are_counted_but_not_out_of_home():
    """General 1 steps out of Italia with 2 infantry and 1 cavalry and back with the 2 infantry
    (2 led back); General 2 takes 1 infantry from Raetia to Gallia and General 3 takes 1 cavalry
    back by road (other units: none led back, whichever leader leads); out of the home
    (Macedonia) units brought in and units waiting are alike, so leading them out is not counted;
    each turn is its own record."""
    def move(kind, leaders, src, dst, units):
        return {"event": "move", "kind": kind, "leaders": leaders, "src": src, "dst": dst, "units": units}
    events = [{"event": "setup", "homes": ["macedonia", "syria"]}, {"event": "turn", "seat": 0},
              move("step", [1], "italia", "dalmatia", [2, 1, 0]), move("step", [1], "dalmatia", "italia", [2, 0, 0]),
              move("step", [2], "raetia", "gallia", [1, 0, 0]), move("road", [3], "gallia", "raetia", [0, 1, 0]),
              move("step", [4], "thracia", "macedonia", [3, 0, 0]), move("step", [4], "macedonia", "thracia", [3, 0, 0]),
              {"event": "turn", "seat": 1}, move("step", [6], "syria", "armenia", [0, 3, 0]),
              move("step", [7], "armenia", "syria", [0, 3, 0]), {"event": "end"}]
    rec = audit_records({"strategies": ["hunter", "fortifier"]}, events)
    assert rec.unused == [("hunter", LED_BACK, 2, 13), ("fortifier", LED_BACK, 3, 6)]


def test_coe_23_each_refused_ransom_offer_is_a_general_left_captive_of_the_offers_made():
    """Seat 0 (expansionist) bids twice, refused then accepted; seat 1 (hunter) once, refused."""
    def ransom(seat, accepted):
        return {"event": "ransom", "seat": seat, "leader": 1, "captor": 1 - seat, "talents": 20, "accepted": accepted}
    events = [{"event": "turn", "seat": 0}, ransom(0, False), {"event": "turn", "seat": 1}, ransom(1, False),
              {"event": "turn", "seat": 0}, ransom(0, True), {"event": "end"}]
    rec = audit_records({"strategies": ["expansionist", "hunter"]}, events)
    assert rec.unused == [("expansionist", LEFT_CAPTIVE, 1, 1), ("hunter", LEFT_CAPTIVE, 1, 1),
                          ("expansionist", LEFT_CAPTIVE, 0, 1)]
