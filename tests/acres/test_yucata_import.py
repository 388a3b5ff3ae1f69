"""`empires import acres FILE... --out DIR` and `empires replay` of the records; corrupted pages
give one line naming the file, the move and what was expected, exit 2, and nothing written."""

import json
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.acres import record_checks, yucata
from sim.acres.record import snapshots
from sim.core.replay import read_games
from tests.acres.yucata_pages import GAMES_DIR, page
from tests.cli import exit_code

PAGE = GAMES_DIR / "game_10400521.js"
TEXT = PAGE.read_text(encoding="utf-8")


def _line(text: str, name: str) -> str:
    return re.search(rf"^.*{re.escape(name)} = .*$", text, re.MULTILINE).group(0)


def _corrupt(tmp_path: Path, text: str | bytes) -> Path:
    path = tmp_path / "bad_10400521.js"
    (path.write_bytes if isinstance(text, bytes) else path.write_text)(text)
    return path


def _one_line_error(capsys, argv) -> str:
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
    return err


@pytest.fixture(scope="module")
def imported(tmp_path_factory):
    out = tmp_path_factory.mktemp("records")
    assert exit_code(["import", "acres", *map(str, sorted(GAMES_DIR.glob("*.js"))), "--out", str(out)]) == 0
    return out


def test_all_five_games_import_with_setup_every_move_and_every_snapshot(imported):
    for path in GAMES_DIR.glob("*.js"):
        game = page(path.name)
        ((head, events),) = read_games(imported / f"{path.stem}.jsonl")
        assert head["game"] == "acres" and head["source"] == "yucata" and head["moves"] == len(game.moves)
        assert head["powers"] == list(game.powers) and head["variants"] == list(game.variants)
        assert [e["event"] for e in events] == ["setup"] + ["move", "status"] * len(game.moves)
        moves = [e for e in events if e["event"] == "move"]
        assert [m["move"] for m in moves] == list(range(len(game.moves)))
        rebuilt = snapshots(events)
        assert rebuilt[0] == json.loads(json.dumps(game.start.as_dict()))
        assert rebuilt[1:] == [json.loads(json.dumps(s.as_dict())) for s in game.statuses]


def test_replay_prints_an_imported_record_move_by_move(imported, capsys):
    assert exit_code(["replay", str(imported / "game_8604012.jsonl")]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == "game 8604012 (seed 0): british [human], french [human]"
    assert out[1].startswith("setup (recorded): british money ")
    assert out[2] == "  move 0 british: settle fort_halifax with pemaquid, st_marys"
    assert out[3].startswith("    changed: ") and "sides.british.hand" in out[3]
    assert sum(line.startswith("  move ") for line in out) == 123


def test_a_bad_page_writes_nothing_even_beside_good_ones(tmp_path, capsys):
    bad = _corrupt(tmp_path, TEXT.replace(_line(TEXT, "HistoryStatus[40]"), ""))
    out = tmp_path / "out"
    err = _one_line_error(capsys, ["import", "acres", str(PAGE), str(bad), "--out", str(out)])
    assert f"{bad}: move 40: expected a line `HistoryStatus[40] = '...';`" in err
    assert not out.exists() or not any(out.iterdir())


def test_truncated_page_names_the_first_move_it_lacks(tmp_path, capsys):
    cut = TEXT.index(_line(TEXT, "HistoryStatus[57]")) + 30
    bad = _corrupt(tmp_path, TEXT[:cut])
    err = _one_line_error(capsys, ["import", "acres", str(bad), "--out", str(tmp_path / "o")])
    assert "move 57: expected a line `HistoryStatus[57] = '...';` (the page ends early)" in err


def test_page_cut_after_a_whole_move_still_lacks_its_move_count(tmp_path):
    cut = TEXT.index(_line(TEXT, "HistoryMove[30]"))
    with pytest.raises(yucata.RecordError, match=r"move 30: expected `var MoveCount = 30;`"):
        yucata.decode_page(TEXT[:cut], "cut.js")


def test_changed_move_is_caught_at_that_move(tmp_path, capsys):
    line = _line(TEXT, "HistoryMove[12]")
    bad = _corrupt(tmp_path, TEXT.replace(line, "HistoryMove[12] = '" + chr(176 + 25) + "°';"))
    err = _one_line_error(capsys, ["import", "acres", str(bad), "--out", str(tmp_path / "o")])
    assert "move 12: expected an action code in" in err and "found 25" in err


def test_changed_card_in_a_move_is_caught_at_that_move():
    line = _line(TEXT, "HistoryMove[20]")
    value = line.split("'")[1]
    changed = line.replace(f"'{value}'", f"'{value[:-1]}{chr(176 + 57)}'")
    with pytest.raises(yucata.RecordError, match=r"move 20: expected a (british|french) card"):
        yucata.decode_page(TEXT.replace(line, changed), "x.js")


def test_changed_status_is_caught_at_that_move(tmp_path, capsys):
    line = _line(TEXT, "HistoryStatus[33]")
    board = line.split("'")[1].split(";")[1]
    bad = _corrupt(tmp_path, TEXT.replace(line, line.replace(board, chr(176 + 9) + board[1:])))
    err = _one_line_error(capsys, ["import", "acres", str(bad), "--out", str(tmp_path / "o")])
    assert "move 33: expected a location state (0..8) at character 0" in err


def test_a_card_in_two_zones_is_caught(tmp_path):
    line = _line(TEXT, "HistoryStatus[8]")
    groups = line.split("'")[1].split(";")
    seat = groups[3].split(",")
    seat[5] += seat[2][0]                        # the first hand card also on the discard pile
    groups[3] = ",".join(seat)
    changed = line.replace(line.split("'")[1], ";".join(groups))
    with pytest.raises(yucata.RecordError, match=r"move 8: expected each \w+ card in one zone only"):
        yucata.decode_page(TEXT.replace(line, changed), "x.js")


def test_non_utf8_page_names_the_move_of_the_bad_byte(tmp_path, capsys):
    line = _line(TEXT, "HistoryMove[71]")
    data = TEXT.encode("utf-8").replace(line.encode("utf-8"), line.encode("utf-8")[:-3] + b"\xff';")
    bad = _corrupt(tmp_path, data)
    err = _one_line_error(capsys, ["import", "acres", str(bad), "--out", str(tmp_path / "o")])
    assert "move 71: expected UTF-8 text" in err


def test_missing_start_status(tmp_path, capsys):
    bad = _corrupt(tmp_path, TEXT.replace(_line(TEXT, "StartStatus"), ""))
    err = _one_line_error(capsys, ["import", "acres", str(bad), "--out", str(tmp_path / "o")])
    assert f"{bad}: StartStatus: expected a line `var StartStatus = '...';`" in err


def test_two_pages_of_one_name_are_refused(tmp_path, capsys):
    other = tmp_path / "x"
    other.mkdir()
    copy = other / PAGE.name
    copy.write_text(TEXT)
    err = _one_line_error(capsys, ["import", "acres", str(PAGE), str(copy), "--out", str(tmp_path / "o")])
    assert "writes the same record" in err


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.integers(0, len(TEXT) - 1), st.integers(0, 40),
                          st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=240), max_size=4)),
                min_size=1, max_size=4))
def test_fuzzed_pages_decode_or_give_the_one_line_error(edits):
    """Any page made by cutting and splicing a real one decodes or raises RecordError, never
    anything else (hypothesis)."""
    text = TEXT
    for at, length, insert in edits:
        text = text[:at] + insert + text[at + length:]
    try:
        yucata.decode_page(text, "fuzz.js")
    except yucata.RecordError as exc:
        assert "\n" not in str(exc) and str(exc).startswith("fuzz.js: ")


@given(st.text(alphabet=st.sampled_from("°±²³´µ¶·¸¹º»¼½¾¿ÀÁÂÃÄÅÎABCDRTLXP-01,;"), max_size=40))
def test_fuzzed_moves_and_statuses_decode_or_give_the_one_line_error(value):
    for name in ("HistoryMove[5]", "HistoryStatus[5]", "StartStatus"):
        line = _line(TEXT, name)
        prefix = line.split("'")[0]
        try:
            yucata.decode_page(TEXT.replace(line, f"{prefix}'{value}';"), "fuzz.js")
        except yucata.RecordError as exc:
            assert "\n" not in str(exc)


def test_import_check_reports_consistency_under_either_readings(tmp_path, capsys):
    page = str(GAMES_DIR / "game_8604012.js")
    assert exit_code(["import", "acres", page, "--out", str(tmp_path), "--check", "yucata"]) == 0
    assert "consistent under the yucata readings: all 123 moves explained" in capsys.readouterr().out
    assert exit_code(["import", "acres", page, "--out", str(tmp_path), "--check", "rules"]) == 0
    assert "first: move 0, sides.british.draw" in capsys.readouterr().out


def test_script_in_a_page_is_never_run_only_literals_are_read(tmp_path):
    """A value computed by script is not a string literal: the importer refuses the page
    instead of evaluating anything."""
    line = _line(TEXT, "HistoryMove[3]")
    scripted = TEXT.replace(line, "HistoryMove[3] = String.fromCharCode(189) + 'Í';")
    with pytest.raises(yucata.RecordError, match=r"move 3: expected a line `HistoryMove\[3\] = '...';`"):
        yucata.decode_page(scripted, "x.js")


@pytest.mark.parametrize("argv, message", [
    (["import", "acres", "missing.js", "--out", "o"], "'missing.js' does not exist"),
    (["import", "acres", str(PAGE)], "the following arguments are required: --out"),
])
def test_bad_command_lines_are_one_line_exit_2(argv, message, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert message in _one_line_error(capsys, argv)


MOVE_LINES = [m.start(3) for m in yucata.ASSIGNMENT.finditer(TEXT) if m.group(1) == "HistoryMove"]


@given(st.lists(st.tuples(st.sampled_from(MOVE_LINES), st.integers(0, 6),
                          st.characters(min_codepoint=176, max_codepoint=230)), min_size=1, max_size=3))
def test_changed_moves_that_still_decode_never_break_the_record_or_the_checker(edits):
    """A move changed to another well-formed move decodes, makes a record and is checked; the
    checker reports findings and raises nothing (hypothesis)."""
    text = TEXT
    for start, offset, ch in edits:
        at = start + offset
        if text[at] not in "',\n":
            text = text[:at] + ch + text[at + 1:]
    try:
        game = yucata.decode_page(text, "fuzz.js")
    except yucata.RecordError:
        return
    yucata.record(game)
    record_checks.check(game, readings=record_checks.YUCATA)


def test_a_status_ending_the_game_early_or_other_variants_is_caught():
    line = _line(TEXT, "HistoryStatus[50]")
    value = line.split("'")[1]
    over = value[0] + "1" + value[2:]
    with pytest.raises(yucata.RecordError, match=r"move 50: expected a running game before the last move \(95\)"):
        yucata.decode_page(TEXT.replace(line, line.replace(value, over)), "x.js")
    head = value.split(";")[0]
    other = value.replace(head + ";", head + chr(176 + 4) + ";", 1)
    with pytest.raises(yucata.RecordError, match=r"move 50: expected the scenario variants of StartStatus \[18\]"):
        yucata.decode_page(TEXT.replace(line, line.replace(value, other)), "x.js")


def test_a_running_game_imports_and_checks():
    """The page of a game still being played: 30 moves, no end yet, every move explained."""
    text = TEXT[:TEXT.index(_line(TEXT, "HistoryMove[30]"))] + "var MoveCount = 30;\n"
    game = yucata.decode_page(text, "running.js")
    assert len(game.moves) == 30 and not game.statuses[-1].end.over
    assert record_checks.check(game, readings=record_checks.YUCATA) == []
