"""Tile value and fair price on a synthetic game with known answers (issue: tile value)."""

import numpy as np
import pytest

from analyses import tile_value as tv
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
