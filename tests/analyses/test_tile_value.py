"""Tile value and fair price on a synthetic game with known answers (issue: tile value)."""

import math
import numpy as np
import pandas as pd
import pytest

from analyses import tile_value as tv
from sim.core.causal import NOT_IDENTIFIABLE, SKILL_DEPENDENT
from sim.core.errors import UserError
from tests.analyses import tilegame


EXPERIMENT = tv.Experiment(game="tilegame", strategy="plain", tiles=("good", "dud"), players=4,
                           blocks=150, seed=11, grants=dict(tilegame.GRANTS))


@pytest.fixture(scope="module")
def played():
    return tv.run_experiment(EXPERIMENT)


def test_arms_of_a_block_share_their_dice(played):
    """Common random numbers: in a block, the base arm and the ban arm (which changes nothing)
    give every seat the identical score."""
    block = played[played["block"] == 0]
    base = block[block["arm_label"] == "base"].sort_values(["power", "seat"])["vp"].to_numpy()
    ban = block[block["arm_label"] == "ban:good"]
    assert len(base) and np.allclose(np.sort(base), np.sort(ban["vp"].to_numpy()[: len(base)]))


def test_tile_value_recovers_the_known_effect(played):
    values = tv.tile_values(played, EXPERIMENT, tilegame.asset_costs()).set_index("tile")
    for tile in ("good", "dud"):
        truth = tilegame.exact_win(tilegame.shift(f"plain+force={tile}")) - tilegame.exact_win(0.0)
        row = values.loc[tile]
        se = (row["d_win_high"] - row["d_win_low"]) / (2 * 1.97)
        assert abs(row["d_win"] - truth) < 4 * se
    assert values.loc["good", "d_win"] > 0 > values.loc["dud", "d_win"]


def test_fair_price_recovers_the_known_price(played):
    values = tv.tile_values(played, EXPERIMENT, tilegame.asset_costs()).set_index("tile")
    base = tilegame.exact_win(0.0)
    gold = (tilegame.exact_win(3 * tilegame.GOLD_VALUE) - base) / 3
    unrest = (tilegame.exact_win(2 * tilegame.UNREST_VALUE) - base) / 2
    for tile, cost in tilegame.TILES.items():
        d = tilegame.exact_win(tilegame.shift(f"plain+force={tile}")) - base
        truth = cost["gold"] + (-cost["unrest"]) * unrest / gold + d / gold
        row = values.loc[tile]
        assert row["fair_price_low"] < truth < row["fair_price_high"]
    assert values.loc["good", "verdict"] == "under-priced"
    assert values.loc["dud", "verdict"] == "over-priced"


def test_resource_values_have_the_right_sign(played):
    res = tv.resource_values(played, EXPERIMENT).set_index("resource")
    assert res.loc["gold", "ci_low"] > 0 and res.loc["unrest", "ci_high"] < 0


def test_observational_metric_is_reported_beside(played):
    values = tv.tile_values(played, EXPERIMENT, tilegame.asset_costs())
    assert {"obs_win_owned", "obs_win_not_owned"} <= set(values.columns)


@pytest.mark.parametrize("change, message", [
    (dict(tiles=("gold_mine",)), "tile"),
    (dict(strategy="clever"), "strategy"),
    (dict(blocks=1), "at least 2 blocks"),
])
def test_bad_requests_are_user_errors(change, message):
    bad = tv.Experiment(**{**EXPERIMENT.__dict__, **change})
    with pytest.raises(UserError, match=message):
        tv.run_experiment(bad)


def test_no_fair_price_when_gold_is_worth_nothing(monkeypatch):
    """A fair price needs one gold to be clearly worth something at the skill level: with gold
    worthless the grant arm changes no game, and no price or verdict is issued."""
    monkeypatch.setattr(tilegame, "GOLD_VALUE", 0.0)
    experiment = tv.Experiment(**{**EXPERIMENT.__dict__, "blocks": 6})
    values = tv.tile_values(tv.run_experiment(experiment), experiment, tilegame.asset_costs())
    assert (values["verdict"] == NOT_IDENTIFIABLE).all() and values["fair_price_gold"].isna().all()
    assert values["price_note"].str.contains("value of one gold is not distinguishable from zero").all()


def test_verdicts_by_asset_side_by_side_and_skill_dependence(played):
    """Each asset once, a verdict per skill level; a sign change between levels is flagged
    skill-dependent instead of being a balance finding."""
    plain = tv.tile_values(played, EXPERIMENT, tilegame.asset_costs())
    flipped = plain.assign(strategy="random", d_win=-plain["d_win"], d_win_low=-plain["d_win_high"],
                           d_win_high=-plain["d_win_low"])
    table = tv.by_asset(pd.concat([plain, flipped])).set_index("tile")
    assert list(table.index) == sorted(table.index, key=lambda t: -table.loc[t, "mean_d_win"])
    assert table["skill_dependent"].all() and (table["finding"] == SKILL_DEPENDENT).all()
    alone = tv.by_asset(plain).set_index("tile")
    assert alone.loc["good", "finding"] == "under-priced" and alone.loc["good", "verdict plain"] == "under-priced"


def test_plots_split_into_readable_figures(played, tmp_path):
    """At most ROWS_PER_FIGURE assets per figure; fair prices drawn against current cost."""
    plain = tv.tile_values(played, EXPERIMENT, tilegame.asset_costs())
    many = pd.concat([plain.assign(tile=plain["tile"] + f"_{i}") for i in range(20)], ignore_index=True)
    files = tv.plot_values(many, tmp_path / "values.png")
    assert len(files) == -(-many["tile"].nunique() // tv.ROWS_PER_FIGURE) and all(f.exists() for f in files)
    assert [f.name for f in tv.plot_prices(plain, tmp_path / "prices.png")] == ["prices.png"]


def test_sweep_plot_states_the_break_even_or_its_absence(tmp_path):
    """A sweep whose points all span zero has no break-even, and its plot says so."""
    table = pd.DataFrame({"path": "tiles.good.cost_gold", "value": [0, 1, 2], "tile": "good", "strategy": "plain",
                          "d_win": [0.02, 0.0, -0.02], "d_win_low": [-0.1, -0.1, -0.1], "d_win_high": [0.1, 0.1, 0.1]})
    assert np.isnan(tv.break_even(table))
    assert tv.plot_sweep(table, tmp_path / "sweep.png").stat().st_size > 0


def test_prices_are_quoted_in_the_games_currency_the_first_grant():
    """AoD and AFAoS price in money, CotE in talents: the first resource of GRANTS."""
    from analyses.tile_value import Experiment
    from sim.core.causal import cost_in_gold
    assert Experiment("g", "s", (), 2, 2, 1, grants={"money": 5, "captain": 1}).currency == "money"
    assert Experiment("g", "s", (), 2, 2, 1).currency == "gold"
    assert cost_in_gold({"money": 4, "captain": 1}, {"money": 0.02, "captain": 0.1}, "money") == 4 + 5
    assert math.isnan(cost_in_gold({"money": 4}, {"money": 0.0}, "money"))         # money worth nothing: no rate


def test_a_plural_currency_is_named_in_the_singular_for_one_unit():
    from sim.core.causal import unit_name
    assert (unit_name("talents"), unit_name("money"), unit_name("gold")) == ("talent", "money", "gold")
