"""`empires play GAME` and `empires replay` for any registered game: the toy dice race and the
synthetic tile game (tests/conftest.py), through sim.cli.main."""

from __future__ import annotations

import contextlib
import io
import json

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim import games
from sim.cli import main
from tests.cli import exit_code
from sim.core.design import rotation
from tests.analyses import tilegame
from tests.runner import toygame


def run_json(capsys, argv: list[str]) -> dict:
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_play_toy_defaults_to_all_strategies_at_the_most_seats(capsys):
    out = run_json(capsys, ["play", "toy", "--games", "40", "--seed", "3", "--json"])
    assert out["game"] == "toy" and out["games"] == 40 and out["players"] == 4
    assert out["provenance"]["strategies"] == list(toygame.STRATEGIES)
    rows = {r["strategy"]: r for r in out["results"]}
    assert set(rows) == set(toygame.STRATEGIES) and all(r["seats"] == 40 for r in rows.values())
    assert sum(r["wins"] for r in rows.values()) >= 40          # every game has a winner
    assert all(0 <= r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] <= 1 for r in rows.values())
    assert all("revolutions" not in r for r in rows.values())   # the toy has no revolution column


def test_play_players_default_to_one_seat_per_strategy_within_the_range(capsys):
    assert run_json(capsys, ["play", "toy", "--strategies", "strong,weak,random", "--games", "3", "--json"])[
        "players"] == 3
    assert run_json(capsys, ["play", "toy", "--strategies", "strong", "--games", "3", "--json"])["players"] == 2
    tile = run_json(capsys, ["play", "tilegame", "--games", "3", "--json"])
    assert tile["players"] == 4 and tile["provenance"]["strategies"] == ["plain", "random"]


def test_play_text_table_has_no_revolutions_for_a_game_without_them(capsys):
    assert main(["play", "toy", "--games", "8", "--players", "2", "--strategies", "strong,weak", "--quiet"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "8 games of 2 players, seed 1 (shared wins count for every winner)"
    assert lines[1].split() == ["strategy", "seats", "wins", "win", "rate", "95%", "CI", "mean", "VP"]
    assert [line.split()[0] for line in lines[3:5]] == ["strong", "weak"] and lines[5] == ""


def test_play_says_how_the_games_ended_and_what_a_turn_cap_win_is_coe_25_3(capsys):
    """A game whose table has end reasons (CotE) gets each reason's share with its Wilson
    interval, in the JSON and under the text table, and the text says that a turn-cap game's
    winners are the top incomes, not victories; a game without end reasons (the toy) gets none."""
    argv = ["play", "conquest", "--players", "2", "--games", "4", "--set", "rules.turn_cap=2", "--quiet"]
    ended = run_json(capsys, [*argv, "--json"])["endings"]
    assert ended["games"] == 4 and [r["reason"] for r in ended["reasons"]] == ["turn_cap"]
    (cap,) = ended["reasons"]
    assert cap["games"] == 4 and cap["share"] == 1.0 and cap["ci95"][0] < 1.0 == cap["ci95"][1]
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[-2].startswith("games ended by: turn_cap 4 (100 %, 95 % CI ")
    assert lines[-1].startswith("turn_cap: the simulator's turn cap, not a victory under the rules")
    assert "endings" not in run_json(capsys, ["play", "toy", "--games", "4", "--json"])
    assert main(["play", "toy", "--games", "4", "--quiet"]) == 0
    assert "games ended by" not in capsys.readouterr().out


def test_play_seats_follow_the_rotation(tmp_path, capsys):
    """Strategies cycle over seats and shift every game; powers shift every `players` games."""
    out = tmp_path / "r.csv"
    strategies = ["strong", "weak", "random"]
    assert main(["play", "toy", "--players", "2", "--strategies", ",".join(strategies), "--games", "9",
                 "--out", str(out)]) == 0
    df = pd.read_csv(out)
    assert df.game_index.tolist() == [g for g in range(9) for _ in range(2)] and df.seat.tolist() == [0, 1] * 9
    seatings = rotation(toygame.POWERS, 2, strategies, 9)
    assert df.strategy.tolist() == [x for s in seatings for x in s.strategies]
    assert df.power.tolist() == [x for s in seatings for x in s.powers]
    assert seatings[1].strategies == ("weak", "random") and seatings[2].powers == ("blue", "green")


def test_play_jobs_1_and_2_give_identical_tables(tmp_path, capsys):
    argv = ["play", "toy", "--players", "3", "--strategies", "strong,weak,random", "--games", "60", "--seed", "9"]
    one, two = tmp_path / "one.parquet", tmp_path / "two.parquet"
    assert main(argv + ["--out", str(one)]) == 0
    assert main(argv + ["--out", str(two), "--jobs", "2"]) == 0
    first, second = pd.read_parquet(one), pd.read_parquet(two)
    assert len(first) == 180 and first.equals(second)
    assert capsys.readouterr().out.count("60 games of 3 players") == 2


def test_play_out_writes_the_table_and_its_provenance(tmp_path, capsys):
    out = tmp_path / "sub" / "r.csv"
    out.parent.mkdir()                  # the folder must exist: play creates no folders
    payload = run_json(capsys, ["play", "tilegame", "--games", "5", "--seed", "6", "--strategies",
                                "plain+grant_gold=3,random", "--out", str(out), "--json"])
    df = pd.read_csv(out)
    assert len(df) == 20 and set(df.strategy) == {"plain+grant_gold=3", "random"}
    prov = json.loads((tmp_path / "sub" / "r.csv.provenance.json").read_text())
    assert prov == payload["provenance"]
    assert prov["engine_version"] == tilegame.INFO.engine_version == 1
    assert prov["rules_edition"] == tilegame.INFO.rules_edition and prov["data_hash"] is None
    assert (prov["game"], prov["seed"], prov["players"], prov["games"]) == ("tilegame", 6, 4, 5)
    assert prov["strategies"] == ["plain+grant_gold=3", "random"] and prov["code_version"]
    assert not list(tmp_path.glob("sub/*.tmp"))


def test_replay_of_a_toy_log_lists_every_event_with_its_fields(tmp_path, capsys):
    log = tmp_path / "toy.jsonl"
    assert main(["play", "toy", "--players", "2", "--strategies", "strong,weak", "--games", "3", "--seed", "2",
                 "--log", str(log), "--jobs", "2"]) == 0
    capsys.readouterr()
    heads = [json.loads(line) for line in log.read_text().splitlines()][::2]
    assert [(h["game"], h["game_index"]) for h in heads] == [("toy", 0), ("toy", 1), ("toy", 2)]
    assert main(["replay", str(log), "--game", "1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "game 1 (seed 2): red [weak], blue [strong]"
    assert len(lines) == 2 and lines[1].startswith("  race: turns=") and "points=[" in lines[1]


def test_replay_of_a_tilegame_log_shows_every_game(tmp_path, capsys):
    log = tmp_path / "tile.jsonl"
    assert main(["play", "tilegame", "--games", "4", "--log", str(log), "--json"]) == 0
    capsys.readouterr()
    assert main(["replay", str(log)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(" (")[0] for line in lines[::2]] == [f"game {g}" for g in range(4)]
    assert all(line.startswith("  scores: vp=[") for line in lines[1::2])


@pytest.mark.parametrize("argv, message", [
    (["play", "toy", "--players", "5"], "toy allows 2..4"),
    (["play", "toy", "--players", "1"], "toy allows 2..4"),
    (["play", "tilegame", "--players", "3"], "tilegame allows 4..4"),
    (["play", "toy", "--strategies", "strong,genius"], "strategy 'genius' is unknown"),
    (["play", "toy", "--strategies", "strong+force=x"], "intervention 'force' is unknown; allowed: none"),
    (["play", "tilegame", "--strategies", "plain+nope=1"], "intervention 'nope' is unknown"),
    (["play", "toy", "--strategies", " , "], "is empty; give STRATEGY[,STRATEGY...]; allowed: random"),
    (["play", "toy", "--set", "a.b=1"], "has no component data"),
    (["play", "toy", "--out", "r.txt"], ".parquet or .csv"),
    (["play", "ghost"], "not available yet"),
    (["replay", "missing.jsonl"], "does not exist"),
])
def test_bad_input_is_one_line_exit_2_and_plays_nothing(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    games.register("ghost", "sim.ghost_engine_not_written")
    try:
        assert exit_code(argv + (["--log", "g.jsonl"] if argv[0] == "play" else [])) == 2
    finally:
        games._REGISTRY.pop("ghost")
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1
    assert not (tmp_path / "g.jsonl").exists()


def test_unknown_game_is_an_argparse_error_with_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["play", "chess"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "invalid choice: 'chess'" in err


@pytest.mark.parametrize("text, message", [
    ('{"event": "game", "game": "chess", "game_index": 0, "seed": 1, "powers": [], "strategies": []}\n',
     "the log is of game 'chess', which is not registered"),
    ('{"event": "game", "game": "toy", "game_index": 0}\n', "not an event log written by `empires play GAME --log`"),
    ('{"event": "race"}\n', "line 1 comes before any game header"),
    ('{"event": "game", "game": "toy", "game_index": 0, "seed": 1, "powers": [], "strategies": []}\n{oops\n',
     "line 2 is not a JSON object"),
    ("[1, 2]\n", "line 1 is not a JSON object"),
    ("", "holds no game"),
])
def test_replay_of_a_bad_log_is_one_line_exit_2(text, message, tmp_path, capsys):
    log = tmp_path / "bad.jsonl"
    log.write_text(text)
    assert main(["replay", str(log)]) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_replay_of_a_game_not_in_the_log_is_one_line_exit_2(tmp_path, capsys):
    log = tmp_path / "toy.jsonl"
    assert main(["play", "toy", "--games", "2", "--log", str(log)]) == 0
    capsys.readouterr()
    assert main(["replay", str(log), "--game", "7"]) == 2
    assert capsys.readouterr().err.strip() == f"empires: error: no game 7 in {log}"


@settings(max_examples=30)
@given(st.text(alphabet="abcdefghijklmnopqrstuvwxyz_0123456789+=", min_size=1, max_size=16)
       .filter(lambda s: s.split("+")[0] not in toygame.STRATEGIES or "+" in s))
def test_any_bad_strategy_spec_is_refused_in_one_line_before_any_game(tmp_path_factory, spec):
    """An unknown name, or any intervention (the toy has none): exit 2, one line, no table written."""
    out = tmp_path_factory.mktemp("bad-spec") / "r.csv"
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        code = main(["play", "toy", "--strategies", f"strong,{spec}", "--out", str(out)])
    message = err.getvalue()
    assert code == 2 and message.count("\n") == 1 and not out.exists()
    assert f"strategy {spec.split('+')[0]!r} is unknown" in message or f"strategy {spec!r}: intervention" in message


@settings(max_examples=25)
@given(st.integers(-5, 70).filter(lambda p: not 2 <= p <= 4))
def test_any_player_count_outside_the_game_is_refused_in_one_line(players):
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        assert main(["play", "toy", "--players", str(players), "--games", "1"]) == 2
    assert err.getvalue().count("\n") == 1 and "2..4" in err.getvalue()


def test_play_shows_win_rates_by_power_and_seat_in_text_and_json(capsys):
    """One strategy on every seat: the strategy table shows nothing, the power and seat tables
    show each level's seat-games, wins and interval, and agree with the results table."""
    argv = ["play", "toy", "--players", "3", "--strategies", "strong", "--games", "30", "--seed", "4", "--quiet"]
    out = run_json(capsys, [*argv, "--json"])
    assert set(out["by_power"]) <= set(toygame.POWERS) and set(out["by_seat"]) == {"0", "1", "2"}
    for table in (out["by_power"], out["by_seat"]):
        assert sum(r["n"] for r in table.values()) == 90
        assert all(0 <= r["ci95"][0] <= r["win_rate"] <= r["ci95"][1] <= 1 for r in table.values())
    assert main(argv) == 0
    lines = capsys.readouterr().out.splitlines()
    heads = [i for i, line in enumerate(lines) if line.split()[:2] in (["power", "seats"], ["seat", "seats"])]
    assert len(heads) == 2
    seat_rows = {line.split()[0]: line.split() for line in lines[heads[1] + 2:heads[1] + 5]}
    assert set(seat_rows) == {"0", "1", "2"}
    for seat, row in seat_rows.items():
        stats = out["by_seat"][seat]
        assert int(row[1]) == stats["n"] and int(row[2]) == round(stats["win_rate"] * stats["n"])
        assert float(row[3]) == pytest.approx(stats["win_rate"], abs=5e-4)


def test_play_acres_names_the_side_win_rates_and_no_seat_table_afs_5_1_1(capsys):
    """The same strategy on both sides of AFAoS: its own rate is 0.5 by construction, the side
    table gives the British and French rates; seats are only labels (the British move first)."""
    argv = ["play", "acres", "--strategies", "random", "--games", "6", "--quiet"]
    out = run_json(capsys, [*argv, "--json"])
    assert set(out["by_power"]) == {"british", "french"} and "by_seat" not in out
    assert [r["win_rate"] for r in out["results"]] == [0.5]
    assert sum(r["win_rate"] for r in out["by_power"].values()) == pytest.approx(1.0)
    assert main(argv) == 0
    text = capsys.readouterr().out
    assert "seats: only labels here, the British always move first" in text
    assert any(line.split()[:1] == ["british"] for line in text.splitlines())


def test_a_log_is_the_same_file_for_any_jobs_and_nothing_else_is_left(tmp_path, capsys):
    """The batches' logs are written as parts on the workers and joined in game order."""
    logs = [tmp_path / "one.jsonl", tmp_path / "two.jsonl"]
    for log, jobs in zip(logs, ("1", "2")):
        assert main(["play", "acres", "--games", "5", "--seed", "3", "--log", str(log), "--jobs", jobs, "--quiet"]) == 0
    assert logs[0].read_bytes() == logs[1].read_bytes()
    heads = [json.loads(line) for line in logs[1].read_text().splitlines() if '"event": "game"' in line]
    assert [h["game_index"] for h in heads] == list(range(5))
    assert sorted(p.name for p in tmp_path.iterdir()) == ["one.jsonl", "two.jsonl"]

