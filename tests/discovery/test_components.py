"""Age of Discovery component data (AOD-2, AOD-14, AOD-15, AOD-19) and its validation."""

import pytest

from sim.core.data import DataError
from sim.discovery.components import load_components

C = load_components()


def test_counts_match_the_reference():
    assert len(C.regions) == 9 and [r.id for r in C.regions if r.discovered] == ["caribbean"]
    assert C.region("Peru").good == "silver" and C.region("The Caribbean").id == "caribbean"
    assert len(C.tokens) == 16 and len(C.cards) == 16 and C.tokens_on_map == 8
    assert sum(C.goods.stock) == 46 and len(C.goods.names) == 11 and C.goods.ships == 8
    by_age = {age: sum(b.copies for b in C.buildings if b.age == age) for age in (1, 2, 3)}
    assert by_age == {1: 12, 2: 14, 3: 10}
    assert C.building_cost == (10, 14, 20)


def test_hungarian_goods_edition():
    goods = load_components(["goods.edition=hungarian"]).goods
    assert sum(goods.stock) == 41 and "coffee" not in goods.names


def test_assumed_values_are_listed():
    assumed = C.data.assumed()
    for path in ("goods.edition", "goods.sets.any_three_requires_distinct", "rules.colonies.threshold_reading",
                 "regions.brazil.name", "rules.final.navy_vp_per_ship"):
        assert path in assumed


@pytest.mark.parametrize("override, message", [
    ("regions.canada.good=coffee", None),
    ("regions.canada.adjacent=[\"peru\"]", "both sides"),
    ("discovery.tokens_on_map=7", "one token per region"),
    ("rules.colonies.threshold_reading=majority", "region"),
    ("goods.english.sugar=9", "out of range"),
])
def test_overrides_are_validated(override, message):
    if message is None:
        assert load_components([override]).region("canada").good == "coffee"
    else:
        with pytest.raises(DataError, match=message):
            load_components([override])


def test_region_good_must_exist_in_the_edition():
    with pytest.raises(DataError, match="trade good"):
        load_components(["goods.edition=hungarian", "regions.canada.good=coffee"])
