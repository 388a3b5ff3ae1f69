"""AFAoS component data (AFS-16, AFS-19): counts, starting decks, board flags, overrides."""

import pytest

from sim.acres.components import SIDES, load, slug
from sim.core.data import DataError
from sim.core.errors import UserError


def test_afs_16_card_list_has_110_cards():
    """AFS-16: British 54, French 47, neutral 9 (counted from the data tree, not the merged view)."""
    data = load().data
    per_owner = {}
    for owner in ("british", "french", "neutral"):
        empire = sum(c["start"] + c["supply"] for c in data.get(f"cards.{owner}").values())
        locations = len(data.get(f"location_cards.{owner}")) if owner != "neutral" else 0
        per_owner[owner] = empire + locations
    assert per_owner == {"british": 54, "french": 47, "neutral": 9}


def test_afs_4_9_starting_decks():
    acres = load()
    gb = acres.starting_deck("british").as_dict()
    fr = acres.starting_deck("french").as_dict()
    assert gb == dict.fromkeys(["boston", "new_haven", "new_york", "norfolk", "pemaquid", "philadelphia",
                                "st_marys"], 1)
    assert fr == dict.fromkeys(["gaspe", "louisbourg", "montreal", "quebec", "port_royal", "tadoussac",
                                "trois_rivieres", "bateaux", "regular_infantry", "trader"], 1)


def test_afs_19_4_board_flags():
    locs = load().locations
    assert len(locs) == 36
    assert sum(loc.ship_symbol for loc in locs.values()) == 15
    assert sum(loc.sea_network for loc in locs.values()) == 17
    mods = {loc.id: loc.defence_modifiers for loc in locs.values() if loc.defence_modifiers}
    assert mods == {"boston": 1, "new_york": 1, "louisbourg": 1, "montreal": 1, "quebec": 2}
    assert not any(loc.fort for loc in locs.values())


def test_afs_19_11_symbol_census_military_on_location_cards():
    acres = load()
    military = {(s, c.id) for s in SIDES for c in acres.cards[s].values() if c.kind == "location" and c.military}
    assert military == {("british", "boston"), ("british", "new_york"), ("french", "montreal"), ("french", "quebec")}


def test_neutral_and_own_cards_of_one_kind_merge():
    card = load().card("british", "fortification")
    assert (card.start, card.supply, card.defender_only) == (0, 3, True)


def test_lookup_by_printed_name():
    acres = load()
    assert acres.location("St. Mary's").id == "st_marys" == slug("St. Mary's")
    assert acres.location("Fort Presqu'Isle").id == "fort_presquisle"
    with pytest.raises(UserError, match="allowed: boston"):
        acres.location("Atlantis")


def test_override_changes_a_location_and_is_recorded():
    acres = load(["map.locations.louisbourg.defence_modifiers=3"])
    assert acres.location("louisbourg").defence_modifiers == 3
    assert acres.data.overrides == {"map.locations.louisbourg.defence_modifiers": 3}


@pytest.mark.parametrize("text, message", [
    ("map.locations.louisbourg.defence_modifiers=-1", "out of range"),
    ("map.locations.louisbourg.defence_modifiers=x", "wrong type"),
    ("rules.deck.reshuffle=sometimes", "not allowed"),
    ("map.locations.albany.land=[\"atlantis\"]", "not a location id"),
    ("map.locations.albany.land=[\"quebec\"]", "two-way"),
])
def test_bad_override_is_one_line_error(text, message):
    with pytest.raises(DataError, match=message):
        load([text])


def test_assumed_values_are_listed():
    assumed = load().data.assumed(["rules."])
    assert {"rules.model.max_turns", "rules.model.cycle_per_action", "rules.siege.track_limit"} <= set(assumed)
