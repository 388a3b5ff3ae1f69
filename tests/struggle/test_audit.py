"""What the player audit reads from a Struggle of Empires log (sim.struggle.audit), and
`empires audit`."""

from __future__ import annotations

import json

from sim.cli import main
from tests.cli import exit_code
from sim.struggle.audit import audit_items, audit_records

HEAD = {"event": "game", "game": "struggle", "game_index": 0, "seed": 1, "powers": ["spain", "france"],
        "strategies": ["mixed+ban=indians", "random"]}


def ev(event: str, war: int = 1, rnd: int = 1, **fields) -> dict:
    return {"event": event, "war": war, "round": rnd, **fields}


def test_forecasts_choices_last_round_and_rebuilds_in_place_soe_12_soe_9_5():
    events = [
        ev("action", seat=0, kind="attack"), ev("attack", seat=0, region="india", target="france", p_win=0.7),
        ev("naval_battle", attacker="spain", winner=-1), ev("battle", attacker="spain", region="india", winner=1),
        ev("attack", seat=1, region="india", target="spain"), ev("battle", attacker="france", winner=-1),   # no forecast
        ev("diplomacy", seat=0, tile="indians"), ev("action", seat=1, kind="buy"), ev("buy", seat=1, tile="war_office"),
        ev("action", 1, 6, seat=0, kind="build"), ev("destroy", 1, 6, seat=0, unit="army", region="india"),
        ev("build", 1, 6, seat=0, unit="army", tile=None),
        ev("move", 1, 6, seat=0, unit="army", src="home", dst="india", sea="arrived", rolled=True),
        ev("action", 1, 6, seat=1, kind="pass"), ev("pass", 1, 6, seat=1)]
    rec = audit_records(HEAD, events)
    assert [(f.strategy, f.predicted, f.happened) for f in rec.forecasts] == [("mixed", 0.7, True)]
    assert ("mixed", 0, "tile:indians") in rec.chosen and ("random", 1, "tile:war_office") in rec.chosen
    assert ("mixed", 0, "action:diplomacy") in rec.chosen and ("random", 1, "action:pass") in rec.chosen
    assert rec.actions == [("mixed", "attack", False), ("random", "buy", False), ("mixed", "build", True),
                           ("random", "pass", True)]
    assert rec.wasted == [("mixed", "rebuild_in_place")]


def test_a_rebuild_that_moves_the_unit_elsewhere_is_not_waste():
    events = [ev("action", seat=0, kind="build"), ev("destroy", seat=0, unit="army", region="india"),
              ev("build", seat=0, unit="army", tile=None),
              ev("move", seat=0, unit="army", src="home", dst="levant", sea="arrived", rolled=True)]
    assert audit_records(HEAD, events).wasted == []
    assert "tile:war_office" in audit_items(["war_office"]) and "action:attack" in audit_items([])


def test_a_unit_destroyed_and_rebuilt_at_home_is_waste_soe_9_5():
    events = [ev("action", seat=0, kind="build"), ev("destroy", seat=0, unit="fleet", region="home"),
              ev("build", seat=0, unit="fleet", tile=None), ev("action", seat=0, kind="pass")]
    assert audit_records(HEAD, events).wasted == [("mixed", "rebuild_in_place")]


def test_audit_command_json_and_page(tmp_path, capsys):
    out = tmp_path / "audit"
    assert main(["audit", "struggle", "--games", "8", "--seed", "2", "--out", str(out), "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert {"calibration", "coverage", "idle", "wasted", "provenance"} <= set(result)
    assert result["games"] == 8 and result["provenance"]["engine_version"] >= 4
    for b in result["calibration"]:
        assert b["ci95"][0] <= b["realised"] <= b["ci95"][1] and b["n"] > 0 and 0 <= b["predicted"] <= 1
    assert set(result["coverage"]) == {"colonial", "european", "mixed", "random"}
    assert all(0 <= share <= 1 for shares in result["coverage"].values() for share in shares.values())
    assert {"index.html", "audit.json", "calibration.png", "coverage.png"} <= {p.name for p in out.iterdir()}
    assert "Calibration" in (out / "index.html").read_text()


def test_audit_bad_input_is_one_line_exit_2(capsys):
    assert main(["audit", "toy", "--games", "2"]) == 2
    assert "offers no player audit" in capsys.readouterr().err
    assert main(["audit", "struggle", "--players", "9", "--games", "2"]) == 2
    assert main(["audit", "struggle", "--strategies", "genius", "--games", "2"]) == 2
    assert exit_code(["audit", "struggle", "--jobs", "0", "--games", "2"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 3 and "2..7" in err[0] and "genius" in err[1] and "--jobs" in err[2] and "1..64" in err[2]
