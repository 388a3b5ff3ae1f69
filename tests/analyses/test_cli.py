"""`empires tile-value` and `empires report`: bad input is one line and exit 2, before any work."""

import pytest

from sim.cli import main


@pytest.mark.parametrize("argv, message", [
    (["tile-value", "struggle", "--tiles", "dragon"], "tile: 'dragon'"),
    (["tile-value", "struggle", "--strategy", "clever"], "strategy: 'clever'"),
    (["tile-value", "struggle", "--players", "9"], "--players 9"),
    (["tile-value", "struggle", "--blocks", "1"], "--blocks"),
    (["tile-value", "struggle", "--tiles", "war_office", "--sweep", "tiles.war_office.cost_gold=19..22"], "out of range"),
    (["tile-value", "struggle", "--tiles", "war_office", "--sweep", "tiles.war_office.cost_gold=6..2"], "malformed"),
    (["tile-value", "struggle", "--tiles", "war_office,banking", "--sweep", "tiles.war_office.cost_gold=0..2"],
     "one tile"),
    (["tile-value", "acres", "--power", "dutch"],            # --players defaults to 2 here
     "--power 'dutch' is unknown for acres; allowed: british, french"),
    (["tile-value", "acres", "--players", "2", "--tiles", "settlers", "--sweep", "cards.british.settlers.cost=4..5"],
     "--sweep measures one side of acres; name it with --power british or french"),
    (["tile-value", "acres", "--grant", "gold=5"], "--grant 'gold=5': resource must be one of money"),
    (["tile-value", "acres", "--grant", "money=0"], "--grant 'money=0': the dose must be a whole number"),
    (["tile-value", "acres", "--grant", "money=2.5"], "--grant 'money=2.5': the dose must be a whole number"),
    (["report", "--tiles", "dragon"], "--tiles dragon: no played game has this asset"),
    (["report", "--players", "9"], "out of range"),
    (["report", "--tile-strategies", "clever"], "strategy: 'clever'"),
    (["report", "--tile-strategies", "<default>-expert"], "--tile-strategies <default>-expert: no such skill level"),
    (["report", "--games", "0"], "--games"),
])
def test_bad_input_is_one_line_and_exit_2(argv, message, capsys, tmp_path):
    out = tmp_path / "out"
    try:
        code = main([*argv, "--out", str(out)]) if argv[0] == "report" else main(argv)
    except SystemExit as exc:               # argparse refuses malformed options this way
        code = exc.code
    err = capsys.readouterr().err.strip()
    assert code == 2 and message in err and len(err.splitlines()) == 1
    assert not out.exists()                 # nothing half-written


def test_tile_value_without_prices_prints_no_price_column(capsys):
    """--no-prices plays no grant arms, so the table has no fair-price or verdict column to leave blank."""
    assert main(["tile-value", "tilegame", "--blocks", "2", "--quiet", "--no-prices"]) == 0
    header = capsys.readouterr().out.splitlines()[0]
    assert "d win" in header and "fair price" not in header and "verdict" not in header


def test_tile_value_grant_sets_the_dose_of_the_fair_prices_exchange_rate(capsys):
    """--grant RESOURCE=DOSE replaces the game's dose: the resource table reads the new grant arm."""
    assert main(["tile-value", "tilegame", "--blocks", "2", "--quiet", "--json", "--grant", "gold=7"]) == 0
    import json
    resources = json.loads(capsys.readouterr().out)["resources"]
    assert [r["dose"] for r in resources if r["resource"] == "gold"] == [7]
