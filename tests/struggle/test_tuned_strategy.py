"""The shipped tuned strategy of SoE (sim/struggle/data/tuned.toml, SOE-23 strategy tables), as the
named-strategy mechanism treats it: read back from a run folder's overrides, changed by a set,
replaced by a variant, tuned further (its provenance, bounds and seeds:
tests/core/test_shipped_tuned.py)."""

import tomllib
from importlib import resources

from sim.core.data import load_game_data

SHIPPED = tomllib.loads(resources.files("sim.struggle").joinpath("data/tuned.toml").read_text("utf-8"))


def test_asking_for_it_keeps_only_the_overrides_a_run_folder_needs():
    data = load_game_data("struggle", strategies=["mixed-tuned", "mixed"])
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
