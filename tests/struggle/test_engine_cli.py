"""`empires play struggle` and `empires replay` of its logs through sim.cli.main."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from sim.cli import main
from tests.cli import exit_code


def test_play_struggle_json_and_outputs(tmp_path, capsys):
    out, log = tmp_path / "r.parquet", tmp_path / "g.jsonl"
    code = main(["play", "struggle", "--players", "3", "--strategies", "mixed,random", "--games", "3",
                 "--seed", "4", "--out", str(out), "--log", str(log), "--json"])
    assert code == 0
    payload = json.loads(capsys.readouterr().out)
    assert {r["strategy"] for r in payload["results"]} == {"mixed", "random"}
    assert all(0 <= r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] <= 1 for r in payload["results"])
    df = pd.read_parquet(out)
    assert len(df) == 9 and set(df.players) == {3}
    assert main(["replay", str(log), "--game", "1"]) == 0
    text = capsys.readouterr().out
    assert "game 1" in text and "scoring" in text and "end:" in text


def test_play_bad_input_is_one_line_exit_2(capsys):
    assert main(["play", "struggle", "--strategies", "genius", "--games", "1"]) == 2
    assert "genius" in capsys.readouterr().err
    assert main(["play", "struggle", "--games", "1", "--set", "options.nope=1"]) == 2
    assert exit_code(["replay", "/nonexistent.jsonl"]) == 2


def test_play_jobs_match_serial(capsys):
    args = ["play", "struggle", "--players", "2", "--strategies", "european,random", "--games", "4", "--json"]
    assert main(args) == 0
    serial = json.loads(capsys.readouterr().out)["results"]
    assert main(args + ["--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["results"] == serial


def test_play_players_out_of_range_is_one_line(capsys):
    """SOE-1.1: 2-7 players; the error is one line naming the range, exit code 2."""
    assert main(["play", "struggle", "--players", "9"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "2..7" in err


@pytest.mark.parametrize("argv, message", [
    (["play", "struggle", "--strategies", ",,"], "--strategies ',,' is empty"),
    (["play", "struggle", "--games", "1", "--log", "/proc/none/g.jsonl"], "/proc/none"),
    (["play", "struggle", "--games", "1", "--out", "results.txt"], ".parquet or .csv"),
])
def test_play_bad_input_is_one_line_exit_2_before_any_game(argv, message, capsys):
    assert exit_code(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_replay_of_a_file_that_is_no_event_log_is_one_line_exit_2(tmp_path, capsys):
    path = tmp_path / "binary.jsonl"
    path.write_bytes(bytes(range(256)) * 4)
    assert main(["replay", str(path)]) == 2
    assert "not an event log" in capsys.readouterr().err


def test_play_out_writes_results_and_their_provenance(tmp_path, capsys):
    out = tmp_path / "r.csv"
    assert main(["play", "struggle", "--games", "2", "--players", "3", "--out", str(out), "--seed", "4"]) == 0
    prov = json.loads((tmp_path / "r.csv.provenance.json").read_text())
    assert prov["seed"] == 4 and prov["data_hash"] and "assumed" in prov and out.exists()


def test_play_text_table_has_revolutions_and_keeps_the_default_lineup(capsys):
    """Today's defaults: 4 players, colonial,european,mixed,random; SoE's table counts revolutions."""
    assert main(["play", "struggle", "--games", "2", "--json"]) == 0
    payload = json.loads(capsys.readouterr().out)
    assert payload["game"] == "struggle" and payload["players"] == 4
    assert payload["provenance"]["strategies"] == ["colonial", "european", "mixed", "random"]
    assert all("revolutions" in r for r in payload["results"])
    assert main(["play", "struggle", "--games", "2", "--strategies", "mixed,random"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].startswith("2 games of 4 players") and lines[1].split()[-1] == "revolutions"


def test_play_strategy_with_interventions(capsys):
    assert main(["play", "struggle", "--games", "2", "--strategies", "mixed+force=war_office,random", "--json"]) == 0
    assert {r["strategy"] for r in json.loads(capsys.readouterr().out)["results"]} == {"mixed+force=war_office",
                                                                                          "random"}
    assert main(["play", "struggle", "--games", "2", "--strategies", "mixed+force=nonsense,random"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "'nonsense' is unknown" in err


def test_replay_reads_a_log_whose_headers_name_no_game_as_struggle(tmp_path, capsys):
    """Logs written before headers named their game are Struggle of Empires logs."""
    log, old = tmp_path / "g.jsonl", tmp_path / "old.jsonl"
    assert main(["play", "struggle", "--players", "2", "--games", "2", "--log", str(log)]) == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [e["game"] for e in lines if e["event"] == "game"] == ["struggle", "struggle"]
    old.write_text("".join(json.dumps({k: v for k, v in e.items() if e["event"] != "game" or k != "game"}) + "\n"
                           for e in lines))
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    new_text = capsys.readouterr().out
    assert main(["replay", str(old)]) == 0
    assert capsys.readouterr().out == new_text and "scoring: " in new_text
