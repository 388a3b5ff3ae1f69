"""`empires odds struggle ...` and `empires score struggle ...`: JSON keys, values, bad input."""

import json

import pytest

from sim.cli import main
from sim.core.stats import binomial_se
from sim.struggle.combat_exact import Attack, attack_odds


def run_json(capsys, *argv):
    assert main([*argv, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_battle_exact_keys_and_values(capsys):
    out = run_json(capsys, "odds", "struggle", "battle", "--attacker-units", "3", "--defender-units", "2",
                   "--defender-forts", "1")
    assert out["method"] == "exact"
    assert set(out) >= {"attacker_win", "tie", "defender_win", "attacker_losses", "defender_losses", "control_change"}
    exact = attack_odds(Attack(att_armies=3, def_armies=2, def_forts=1))
    assert out["attacker_win"] == pytest.approx(exact.attacker_win)
    assert out["attacker_win"] + out["tie"] + out["defender_win"] == pytest.approx(1)
    assert sum(out["attacker_losses"].values()) == pytest.approx(1)
    assert all(isinstance(k, str) for k in out["defender_losses"])
    assert "options.reserves_policy" in out["provenance"]["assumed"]


def test_battle_monte_carlo_keys_and_agreement(capsys):
    n = 20_000
    out = run_json(capsys, "odds", "struggle", "battle", "--attacker-units", "2", "--neutral", "3",
                   "--mc", str(n), "--seed", "4")
    assert out["method"] == "monte_carlo" and out["n"] == n and out["seed"] == 4
    exact = attack_odds(Attack(att_armies=2, neutral=3))
    for key in ("attacker_win", "tie", "defender_win", "control_change"):
        low, high = out["ci95"][key]
        assert low <= out[key] <= high
    assert abs(out["attacker_win"] - exact.attacker_win) <= 4 * binomial_se(exact.attacker_win, n)
    assert out["defender_losses"] == {"0": 1.0}
    assert set(out["ci95"]["attacker_losses"]) == set(out["attacker_losses"])


def test_battle_monte_carlo_is_reproducible(capsys):
    argv = ["odds", "struggle", "battle", "--attacker-units", "3", "--defender-units", "3", "--mc", "5000"]
    first = run_json(capsys, *argv)
    second = run_json(capsys, *argv)
    first.pop("provenance"), second.pop("provenance")
    assert first == second


def test_battle_extra_flags(capsys):
    out = run_json(capsys, "odds", "struggle", "battle", "--attacker-units", "2", "--defender-units", "2",
                   "--attacker-fleets", "1", "--defender-fleets", "1", "--defender-avoids-naval",
                   "--attacker-training", "1", "--attacker-reserves", "1", "--blockade", "attacker",
                   "--defender-allies", "armies=1", "--attacker-alliance", "army")
    exact = attack_odds(Attack(att_armies=2, def_armies=2, att_fleets=1, def_fleets=1, def_wants_naval=False,
                               naval_phase=True, att_army_training=1, att_reserves=1, att_blockade=True,
                               def_ally_armies=1, att_alliance_army=1))
    assert out["attacker_win"] == pytest.approx(exact.attacker_win)


def test_naval_battle(capsys):
    out = run_json(capsys, "odds", "struggle", "battle", "--naval", "--attacker-units", "2", "--defender-units", "1")
    assert out["control_change"] == 0
    assert out["attacker_win"] == pytest.approx(
        attack_odds(Attack(att_armies=0, att_fleets=2, def_fleets=1, naval_phase=True)).attacker_win)


def test_set_changes_the_data_used(capsys):
    base = run_json(capsys, "odds", "struggle", "battle", "--attacker-units", "3", "--defender-forts", "1",
                    "--defender-units", "0")
    weaker = run_json(capsys, "odds", "struggle", "battle", "--attacker-units", "3", "--defender-forts", "1",
                      "--defender-units", "0", "--set", "rules.combat.fort_strength=1")
    assert weaker["attacker_win"] > base["attacker_win"]
    assert weaker["provenance"]["overrides"] == {"rules.combat.fort_strength": 1}


def test_sea(capsys):
    out = run_json(capsys, "odds", "struggle", "sea")
    assert out["arrive"] == pytest.approx(8 / 9) and out["destroyed"] == pytest.approx(1 / 18)
    out = run_json(capsys, "odds", "struggle", "sea", "--navigation", "--units", "2")
    assert out["destroyed"] == 0 and out["arrive"] == pytest.approx(17 / 18)
    assert out["arrivals"]["2"] == pytest.approx((17 / 18) ** 2)
    assert sum(out["arrivals"].values()) == pytest.approx(1)


def test_score_region(capsys):
    out = run_json(capsys, "score", "struggle", "region", "--values", "8,5,3", "--influence", "GB=3,FR=3,AU=2,SP=1")
    assert out["vp"] == {"GB": 8, "FR": 8, "AU": 5, "SP": 3}
    out = run_json(capsys, "score", "struggle", "region", "--region", "africa", "--influence", "A=2,B=2,D=1")
    assert out["vp"] == {"A": 3, "B": 3, "D": 2}


@pytest.mark.parametrize("region", ["ottoman_empire", "africa", "german_states"])
def test_soe_1_4_5_region_holds_at_most_one_marker_per_space(capsys, region):
    """SOE-1.4.5: a region never holds more control markers than it has country tokens (spaces)."""
    from sim.struggle.components import load_components
    spaces = load_components().regions[region].spaces
    full = ",".join(f"P{i}=1" for i in range(spaces))
    assert run_json(capsys, "score", "struggle", "region", "--region", region, "--influence", full)["vp"]
    code = main(["score", "struggle", "region", "--region", region, "--influence", f"{full},X=1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"{spaces} spaces" in err and "SOE-1.4.5" in err


def test_score_unrest(capsys):
    out = run_json(capsys, "score", "struggle", "unrest", "--unrest", "GB=21,FR=9,SP=9,AU=4")
    assert out["penalty"] == {"GB": 0, "FR": -7, "SP": -7, "AU": -4}
    assert out["revolution"] == {"GB": True, "FR": False, "SP": False, "AU": False}
    out = run_json(capsys, "score", "struggle", "unrest", "--unrest", "A=22,B=15,C=15,D=9,E=3",
                   "--vp", "A=40,B=35,C=38,D=30,E=28")
    assert out["final_vp"] == {"A": 0, "B": 28, "C": 31, "D": 26, "E": 28}


def test_human_tables_print(capsys):
    assert main(["odds", "struggle", "battle", "--attacker-units", "2", "--defender-units", "1", "--mc", "2000"]) == 0
    assert "95% interval" in capsys.readouterr().out
    assert main(["odds", "struggle", "sea", "--units", "2"]) == 0
    assert "8/9" in capsys.readouterr().out


@pytest.mark.parametrize("argv", [
    ["odds", "struggle", "battle", "--attacker-units", "-1", "--defender-units", "2"],
    ["odds", "struggle", "battle", "--attacker-units", "2", "--defender-units", "-3"],
    ["odds", "struggle", "battle", "--attacker-units", "2", "--defender-units", "2", "--bogus"],
    ["odds", "struggle", "battle", "--attacker-units", "2", "--defender-units", "2", "--mc", "0"],
    ["odds", "struggle", "battle", "--attacker-units", "2", "--neutral", "0"],
    ["odds", "struggle", "battle", "--attacker-units", "2", "--neutral", "99"],
    ["odds", "struggle", "battle", "--attacker-units", "2", "--neutral", "3", "--defender-units", "1"],
    ["odds", "struggle", "battle", "--attacker-units", "2"],
    ["odds", "struggle", "battle", "--attacker-units", "0", "--defender-units", "1"],
    ["odds", "struggle", "battle", "--attacker-units", "20", "--defender-units", "1"],
    ["odds", "struggle", "battle", "--attacker-units", "2", "--defender-units", "1", "--defender-forts", "3"],
    ["odds", "struggle", "battle", "--naval", "--attacker-units", "2", "--defender-units", "0"],
    ["odds", "struggle", "battle", "--attacker-units", "2", "--defender-units", "1", "--attacker-allies", "tanks=2"],
    ["odds", "struggle", "battle", "--attacker-units", "2", "--defender-units", "1",
     "--set", "tiles.war_office.cost_gold=-1"],
    ["odds", "struggle", "battle", "--attacker-units", "2", "--defender-units", "1", "--set", "nope.x=1"],
    ["odds", "struggle", "sea", "--units", "0"],
    ["score", "struggle", "region", "--values", "8,x", "--influence", "A=1"],
    ["score", "struggle", "region", "--values", "8,5,3", "--influence", "A=-1"],
    ["score", "struggle", "region", "--region", "atlantis", "--influence", "A=1"],
    ["score", "struggle", "region", "--region", "ottoman_empire", "--influence", "GB=5,FR=4"],
    ["score", "struggle", "region", "--values", "5,3", "--region", "ottoman_empire", "--influence", "GB=5"],
    ["score", "struggle", "unrest", "--unrest", "A"],
    ["score", "struggle", "unrest", "--unrest", "A=3,B=2", "--vp", "A=3"],
])
def test_bad_input_is_one_line_and_exit_2(capsys, argv):
    code = None
    try:
        code = main(argv)
    except SystemExit as exc:
        code = exc.code
    assert code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err
