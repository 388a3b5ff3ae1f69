"""Worked examples AFS-E8..E11 through the engine (AFS-9 raids, AFS-10 ambushes, AFS-11)."""

import pytest

from sim.acres.actions import Ambush, Raid, Steal
from sim.core.lockstep import RuleViolation
from tests.acres.engine_kit import FR, GB, Game


def _kennebec():
    """AFS-E8: the French hold Kennebec; the British Fort Halifax, Deerfield (and their start)."""
    game = Game()
    game.control("kennebec", FR)
    for key in ("fort_halifax", "deerfield"):
        game.control(key, GB)
    return game


def _named(game, distances):
    return {game.t.locs[i]: d for i, d in distances.items()}


def test_example_afs_e8_raid_ranges_from_kennebec():
    game = _kennebec()
    got = _named(game, game.e.raid_distances(0, FR))
    assert {k: got[k] for k in ("fort_halifax", "deerfield", "pemaquid", "boston")} == \
        {"fort_halifax": 1, "deerfield": 2, "pemaquid": 2, "boston": 3}


def test_example_afs_e9_a_fort_blocks_the_target_and_the_way_through():
    game = _kennebec()
    game.s.fort[0][game.loc("deerfield")] = True
    got = _named(game, game.e.raid_distances(0, FR))
    assert got["fort_halifax"] == 1 and got["pemaquid"] == 2
    assert "deerfield" not in got and "boston" not in got


def _besieged_fort_halifax(overrides=()):
    """The French hold Kennebec and Fort Halifax, which the British besiege; Deerfield is British."""
    game = Game(overrides)
    game.control("kennebec", FR)
    game.control("fort_halifax", FR)
    game.control("deerfield", GB)
    game.s.siege_loc[0][GB] = game.loc("fort_halifax")
    return game


def _deerfield(game):
    return _named(game, game.e.raid_distances(0, FR)).get("deerfield")


def test_afs_18_a11_raids_start_from_and_pass_through_own_besieged_locations():
    assert _deerfield(_besieged_fort_halifax()) == 1                                       # recommended
    assert _deerfield(_besieged_fort_halifax(("options.raid_from_besieged=false",))) == 2   # through it


def test_afs_18_a11_s2_reading_closes_own_besieged_locations_like_a_fort():
    s2 = _besieged_fort_halifax(("options.raid_from_besieged=false", "options.raid_through_own_besieged=false"))
    fortified = _besieged_fort_halifax(("options.raid_from_besieged=false",))
    fortified.s.fort[0][fortified.loc("fort_halifax")] = True             # AFS-18 A10: no route enters it
    assert _deerfield(s2) == _deerfield(fortified) and _deerfield(s2) > 2


def _boston_raid(game):
    na1 = game.card(FR, "native_americans")                               # the French (blue) card
    na2 = game.card(2, "native_americans")                                # a neutral (green) one
    priest = game.card(FR, "priest")
    for c in (na1, na2, priest):
        game.move(c, game.s.hand[0][FR])
    game.s.money[0][FR] = 5
    return Raid(game.loc("boston"), (na1, na2, priest))


def test_example_afs_e10_raid_cost_and_capture_of_a_town():
    game = _kennebec()
    game.hand(GB, "militia", "regular_infantry")                          # no raid blocker, no Boston card
    raid = _boston_raid(game)
    cubes = game.s.cubes[0][GB]
    assert game.act(FR, raid) == 1
    boston = game.loc("boston")
    assert game.s.money[0][FR] == 3                                        # 2 Native Americans, the Priest free
    assert game.s.captured[0][FR] == [0, 1] and not game.s.town[0][boston]
    assert game.s.control[0][boston] == GB + 1 and game.s.cubes[0][GB] == cubes - 1
    assert set(raid.cards) <= set(game.s.discard[0][FR]) and not game.s.over[0]
    with pytest.raises(RuleViolation):
        game.act(FR, Raid(game.loc("boston"), (game.card(FR, "priest", 1),)))   # Priests only add range


@pytest.mark.parametrize("blocker", ["boston", "rangers"])
def test_example_afs_e10_variant_the_raid_is_blocked(blocker):
    game = _kennebec()
    (card,) = game.hand(GB, blocker)
    game.player(GB).answers["block_raid"] = lambda options: card if card in options else None
    game.act(FR, _boston_raid(game))
    assert game.s.money[0][FR] == 3 and game.s.town[0][game.loc("boston")]
    assert card in game.s.discard[0][GB] and game.s.captured[0][FR] == [0, 0]


def _ambush_setup(game, hand):
    game.hand(FR, *hand)
    art = game.card(FR, "siege_artillery")
    game.move(art, game.s.reserve[0][FR])
    (rangers,) = game.hand(GB, "rangers")
    return rangers, art


def test_example_afs_e11_ambush_the_victim_chooses_from_hand_or_reserve():
    game = Game()
    rangers, art = _ambush_setup(game, ("quebec", "regular_infantry", "trader", "gaspe", "montreal"))
    ri = game.s.hand[0][FR][1]
    seen = []
    game.player(FR).answers["give_up_ambush"] = lambda options: seen.append(sorted(options)) or art
    money = game.s.money[0][GB]
    game.act(GB, Ambush(rangers))
    assert seen == [sorted([ri, art])] and art in game.s.emp_deck[0][FR]
    assert rangers in game.s.discard[0][GB] and game.s.money[0][GB] == money


def test_example_afs_e11_variants_nothing_to_lose_and_militia_blocks():
    game = Game()
    rangers, art = _ambush_setup(game, ("quebec", "trader", "gaspe", "montreal"))
    game.move(art, game.s.emp_deck[0][FR])
    game.act(GB, Ambush(rangers))
    (shown,) = game.events("reveal")
    assert shown["side"] == FR and shown["hand"] == sorted(["quebec", "trader", "gaspe", "montreal"])
    game = Game()
    rangers, _ = _ambush_setup(game, ("quebec", "militia", "regular_infantry"))
    militia = game.s.hand[0][FR][1]
    game.player(FR).answers["block_ambush"] = militia
    game.act(GB, Ambush(rangers))
    assert militia in game.s.discard[0][FR] and game.s.hand[0][FR][-1] == game.card(FR, "regular_infantry")


def test_priest_takes_only_a_neutral_native_americans_card():
    """AFS-11.1-11.4: the blue French card is not a target; without one the hand is shown."""
    game = Game()
    (priest,) = game.hand(FR, "priest")
    game.hand(GB, "militia")
    game.move(game.card(FR, "native_americans"), game.s.hand[0][GB])      # not neutral: not taken
    game.act(FR, Steal(priest))
    assert game.events("reveal")[-1]["side"] == GB
    green = game.card(2, "native_americans")
    game.move(green, game.s.reserve[0][GB])
    second = game.card(FR, "priest", 1)
    game.move(second, game.s.hand[0][FR])
    game.act(FR, Steal(second))
    assert green in game.s.discard[0][FR]


def test_afs_9_6_french_militia_blocks_a_raid_british_militia_does_not():
    """AFS-9.6 (S2 card table): French Militia may block a raid (Yucata game 10348395 move 100
    blocks a raid on Montreal with it); the British Militia may not."""
    game = Game()
    fr_militia, gb_militia = game.card(FR, "militia"), game.card(GB, "militia")
    game.move(fr_militia, game.s.hand[0][FR])
    game.move(gb_militia, game.s.hand[0][GB])
    assert fr_militia in game.e.raid_blockers(0, FR, game.loc("montreal"))
    assert gb_militia not in game.e.raid_blockers(0, GB, game.loc("albany"))


@pytest.mark.parametrize("network", ["raid", "supply"])
def test_afs_18_a39_card_boat_links_join_that_network_only(network):
    from sim.acres.state import CARD_BOAT_LINKS
    default = Game().t
    linked = Game((f"options.{network}_uses_card_boat_links=true",)).t
    other = "supply" if network == "raid" else "raid"
    for a, b in CARD_BOAT_LINKS:
        i, j = linked.index[a], linked.index[b]
        assert j in getattr(linked, f"{network}_adj")[i] and i in getattr(linked, f"{network}_adj")[j]
        assert getattr(linked, f"{other}_adj")[i] == getattr(default, f"{other}_adj")[i]
    assert not all(default.index[b] in default.raid_adj[default.index[a]] for a, b in CARD_BOAT_LINKS)
