"""Strategy parameters (sim/struggle/data/strategies.toml): every number is bounded, so a `--set`
outside its sensible range is refused with one line instead of silently steering a player."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.cli import main
from sim.core.data import DataError, load_game_data

DATA = load_game_data("struggle")
STRATEGIES = DATA.get("strategies")
NUMERIC = sorted(f"strategies.{name}.{key}" for name, table in STRATEGIES.items()
                 for key, value in table.items() if isinstance(value, (int, float)) and not isinstance(value, bool))
PROBABILITIES = {"min_win"}


def test_there_are_numeric_parameters_in_every_strategy():
    assert {p.split(".")[1] for p in NUMERIC} == set(STRATEGIES)


@pytest.mark.parametrize("path", NUMERIC)
def test_every_numeric_parameter_is_assumed_and_bounded(path):
    leaf = DATA.leaves[path]
    assert leaf.status == "ASSUMED"
    assert leaf.low is not None and leaf.high is not None
    assert 0 <= leaf.low <= DATA.get(path) <= leaf.high  # weights, thresholds and counts are >= 0
    if path.rsplit(".", 1)[1] in PROBABILITIES:
        assert (leaf.low, leaf.high) == (0, 1)


@pytest.mark.parametrize("path", NUMERIC)
def test_values_stay_plain_numbers_for_the_players(path):
    """The tagged leaves untag to the same plain numbers ScriptedPlayer reads (no tables)."""
    assert type(DATA.get(path)) in (int, float)


def test_negative_weight_is_refused_on_the_command_line(capsys):
    code = main(["data", "struggle", "--set", "strategies.colonial.europe_weight=-1"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and len(err.strip().splitlines()) == 1
    assert "strategies.colonial.europe_weight" in err and "out of range" in err


@settings(max_examples=60, deadline=None)
@given(path=st.sampled_from(NUMERIC), x=st.floats(-1000, 1000, allow_nan=False))
def test_overrides_inside_bounds_pass_and_outside_are_refused(path, x):
    leaf = DATA.leaves[path]
    value = x if isinstance(DATA.get(path), float) else int(x)
    if leaf.low <= value <= leaf.high:
        assert load_game_data("struggle", {path: value}).get(path) == value
    else:
        with pytest.raises(DataError, match="out of range"):
            load_game_data("struggle", {path: value})
