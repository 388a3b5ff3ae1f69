import pytest

from sim.core.data import DataError, parse_assignment, untag, validate_override

RAW = {"tiles": {"war_office": {"_status": "ASSUMED", "_source": "SOE-26.5",
                                "cost_gold": {"value": 4, "status": "ASSUMED", "min": 0, "max": 20},
                                "timing": "once_per_war"}},
       "map": {"_status": "FOUND", "vp": [8, 5, 3]}}


def test_untag_splits_values_and_provenance():
    tree, leaves = untag(RAW)
    assert tree["tiles"]["war_office"] == {"cost_gold": 4, "timing": "once_per_war"}
    assert leaves["tiles.war_office.cost_gold"].status == "ASSUMED"
    assert leaves["tiles.war_office.timing"].source == "SOE-26.5"
    assert leaves["map.vp"].status == "FOUND"


def test_untagged_leaf_is_an_error():
    with pytest.raises(DataError, match="no provenance tag"):
        untag({"x": {"y": 1}})


@pytest.mark.parametrize("text, message", [
    ("tiles.war_office.cost_gold=-1", "out of range"),
    ("tiles.war_office.cost_gold=true", "wrong type"),
    ("tiles.war_office.cost_gold=x", "wrong type"),
    ("tiles.war_office.cost=3", "unknown"),
    ("map.vp=[9, 5.5]", "wrong type"),
])
def test_bad_override_names_the_value(text, message):
    tree, leaves = untag(RAW)
    path, value = parse_assignment(text)
    with pytest.raises(DataError, match=message):
        validate_override(path, value, tree, leaves, "struggle")


def test_malformed_assignment():
    with pytest.raises(DataError, match="malformed"):
        parse_assignment("tiles.war_office.cost_gold")


def test_good_override_is_accepted():
    tree, leaves = untag(RAW)
    assert validate_override("map.vp", [9, 5, 3], tree, leaves, "struggle") == [9, 5, 3]
