"""Verified replay (`empires replay --verify`, sim/acres/verify.py): the five shared Yucata games
replay through the engine under the `yucata` preset with every move accepted and every recorded
state equal to the engine's; a corrupted record, or a reading switched back to the rules
reference's, is caught at the right move (docs/acres_yucata.md lists the moves)."""

import copy
import functools
import json

import pytest

from sim.acres import verify, yucata
from tests.acres.yucata_pages import MORE, MOVES, page
from tests.cli import exit_code


@functools.cache
def _record(name: str) -> tuple[dict, list[dict]]:
    return yucata.record(page(name))


def record(name: str) -> tuple[dict, list[dict]]:
    head, events = _record(name)
    return copy.deepcopy(head), copy.deepcopy(events)


@pytest.mark.parametrize("name", [*sorted(MOVES), *sorted(MORE)])
def test_afs_real_games_replay_move_for_move(name):
    """The five shared games and the four more of the same public repository."""
    head, events = record(name)
    result = verify.verify(head, events)
    assert result.mismatch is None, result.as_dict()
    assert result.moves == result.accepted == {**MOVES, **MORE}[name]
    interrupted = sum(1 for e in events if e["event"] == "move" and e.get("continues") is not None)
    assert result.compared == result.moves + 1 - 2 * interrupted        # setup + one per engine turn


def _event(events: list[dict], kind: str, move: int) -> dict:
    return next(e for e in events if e["event"] == kind and e["move"] == move)


def test_a_changed_status_is_caught_at_its_move():
    head, events = record("game_10400521.js")
    status = _event(events, "status", 40)
    status["changed"]["sides.french.money"] = 99
    result = verify.verify(head, events)
    assert result.mismatch is not None and result.accepted == 41 and result.compared == 42
    assert result.mismatch.as_dict() == {"move": 40, "field": "sides.french.money", "expected": 99,
                                         "got": result.mismatch.got}
    assert result.mismatch.got != 99


def test_a_changed_move_is_caught_at_its_move():
    """A recruit changed to a card the side cannot afford or has not got is refused by the engine."""
    head, events = record("game_8604012.js")
    move = next(e for e in events if e["event"] == "move" and e["move"] >= 30
                and any(a["kind"] == "take_money" for a in e["actions"]))
    action = next(a for a in move["actions"] if a["kind"] == "take_money")
    action["cards"] = ["home_support"]
    result = verify.verify(head, events)
    assert result.mismatch is not None and result.mismatch.move == move["move"]
    assert result.mismatch.field == "move" and result.accepted == move["move"]


@pytest.mark.parametrize(("reading", "name", "move"), [
    ("options.home_support_from_bottom=false", "game_8604012.js", 10),       # difference 1
    ("options.defender_may_withdraw=false", "game_10348395.js", 56),         # difference 5
    ("options.capital_siege_at_turn_end=false", "game_10348395.js", 214),    # difference 7
    ('rules.deck.reshuffle="immediate"', "game_8604012.js", 0),              # difference 3
    ("options.free_actions_after_refill=false", "more/ph_9547143.js", 39),   # difference 9
])
def test_a_reference_reading_disagrees_where_documented(reading, name, move):
    head, events = record(name)
    result = verify.verify(head, events, extra=(reading,))
    assert result.mismatch is not None and result.mismatch.move == move, result.as_dict()


def test_cli_replay_verify_json(tmp_path, capsys):
    head, events = record("game_10400521.js")
    path = tmp_path / "game.jsonl"
    path.write_text("".join(json.dumps(e) + "\n" for e in [head, *events]), "utf-8")
    assert exit_code(["replay", "--verify", "--json", str(path)]) == 0
    assert json.loads(capsys.readouterr().out) == {"moves": 96, "accepted": 96, "compared": 97, "mismatch": None}
    _event(events, "status", 12)["changed"]["sides.british.money"] = 77
    path.write_text("".join(json.dumps(e) + "\n" for e in [head, *events]), "utf-8")
    assert exit_code(["replay", "--verify", str(path)]) == 1
    out = capsys.readouterr().out
    assert "96 moves, 13 accepted" in out and "first mismatch at move 12, sides.british.money: recorded 77" in out


def test_cli_verify_refuses_an_engine_log(tmp_path, capsys):
    log = tmp_path / "games.jsonl"
    assert exit_code(["play", "acres", "--games", "1", "--log", str(log)]) == 0
    capsys.readouterr()
    assert exit_code(["replay", "--verify", str(log)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "not an imported record" in err[0]
