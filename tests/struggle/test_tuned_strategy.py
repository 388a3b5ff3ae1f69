"""The shipped tuned strategy of SoE (sim/struggle/data/tuned.toml, SOE-23 strategy tables): a
named strategy that joins the data only when asked for, within the bounds of its base."""

import tomllib
from importlib import resources

from sim import games
from sim.core.data import load_game_data, named_strategies

SHIPPED = tomllib.loads(resources.files("sim.struggle").joinpath("data/tuned.toml").read_text("utf-8"))
DEFAULT = load_game_data("struggle")


def test_mixed_tuned_is_shipped_with_its_provenance():
    table = SHIPPED["strategies"]["mixed-tuned"]
    assert table["base"] == "mixed" and table["_tuned_from"] == "mixed"
    for key in ("_trials", "_games_per_trial", "_seed", "_code_version", "_engine_version", "_data_hash",
                "_score", "_score_ci95", "_check_gain", "_check_gain_ci95"):
        assert key in table
    assert 1 <= table["_engine_version"] <= games.info("struggle").engine_version


def test_the_shipped_table_stays_out_of_the_default_data():
    """Shipping it changes neither the default data, nor its hash, nor the golden games."""
    assert "mixed-tuned" not in DEFAULT.strategies and "tuned" not in DEFAULT.tree
    assert set(named_strategies("struggle")) == set(SHIPPED["strategies"])


def test_asking_for_it_loads_it_within_the_bounds_of_mixed():
    data = load_game_data("struggle", strategies=["mixed-tuned", "mixed"])
    table, mixed = data.get("strategies.mixed-tuned"), data.get("strategies.mixed")
    assert set(table) == set(mixed) and data.hash != DEFAULT.hash
    shipped = {k: v for k, v in SHIPPED["strategies"]["mixed-tuned"].items() if not k.startswith("_") and k != "base"}
    assert shipped and all(table[k] == v for k, v in shipped.items())
    for key, value in shipped.items():
        leaf = data.leaves[f"strategies.mixed.{key}"]
        assert leaf.low <= value <= leaf.high
    assert data.overrides["strategies.mixed-tuned.base"] == "mixed"
    assert load_game_data("struggle", dict(data.overrides)).hash == data.hash   # what a run folder keeps


def test_a_set_changes_the_shipped_table_and_a_variant_base_replaces_it(tmp_path):
    changed = load_game_data("struggle", ["strategies.mixed-tuned.min_win=0.9"])
    assert changed.get("strategies.mixed-tuned.min_win") == 0.9
    variant = tmp_path / "v.toml"
    variant.write_text('[strategies.mixed-tuned]\nbase = "colonial"\n', "utf-8")
    replaced = load_game_data("struggle", variants=[variant], strategies=["mixed-tuned"])
    assert replaced.get("strategies.mixed-tuned") == replaced.get("strategies.colonial")


def test_a_named_strategy_tunes_further_from_its_own_values(tmp_path):
    """Tuning mixed-tuned keeps its shipped differences from mixed that are not searched."""
    from sim.core import tuning

    settings = tuning.Settings(game="struggle", strategy="mixed-tuned", against=("mixed",), trials=1,
                               games_per_trial=14, seed=3, name="mixed-tuned-2", overrides={}, params=("min_win",))
    tuning.run(tmp_path / "run", tuning.create(tmp_path / "run", settings))
    table = tomllib.loads((tmp_path / "run" / tuning.TUNED).read_text("utf-8"))["strategies"]["mixed-tuned-2"]
    shipped = SHIPPED["strategies"]["mixed-tuned"]
    assert table["base"] == "mixed" and table["min_win"] == shipped["min_win"]     # trial 0: the start
    assert all(table[k] == shipped[k] for k in shipped if not k.startswith("_") and k != "min_win")
