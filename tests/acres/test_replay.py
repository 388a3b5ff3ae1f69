"""The readable account of an AFAoS game (`empires replay`): every action kind (AFS-6..14) is a
sentence with the printed names of its cards and locations, and both sides' money at each turn."""

import json
import typing

from sim.acres import actions
from sim.acres.replay import ACTION_TEXT, account
from sim.cli import main

HEAD = {"event": "game", "game_index": 0, "seed": 4, "powers": ["british", "french"], "strategies": ["hammer", "raider"]}


def lines(*events: dict) -> list[str]:
    return account(HEAD, list(events))[1:]


def test_every_action_kind_has_a_sentence():
    kinds = {cls.__name__ for cls in typing.get_args(actions.Action)}
    assert set(ACTION_TEXT) == kinds


def test_afs_7_8_a_settlement_and_a_siege_name_their_cards_and_the_forecast():
    settle = {"event": "action", "turn": 3, "side": 0, "action": "Settle", "target": "halifax", "via": "pemaquid",
              "transport": "new_haven", "settler": "st_marys"}
    besiege = {"event": "action", "turn": 5, "side": 0, "action": "Besiege", "target": "port_royal",
               "via": "pemaquid", "transport": "new_haven", "military": "regular_infantry", "p_win": 0.8125}
    raid = {"event": "action", "turn": 6, "side": 1, "action": "Raid", "target": "deerfield",
            "cards": ["native_americans", "priest"]}
    assert lines(settle, besiege, raid) == [
        "  british settles Halifax (card Pemaquid, transport New Haven, settler St. Mary's)",
        "  british besieges Port Royal (card Pemaquid, transport New Haven, military Regular Infantry; "
        "forecast win chance 0.81)",
        "  french raids Deerfield with Native Americans and Priest"]


def test_afs_13_2_a_discard_says_when_the_player_found_nothing_else_worth_doing():
    idle = {"event": "action", "turn": 4, "side": 1, "action": "Discard", "cards": ["militia"], "idle": True}
    dead = {"event": "action", "turn": 4, "side": 1, "action": "Discard", "cards": ["fort_beausejour", "militia"]}
    assert lines(idle, dead) == ["  french discards Militia (nothing else worth doing)",
                                 "  french discards Fort Beausejour and Militia"]


def test_a_turn_shows_both_sides_money():
    assert lines({"event": "turn", "turn": 2, "side": 1, "money": [4, 5]}) == [
        "-- turn 2: french to move (money: british 4, french 5)"]


def test_every_action_of_logged_games_reads_as_a_sentence_with_printed_names(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    assert main(["play", "acres", "--strategies", "random,random", "--games", "3", "--seed", "2", "--quiet",
                 "--log", str(log)]) == 0
    capsys.readouterr()
    acted = [json.loads(line) for line in log.read_text().splitlines() if '"action"' in line]
    assert len(acted) > 100 and all(e["action"] in ACTION_TEXT for e in acted)
    assert main(["replay", str(log)]) == 0
    shown = [line for line in capsys.readouterr().out.splitlines() if line.startswith("  ")]
    assert not [line for line in shown if "_" in line], "a card or location left as its id"
    assert sum(line.startswith(("  british ", "  french ")) for line in shown) >= len(acted)
