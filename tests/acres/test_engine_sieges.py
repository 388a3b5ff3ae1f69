"""Worked examples AFS-E4..E7 and E17..E19 through the engine (AFS-8 sieges)."""

import pytest

from sim.acres.actions import Besiege, Occupy, Piracy, PlayLeader, Reinforce, Withdraw
from sim.core.lockstep import RuleViolation
from tests.acres.engine_kit import FR, GB, Game


def _louisbourg_opening():
    """AFS-E4: Halifax (lists Louisbourg by sea) + Ships + Siege Artillery, 3 money paid."""
    game = Game()
    game.control("halifax", GB)
    hx, ships, art, ri, leader = game.hand(GB, "halifax", "ships", "siege_artillery", "regular_infantry", "leader")
    money = game.s.money[0][GB]
    lb = game.loc("louisbourg")
    game.act(GB, Besiege(lb, hx, ships, art))
    return game, lb, money, (hx, ships, art, ri, leader)


def test_example_afs_e4_besiege_louisbourg():
    game, lb, money, (hx, ships, art, _, _) = _louisbourg_opening()
    s = game.s
    assert s.siege_loc[0][GB] == lb and s.siege_p[0][GB] == +1             # French 2, then +3: British 1
    assert s.money[0][GB] == money - 3
    assert {hx, ships} <= set(s.discard[0][GB]) and s.siege_cards[0][GB][GB] == [art]
    assert not game.e.playable(0, FR, game.card(FR, "louisbourg"))         # besieged: its card is dead


def test_example_afs_e5_to_e7_louisbourg_is_temporarily_saved_then_taken():
    game, lb, _, (_, _, _, ri, leader) = _louisbourg_opening()
    s, e = game.s, game.e
    assert game.act(GB, Reinforce(GB, ri), left=1) == 1 and s.siege_p[0][GB] == 3          # E5
    assert game.act(GB, PlayLeader(GB, leader), left=0) == 0 and s.siege_p[0][GB] == 4     # free action
    e.siege_checks(0, FR)                                                  # E6: no check wins for GB now
    assert s.siege_loc[0][GB] == lb
    fr_ri, pr, lbc = game.hand(FR, "regular_infantry", "port_royal", "louisbourg")
    with pytest.raises(RuleViolation):
        game.act(FR, Reinforce(GB, lbc))                                   # the besieged location's card
    game.act(FR, Reinforce(GB, fr_ri))
    game.act(FR, Reinforce(GB, pr))                                        # ship at a ship location: 1
    assert s.siege_p[0][GB] == 1 and s.siege_cards[0][GB][FR] == [fr_ri, pr]
    e.siege_checks(0, GB)
    assert s.siege_loc[0][GB] == lb                                        # "temporarily saved"
    ri2, ny = game.hand(GB, "regular_infantry", "new_york")                # E7
    game.act(GB, Reinforce(GB, ri2))
    e.siege_checks(0, FR)
    assert s.siege_p[0][GB] == 3 and s.siege_loc[0][GB] == lb
    game.player(GB).answers["occupy"] = lambda options: Occupy(ny)
    cubes = s.cubes[0][GB]
    e.siege_checks(0, GB)
    assert s.siege_loc[0][GB] == -1 and s.control[0][lb] == GB + 1 and s.cubes[0][GB] == cubes - 1
    assert s.captured[0][GB] == [1, 0]
    assert game.card(GB, "louisbourg") in s.discard[0][GB] and ny in s.discard[0][GB]
    assert {ri, leader, ri2} <= set(s.discard[0][GB])                      # the winner keeps everything
    assert fr_ri in s.emp_deck[0][FR] and pr in s.discard[0][FR]           # the loser returns one card
    assert not e.piracy_ok(0, FR, Piracy(lbc, game.card(FR, "quebec")))


def test_example_afs_e17_ship_and_military_on_one_card():
    """AFS-E17: New York is worth 1 at a ship location and 1 elsewhere; Ships 0 elsewhere."""
    game = Game()
    e = game.e
    ny, ships = game.card(GB, "new_york"), game.card(GB, "ships")
    assert e.value(0, ny, game.loc("louisbourg"), "attacker") == 1
    assert e.value(0, ny, game.loc("montreal"), "attacker") == 1
    assert e.value(0, ships, game.loc("montreal"), "attacker") == 0
    assert e.value(0, ships, game.loc("louisbourg"), "attacker") == 1


def test_example_afs_e18_siege_start_with_fort_and_modifiers():
    """AFS-E18: Quebec (2 modifiers) with Regular Infantry: -1, with a fort -3; Albany +1."""
    for fort, expected in ((False, -1), (True, -3)):
        game = Game()
        game.control("louisbourg", GB)
        game.s.fort[0][game.loc("quebec")] = fort
        game.s.forts_left[0] -= fort
        lb, ships, ri = game.hand(GB, "louisbourg", "ships", "regular_infantry")
        game.act(GB, Besiege(game.loc("quebec"), lb, ships, ri))
        assert game.s.siege_p[0][GB] == expected
    game = _albany_siege()
    assert game.s.siege_p[0][FR] == 1


def _albany_siege():
    game = Game()
    for key in ("fort_st_john", "ticonderoga", "fort_william_henry"):
        game.control(key, FR)
    game.control("albany", GB)
    fwh, bt, ri = game.hand(FR, "fort_william_henry", "bateaux", "regular_infantry")
    game.act(FR, Besiege(game.loc("albany"), fwh, bt, ri))
    return game


def test_example_afs_e19_the_defender_wins():
    """AFS-E19: Militia -> 0, Regular Infantry -> -2; at the next British turn the defender wins;
    the French return their only siege card, the starting Regular Infantry, to the empire deck."""
    game = _albany_siege()
    s, e = game.s, game.e
    mil, ri = game.hand(GB, "militia", "regular_infantry")
    game.act(GB, Reinforce(FR, mil))
    assert s.siege_p[0][FR] == 0
    game.act(GB, Reinforce(FR, ri))
    assert s.siege_p[0][FR] == -2
    e.siege_checks(0, FR)
    assert s.siege_loc[0][FR] == game.loc("albany")
    fr_ri = s.siege_cards[0][FR][FR][0]
    e.siege_checks(0, GB)
    assert s.siege_loc[0][FR] == -1 and s.control[0][game.loc("albany")] == GB + 1
    assert {mil, ri} <= set(s.discard[0][GB]) and fr_ri in s.emp_deck[0][FR]
    assert game.t.card_cost[fr_ri] == 0                                    # AFS-18 A34: the starting copy


def test_withdrawal_is_a_lost_siege_for_the_attacker_only():
    """AFS-8.12 / AFS-18 A16: the attacker returns a card, no piece moves; the defender cannot withdraw."""
    game = _albany_siege()
    with pytest.raises(RuleViolation):
        game.act(GB, Withdraw())
    fr_ri = game.s.siege_cards[0][FR][FR][0]
    assert game.act(FR, Withdraw(), left=0) == 0
    assert game.s.siege_loc[0][FR] == -1 and fr_ri in game.s.emp_deck[0][FR]
    assert game.s.control[0][game.loc("albany")] == GB + 1
