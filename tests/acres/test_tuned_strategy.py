"""The shipped tuned strategies of AFAoS (sim/acres/data/tuned.toml), the ladder of tuned replies
the Halifax hammer table plays (issue 14 item 4): `raider-tuned`, the raider tuned against the
British hammer, and `hammer-tuned`, the hammer tuned against raider-tuned. Named strategies that
join the data only when asked for, within the bounds of their base, bound to their base's side,
and each the reply it was tuned to be."""

import tomllib
from importlib import resources

import pytest

from analyses import acres_hammer
from analyses.balance_report import ReportSize
from sim import games
from sim.acres import play
from sim.core.data import load_game_data, named_strategies
from sim.core.stats import wilson_interval

SHIPPED = tomllib.loads(resources.files("sim.acres").joinpath("data/tuned.toml").read_text("utf-8"))
DEFAULT = load_game_data("acres")
LADDER = {"raider-tuned": ("raider", "hammer", "french"), "hammer-tuned": ("hammer", "raider-tuned", "british")}


@pytest.mark.parametrize("name", sorted(LADDER))
def test_each_tuned_table_is_shipped_with_its_provenance(name):
    base, against, _ = LADDER[name]
    table = SHIPPED["strategies"][name]
    assert table["base"] == base and table["_against"] == [against]
    assert table["_tuned_from"] in (base, name)      # from its base, or tuned again from its earlier table
    for key in ("_trials", "_games_per_trial", "_seed", "_code_version", "_engine_version", "_data_hash",
                "_score", "_score_ci95", "_check_gain", "_check_gain_ci95"):
        assert key in table
    assert 1 <= table["_engine_version"] <= games.info("acres").engine_version
    assert table["_check_gain_ci95"][0] > 0         # its gain held on fresh games when it was made


@pytest.mark.parametrize("name", sorted(LADDER))
def test_each_table_was_tuned_on_games_the_report_does_not_play(name):
    """A tuning picks the table that did best on its own games, so those games flatter it: the
    report's hammer table (its default seed) must play others, as the ladder's fresh checks do."""
    table = SHIPPED["strategies"][name]
    assert table["_seed"] != ReportSize().seed and table["_check_seed"] != ReportSize().seed


def test_the_shipped_tables_stay_out_of_the_default_data():
    """Shipping them changes neither the default data, nor its hash, nor the golden games."""
    assert not set(LADDER) & set(DEFAULT.strategies) and "tuned" not in DEFAULT.tree
    assert set(named_strategies("acres")) == set(SHIPPED["strategies"]) == set(LADDER)


@pytest.mark.parametrize("name", sorted(LADDER))
def test_asking_for_one_loads_it_within_the_bounds_of_its_base_and_on_its_side(name):
    base, _, side = LADDER[name]
    data = play.load_data(strategies=[name, base])
    table, start = data.get(f"strategies.{name}"), data.get(f"strategies.{base}")
    assert set(table) == set(start) and data.hash != DEFAULT.hash
    shipped = {k: v for k, v in SHIPPED["strategies"][name].items() if not k.startswith("_") and k != "base"}
    assert shipped and all(table[k] == v for k, v in shipped.items())
    for key, value in shipped.items():
        leaf = data.leaves[f"strategies.{base}.{key}"]
        assert leaf.low <= value <= leaf.high
    assert play.strategy_sides(data)[name] == side


def _british_interval(british: str, french: str, data) -> tuple[float, float]:
    seatings = acres_hammer.seatings((british, french), 80)
    table = play.play_games(11, list(range(len(seatings))), seatings, data)
    rows = table[table.power == "british"]
    return wilson_interval(int(rows.winner.sum()), len(rows))


def test_afs_15_each_step_of_the_ladder_is_the_reply_it_was_tuned_to_be():
    """On games the tunings never saw (seed 11, not their 1), 80 games a pairing: the hammer beats
    the hand-set raider (its interval above one half: measured 0.85 in 1,000 games), raider-tuned
    holds the hammer to no British edge (its interval reaches below one half), and hammer-tuned
    beats raider-tuned again (its interval above one half)."""
    data = play.load_data(strategies=["hammer", "raider", *LADDER])
    assert _british_interval("hammer", "raider", data)[0] > 0.5
    assert _british_interval("hammer", "raider-tuned", data)[0] < 0.5
    assert _british_interval("hammer-tuned", "raider-tuned", data)[0] > 0.5
