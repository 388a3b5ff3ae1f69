"""Every tuned table a game ships in `sim/<game>/data/tuned.toml` (docs/tuning.md): a named
strategy that joins the data only when asked for, within the bounds of its base, with its
provenance, a gain that held on fresh games, and tuned on games the report never plays."""

import tomllib
from importlib import resources

import pytest

from analyses.balance_report import ReportSize
from sim import games
from sim.core.data import load_game_data, named_strategies

PROVENANCE = ("_tuned_from", "_against", "_players", "_trials", "_games_per_trial", "_seed", "_code_version",
              "_engine_version", "_data_hash", "_overrides", "_score", "_score_ci95", "_check_seed", "_check_gain",
              "_check_gain_ci95")


def shipped(game: str) -> dict[str, dict]:
    """The tables of a game's tuned.toml as written, provenance included (empty without one)."""
    path = resources.files(f"sim.{game}").joinpath("data/tuned.toml")
    return tomllib.loads(path.read_text("utf-8"))["strategies"] if path.is_file() else {}


TABLES = [(game, name) for game in games.PACKAGES for name in sorted(shipped(game))]


def test_every_game_ships_its_tuned_tables_through_tuned_toml():
    """A game's named strategies are exactly its tuned.toml's, and every game has some (its
    default strategy's tuned table, the top skill level of the report's values, where it has one)."""
    for game in games.PACKAGES:
        assert set(named_strategies(game)) == set(shipped(game))
    assert {game for game, _ in TABLES} == set(games.PACKAGES)
    defaults = {game: f"{games.info(game).default_strategy}-tuned" for game in games.PACKAGES}
    assert {game for game, name in TABLES if name == defaults[game]} == {"struggle", "discovery", "conquest"}
    assert ("acres", "balanced-tuned") in TABLES          # AFAoS's default is the random baseline


@pytest.mark.parametrize(("game", "name"), TABLES)
def test_each_table_is_shipped_with_its_provenance_and_a_gain_on_fresh_games(game, name):
    table = shipped(game)[name]
    assert all(key in table for key in PROVENANCE)
    start = table["_tuned_from"]       # its base, its own earlier table, or another shipped table of its base
    assert start in (table["base"], name) or shipped(game).get(start, {}).get("base") == table["base"]
    assert 1 <= table["_engine_version"] <= games.info(game).engine_version
    assert table["_check_gain_ci95"][0] > 0                    # its gain held on fresh games when it was made
    assert table["_score_ci95"][0] <= table["_score"] <= table["_score_ci95"][1]


@pytest.mark.parametrize(("game", "name"), TABLES)
def test_each_table_was_tuned_on_games_the_report_does_not_play(game, name):
    """A tuning picks the table that did best on its own games, so those games flatter it: the
    report (its default seed) must play others, as the tuning's own fresh check does."""
    table = shipped(game)[name]
    assert table["_seed"] != ReportSize().seed and table["_check_seed"] != ReportSize().seed


@pytest.mark.parametrize(("game", "name"), TABLES)
def test_each_table_stays_out_of_the_default_data_until_asked_for(game, name):
    """Shipping one changes neither the default data, nor its hash, nor the golden games; asking
    for it loads it as overrides within its base's bounds."""
    default = load_game_data(game)
    assert name not in default.strategies and "tuned" not in default.tree
    table = shipped(game)[name]
    data = load_game_data(game, strategies=[name])
    assert data.hash != default.hash and data.overrides[f"strategies.{name}.base"] == table["base"]
    values = {k: v for k, v in table.items() if not k.startswith("_") and k != "base"}
    assert set(data.get(f"strategies.{name}")) == set(data.get(f"strategies.{table['base']}"))   # a whole table
    assert values and all(data.get(f"strategies.{name}.{k}") == v for k, v in values.items())
    for key, value in values.items():
        leaf = data.leaves[f"strategies.{table['base']}.{key}"]
        assert leaf.low <= value <= leaf.high
