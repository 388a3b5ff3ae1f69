"""Bad input to any command: one line on stderr naming the flag or file and what is allowed, exit
code 2, nothing written and nothing created (the cases of the balance-report issue and those a
fuzz of every command's flags found: empty strings, empty list items, negatives, huge numbers,
missing / file-instead-of-folder paths, non-UTF-8 files, non-finite numbers)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.cli import exit_code
from tests.runner import toygame

BATTLE = ["odds", "struggle", "battle", "--attacker-units", "2", "--defender-units", "1"]
CASES = [
    # --variant files: not UTF-8 (a traceback before), a folder, a missing file; blamed on --variant
    (["data", "struggle", "--variant", "BADUTF"], "--variant 'BADUTF' is not UTF-8 text"),
    ([*BATTLE, "--variant", "BADUTF"], "--variant 'BADUTF' is not UTF-8 text"),
    (["score", "conquest", "prices", "--variant", "BADUTF"], "is not UTF-8 text"),
    (["score", "acres", "final", "--variant", "BADUTF"], "is not UTF-8 text"),
    (["score", "discovery", "trade", "--goods", "sugar=1", "--variant", "BADUTF"], "is not UTF-8 text"),
    (["play", "struggle", "--variant", "BADUTF"], "is not UTF-8 text"),
    (["data", "struggle", "--variant", "DIR"], "--variant 'DIR' is a folder; give a TOML file"),
    (["data", "struggle", "--variant", "missing.toml"], "--variant 'missing.toml' does not exist"),
    (["data", "struggle", "--variant", "UNKNOWN.toml"], "--variant 'UNKNOWN.toml': tiles.war_office.cost: unknown"),
    (["data", "struggle", "--variant", "HIGH.toml"],
     "--variant 'HIGH.toml': tiles.war_office.cost_gold = 99 is out of range; allowed 0..20"),
    (["tile-value", "struggle", "--tiles", "war_office", "--sweep", "tiles.war_offce.cost_gold=0..2"],
     "--sweep tiles.war_offce.cost_gold: unknown struggle data path"),
    (["tile-value", "struggle", "--tiles", "war_office", "--sweep", "tiles.war_office.cost_gold=19..22"],
     "--sweep tiles.war_office.cost_gold = 21 is out of range; allowed 0..20"),
    # empty strings and empty list items
    (["report", "--tiles", "", "--out", "out"], "--tiles '' is empty; give TILE"),
    (["report", "--tiles", "war_office,,banking", "--out", "out"], "--tiles 'war_office,,banking': item 2 is empty"),
    (["report", "--skill", "", "--out", "out"], "--skill '' is empty; give STRATEGY"),
    (["report", "--out", ""], "argument --out: '' is empty; give a path"),
    (["report", "--out", " "], "argument --out: ' ' is empty; give a path"),
    (["tile-value", "tilegame", "--tiles", ""], "--tiles '' is empty"),
    (["tile-value", "struggle", "--tiles", "war_office", "--sweep", ""], "--sweep '' is malformed; use PATH=LOW..HIGH"),
    (["play", "toy", "--strategies", "strong,,weak"], "--strategies 'strong,,weak': item 2 is empty"),
    (["tournament", "toy", "--strategies", "strong,,weak"], "item 2 is empty"),
    (["audit", "struggle", "--strategies", ""], "--strategies '' is empty"),
    (["play", "toy", "--out", ""], "argument --out: '' is empty"),
    (["play", "toy", "--log", " "], "argument --log: ' ' is empty"),
    (["audit", "struggle", "--out", ""], "argument --out: '' is empty"),
    (["odds", "discovery", "explore", "--party", "4", "--region", ""], "--region: region: '' is not allowed"),
    (["odds", "discovery", "explore", "--party", "4", "--unrevealed", "T01,,T02"], "--unrevealed 'T01,,T02': item 2"),
    (["odds", "acres", "siege", "--location", "louisbourg", "--attacker", "british", "--defender-policy", ""],
     "--defender-policy: policy '' is not allowed"),
    (["odds", "conquest", "battle", "--attacker", "infantry=2", "--defender", "infantry=1", "--attacker-policy", ""],
     "--attacker-policy: policy '' is not allowed"),
    (["odds", "conquest", "battle", "--attacker", "infantry=2", "--defender", "infantry=1", "--loss-order",
      "infantry,,cavalry"], "--loss-order 'infantry,,cavalry': item 2 is empty"),
    (["odds", "conquest", "naval", "--attacker-galleys", "2", "--defender-galleys", "1", "--attacker-carried", "4,,3"],
     "--attacker-carried '4,,3': item 2 is empty"),
    ([*BATTLE, "--attacker-allies", "armies=1,,fleets=1"], "--attacker-allies 'armies=1,,fleets=1': item 2"),
    (["odds", "conquest", "battle", "--attacker", "infantry=x", "--defender", "infantry=1"],
     "--attacker 'infantry=x': count 'x' is not an integer"),
    (["score", "discovery", "trade", "--goods", ""], "--goods '' is empty"),
    (["score", "discovery", "trade", "--goods", "sugar=1,,fur=1"], "--goods 'sugar=1,,fur=1': item 2 is empty"),
    (["score", "acres", "final", "--british", "halifax=town,,"], "--british 'halifax=town,,': item 2 is empty"),
    # paths: a missing folder above a file (was created), a folder for a file, a file for a folder
    (["play", "toy", "--out", "MISSING/dir/x.csv"], "its folder 'MISSING/dir' does not exist; create it first"),
    (["play", "toy", "--log", "MISSING/x.jsonl"], "its folder 'MISSING' does not exist"),
    (["play", "toy", "--log", "DIR"], "argument --log: 'DIR' is a folder; give a file name"),
    (["play", "toy", "--log", "NEW/"], "argument --log: 'NEW/' is a folder; give a file name"),
    (["report", "--out", "MISSING/report"], "its folder 'MISSING' does not exist"),
    (["report", "--out", "FILE"], "argument --out: 'FILE' is a file; give a folder"),
    (["audit", "struggle", "--out", "MISSING/audit"], "does not exist; create it first"),
    (["tile-value", "tilegame", "--out", "FILE"], "'FILE' is a file; give a folder"),
    (["tournament", "toy", "--strategies", "strong", "--out", "MISSING/run"], "does not exist; create it first"),
    (["tournament", "toy", "--resume", "MISSING"], "folder 'MISSING' does not exist"),
    (["tournament", "toy", "--resume", "FILE"], "'FILE' is a file; give a folder"),
    (["analyse", "FILE"], "argument RUN_DIR: 'FILE' is a file; give a folder"),
    (["replay", "DIR"], "argument log: 'DIR' is a folder; give a file"),
    (["replay", "missing.jsonl"], "'missing.jsonl' does not exist"),
    (["replay", "BADUTF"], "BADUTF: not an event log"),
    (["report", "--compare", "MISSING", "--out", "out"], "folder 'MISSING' does not exist"),
    (["report", "--compare", "DIR", "--out", "out"], "--compare DIR: not a report folder (no struggle/headline.json)"),
    # the real limit, stated once (before: "allowed 0..200" then "0..14"; "0..inf" then "0..2")
    (["odds", "struggle", "battle", "--attacker-units", "300", "--defender-units", "1"], "allowed 0..14"),
    (["odds", "struggle", "battle", "--attacker-units", "-1", "--defender-units", "1"], "allowed 0..14"),
    ([*BATTLE, "--defender-forts", "25"], "--defender-forts 25 is out of range; a power has 2 forts"),
    (["odds", "struggle", "battle", "--attacker-units", "2", "--naval", "--defender-units", "-2"], "allowed 0..8"),
    (["score", "conquest", "prices", "--inflation", "-1"], "--inflation -1 is out of range; allowed 0..2"),
    (["score", "conquest", "prices", "--inflation", "5"], "--inflation 5 is out of range; allowed 0..2"),
    (["score", "conquest", "prices", "--multiplier", "0"], "--multiplier 0 is not allowed; choose one of 1, 2, 3"),
    (["odds", "conquest", "naval", "--attacker-galleys", "9", "--defender-galleys", "1"],
     "--attacker-galleys 9 is out of range; a colour has 8 galleys (COE-2.4), allowed 1..8"),
    (["odds", "conquest", "naval", "--attacker-galleys", "0", "--defender-galleys", "1"], "allowed 1..8"),
    (["odds", "conquest", "battle", "--attacker", "infantry=2", "--defender", "infantry=1", "--attacker-leaders", "-1"],
     "--attacker-leaders -1 is out of range"),
    (["tournament", "toy", "--players", "0", "--strategies", "strong"], "--players 0 is out of range; this game allows 2..4"),
    (["tournament", "toy", "--players", "70", "--strategies", "strong"], "this game allows 2..4"),
    (["compare", "toy", "strong", "random", "--sprt", "--players", "-3"], "--players -3 is out of range; allowed 2..4"),
    (["tile-value", "tilegame", "--players", "70"], "--players 70 is out of range; this game allows 4..4"),
    (["report", "--players", "1", "--out", "out"], "--players 1 is out of range"),
    (["audit", "struggle", "--players", "0"], "--players 0 is out of range; struggle allows 2..7"),
    (["replay", "LOG", "--game", "-1"], "argument --game: -1 is out of range; must be >= 0"),
    (["report", "--games", "0", "--out", "out"], "argument --games: 0 is out of range; allowed 1..1000000000"),
    (["report", "--robust-games", "-1", "--out", "out"],
     "argument --robust-games: -1 is out of range; allowed 0..1000000000"),
    (["report", "--scale", "0", "--out", "out"], "argument --scale: 0.0 is out of range; allowed 0.01..1000"),
    (["report", "--scale", "nan", "--out", "out"], "argument --scale: nan is out of range"),
    (["report", "--scale", "big", "--out", "out"], "argument --scale: 'big' is not a number"),
    # non-finite numbers
    (["compare", "toy", "strong", "random", "--sprt", "--elo1", "nan"], "argument --elo1: nan is out of range; must be finite"),
    (["compare", "toy", "strong", "random", "--sprt", "--p0", "inf"], "argument --p0: inf is out of range; allowed 0..1"),
    (["odds", "conquest", "battle", "--attacker", "infantry=2", "--defender", "infantry=1", "--unit-weight", "inf"],
     "argument --unit-weight: inf is out of range; must be finite"),
]


@pytest.fixture
def workdir(tmp_path, monkeypatch) -> Path:
    """A working folder with a folder, a plain file, a non-UTF-8 file, a log and variant files."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "DIR").mkdir()
    (tmp_path / "FILE").write_text("not a folder\n")
    (tmp_path / "BADUTF").write_bytes(b"[tiles.war_office]\ncost_gold = 4 # \xff\xfe\n")
    (tmp_path / "UNKNOWN.toml").write_text("[tiles.war_office]\ncost = 3\n")
    (tmp_path / "HIGH.toml").write_text("[tiles.war_office]\ncost_gold = 99\n")
    assert exit_code(["play", "toy", "--games", "1", "--log", "LOG", "--quiet"]) == 0
    return tmp_path


def tree(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"" for p in folder.rglob("*")}


@pytest.mark.parametrize("argv, message", CASES)
def test_bad_input_is_one_line_exit_2_and_nothing_is_written(argv, message, workdir, capsys):
    capsys.readouterr()
    before = tree(workdir)
    assert exit_code(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err, err
    assert tree(workdir) == before                  # nothing written, nothing created, nothing changed


@settings(max_examples=40)
@given(st.lists(st.sampled_from(toygame.STRATEGIES), min_size=1, max_size=3), st.integers(0, 3),
       st.sampled_from(["", " ", "  "]))
def test_an_empty_item_anywhere_in_a_strategy_list_is_refused(names, where, blank):
    """A silently dropped item would seat a different lineup than asked."""
    items = [*names[:where], blank, *names[where:]]
    text = ",".join(items)
    import contextlib
    import io
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = exit_code(["play", "toy", "--strategies", text, "--games", "1", "--quiet"])
    assert code == 2 and err.getvalue().count("\n") == 1
    assert "is empty" in err.getvalue() and "--strategies" in err.getvalue()
