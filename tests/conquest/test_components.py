"""COE-29 map and component data: the rulebook checks of COE-29.3 and the examples that use it."""

import pytest

from sim.conquest.components import default_components, load_components
from sim.core.data import DataError

HOMES = {"hispania", "italia", "macedonia", "galatia", "numidia", "mesopotamia", "aegyptus"}


@pytest.fixture(scope="module")
def board():
    return default_components().board


def test_coe_29_3_counts_and_values(board):
    """COE-29.3 / COE-29.8: 42 provinces (16 worth 10, 26 worth 5), 18 sea zones, total 290."""
    taxes = [p.tax for p in board.provinces.values()]
    assert len(board.provinces) == 42 and len(board.sea_zones) == 18
    assert taxes.count(10) == 16 and taxes.count(5) == 26 and board.total_tax == 290


def test_coe_3_3_home_provinces_are_worth_10(board):
    assert {k for k, p in board.provinces.items() if p.home} == HOMES
    assert all(board.provinces[h].tax == 10 for h in HOMES)


def test_coe_3_5_straits_are_land_links_without_roads(board):
    for a, b in (("thracia", "asia"), ("sicilia", "neapolis"), ("britannia", "belgica"),
                 ("baetica", "tingitana")):
        assert b in board.provinces[a].strait and a in board.provinces[b].strait
        assert b not in board.provinces[a].land
        assert b in board.neighbours(a)


def test_coe_29_3_rulebook_map_facts(board):
    """F5-F8: Mesopotamia landlocked, Syria/Armenia coastal; Narbonensis and Dalmatia border
    Italia; Neapolis borders Italia and is coastal; the Alexandrian Sea touches Egypt."""
    p = board.provinces
    assert not p["mesopotamia"].coastal and p["syria"].coastal and p["armenia"].coastal
    assert {"narbonensis", "dalmatia", "neapolis"} <= set(p["italia"].land) and p["neapolis"].coastal
    assert "aegyptus" in board.sea_zones["mare_alexandria"].coast


def test_example_coe_e6_income_of_italy(board):
    """COE-E6: Italia 10 + Neapolis 10 + Narbonensis 10 + two Cities 5 each = 40."""
    p = board.provinces
    assert p["italia"].tax + p["neapolis"].tax + 5 + 5 == 30
    assert 30 + p["narbonensis"].tax == 40


def test_example_coe_e7_galatian_galley_reaches_alexandrian_sea(board):
    """COE-E7 / COE-E13: galatia -> mare_rhodus -> mare_alexandria in two galley moves."""
    assert "mare_rhodus" in board.provinces["galatia"].sea
    assert "mare_alexandria" in board.sea_zones["mare_rhodus"].sea


def test_example_coe_e12_income_bookkeeping(board):
    """COE-E12: Italia (10, fortified City) + Narbonensis 10 + Corsica 5 = 30; + Sicilia with a City = 40."""
    p = board.provinces
    income = p["italia"].tax + 5 + p["narbonensis"].tax + p["corsica"].tax
    assert income == 30 and income + p["sicilia"].tax + 5 == 40


def test_coe_as1_optional_border():
    comps = load_components(["map.options.mesopotamia_arabia_border=true"])
    assert "arabia_petraea" in comps.board.neighbours("mesopotamia")
    assert "mesopotamia" in comps.board.neighbours("arabia_petraea")


def test_prices_and_die_are_found_data():
    comps = default_components()
    assert [comps.cost(u) for u in ("infantry", "cavalry", "catapult", "galley")] == [10, 20, 30, 20]
    assert comps.die.faces.count("infantry") == 2 and len(comps.die.faces) == 6
    assert comps.data.leaves["dice.battle_die.faces"].status == "FOUND"


def test_every_option_is_assumed_and_listed():
    data = default_components().data
    assumed = data.assumed(["options."])
    assert {"options.catapult_cap", "options.naval_hits_capped", "options.pursuit_cap"} <= set(assumed)


@pytest.mark.parametrize("override, message", [
    ("map.provinces.italia.tax=7", "not allowed"),
    ("options.catapult_cap=\"sometimes\"", "not allowed"),
    ("map.provinces.italia.land=[\"sicilia\"]", "must list [a-z]+ back"),
    ("dice.battle_die.faces=[\"infantry\", \"dragon\"]", "dice.battle_die.faces"),
])
def test_bad_data_names_the_path(override, message):
    with pytest.raises(DataError, match=message):
        load_components([override])


def test_example_coe_e13_galley_moves_on_the_map(board):
    """COE-E13 map facts: italia -> mare_tyrrhenum -> sicilia; italia and neapolis are not sea
    neighbours (coast to coast is illegal) but neapolis-sicilia is a strait; mare_narbo ->
    mare_tyrrhenum -> mare_epirus; mare_cantabricum -> hispania -> mare_narbo; a Mesopotamian
    galley needs Syria or Armenia (Mesopotamia has no coast)."""
    p, z = board.provinces, board.sea_zones
    assert "mare_tyrrhenum" in p["italia"].sea and "sicilia" in z["mare_tyrrhenum"].coast
    assert "sicilia" in p["neapolis"].strait and "sicilia" not in p["neapolis"].land
    assert "mare_tyrrhenum" in z["mare_narbo"].sea and "mare_epirus" in z["mare_tyrrhenum"].sea
    assert {"mare_cantabricum", "mare_narbo"} <= set(p["hispania"].sea)
    assert not p["mesopotamia"].sea and p["syria"].sea and p["armenia"].sea
