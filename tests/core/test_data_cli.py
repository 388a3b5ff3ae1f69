"""`empires data <game>`: every game lists its tagged data; bad overrides are one line, exit 2."""

import json

import pytest

from sim.cli import main

GAMES = ("struggle", "conquest", "acres", "discovery")


@pytest.mark.parametrize("game", GAMES)
def test_every_value_is_tagged_and_listed(game, capsys):
    assert main(["data", game, "--json"]) == 0
    listing = json.loads(capsys.readouterr().out)
    assert listing["values"] and {row["status"] for row in listing["values"]} <= {"FOUND", "DERIVED", "ASSUMED"}
    assert listing["data_hash"] and listing["rules_edition"] != "unspecified"


@pytest.mark.parametrize("argv, message", [
    (["data", "struggle", "--set", "tiles.war_office.cost_gold=-1"], "out of range"),
    (["data", "struggle", "--set", "tiles.war_office.cost=1"], "unknown struggle data path"),
    (["data", "struggle", "--set", 'alliances.turkey.regions=["atlantis"]'], "'atlantis' is unknown"),
    (["data", "struggle", "--set", "tiles.war_office.cost_gold"], "malformed"),
])
def test_bad_overrides_are_one_line_exit_2(argv, message, capsys):
    assert main(argv) == 2
    err = capsys.readouterr().err.strip()
    assert message in err and len(err.splitlines()) == 1


def test_override_changes_the_value_and_the_hash(capsys):
    main(["data", "struggle", "--json"])
    before = json.loads(capsys.readouterr().out)
    main(["data", "struggle", "--json", "--set", "tiles.war_office.cost_gold=6"])
    after = json.loads(capsys.readouterr().out)
    value = {r["path"]: r for r in after["values"]}["tiles.war_office.cost_gold"]
    assert value["value"] == 6 and value["overridden"] and after["data_hash"] != before["data_hash"]
