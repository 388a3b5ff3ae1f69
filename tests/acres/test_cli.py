"""`empires odds acres siege` and `empires score acres final`: JSON answers and exit-2 errors."""

import json

import pandas as pd
import pytest

from sim.cli import main


def _json(capsys, argv):
    assert main(argv) == 0
    return json.loads(capsys.readouterr().out)


def test_siege_json_has_probabilities_turns_intervals_n_and_seed(capsys):
    out = _json(capsys, ["odds", "acres", "siege", "--location", "Louisbourg", "--attacker", "british",
                         "--british-add", "regular_infantry=3,leader=1", "--mc", "3000", "--seed", "4", "--json"])
    assert out["n"] == 3000 and out["seed"] == 4 and out["start_position"] == -2
    total = out["attacker_win"] + out["defender_win"] + out["unresolved"]
    assert total == pytest.approx(1.0)
    assert sum(out["turns"].values()) == pytest.approx(out["attacker_win"] + out["defender_win"])
    assert set(out["ci95"]) == {"attacker_win", "defender_win", "unresolved"}
    assert out["decks"]["british"]["regular_infantry"] == 3
    assert "rules.model.max_turns" in out["provenance"]["assumed"]


def test_siege_same_seed_same_answer(capsys):
    argv = ["odds", "acres", "siege", "--location", "albany", "--attacker", "french", "--mc", "2000", "--json"]
    first, second = _json(capsys, argv), _json(capsys, argv)
    assert first["attacker_win"] == second["attacker_win"] and first["turns"] == second["turns"]


def test_siege_whole_deck_by_counts_and_fort(capsys):
    out = _json(capsys, ["odds", "acres", "siege", "--location", "quebec", "--attacker", "british", "--fort",
                         "--british-deck", "regular_infantry=10", "--french-deck", "trader=10",
                         "--mc", "500", "--json"])
    assert out["start_position"] == -5 and out["defender_win"] == 1.0   # P1 = -5 + 4 = -1


def test_siege_table_output(capsys):
    assert main(["odds", "acres", "siege", "--location", "new_york", "--attacker", "french", "--mc", "500"]) == 0
    text = capsys.readouterr().out
    assert "attacker_win" in text and "turns to resolution" in text


@pytest.mark.parametrize("argv, message", [
    (["--location", "Atlantis", "--attacker", "british"], "location 'Atlantis' is unknown; allowed: boston"),
    (["--location", "quebec", "--attacker", "british", "--british-add", "cannon=1"], "allowed: boston"),
    (["--location", "quebec", "--attacker", "british", "--french-deck", "trader=-2"], "negative"),
    (["--location", "quebec", "--attacker", "british", "--british-add", "militia"], "malformed"),
    (["--location", "quebec", "--attacker", "british", "--british-add", "militia=x"], "not an integer"),
    (["--location", "quebec", "--attacker", "british", "--british-deck", "pemaquid=3"], "no card that can open"),
    (["--location", "quebec", "--attacker", "british", "--policy", "cautious"], "greedy, sufficient"),
    (["--location", "quebec", "--attacker", "british", "--set", "rules.siege.fort_bonus=-1"], "out of range"),
    (["--location", "quebec", "--attacker", "british", "--british-deck", "militia=0"], "empty"),
])
def test_siege_bad_input_exits_2_with_one_line(capsys, argv, message):
    assert main(["odds", "acres", "siege", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["--location", "quebec", "--attacker", "spanish"],
    ["--location", "quebec", "--attacker", "british", "--mc", "0"],
    ["--location", "quebec", "--attacker", "british", "--british-money", "-1"],
    ["--location", "quebec", "--attacker", "british", "--attacker-cycle", "6"],
    ["--location", "quebec", "--attacker", "british", "--defender-cycle", "-1"],
])
def test_siege_argparse_errors_exit_2(capsys, argv):
    with pytest.raises(SystemExit) as exc:
        main(["odds", "acres", "siege", *argv])
    assert exc.value.code == 2
    assert capsys.readouterr().err.count("\n") == 1


def test_score_final_example_afs_e21(capsys):
    british = ("boston=town,new_york=town,new_haven=village,norfolk=village,pemaquid=village,"
               "philadelphia=village,st_marys=village,albany=town,halifax=village")
    french = ("quebec=town,montreal=village,trois_rivieres=village,gaspe=village,tadoussac=village,"
              "port_royal=village,louisbourg=village,fort_niagara=village,fort_frontenac=village")
    out = _json(capsys, ["score", "acres", "final", "--british", british, "--british-captured", "cubes=2,discs=1",
                         "--french", french, "--french-captured", "cubes=1", "--json"])
    assert out["british"]["total"] == 35 and out["french"]["total"] == 35 and out["winner"] == "french"


@pytest.mark.parametrize("argv, message", [
    (["--british", "boston=castle"], "village, town"),
    (["--british", "boston"], "malformed"),
    (["--british", "boston=town", "--french", "boston=village"], "both sides"),
    (["--french", "atlantis=town"], "unknown"),
    (["--british-captured", "forts=1"], "allowed: cubes, discs"),
    (["--british-captured", "cubes=-1"], "negative"),
])
def test_score_bad_input_exits_2(capsys, argv, message):
    assert main(["score", "acres", "final", *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


SMALL = ["odds", "acres", "siege", "--location", "montreal", "--attacker", "british", "--max-turns", "14",
         "--british-deck", "regular_infantry=2,militia=2,pemaquid=4,leader=1",
         "--french-deck", "militia=2,regular_infantry=1,trader=3,montreal=1,fortification=1", "--json"]


def test_siege_exact_agrees_with_monte_carlo(capsys):
    exact = _json(capsys, SMALL + ["--exact"])
    mc = _json(capsys, SMALL + ["--mc", "40000", "--seed", "9"])
    assert exact["method"] == "exact" and exact["n"] is None and mc["method"] == "monte-carlo"
    assert exact["attacker_win"] + exact["defender_win"] + exact["unresolved"] == pytest.approx(1.0)
    for key in ("attacker_win", "defender_win", "unresolved"):
        p = exact[key]
        assert abs(mc[key] - p) <= 4 * (p * (1 - p) / mc["n"]) ** 0.5
    assert exact["siege_cards"]["british"]["value 2"] == ["regular_infantry"]
    assert exact["siege_cards"]["french"]["dead"] == ["montreal", "trader"]


def test_afs_13_2_each_sides_cycle_from_the_command_line(capsys):
    """`--attacker-cycle` / `--defender-cycle` set one side's dead cards cycled an action (the
    other keeps the rules' count and its own policy), and are read exactly: against a defender
    who keeps his hand, an attacker who digs wins more often than one who keeps his, and a
    defender who digs wins more often than one who keeps his."""
    def attacker_wins(*flags: str) -> dict:
        return _json(capsys, SMALL + ["--exact", "--policy", "sufficient", *flags])

    keeps = attacker_wins("--attacker-cycle", "0", "--defender-cycle", "0")
    digs = attacker_wins("--attacker-cycle", "2", "--defender-cycle", "0")
    assert keeps["policy"] == "sufficient, cycle 0" and digs["policy"] == "sufficient, cycle 2"
    assert digs["attacker_win"] > keeps["attacker_win"]
    dug = attacker_wins("--defender-cycle", "2")
    assert dug["policy"] == "sufficient" and dug["defender_policy"] == "sufficient, cycle 2"
    assert dug["attacker_win"] < attacker_wins("--defender-cycle", "0")["attacker_win"]
    alone = _json(capsys, SMALL + ["--exact", "--attacker-cycle", "0"])
    assert alone["policy"] == "greedy, cycle 0" and alone["defender_policy"] == "greedy"


def test_siege_exact_and_mc_exclude_each_other(capsys):
    assert main(SMALL + ["--exact", "--mc", "10"]) == 2
    assert "exclude" in capsys.readouterr().err


@pytest.mark.parametrize("location, attacker", [("boston", "british"), ("new_york", "british"),
                                                ("quebec", "french"), ("louisbourg", "french")])
def test_afs_8_1_1_no_siege_of_own_location(capsys, location, attacker):
    """AFS-8.1.1 / AFS-4.6: the target is controlled by the opponent; a side's own setup location is
    refused with one line naming the locations it may besiege."""
    from sim.acres.components import load, other
    acres = load()
    theirs = [lid for lid, loc in acres.locations.items()
              if loc.start.startswith({"british": "fr_", "french": "gb_"}[attacker])]
    code = main(["odds", "acres", "siege", "--location", location, "--attacker", attacker])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "AFS-8.1.1" in err and all(lid in err for lid in theirs) and f"--owner {other(attacker)}" in err


def test_afs_8_1_1_owner_flag(capsys):
    """--owner: a location taken during the game may be besieged back; a side's own is refused."""
    code = main(["odds", "acres", "siege", "--location", "boston", "--attacker", "british", "--owner", "french",
                 "--mc", "500", "--json"])
    assert code == 0 and json.loads(capsys.readouterr().out)["defender"] == "french"
    code = main(["odds", "acres", "siege", "--location", "quebec", "--attacker", "british", "--owner", "british"])
    assert code == 2 and "AFS-8.1.1" in capsys.readouterr().err


def test_play_seats_each_sides_strategy_on_its_side_whatever_the_seat(tmp_path):
    """Issue 14: `--strategies hammer,raider` is British hammer against French raider, seats rotated."""
    out = tmp_path / "games.csv"
    assert main(["play", "acres", "--strategies", "hammer,raider", "--games", "4", "--out", str(out)]) == 0
    table = pd.read_csv(out)
    assert set(map(tuple, table[["strategy", "power"]].values)) == {("hammer", "british"), ("raider", "french")}
    assert set(table[table.strategy == "hammer"].seat) == {0, 1}


def test_afs_10_a_defender_who_ambushes_from_the_command_line(capsys):
    """`--defender-policy greedy+ambush`: the French Native Americans ambush the British hand
    (AFS-10) instead of being cycled; the exact answer falls and names the ambush classes."""
    deck = ["--french-deck", "militia=1,native_americans=2,trader=2,montreal=1,regular_infantry=1"]
    plain = _json(capsys, SMALL[:-3] + deck + ["--json", "--exact"])
    ambushed = _json(capsys, SMALL[:-3] + deck + ["--json", "--exact", "--defender-policy", "greedy+ambush"])
    assert ambushed["attacker_win"] < plain["attacker_win"] - 0.1
    assert "native_americans" in ambushed["siege_cards"]["french"]["dead, ambushes, blocks ambushes"]
