"""SoE component data (SOE-26): counts, provenance tags, overrides and validation."""

import pytest

from sim.core.data import DataError, load_game_data
from sim.struggle.components import default_components, load_components, parse_token


def test_regions_and_values_match_the_reference():
    comp = default_components()
    assert len(comp.regions) == 11
    assert comp.regions["german_states"].vp == (8, 5, 3)
    assert comp.regions["africa"].vp == (3, 2)
    assert comp.regions["ottoman_empire"].naval_battle_region == "mediterranean"
    assert comp.regions["german_states"].naval_battle_region is None
    assert {k for k, r in comp.regions.items() if r.american} == {"north_america", "caribbean", "south_america"}
    assert {k for k, r in comp.regions.items() if not r.sea} == {"german_states", "central_europe", "ottoman_empire"}


def test_country_tokens_sum_to_65_with_found_facts():
    comp = default_components()
    assert len(comp.tokens) == 65
    assert comp.regions["ottoman_empire"].spaces == 4          # SOE-1.4.5 / Example SOE-E5
    assert comp.regions["german_states"].spaces >= 9           # DERIVED from Example SOE-E4
    kinds = [t.kind for t in comp.tokens]
    assert (kinds.count("neutral"), kinds.count("pop"), kinds.count("slave")) == (54, 7, 4)
    assert sum(1 for t in comp.tokens if t.gold) == 11 and sum(1 for t in comp.tokens if t.vp) == 5
    europe = [t for r in comp.regions.values() if r.kind == "europe" for t in r.tokens]
    assert all(t.kind == "neutral" and 3 <= t.strength <= 5 for t in europe)


def test_development_tiles_total_52_and_found_counts():
    comp = default_components()
    assert sum(t.copies for t in comp.tiles.values()) == 52
    found = {"army_training": 6, "naval_training": 2, "reserves": 4, "mercenaries": 2, "militia": 3,
             "logistics": 3, "banking": 2, "navigation": 2, "improved_agriculture": 5,
             "government_reform": 10, "industry": 3}
    assert {k: comp.tiles[k].copies for k in found} == found
    assert len(comp.alliances) == 11 and len(comp.companies) == 9
    assert comp.alliances["indians"].regions == ("north_america",)


def test_provenance_tags_follow_the_reference():
    data = load_game_data("struggle")
    assert data.leaves["regions.german_states.vp"].status == "FOUND"
    assert data.leaves["regions.india.vp"].status == "ASSUMED"
    assert data.leaves["tiles.war_office.cost_gold"].status == "ASSUMED"
    assert data.leaves["tiles.army_training.copies"].status == "FOUND"
    assert data.leaves["tiles.pressgangs.copies"].status == "ASSUMED"
    assert data.leaves["map.home_adjacency.austria"].status == "FOUND"
    assert data.leaves["map.region_adjacency.baltic"].status == "ASSUMED"
    assert data.leaves["tokens.india"].status == "ASSUMED"
    assert "options.reserves_policy" in data.assumed()
    assert data.rules_edition.startswith("Struggle of Empires")


def test_rule_constants():
    comp = default_components()
    assert comp.rule("economy.attack_fee") == 2
    assert comp.rule("end.unrest_penalties") == [7, 4]
    assert comp.rule("end.revolution_unrest") == 20
    assert (comp.rule("game.rounds_2_to_4_players"), comp.rule("game.rounds_5_to_7_players")) == (6, 5)
    assert comp.combat.fort_strength == 2 and comp.combat.blockade_support == 2


def test_override_by_path():
    comp = load_components(["tiles.war_office.cost_gold=5", "regions.india.vp=[7, 4, 1]"])
    assert comp.tiles["war_office"].cost_gold == 5
    assert comp.regions["india"].vp == (7, 4, 1)
    assert comp.data.overrides["tiles.war_office.cost_gold"] == 5


@pytest.mark.parametrize("override, message", [
    ("tiles.war_office.cost_gold=-1", "out of range"),
    ("tiles.war_office.cost=3", "unknown"),
    ("regions.india.vp=[1, 4]", "must not increase"),
    ("regions.india.vp=[9, 5, 3, 1]", "2 or 3 place values"),
    ("tokens.africa=[\"X1\", \"N2\", \"N2\", \"N3\", \"N3\"]", "not allowed"),
    ("tokens.africa=[\"N2\"]", "country_tokens"),
    ("alliances.venice.regions=[\"atlantis\"]", "unknown"),
    ("options.reserves_policy=\"sometimes\"", "choose one of"),
    ("map.region_adjacency.baltic=[\"narnia\"]", "unknown"),
])
def test_bad_data_is_rejected_naming_the_path(override, message):
    with pytest.raises(DataError, match=message):
        load_components([override])


def test_token_codes():
    assert parse_token("N4g2", "x", "p").gold == 2
    assert parse_token("N5v1", "x", "p").vp == 1
    assert parse_token("Slave", "x", "p").kind == "slave"
    assert parse_token("N3g3", "x", "p").code == "N3g3"


def test_index_tables_are_built_once_per_data_hash():
    """Engines playing the same effective data share one read-only `Tables`; an override that
    changes a value gets its own."""
    from sim.struggle.components import load_components
    from sim.struggle.state import tables_of
    base = tables_of(load_components())
    assert tables_of(load_components()) is base
    changed = tables_of(load_components(["regions.india.vp=[9,5,2]"]))
    assert changed is not base and changed.vp[changed.region("india")].tolist() == [9, 5, 2]


def test_shared_index_tables_are_read_only():
    import numpy as np
    import pytest

    from sim.struggle.components import load_components
    from sim.struggle.state import tables_of
    t = tables_of(load_components())
    assert isinstance(t.vp, np.ndarray)
    with pytest.raises(ValueError, match="read-only"):
        t.vp[0, 0] = 99
