"""Tournament analysis on a toy run with known effects: first mover and power bonuses; how games end."""

import pytest

import pandas as pd

from analyses.tournament import analyse, endings, first_seat, imbalance_flags, summarise
from sim.core.stats import wilson_interval
from sim.core import runner
from sim.core.design import balanced
from tests.runner import toygame


@pytest.fixture(scope="module")
def equal_strategies():
    """random and random2 are the same player: only seat (moving first) and power bonuses act."""
    design = balanced(toygame.POWERS, 2, ["random", "random2"], toygame.STRATEGIES, 2, 4)
    return runner.run(runner.Plan("tests.runner.toygame", 3, design, 800, 80))


def test_equal_strategies_win_exactly_half_under_common_random_numbers(equal_strategies):
    rates = summarise(equal_strategies)["by_strategy"]
    assert rates["random"]["win_rate"] == rates["random2"]["win_rate"] == 0.5


def test_known_seat_and_power_effects_are_flagged_after_holm(equal_strategies):
    flags = imbalance_flags(equal_strategies).set_index(["factor", "level"])
    assert flags.loc[("seat", "0"), "flagged"] and flags.loc[("seat", "0"), "win_rate"] > 0.5
    assert flags.loc[("power", "red"), "flagged"] and flags.loc[("power", "yellow"), "flagged"]
    assert flags.loc[("power", "red"), "win_rate"] > flags.loc[("power", "yellow"), "win_rate"]
    assert (flags["p_holm"] >= flags["p_value"]).all()
    seat0 = first_seat(equal_strategies)
    assert seat0["advantage_ci95"][0] > 0


def test_ratings_put_the_power_bonuses_in_order_and_files_are_written(equal_strategies, tmp_path):
    result = analyse(equal_strategies, tmp_path)
    power = result.ratings[result.ratings["factor"] == "power"].set_index("level")
    assert power.loc["red", "ci_low"] > power.loc["yellow", "ci_high"]
    assert {p.name for p in tmp_path.iterdir()} >= {"win_rates.png", "ratings.csv", "by_seat.csv"}


def test_endings_give_each_reason_per_game_with_its_interval_and_the_eliminations():
    """Four games of two seats: three stopped by the cap (one with a seat eliminated), one won."""
    games = ((0, "turn_cap", (1, 1)), (1, "turn_cap", (1, 0)), (2, "victory", (1, 0)), (3, "turn_cap", (1, 1)))
    rows = [(g, seat, reason, alive[seat]) for g, reason, alive in games for seat in (0, 1)]
    table = pd.DataFrame(rows, columns=["game_index", "seat", "end_reason", "alive"]).astype({"alive": bool})
    ended = endings(table)
    assert [(r["reason"], r["games"], r["share"]) for r in ended["reasons"]] == [("turn_cap", 3, 0.75),
                                                                                 ("victory", 1, 0.25)]
    assert ended["reasons"][0]["ci95"] == pytest.approx(list(wilson_interval(3, 4)))
    assert ended["eliminated"]["mean"] == 0.5 and ended["eliminated"]["none"] == 0.5
    assert endings(table.drop(columns="end_reason")) is None
