"""Asset values per side of the focal seat (issue 14 item 5: every AFAoS card and location per side
and skill level), on a synthetic two-sided game with known answers (tests/analyses/sidegame.py)."""

from collections import Counter

import pandas as pd
import pytest

from analyses import robustness
from analyses import tile_value as tv
from sim import games
from tests.analyses import sidegame

EXPERIMENT = tv.Experiment(game="sidegame", strategy="plain", tiles=("common", "keep"), players=2, blocks=200,
                           seed=5, grants=dict(sidegame.GRANTS), powers=sidegame.INFO.powers)


@pytest.fixture(scope="module")
def played():
    """The sidegame registered for this module only (the conformance suite does not play it)."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setitem(games._REGISTRY, "sidegame", "tests.analyses.sidegame")
        yield tv.run_experiment(EXPERIMENT)


def focal_power_counts(design, labels) -> dict[str, Counter]:
    """Per arm label, how often each power sits in the focal seat over one block."""
    counts: dict[str, Counter] = {}
    for seating, label in zip(design.arms, labels):
        for power, spec in zip(seating.powers, seating.strategies):
            if "+" in spec or label == tv.BASE:
                counts.setdefault(label, Counter())[power] += 1
    return counts


@pytest.mark.parametrize("strategy", ["random", "hammer"])
def test_every_side_is_focal_equally_often_in_every_arm_of_acres(strategy):
    """AFS-0 (two sides): the design puts british and french in the focal seat equally often in
    every arm of a block, also for a strategy bound to one side (hammer plays British as the
    first seat, AFS-21 tables; the focal copy takes the other side when the first seat has it)."""
    engine = games.load("acres")
    data = games.load_data("acres", engine, (), (), [strategy])
    experiment = tv.Experiment(game="acres", strategy=strategy, tiles=("settlers", "albany"), players=2, blocks=2,
                               seed=1, grants=dict(engine.GRANTS), powers=tv.sides(engine))
    design = tv.design_of(experiment, engine, data)
    counts = focal_power_counts(design, tv.arm_labels(experiment, design))
    assert set(counts) == set(experiment.lineups())
    for label, count in counts.items():
        assert set(count) == {"british", "french"} and count["british"] == count["french"], label


def test_only_games_whose_assets_belong_to_sides_are_split_by_default():
    """AFAoS (asset_power hook) is valued per side; SoE nations, AoD and CotE colours can all
    acquire every asset and keep one pooled value per asset."""
    assert tv.sides(games.load("acres")) == ("british", "french")
    assert all(tv.sides(games.load(g)) == () for g in ("struggle", "discovery", "conquest", "tilegame"))


def test_each_sides_rows_come_from_the_games_where_that_side_is_focal(played):
    """A side's rows equal the pooled rows computed on that side's focal seats alone."""
    split = tv.tile_values(played, EXPERIMENT, sidegame.asset_costs())
    pooled = tv.Experiment(**{**EXPERIMENT.__dict__, "powers": ()})
    for power in sidegame.INFO.powers:
        mine = split[split["power"] == power].drop(columns=["power", "force_took"]).reset_index(drop=True)
        alone = tv.tile_values(played[played["power"] == power], pooled, sidegame.asset_costs())
        pd.testing.assert_frame_equal(mine, alone.loc[alone["tile"].isin(mine["tile"])].reset_index(drop=True))


def test_per_side_values_recover_the_known_effects(played):
    """`common` is worth more to blue than to red; `keep`, blue's only, has no red row."""
    values = tv.tile_values(played, EXPERIMENT, sidegame.asset_costs()).set_index(["tile", "power"])
    assert set(values.index) == {("common", "blue"), ("common", "red"), ("keep", "blue")}
    for (tile, power), row in values.iterrows():
        truth = sidegame.exact_win(sidegame.shift(f"plain+force={tile}", power)) - 0.5
        se = (row["d_win_high"] - row["d_win_low"]) / (2 * 1.97)
        assert abs(row["d_win"] - truth) < 4 * se and row["force_took"] == 1.0
    assert values.loc[("common", "blue"), "d_win"] > 0 > values.loc[("common", "red"), "d_win"]


def test_money_and_fair_prices_are_per_side(played):
    """One money is worth 0.1 score to blue and 0.3 to red, so each side's money value and fair
    price use its own grant arm: blue's fair price of `common` lies above its cost, red's below."""
    resources = tv.resource_values(played, EXPERIMENT).set_index("power")
    values = tv.tile_values(played, EXPERIMENT, sidegame.asset_costs()).set_index(["tile", "power"])
    dose = sidegame.GRANTS["money"]
    for power in sidegame.INFO.powers:          # within 4 standard errors (2 half-widths of a 95 % interval)
        unit = (sidegame.exact_win(sidegame.MONEY_VALUE[power] * dose) - 0.5) / dose
        row = resources.loc[power]
        assert abs(row["win_per_unit"] - unit) < row["ci_high"] - row["ci_low"] and row["measured"]
        d = sidegame.exact_win(sidegame.shift("plain+force=common", power)) - 0.5
        price = values.loc[("common", power)]
        truth = sidegame.ASSETS["common"]["cost"] + d / unit
        assert abs(price["fair_price_gold"] - truth) < price["fair_price_high"] - price["fair_price_low"]
    assert values.loc[("common", "blue"), "verdict"] == "under-priced"
    assert values.loc[("common", "red"), "verdict"] == "over-priced"


def test_by_asset_and_plots_keep_one_row_per_asset_and_side(played, tmp_path):
    values = tv.tile_values(played, EXPERIMENT, sidegame.asset_costs())
    table = tv.by_asset(values)
    assert sorted(zip(table["tile"], table["power"])) == [("common", "blue"), ("common", "red"), ("keep", "blue")]
    assert all(f.exists() for f in tv.write_outputs(tmp_path, values, tv.resource_values(played, EXPERIMENT)))


def test_report_tables_and_headlines_name_each_side_of_an_asset(played):
    values = tv.tile_values(played, EXPERIMENT, sidegame.asset_costs())
    labelled = tv.one_row_each(values)
    assert "power" not in labelled and set(labelled["tile"]) == {"common (blue)", "common (red)", "keep (blue)"}
    money = tv.one_row_each(tv.resource_values(played, EXPERIMENT), "resource")
    assert all(r.endswith(("(red)", "(blue)")) for r in money["resource"])
    pooled = values.drop(columns="power")
    assert tv.one_row_each(pooled).equals(pooled)
    found = robustness.asset_findings(tv.by_asset(values).assign(finding="over-priced"), "all groups")
    assert sorted(f.level for f in found) == ["common (blue)", "common (red)", "keep (blue)"]


def test_one_power_alone_and_an_unknown_power(played):
    """`--power red` values red's assets only; an unknown power is a UserError naming the allowed."""
    red = tv.Experiment(**{**EXPERIMENT.__dict__, "powers": ("red",)})
    assert set(tv.tile_values(played, red, sidegame.asset_costs())["power"]) == {"red"}
    with pytest.raises(tv.UserError, match="--power 'green' is unknown for sidegame; allowed: blue, red"):
        tv.check(games.load("sidegame"), tv.Experiment(**{**EXPERIMENT.__dict__, "powers": ("green",)}), None)


def test_a_game_without_sides_keeps_one_pooled_row_per_asset():
    """SoE (a small random-legal run): the default pools every nation in the focal seat, as
    before the split -- one row per tile, no power column, the effect over all focal games."""
    engine = games.load("struggle")
    experiment = tv.Experiment(game="struggle", strategy="random", tiles=("army_training",), players=2, blocks=2,
                               seed=3, powers=tv.sides(engine))
    table = tv.run_experiment(experiment)
    values = tv.tile_values(table, experiment, engine.asset_costs(engine.load_data()))
    focal = table[table["focal"]]
    means = focal.groupby(["block", "arm_label"])["winner"].mean().unstack()
    assert len(values) == 1 and not {"power", "force_took"} & set(values.columns)
    assert values.loc[0, "d_win"] == pytest.approx((means["force:army_training"] - means["ban:army_training"]).mean())
    assert values.loc[0, "focal_games_per_arm"] == (focal["arm_label"] == "force:army_training").sum() \
        == experiment.blocks * experiment.players * len(engine.INFO.powers)    # strategy x power rotations
