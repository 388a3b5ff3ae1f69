"""Worked examples AFS-E12..E16 and E22 through the engine (AFS-12 economy, AFS-13 cards)."""

import pytest

from sim.acres.actions import Discard, FurTrade, HomeSupport, Intendant, Piracy, Recruit, Retrieve, SeaTrade, TakeMoney
from sim.core.lockstep import RuleViolation
from tests.acres.engine_kit import FR, GB, Game


def test_example_afs_e12_piracy_when_britain_is_short_of_money():
    game = Game()
    lb, qu = game.hand(FR, "louisbourg", "quebec")
    game.s.money[0][GB], game.s.money[0][FR] = 1, 0
    game.act(FR, Piracy(lb, qu))
    assert game.s.money[0] == [0, 2]                                       # GB paid 1, the bank 1


def test_example_afs_e13_discard_cost():
    game = Game()
    cards = game.hand(GB, "boston", "new_york", "norfolk")
    game.s.money[0][GB] = 2
    game.act(GB, Discard(tuple(cards)))
    assert game.s.money[0][GB] == 0 and set(cards) <= set(game.s.discard[0][GB])
    a, b = game.hand(GB, "new_haven", "pemaquid")
    with pytest.raises(RuleViolation):
        game.act(GB, Discard((a, b)))                                      # 0 money: only one card
    game.act(GB, Discard((a,)))
    assert game.s.money[0][GB] == 0


def test_example_afs_e14_recruit_a_neutral_fortification():
    game = Game()
    fort = game.card(2, "fortification")
    game.s.money[0][GB] = 2
    assert not game.e.recruit_ok(0, GB, Recruit(fort))
    game.s.money[0][GB] = 5
    game.act(GB, Recruit(fort))
    assert game.s.money[0][GB] == 2 and game.s.discard[0][GB][-1] == fort


def test_example_afs_e15_retrieve_the_whole_reserve():
    game = Game()
    cards = game.hand(GB, "boston", "new_york", "norfolk")
    for c in cards:
        game.move(c, game.s.reserve[0][GB])
    game.hand(GB, "new_haven", "pemaquid", "philadelphia")
    game.s.money[0][GB] = 2
    with pytest.raises(RuleViolation):
        game.act(GB, Retrieve(), left=0)
    game.s.money[0][GB] = 3
    assert game.act(GB, Retrieve(), left=0) == 0
    assert game.s.money[0][GB] == 0 and len(game.s.hand[0][GB]) == 6 and not game.s.reserve[0][GB]
    game.e.refill(0, GB)
    assert len(game.s.hand[0][GB]) == 6                                    # no draw, no discard down


def test_example_afs_e16_home_support_and_intendant():
    game = Game()
    hs, it = game.hand(FR, "home_support", "intendant")
    game.s.money[0][FR] = 5
    assert game.act(FR, HomeSupport(hs), left=2) == 0
    assert len(game.s.hand[0][FR]) == 1 + 3 and game.s.discard[0][FR][-1] == hs
    assert game.act(FR, Intendant(it, hs), left=2) == 1
    assert hs in game.s.hand[0][FR] and game.s.money[0][FR] == 3
    game.act(FR, HomeSupport(hs), left=1)
    assert len(game.s.hand[0][FR]) == 3 + 3                                # 6 drawn in all, the Intendant gone


def test_intendant_cannot_fetch_itself():
    """AFS-18 A30: the Intendant reaches the discard pile only after the choice."""
    game = Game()
    (it,) = game.hand(FR, "intendant")
    game.s.money[0][FR] = 5
    assert not game.e.intendant_ok(0, FR, Intendant(it, it))


def test_example_afs_e22_sea_trade_trader_and_take_money():
    game = Game()
    nf, bo, ph = game.hand(GB, "norfolk", "boston", "philadelphia")
    money = game.s.money[0][GB]
    game.act(GB, SeaTrade(nf, (bo, ph)))
    assert game.s.money[0][GB] == money + 6                                # Norfolk's own coin not counted
    tr, ga, ta, trv = game.hand(FR, "trader", "gaspe", "tadoussac", "trois_rivieres")
    money = game.s.money[0][FR]
    game.act(FR, FurTrade(tr, (ga, ta, trv)))
    assert game.s.money[0][FR] == money + 6
    (qu,) = game.hand(FR, "quebec")
    game.act(FR, TakeMoney(qu))
    assert game.s.money[0][FR] == money + 8
