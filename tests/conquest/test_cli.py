"""`empires odds conquest battle|naval`: JSON keys, Monte Carlo intervals, one-line errors."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.cli import main

BATTLE = ["odds", "conquest", "battle", "--attacker", "infantry=5,cavalry=2,catapults=1", "--attacker-leaders", "2",
          "--defender", "infantry=4,cavalry=2", "--defender-leaders", "1"]


def run(capsys, argv):
    try:
        code = main(argv)
    except SystemExit as exc:  # argparse errors: one line and exit 2 as well
        code = exc.code
    out, err = capsys.readouterr()
    return code, out, err


def test_battle_json_exact(capsys):
    code, out, _ = run(capsys, BATTLE + ["--json"])
    assert code == 0
    res = json.loads(out)
    assert res["method"] == "exact"
    for key in ("attacker_win", "defender_win", "both_destroyed", "attacker_survivors", "defender_survivors",
                "defender_leaders_captured"):
        assert key in res
    assert res["attacker_win"] + res["defender_win"] + res["both_destroyed"] == pytest.approx(1.0)
    assert sum(res["attacker_survivors"].values()) == pytest.approx(1.0)
    assert set(res["defender_leaders_captured"]) <= {"0", "1"}
    assert "options.catapult_cap" in res["provenance"]["assumed"]


def test_battle_json_monte_carlo_has_n_seed_and_intervals(capsys):
    code, out, _ = run(capsys, BATTLE + ["--fortified", "--mc", "20000", "--seed", "4", "--json"])
    res = json.loads(out)
    assert code == 0 and res["method"] == "monte_carlo" and res["n"] == 20000 and res["seed"] == 4
    low, high = res["ci95"]["attacker_win"]
    assert low <= res["attacker_win"] <= high
    for count, (lo, hi) in res["ci95"]["attacker_survivors"].items():
        assert lo <= res["attacker_survivors"][count] <= hi


def test_battle_optimal_with_policy_table(capsys):
    code, out, _ = run(capsys, BATTLE + ["--policy", "optimal", "--unit-weight", "0.05", "--show-policy", "--json"])
    res = json.loads(out)
    assert code == 0 and res["policy"]["attacker"] == "optimal" and isinstance(res["retreat_states"], list)
    code, out, _ = run(capsys, BATTLE + ["--policy", "optimal", "--show-policy"])
    assert code == 0 and "retreat" in out


def test_battle_table_output(capsys):
    code, out, _ = run(capsys, BATTLE + ["--policy", "retreat-below=2"])
    assert code == 0 and "attacker win" in out and "retreat-below=2" in out


def test_naval_json(capsys):
    code, out, _ = run(capsys, ["odds", "conquest", "naval", "--attacker-galleys", "1", "--defender-galleys", "1",
                                "--attacker-carried", "4+1", "--json"])
    res = json.loads(out)
    assert code == 0 and res["attacker_leaders_lost"]["1"] == pytest.approx(res["attacker_galleys"]["0"])


@pytest.mark.parametrize("args", [
    ["--attacker", "dragons=3", "--defender", "infantry=1"],
    ["--attacker", "infantry=-1", "--defender", "infantry=1"],
    ["--attacker", "infantry", "--defender", "infantry=1"],
    ["--attacker", "infantry=x", "--defender", "infantry=1"],
    ["--attacker", "infantry=20,cavalry=20,catapult=6", "--defender", "infantry=20,cavalry=20,catapult=6"],
    ["--attacker", "infantry=2", "--defender", "infantry=0"],
    ["--attacker", "infantry=2", "--defender", "infantry=1", "--policy", "retreat-below=0"],
    ["--attacker", "infantry=2", "--defender", "infantry=1", "--attacker-leaders", "-1"],
    ["--attacker", "infantry=2", "--defender", "infantry=1", "--loss-order", "infantry,cavalry"],
    ["--attacker", "infantry=2", "--defender", "infantry=1", "--set", "options.pursuit_cap=sometimes"],
])
def test_battle_bad_input_is_one_line_exit_2(capsys, args):
    code, out, err = run(capsys, ["odds", "conquest", "battle"] + args)
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1


@pytest.mark.parametrize("args", [
    ["--attacker-galleys", "1", "--defender-galleys", "1", "--attacker-carried", "9"],
    ["--attacker-galleys", "1", "--defender-galleys", "1", "--attacker-carried", "x+1"],
    ["--attacker-galleys", "1", "--defender-galleys", "1", "--attacker-carried", "1,1"],
])
def test_naval_bad_input_is_one_line_exit_2(capsys, args):
    code, _, err = run(capsys, ["odds", "conquest", "naval"] + args)
    assert code == 2 and len(err.strip().splitlines()) == 1


@settings(max_examples=40)
@given(text=st.text(alphabet="infatrycvlpu=,-0123456789x ", max_size=30))
def test_malformed_unit_lists_never_crash(text):
    """Any --attacker text either runs or fails with a one-line error and exit 2."""
    try:
        code = main(["odds", "conquest", "battle", "--attacker", text, "--defender", "infantry=1", "--json"])
    except SystemExit as exc:  # argparse rejects some texts before the handler
        code = exc.code
    assert code in (0, 2)


def _limits():
    from sim.conquest.components import default_components
    comps = default_components()
    leaders = sum(int(comps.data.get(f"units.leaders.{k}")) for k in ("caesars", "generals"))
    return {u: comps.units[u].limit for u in ("infantry", "cavalry", "catapult")}, leaders


@pytest.mark.parametrize("unit", ["infantry", "cavalry", "catapult"])
def test_coe_2_4_unit_limits_per_colour(capsys, unit):
    """COE-2.4: one side's units come from one colour's supply; one more is refused naming the limit."""
    limit = _limits()[0][unit]
    code, out, err = run(capsys, ["odds", "conquest", "battle", "--attacker", f"{unit}={limit + 1}",
                                  "--defender", "infantry=1"])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert f"0..{limit}" in err and "COE-2.4" in err
    code, _, _ = run(capsys, ["odds", "conquest", "battle", "--attacker", "infantry=1",
                              "--defender", f"{unit}={limit}", "--mc", "200", "--json"])
    assert code == 0


def test_coe_2_4_leader_limit_per_colour(capsys):
    """COE-2.4: one Caesar and four Generals per colour; the old 0..8 range no longer applies."""
    most = _limits()[1]
    code, out, err = run(capsys, ["odds", "conquest", "battle", "--attacker", "infantry=2", "--defender",
                                  "infantry=1", "--attacker-leaders", str(most + 1)])
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1 and f"0..{most}" in err
    code, _, _ = run(capsys, ["odds", "conquest", "battle", "--attacker", "infantry=2", "--defender",
                              "infantry=1", "--defender-leaders", str(most), "--json"])
    assert code == 0


def test_piece_limits_follow_the_data(capsys):
    """COE-25.2 / COE-A36: a raised limit (inherited pieces) is honoured; the error text names it."""
    code, _, err = run(capsys, ["odds", "conquest", "battle", "--attacker", "infantry=25", "--defender",
                                "infantry=1", "--set", "units.infantry.limit=24"])
    assert code == 2 and "0..24" in err
    code, _, _ = run(capsys, ["odds", "conquest", "battle", "--attacker", "infantry=25", "--defender",
                              "infantry=1", "--set", "units.infantry.limit=40", "--mc", "200", "--json"])
    assert code == 0
