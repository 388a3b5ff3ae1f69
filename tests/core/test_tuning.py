"""Tuned strategies (sim.core.tuning, `empires tune`): small Optuna studies of the SoE strategy
tables (SOE-23 strategy hints as parameters), on common random numbers with seat rotation."""

import dataclasses
import tomllib

import optuna
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.cli import main
from sim.core import tuning
from sim.core.data import load_game_data

PARAMS = ("min_win", "max_units", "gold_vp")
SETTINGS = tuning.Settings(game="struggle", strategy="mixed", against=("mixed",), trials=3, games_per_trial=28,
                           seed=5, name="mixed-t", overrides={}, params=PARAMS)
DEFAULT = load_game_data("struggle")


def tuned(folder) -> dict:
    return tomllib.loads((folder / tuning.TUNED).read_text("utf-8"))["strategies"]["mixed-t"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory):
    folder = tmp_path_factory.mktemp("tune") / "run"
    summary = tuning.run(folder, tuning.create(folder, SETTINGS))
    return folder, summary


def test_a_small_tuning_writes_its_trials_and_a_named_strategy(finished):
    folder, summary = finished
    trials = pd.read_csv(folder / tuning.TRIALS)
    assert len(trials) == 3 and set(trials.state) <= {"complete", "pruned"}
    assert trials.start.tolist() == [True, False, False]           # the starting parameters come first
    table = tuned(folder)
    assert table["base"] == "mixed" and set(PARAMS) <= set(table)
    assert table["_trials"] == 3 and table["_seed"] == 5 and table["_games_per_trial"] == 28
    assert table["_data_hash"] == DEFAULT.hash and table["_score_ci95"][0] <= table["_score"] <= table["_score_ci95"][1]
    assert summary["score"] >= summary["start_score"]              # the best trial is at least the start
    assert summary["players"] == 2 and summary["fair_share"] == 0.5


def test_the_tuned_table_loads_as_a_variant_and_is_played(finished, capsys):
    folder, _ = finished
    data = load_game_data("struggle", variants=[folder / tuning.TUNED])
    table = tuned(folder)
    assert all(data.get(f"strategies.mixed-t.{p}") == table[p] for p in PARAMS)
    assert main(["play", "struggle", "--strategies", "mixed-t,mixed", "--games", "2", "--variant",
                 str(folder / tuning.TUNED), "--json"]) == 0
    assert '"strategy": "mixed-t"' in capsys.readouterr().out


def test_searched_values_keep_the_bounds_and_the_types(finished):
    folder, _ = finished
    trials = pd.read_csv(folder / tuning.TRIALS)
    for name in PARAMS:
        leaf = DEFAULT.leaves[f"strategies.mixed.{name}"]
        assert trials[name].between(leaf.low, leaf.high).all()
    assert trials["max_units"].dtype.kind == "i" and isinstance(tuned(folder)["max_units"], int)


@given(st.floats(0, 100), st.floats(0.5, 100), st.booleans())
def test_a_parameter_is_suggested_inside_its_bounds(low, width, integer):
    low = float(int(low)) if integer else low
    param = tuning.Param("x", low, low + (int(width) if integer else width), integer)
    trial = optuna.create_study(sampler=optuna.samplers.RandomSampler(seed=1)).ask()
    value = param.suggest(trial)
    assert param.low <= value <= param.high and isinstance(value, int) == integer


@given(st.floats(0, 10), st.floats(0, 10), st.floats(0.01, 1), st.booleans())
def test_a_local_search_stays_within_its_span_and_the_bounds(start, high, span, integer):
    high = max(start, high)
    if integer:
        start, high = float(int(start)), float(int(high) + int(start))
    param = tuning.Param("x", 0.0, high, integer).around(start, span)
    assert 0 <= param.low <= start <= param.high <= high
    assert param.high - param.low <= 2 * span * high + 1e-9


def test_the_same_seed_gives_the_same_tuned_table(finished, tmp_path):
    folder, _ = finished
    again = tmp_path / "again"
    tuning.run(again, tuning.create(again, SETTINGS))
    strip = {"_code_version"}
    assert {k: v for k, v in tuned(again).items() if k not in strip} == \
           {k: v for k, v in tuned(folder).items() if k not in strip}


def test_an_interrupted_tuning_resumes_the_same_study_to_the_same_end(finished, tmp_path, monkeypatch):
    folder, _ = finished
    run = tmp_path / "interrupted"
    job = tuning.create(run, SETTINGS)
    real, calls = tuning.Tuning.play, []

    def interrupted(self, *args, **kwargs):
        calls.append(1)
        if len(calls) == 3:                        # two trials done, the third cut short
            raise KeyboardInterrupt
        return real(self, *args, **kwargs)

    monkeypatch.setattr(tuning.Tuning, "play", interrupted)
    with pytest.raises(KeyboardInterrupt):
        tuning.run(run, job)
    monkeypatch.setattr(tuning.Tuning, "play", real)
    assert not (run / tuning.TUNED).exists()
    assert main(["tune", "struggle", "--resume", str(run), "--json"]) == 0
    trials = pd.read_csv(run / tuning.TRIALS)
    assert trials.state.tolist().count("fail") == 1                   # the cut trial, played again
    finished_rows = trials[trials.state != "fail"].reset_index(drop=True)
    assert len(finished_rows) == SETTINGS.trials
    expected = pd.read_csv(folder / tuning.TRIALS)
    assert finished_rows[list(PARAMS)].equals(expected[list(PARAMS)])
    assert finished_rows.score.equals(expected.score)


def test_a_clearly_worse_candidate_is_pruned(tmp_path):
    """A candidate that never builds (max_units 0) loses block after block to the start and is
    stopped by the Wilcoxon pruner before its last block."""
    folder = tmp_path / "prune"
    settings = dataclasses.replace(SETTINGS, trials=1, games_per_trial=84)
    tuning.run(folder, tuning.create(folder, settings))
    study = optuna.load_study(study_name=tuning.STUDY_NAME, storage=tuning._storage(folder))
    study.enqueue_trial({"min_win": 1.0, "max_units": 0, "gold_vp": 10.0})
    summary = tuning.run(folder, tuning.Tuning(dataclasses.replace(settings, trials=2)))
    bad = pd.read_csv(folder / tuning.TRIALS).iloc[1]
    assert bad.state == "pruned" and bad.blocks < 6 and bad.max_units == 0
    assert summary["trials_pruned"] == 1 and summary["best_trial"] == 0


@pytest.mark.parametrize("argv, message", [
    (["--strategy", "random"], "only a strategy with a parameter table can be tuned"),
    (["--strategy", "nobody"], "strategy 'nobody' is unknown"),
    (["--against", "mixed,nobody"], "strategy 'nobody' is unknown"),
    (["--against", ","], "--against ',' is empty"),
    (["--against", ",".join(["mixed"] * 7)], "8-player games; struggle allows 2..7"),
    (["--params", "foo"], "'foo' is not a tunable parameter of mixed"),
    (["--params", "use_forts"], "'use_forts' is not a tunable parameter"),
    (["--params", ","], "name at least one parameter"),
    (["--name", "mixed"], "--name 'mixed': the tuned strategy needs a new name"),
    (["--name", "a+b"], "--name 'a+b'"),
    (["--trials", "0"], "--trials: 0 is out of range"),
    (["--span", "0"], "--span: 0.0 is out of range; allowed 0 < span <= 1"),
    (["--games-per-trial", "x"], "'x' is not an integer"),
    (["--set", "strategies.mixed.min_win=3"], "out of range; allowed 0..1"),
    (["--variant", "nofile.toml"], "--variant 'nofile.toml' does not exist"),
    (["--resume", "nowhere"], "--resume nowhere: not a tuning folder"),
    (["--resume", "nowhere", "--trials", "3"], "drop --trials"),
])
def test_bad_flags_are_one_line_errors_and_create_nothing(argv, message, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    try:
        code = main(["tune", "struggle", *argv])
    except SystemExit as exc:                      # argparse's own checks
        code = exc.code
    err = capsys.readouterr().err
    assert code == 2 and err.count("\n") == 1 and message in err
    assert not list(tmp_path.iterdir())


def test_a_full_run_folder_is_refused(finished, capsys):
    folder, _ = finished
    assert main(["tune", "struggle", "--against", "mixed", "--out", str(folder)]) == 2
    assert "exists and is not empty; use --resume" in capsys.readouterr().err


def test_the_rules_a_table_was_tuned_under_travel_with_it(finished):
    """A table is tuned for the rules its games were played under (a second edition, a variant):
    those overrides, not the strategy tables of the field, are written with it and into the
    command that made it; a tuning on the default rules records none."""
    overrides = {"strategies.x.base": "mixed", "strategies.x.min_win": 0.5, "rules.game.edition": "second",
                 "tiles.war_office.cost_gold": 6}
    kept = tuning.rules_overrides(overrides)
    assert kept == {"rules.game.edition": "second", "tiles.war_office.cost_gold": 6}
    text = tuning.tuned_toml("t", {"base": "mixed"}, {"overrides": kept},
                             tuning.command_line(dataclasses.replace(SETTINGS, overrides=overrides)))
    assert tomllib.loads(text)["strategies"]["t"]["_overrides"] == kept
    assert text.splitlines()[0].endswith(" --set 'rules.game.edition=\"second\"' --set 'tiles.war_office.cost_gold=6'")
    folder, summary = finished
    assert tuned(folder)["_overrides"] == {} == summary["overrides"]
    assert "--set" not in (folder / tuning.TUNED).read_text("utf-8").splitlines()[0]
