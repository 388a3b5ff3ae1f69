"""The rules editions (`rules.game.edition`) and Yucata's scenario variants Scen0..Scen25
(`rules.variants.scen<n>`, shared/data/yucata_acres/scenarios.md): each changes what it should."""

import pytest

from sim.acres.actions import (
    Ambush,
    Besiege,
    Develop,
    Discard,
    DropLost,
    FurCoin,
    Governor,
    HomeSupport,
    Raid,
    Reinforce,
    Reserve,
    Withdraw,
)
from sim.acres.choices import Choices
from tests.acres.engine_kit import FR, GB, Game

SECOND = "rules.game.edition=\"second\""


def on(*ns, second=False):
    return Game([f"rules.variants.scen{n}=true" for n in ns] + ([SECOND] if second else []))


def count(game, side, key, zone):
    return sum(game.t.kind[c].key == key for c in zone)


def test_second_edition_differences():
    """9 French discs, no French Bateaux, Home Support without reshuffle, no location cards in the
    reserve, a capital settled wins, raids one step longer (docs/acres_engine.md)."""
    first, second = Game(), Game([SECOND])
    assert first.s.discs[0][FR] == 12 - 1 and second.s.discs[0][FR] == 9 - 1
    bateaux = next(c for c in range(first.t.n_cards) if first.t.kind[c].key == "bateaux" and first.t.start_side[c] == FR)
    assert bateaux in second.s.removed[0] and bateaux not in first.s.removed[0]
    e1, e2 = first.e, second.e
    assert e1.home_support_reshuffles and not e2.home_support_reshuffles
    assert e1.location_reserve and not e2.location_reserve and e2.settle_capital_wins and not e1.settle_capital_wins
    for game, cards_for_boston in ((first, 3), (second, 2)):                 # AFS-E8: Kennebec to Boston
        game.control("kennebec", FR)
        game.control("fort_halifax", GB)
        game.control("deerfield", GB)
        raiders = [game.card(FR, "native_americans"), *[game.card(2, "native_americans", k) for k in range(2)]]
        for c in raiders:
            game.move(c, game.s.hand[0][FR])
        game.s.money[0][FR] = 9
        boston = game.loc("boston")
        assert game.e.raid_ok(0, FR, Raid(boston, tuple(raiders[:cards_for_boston])))
        assert not game.e.raid_ok(0, FR, Raid(boston, tuple(raiders[:cards_for_boston - 1])))


def test_scen0_a_reshuffle_costs_a_coin_or_two_cards():
    game = on(0)
    game.s.money[0][GB] = 3
    game.e.shuffle_into_draw(0, GB)
    assert game.s.money[0][GB] == 2
    game.s.money[0][GB] = 0
    game.e.shuffle_into_draw(0, GB)
    game.e.refill(0, GB)
    assert len(game.s.hand[0][GB]) == 3



def test_scen0_the_setup_shuffle_is_not_a_reshuffle():
    """AFS-4: the starting decks are shuffled as part of the setup, before any play; Scen0 charges
    a reshuffle of the deck in play, so both sides start with their full money (12 and 5)."""
    plain, scen0 = Game(), on(0)
    assert scen0.s.money[0] == plain.s.money[0] == [12, 5]
    assert scen0.e.penalty[0] == [0, 0]

@pytest.mark.parametrize(("n", "where"), [(1, "louisbourg"), (10, "quebec")])
def test_scen1_scen10_a_fort_at_setup(n, where):
    game = on(n)
    assert game.s.fort[0][game.loc(where)] and game.s.forts_left[0] == 11
    assert not Game().s.fort[0][game.loc(where)]


def test_scen2_a_french_town_in_fort_duquesne_wins():
    game = on(2)
    game.control("fort_duquesne", FR)
    fd, qu = game.hand(FR, "fort_duquesne", "quebec")
    for key in ("fort_venango", "fort_presquisle", "fort_niagara", "fort_frontenac"):
        game.control(key, FR)
    game.act(FR, Develop(game.loc("fort_duquesne"), fd, qu))
    assert game.s.over[0] and game.s.winner[0] == FR and game.s.end_reason[0] == "fort duquesne town"


def test_scen3_an_ambush_may_take_a_siege_card_and_moves_the_marker():
    game = on(3)
    game.control("halifax", GB)
    hx, ships, ri = game.hand(GB, "halifax", "ships", "regular_infantry")
    game.act(GB, Besiege(game.loc("louisbourg"), hx, ships, ri))
    p = game.s.siege_p[0][GB]
    game.hand(GB, "boston")
    (cdb,) = game.hand(FR, "coureurs_de_bois")
    game.player(GB).answers["give_up_ambush"] = lambda options: ri if ri in options else options[0]
    game.act(FR, Ambush(cdb))
    assert ri in game.s.emp_deck[0][GB] and game.s.siege_p[0][GB] == p - 2


def test_scen4_three_british_regular_infantry_removed():
    assert count(on(4), GB, "regular_infantry", on(4).s.emp_deck[0][GB]) == 3
    assert count(Game(), GB, "regular_infantry", Game().s.emp_deck[0][GB]) == 6


def test_scen5_the_french_cycle_a_card_when_a_siege_ends():
    game = on(5)
    game.control("halifax", GB)
    hx, ships, ri = game.hand(GB, "halifax", "ships", "regular_infantry")
    game.act(GB, Besiege(game.loc("louisbourg"), hx, ships, ri))
    first = game.s.hand[0][FR][0]
    game.act(GB, Withdraw(), left=0)
    assert first in game.s.discard[0][FR] and len(game.s.hand[0][FR]) == 5


def test_scen6_location_cards_in_the_reserve_under_the_second_edition():
    for game, ok in ((Game([SECOND]), False), (on(6, second=True), True)):
        (bo,) = game.hand(GB, "boston")
        assert game.e.reserve_ok(0, GB, Reserve(bo)) == ok


def test_scen7_british_bateaux_in_the_starting_deck():
    game = on(7)
    assert count(game, GB, "bateaux", game.s.draw[0][GB] + game.s.hand[0][GB]) == 1
    assert count(Game(), GB, "bateaux", Game().s.emp_deck[0][GB]) == 1


@pytest.mark.parametrize("n", [8, 9])
def test_scen8_scen9_a_blocked_attack_is_no_action(n):
    for game, used in ((Game(), 1), (on(n), 0)):
        if n == 8:
            (rangers,) = game.hand(GB, "rangers")
            (militia,) = game.hand(FR, "militia")
            game.player(FR).answers["block_ambush"] = militia
            assert game.act(GB, Ambush(rangers)) == used
        else:
            game.control("kennebec", FR)
            game.control("fort_halifax", GB)
            (cdb,) = game.hand(FR, "coureurs_de_bois")
            (fort,) = game.hand(GB, "fortification")
            game.player(GB).answers["block_raid"] = fort
            assert game.act(FR, Raid(game.loc("fort_halifax"), (cdb,))) == used


def test_scen11_a_fur_card_for_one_coin_as_a_free_action():
    for game, ok in ((Game(), False), (on(11), True)):
        (pm,) = game.hand(GB, "pemaquid")
        assert game.e.fur_coin_ok(0, GB, FurCoin(pm)) == ok
    money = game.s.money[0][GB]
    assert game.act(GB, FurCoin(pm), left=0) == 0 and game.s.money[0][GB] == money + 1


def test_scen12_free_discards():
    game = on(12)
    cards = game.hand(GB, "boston", "new_york", "norfolk")
    game.s.money[0][GB] = 0
    game.act(GB, Discard(tuple(cards)))
    assert game.s.money[0][GB] == 0


def test_scen13_the_french_add_an_empire_card_to_the_starting_deck():
    game = on(13)
    assert "start_card" in game.player(FR).asked
    assert len(game.s.draw[0][FR]) + len(game.s.hand[0][FR]) == 11


def test_scen14_a_location_card_given_back_loses_the_location():
    for game, keeps in ((Game(), True), (on(14), False)):
        gov, nf = game.hand(GB, "governor", "norfolk")
        game.act(GB, Governor(gov, (nf,)))
        assert (game.s.control[0][game.loc("norfolk")] == GB + 1) == keeps


def _besieged_norfolk_given_back(game):
    """A French siege of Norfolk (AFS-8.2) while the British Governor gives the Norfolk card back."""
    gov, nf = game.hand(GB, "governor", "norfolk")
    norfolk = game.loc("norfolk")
    game.s.siege_loc[0][FR], game.s.siege_p[0][FR] = norfolk, 1
    return Governor(gov, (nf,)), norfolk


def test_scen14_a_besieged_location_given_back_is_the_attackers_siege_won_without_a_capture():
    game = on(14)
    action, norfolk = _besieged_norfolk_given_back(game)
    game.act(GB, action)
    assert game.s.siege_loc[0][FR] == -1 and game.s.captured[0][FR] == [0, 0]     # no capture (AFS-8.9.1)
    won, occupy, over = game.e.logs[0][-3:]
    assert (won["event"], won["captured"], occupy["event"], over["event"]) == ("siege_won", None, "occupy", "siege_over")
    assert game.s.control[0][norfolk] == (FR + 1 if occupy["placed"] else 0)           # AFS-8.9.3


def test_scen14_option_forbidden_keeps_a_besieged_locations_card():
    game = Game(["rules.variants.scen14=true", 'options.scen14_besieged_card="forbidden"'])
    action, _ = _besieged_norfolk_given_back(game)
    assert not game.e.governor_ok(0, GB, action)
    free = on(14)
    assert free.e.governor_ok(0, GB, _besieged_norfolk_given_back(free)[0])


def test_scen15_native_americans_fight_in_sieges():
    game = on(15)
    game.control("halifax", GB)
    hx, ships, ri = game.hand(GB, "halifax", "ships", "regular_infantry")
    game.act(GB, Besiege(game.loc("louisbourg"), hx, ships, ri))
    (na,) = game.hand(FR, "native_americans")
    p = game.s.siege_p[0][GB]
    game.act(FR, Reinforce(GB, na))
    assert game.s.siege_p[0][GB] == p - 1
    assert Game().e.value(0, na, game.loc("louisbourg"), "defender") == 0


def test_scen16_no_british_siege_before_a_french_one_or_25_vp():
    game = on(16)
    assert not game.e.may_besiege(0, GB) and game.e.may_besiege(0, FR)
    game.s.sieges_started[0][FR] = 1
    assert game.e.may_besiege(0, GB)
    game = on(16)
    for key in ("albany", "deerfield"):
        game.control(key, GB, town=True)
    assert game.e.location_vp(0, GB) >= 25 and game.e.may_besiege(0, GB)


def test_scen17_a_lost_location_card_may_be_dropped_as_a_free_action():
    game = on(17)
    game.control("pemaquid", None)
    (pm,) = game.hand(GB, "pemaquid")
    assert DropLost(pm) in Choices(game.e, 0, GB, 0).list("drop_lost")
    game.act(GB, DropLost(pm), left=0)
    assert pm in game.s.loc_deck[0][GB]


def test_scen18_no_governor_on_held_starting_locations():
    game = on(18)
    gov, nf = game.hand(GB, "governor", "norfolk")
    assert not game.e.governor_ok(0, GB, Governor(gov, (nf,)))
    plain = Game()
    gov, nf = plain.hand(GB, "governor", "norfolk")
    assert plain.e.governor_ok(0, GB, Governor(gov, (nf,)))


def test_scen19_no_governor_cards():
    game = on(19)
    assert count(game, GB, "governor", game.s.removed[0]) == 2
    assert count(game, GB, "governor", game.s.emp_deck[0][GB] + game.s.emp_deck[0][FR]) == 0


def test_scen20_lost_locations_in_the_reserve():
    game = on(20, second=True)
    game.control("pemaquid", None)
    pm, bo = game.hand(GB, "pemaquid", "boston")
    assert game.e.reserve_ok(0, GB, Reserve(pm)) and not game.e.reserve_ok(0, GB, Reserve(bo))


@pytest.mark.parametrize(("overrides", "zone"), [((), "draw"), ((SECOND,), "removed"),
                                                 (("rules.variants.scen21=true",), "empire"),
                                                 ((SECOND, "rules.variants.scen21=true"), "empire"),
                                                 ((SECOND, "rules.variants.scen22=true"), "draw")])
def test_scen21_scen22_the_french_bateaux(overrides, zone):
    game = Game(list(overrides))
    c = next(c for c in range(game.t.n_cards) if game.t.kind[c].key == "bateaux" and game.t.start_side[c] == FR)
    assert game.book.zone[c] == zone


def test_scen23_home_support_reshuffles_under_the_second_edition():
    for game, drawn in ((Game([SECOND]), 0), (on(23, second=True), 3)):
        (hs,) = game.hand(FR, "home_support")
        game.s.discard[0][FR].extend(game.s.draw[0][FR])
        game.s.draw[0][FR].clear()
        game.act(FR, HomeSupport(hs), left=0)
        assert len(game.s.hand[0][FR]) == drawn


def test_scen24_raid_distance_one_per_card_under_the_second_edition():
    assert Game([SECOND]).e.raid_bonus == 1 and on(24, second=True).e.raid_bonus == 0 and Game().e.raid_bonus == 0


def test_scen25_the_reshuffle_waits_for_the_end_of_the_turn():
    game = on(25)
    game.s.discard[0][GB].extend(game.s.draw[0][GB])
    game.s.draw[0][GB].clear()
    game.s.hand[0][GB][:] = game.s.hand[0][GB][:3]
    assert game.e.draw(0, GB, 2) == 0
    game.e.refill(0, GB)
    assert len(game.s.hand[0][GB]) == 3 and game.s.draw[0][GB]
