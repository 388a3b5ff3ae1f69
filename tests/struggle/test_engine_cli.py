"""`empires play struggle` and `empires replay` through sim.cli.main."""

from __future__ import annotations

import json

import pandas as pd

from sim.cli import main


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
    assert main(["replay", "/nonexistent.jsonl"]) == 2


def test_play_jobs_match_serial(capsys):
    args = ["play", "struggle", "--players", "2", "--strategies", "european,random", "--games", "4", "--json"]
    assert main(args) == 0
    serial = json.loads(capsys.readouterr().out)["results"]
    assert main(args + ["--jobs", "2"]) == 0
    assert json.loads(capsys.readouterr().out)["results"] == serial


def test_play_players_out_of_range_is_one_line(capsys):
    """SOE-1.1: 2-7 players; argparse errors are one line with exit code 2."""
    import pytest
    with pytest.raises(SystemExit) as exc:
        main(["play", "struggle", "--players", "9"])
    assert exc.value.code == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
