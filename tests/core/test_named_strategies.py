"""Named strategies from data (sim.core.data): `[strategies.NAME]` with `base = "BASE"` and
parameter overrides, in a variant file or by `--set`, checked against the base table's bounds
and played under their name (SoE players: SOE-23 strategy tables, SOE-28 decisions)."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim import games
from sim.cli import main
from sim.core.data import DataError, load_game_data, named_strategies

DEFAULT = load_game_data("struggle")
BUILT_IN = DEFAULT.strategies


def variant(tmp_path, text: str):
    path = tmp_path / "named.toml"
    path.write_text(text, "utf-8")
    return path


def test_a_named_strategy_is_its_base_with_the_overrides(tmp_path):
    data = load_game_data("struggle", variants=[variant(tmp_path, """
[strategies.mixed-careful]
_note = "keys starting with _ are comments"
base = "mixed"
min_win = 0.6
max_units = 12
""")])
    table, base = data.get("strategies.mixed-careful"), data.get("strategies.mixed")
    assert table == {**base, "min_win": 0.6, "max_units": 12}
    assert data.base_of("mixed-careful") == "mixed" and data.base_of("mixed") == "mixed"
    assert data.leaves["strategies.mixed-careful.min_win"] == data.leaves["strategies.mixed.min_win"]
    assert data.strategies == (*BUILT_IN, "mixed-careful")
    assert data.hash != DEFAULT.hash and data.overrides["strategies.mixed-careful.base"] == "mixed"


def test_the_overrides_alone_rebuild_the_same_data(tmp_path):
    """A run folder keeps only the overrides; loading them again gives the same data (resume)."""
    data = load_game_data("struggle", ["strategies.x.base=colonial", "strategies.x.unit_vp=1.5"])
    again = load_game_data("struggle", dict(data.overrides))
    assert again.hash == data.hash and again.get("strategies.x.unit_vp") == 1.5


def test_set_overrides_a_parameter_of_a_named_strategy_defined_in_a_variant(tmp_path):
    path = variant(tmp_path, '[strategies.y]\nbase = "european"\nmin_win = 0.6\n')
    data = load_game_data("struggle", ["strategies.y.min_win=0.7"], [path])
    assert data.get("strategies.y.min_win") == 0.7


@pytest.mark.parametrize("overrides, message", [
    (["strategies.z.base=nobody"], "unknown base strategy; allowed: colonial"),
    (["strategies.z.min_win=0.5"], "strategy 'z' is not defined; define it with strategies.z.base"),
    (["strategies.mixed.base=colonial"], "'mixed' is a built-in strategy"),
    (["strategies.random.base=mixed"], "strategy name 'random' is not allowed"),
    (["strategies.z.base=mixed", "strategies.z.min_win=1.5"], "out of range; allowed 0..1"),
    (["strategies.z.base=mixed", "strategies.z.max_units=2.5"], "wrong type"),
    (["strategies.z.base=mixed", "strategies.z.no_such=1"], "unknown struggle data path"),
])
def test_bad_definitions_are_one_line_errors(overrides, message):
    with pytest.raises(DataError, match=message.replace("(", r"\(")):
        load_game_data("struggle", overrides)


@given(st.floats(-5, 5, allow_nan=False))
def test_overrides_of_a_named_strategy_keep_the_base_bounds(x):
    paths = ["strategies.z.base=mixed", f"strategies.z.min_win={x}"]
    if 0 <= x <= 1:
        assert load_game_data("struggle", paths).get("strategies.z.min_win") == x
    else:
        with pytest.raises(DataError, match="out of range"):
            load_game_data("struggle", paths)


def test_a_game_without_data_ships_no_named_strategies():
    assert named_strategies("toy") == {}


def test_the_default_data_holds_only_the_built_in_tables():
    """Shipped named strategies stay out of the default data (same hash, same golden games)."""
    assert set(BUILT_IN) == set(load_game_data("struggle", strategies=BUILT_IN).strategies)
    assert not set(named_strategies("struggle")) & set(BUILT_IN)
    assert "tuned" not in DEFAULT.tree


def test_compare_and_tournament_play_a_named_strategy_from_a_variant(tmp_path, capsys):
    path = variant(tmp_path, '[strategies.mixed-careful]\nbase = "mixed"\nmin_win = 0.6\n')
    assert main(["compare", "struggle", "mixed-careful", "mixed", "--sprt", "--variant", str(path),
                 "--max-games", "14", "--quiet", "--json"]) == 0
    assert '"a": "mixed-careful"' in capsys.readouterr().out
    run = tmp_path / "run"
    assert main(["tournament", "struggle", "--strategies", "mixed-careful,mixed", "--games", "14",
                 "--variant", str(path), "--out", str(run), "--quiet", "--json"]) == 0
    capsys.readouterr()
    assert main(["analyse", str(run), "--json"]) == 0


@pytest.mark.parametrize("argv", [
    ["play", "struggle", "--strategies", "mixed-nobody,mixed", "--games", "1"],
    ["compare", "struggle", "mixed-nobody", "mixed", "--sprt"],
    ["tournament", "struggle", "--strategies", "mixed-nobody,mixed", "--games", "1"],
    ["audit", "struggle", "--strategies", "mixed-nobody,mixed", "--games", "1"],
])
def test_unknown_strategy_names_stay_one_line_errors(argv, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "'mixed-nobody'" in err and "mixed" in err
    assert not list(tmp_path.iterdir())


def test_the_known_strategies_include_the_named_ones_of_the_data():
    engine = games.load("struggle")
    data = load_game_data("struggle", ["strategies.w.base=mixed"])
    assert games.strategies("struggle", engine, data)[: len(engine.INFO.strategies)] == engine.INFO.strategies
    assert "w" in games.strategies("struggle", engine, data)
    assert "w" not in games.strategies("struggle", engine, DEFAULT)
