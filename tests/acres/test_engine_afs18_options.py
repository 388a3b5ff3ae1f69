"""The AFS-18 alternatives added as options in engine version 12, each both ways through the engine:
A9 (an ambush pays no fee), A17 (a besieged location breaks the supply chain), A19 (a Leader needs
no supply), A41 (only a military card opens a siege); and A36 (the first discard free once a turn),
added in engine version 13. Their recommended readings stay the defaults."""

import pytest

from sim.acres.actions import Ambush, Besiege, Discard, Pass, PlayLeader
from sim.acres.choices import Choices
from tests.acres.engine_kit import FR, GB, Game

NEUTRAL_SIDE = 2                       # `Game.card`'s side of a green card


@pytest.mark.parametrize(("pays", "fee"), [(True, 1), (False, 0)])
def test_a9_an_ambush_with_a_native_americans_card_pays_the_fee_unless_the_option_is_off(pays, fee):
    game = Game([f"options.ambush_pays_fee={str(pays).lower()}"])
    game.hand(GB, "regular_infantry", "boston")
    game.hand(FR, "quebec")
    native = game.card(NEUTRAL_SIDE, "native_americans")
    game.move(native, game.s.hand[0][FR])
    money = game.s.money[0][FR]
    game.act(FR, Ambush(native))
    assert game.s.money[0][FR] == money - fee
    assert game.e.ambush_fee(native) == fee


def _besieged_link(game):
    """A British location other than the capital that the rest of the chain passes through:
    (it, the British locations connected only through it)."""
    e, s = game.e, game.s
    whole = e.connected(0, GB)
    for x in sorted(whole - {e.t.capital[GB]}):
        s.control[0][x] = 0
        s.version[0] += 1
        behind = whole - e.connected(0, GB) - {x}
        s.control[0][x] = GB + 1
        s.version[0] += 1
        if behind:
            return x, behind
    raise AssertionError("no British location links others to the capital")


@pytest.mark.parametrize("links", [True, False])
def test_a17_an_own_besieged_location_is_a_link_unless_the_option_is_off(links):
    game = Game([f"options.chain_through_own_besieged={str(links).lower()}"])
    for key in ("fort_halifax", "deerfield", "pemaquid", "halifax", "port_royal"):
        game.control(key, GB)
    x, behind = _besieged_link(game)
    game.s.siege_loc[0][FR] = x                      # a French siege at x
    game.s.version[0] += 1
    conn = game.e.connected(0, GB)
    assert (behind <= conn) == links and (x in conn) == links
    card = game.card(GB, game.t.locs[min(behind)])
    assert game.e.playable(0, GB, card) == links


@pytest.mark.parametrize("needs", [True, False])
def test_a19_a_leader_joins_an_unsupplied_siege_only_when_the_option_is_off(needs):
    game = Game([f"options.leader_needs_supply={str(needs).lower()}"])
    game.control("halifax", GB)
    hx, ships, art, ri, leader = game.hand(GB, "halifax", "ships", "siege_artillery", "regular_infantry", "leader")
    game.act(GB, Besiege(game.loc("louisbourg"), hx, ships, art))
    game.e.supplied = lambda g, side, loc: False     # the chain to Louisbourg cut, however it was
    assert game.e.reinforce_ok(0, GB, GB, leader, True) == (not needs)
    assert not game.e.reinforce_ok(0, GB, GB, ri, False)          # a reinforcement needs supply either way
    listed = Choices(game.e, 0, GB, 1).list("leader")
    assert (PlayLeader(GB, leader) in listed) == (not needs)


@pytest.mark.parametrize("ship_opens", [True, False])
def test_a41_a_ships_card_opens_a_siege_of_a_ship_location_unless_the_option_is_off(ship_opens):
    game = Game([f"options.ship_opens_siege={str(ship_opens).lower()}"])
    game.control("halifax", GB)
    hx, ships, ships2, ri = game.hand(GB, "halifax", "ships", "ships", "regular_infantry")
    lb = game.loc("louisbourg")
    assert ships != ships2
    by_ship, by_infantry = Besiege(lb, hx, ships, ships2), Besiege(lb, hx, ships, ri)
    assert game.e.besiege_ok(0, GB, by_ship) == ship_opens
    assert game.e.besiege_ok(0, GB, by_infantry)
    listed = Choices(game.e, 0, GB, 1).list("besiege")
    assert (by_ship in listed) == ship_opens and by_infantry in listed


@pytest.mark.parametrize(("reading", "second_cost"), [("each_action", 0), ("once_per_turn", 1)])
def test_a36_the_first_card_of_a_second_discard_in_a_turn_is_free_only_per_action(reading, second_cost):
    game = Game([f"options.free_discard={reading}"])
    first, second = game.hand(GB, "boston", "new_york")
    game.s.money[0][GB] = 1
    game.act(GB, Discard((first,)))
    assert game.s.money[0][GB] == 1                          # a turn's first discard: the first card free
    assert game.e.discard_cost(0, 1) == second_cost
    game.act(GB, Discard((second,)))
    assert game.s.money[0][GB] == 1 - second_cost


def test_a36_once_per_turn_lists_no_discard_the_side_cannot_pay_and_the_next_turn_frees_it_again():
    game = Game(["options.free_discard=once_per_turn"])
    first, _ = game.hand(GB, "boston", "new_york")
    game.s.money[0][GB] = 0
    game.act(GB, Discard((first,)))
    assert not Choices(game.e, 0, GB, 1).list("discard")
    game.player(GB).choose_action = lambda choices: Pass()   # the turn passes at once
    game.e.turn(0)
    assert game.s.active[0] == FR and game.e.discard_cost(0, 1) == 0
