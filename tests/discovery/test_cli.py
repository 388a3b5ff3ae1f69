"""`empires odds discovery ...` and `empires score discovery ...`: JSON answers and exit 2."""

import json

import pytest

from sim.cli import main


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_explore_json(capsys):
    out = run_json(capsys, "odds", "discovery", "explore", "--party", "3", "--soldiers", "1", "--region", "Peru")
    assert out["method"] == "exact" and out["region"] == "peru"
    assert out["p_success_exact"] == "11/16" and len(out["pool"]) == 16
    assert abs(sum(out["money_pmf"].values()) - 1) < 1e-12


def test_explore_party_of_units_and_known_token(capsys):
    out = run_json(capsys, "odds", "discovery", "explore", "--party", "captain=1,soldier=1,colonist=1",
                   "--region", "canada", "--known", "T12")
    assert out["party"] == 4 and out["soldiers"] == 1 and out["expected_money"] == 7


def test_explore_cards_mc(capsys):
    out = run_json(capsys, "odds", "discovery", "explore", "--party", "5", "--cards", "--mc", "20000", "--seed", "3")
    assert out["method"] == "monte_carlo" and out["n"] == 20000 and out["seed"] == 3
    assert out["ci95"][0] <= out["p_success"] <= out["ci95"][1]
    assert out["exact"]["p_success"] == 13 / 16


def test_war_json(capsys):
    out = run_json(capsys, "odds", "discovery", "war", "--kind", "war",
                   "--region", "florida", "--attacker", "colonist=2", "--defender", "soldier=1",
                   "--region", "canada", "--attacker", "colonist=1", "--defender", "colonist=3")
    assert out["cost"] == 10
    florida, canada = out["regions"]
    assert florida["fight"] and florida["attacker_losses"] == {"colonist": 1}
    assert not canada["fight"] and canada["attacker_losses"] == {}


def test_trade_json(capsys):
    out = run_json(capsys, "score", "discovery", "trade", "--goods", "gold=4,silver=2,cattle=1", "--ships", "1")
    assert out["income"] == 9
    assert sorted(g["value"] for g in out["groups"]) == [3, 6]
    assert out["unused"] == {"goods": {"cattle": 1}, "ships": 0}


def test_colonies_json(capsys):
    out = run_json(capsys, "score", "discovery", "colonies", "--counts", "red=5,blue=3,green=3")
    assert out["vp"] == {"red": 6, "blue": 0, "green": 0}
    out = run_json(capsys, "score", "discovery", "colonies", "--counts", "red=5,blue=1",
                   "--counts", "red=4,blue=4", "--set", "rules.colonies.threshold_reading=per_player")
    assert out["reading"] == "per_player" and out["vp"] == {"red": 8, "blue": 2}
    assert "rules.colonies.threshold_reading" in out["provenance"]["assumed"]


def test_human_tables(capsys):
    assert main(["score", "discovery", "trade", "--goods", "sugar=3", "--ships", "1"]) == 0
    assert "income $6" in capsys.readouterr().out
    assert main(["odds", "discovery", "explore", "--party", "4"]) == 0
    assert "P(success)" in capsys.readouterr().out


@pytest.mark.parametrize("argv, message", [
    (["score", "discovery", "trade", "--goods", "spice=1"], "allowed: gold"),
    (["score", "discovery", "trade", "--goods", "sugar=-2"], "negative"),
    (["score", "discovery", "trade", "--goods", "sugar"], "malformed"),
    (["score", "discovery", "trade", "--goods", "sugar=x"], "not an integer"),
    (["score", "discovery", "trade", "--goods", "sugar=7"], "allowed 0..6"),
    (["score", "discovery", "trade", "--goods", "sugar=1", "--ships", "9"], "allowed 0..8"),
    (["score", "discovery", "colonies", "--counts", "purple=3"], "allowed: red"),
    (["score", "discovery", "colonies", "--counts", "red=3,red=2"], "twice"),
    (["odds", "discovery", "explore", "--party", "3", "--region", "atlantis"], "new_granada"),
    (["odds", "discovery", "explore", "--party", "3", "--region", "caribbean"], "already discovered"),
    (["odds", "discovery", "explore", "--party", "3", "--unrevealed", "T01,T99"], "T16"),
    (["odds", "discovery", "explore", "--party", "knight=2"], "allowed: colonist"),
    (["odds", "discovery", "explore", "--party", "many"], "malformed"),
    (["odds", "discovery", "explore", "--party", "3", "--cards", "--region", "peru"], "tokens only"),
    (["odds", "discovery", "war", "--region", "canada", "--attacker", "soldier=1"], "one --attacker"),
    (["odds", "discovery", "war", "--region", "canada", "--attacker", "soldier=1", "--defender", "pikeman=2"],
     "allowed: colonist"),
    (["score", "discovery", "trade", "--goods", "sugar=1", "--set", "goods.edition=latin"], "english"),
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv, message):
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_argparse_errors_exit_2(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["score", "discovery", "trade", "--goods", "sugar=1", "--ships", "-1"])
    assert exc.value.code == 2
