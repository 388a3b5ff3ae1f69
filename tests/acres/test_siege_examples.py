"""The siege worked examples of AFS-17 (E4-E7, E17, E18, E19) and the A1 track reading."""

import dataclasses

import numpy as np
import pytest

from sim.acres import siege
from sim.acres.components import load
from sim.core.errors import UserError


@pytest.fixture(scope="module")
def acres():
    return load()


def _side(acres, side, counts, location, role, money, policy=siege.POLICIES["greedy"]):
    sc = siege.side_classes(acres, acres.deck(side, counts), acres.location(location), role, policy)
    return sc, siege.DeckState.fresh(sc.counts, money, 1)


def _hand_of(state, sc, cid):
    return int(sum(state.hand[0, i] for i, members in enumerate(sc.members) if cid in members))


def test_example_afs_e4_to_e7_louisbourg_step_by_step(acres):
    """E4: artillery opens at French 2 -> British 1, 3 money paid. E5: Regular Infantry -> +3,
    Leader as a free action -> +4. E6: French Regular Infantry -> +2, Port Royal (ship at a ship
    location) -> +1; no British win at +1 ("temporarily saved"). E7: another Infantry -> +3 wins."""
    rules = acres.rules.siege
    gb_counts = {"siege_artillery": 1, "regular_infantry": 2, "leader": 1}
    gb, att = _side(acres, "british", gb_counts, "louisbourg", "attacker", 12)
    fr, dfn = _side(acres, "french", {"regular_infantry": 1, "port_royal": 1, "louisbourg": 1},
                    "louisbourg", "defender", 5)
    setup = siege.make_setup(acres, "louisbourg", "british",
                             {"british": acres.deck("british", gb_counts),
                              "french": acres.deck("french", {"regular_infantry": 1, "port_royal": 1})})
    rng = np.random.default_rng(0)
    assert setup.start == -2                                              # E4: French 2
    p = siege.open_siege(rng, att, gb, setup)
    assert p[0] == 1 and att.money[0] == 9                                # E4: British 1, 3 money
    siege.play_turn(att, p, gb, "attacker", siege.POLICIES["greedy"], setup, setup.actions - 1)
    assert p[0] == 4                                                      # E5: +2 then Leader +1
    assert not siege.defender_wins(p, rules)[0]                           # E6: French check fails
    siege.refill(rng, dfn, 5, True)
    assert _hand_of(dfn, fr, "louisbourg") == 1                           # the besieged card: unplayable
    siege.play_turn(dfn, p, fr, "defender", siege.POLICIES["greedy"], setup, setup.actions)
    assert p[0] == 1                                                      # E6: +2, then +1
    assert _hand_of(dfn, fr, "louisbourg") == 1
    assert not siege.attacker_wins(p, rules)[0]                           # E6: temporarily saved
    no_zero = dataclasses.replace(rules, zero_space=False)
    assert siege.attacker_wins(p, no_zero)[0]                             # A1: without 0 space a win
    siege.play_turn(att, p, gb, "attacker", siege.POLICIES["greedy"], setup, 1)
    assert p[0] == 3 and not siege.defender_wins(p, rules)[0]             # E7: +3, French check fails
    assert siege.attacker_wins(p, rules)[0]                               # E7: British win


def test_example_afs_e4_to_e7_louisbourg_whole_siege_in_the_bulk_kernel(acres):
    """E4-E7 played by the bulk kernel: the decks leave no choice, so every siege ends with a
    British win at the start of the British third turn (4 player turns completed); without the
    0 space (AFS-18 A1) the British already win after 2."""
    decks = {"british": acres.deck("british", {"siege_artillery": 1, "regular_infantry": 2, "leader": 1}),
             "french": acres.deck("french", {"regular_infantry": 1, "port_royal": 1})}
    for overrides, turns in (((), 4), (("rules.siege.zero_space=false",), 2)):
        setup = siege.make_setup(load(overrides), "louisbourg", "british", decks)
        counts = siege.simulate(setup, np.random.default_rng(1), 50)
        assert counts["attacker"][turns] == 50
        assert counts["attacker"].sum() == 50


def test_example_afs_e17_ship_and_military_on_one_card(acres):
    new_york, ships = acres.card("british", "new_york"), acres.card("british", "ships")
    louisbourg, albany = acres.location("louisbourg"), acres.location("albany")
    assert siege.card_value(new_york, louisbourg, "attacker") == 1        # not 2
    assert siege.card_value(new_york, albany, "attacker") == 1
    assert siege.card_value(ships, louisbourg, "attacker") == 1
    assert siege.card_value(ships, albany, "attacker") == 0               # cannot be played there
    assert not siege.can_open(ships, albany) and siege.can_open(ships, louisbourg)


def test_example_afs_e18_siege_start_with_fort_and_modifiers(acres):
    rules = acres.rules.siege
    infantry = acres.card("british", "regular_infantry")
    quebec, albany = acres.location("quebec"), acres.location("albany")
    value = siege.card_value(infantry, quebec, "attacker")
    assert siege.start_position(quebec, False, rules) + value == -1
    assert siege.start_position(quebec, True, rules) + value == -3
    assert siege.start_position(albany, False, rules) + siege.card_value(
        acres.card("french", "regular_infantry"), albany, "attacker") == 1


def test_example_afs_e19_the_defender_wins(acres):
    """E19: French Infantry opens at Albany (+1); the British Militia and Infantry bring it to -2;
    the French check fails, the British check wins: 3 player turns completed."""
    decks = {"french": acres.deck("french", {"regular_infantry": 1}),
             "british": acres.deck("british", {"militia": 1, "regular_infantry": 1})}
    setup = siege.make_setup(acres, "albany", "french", decks)
    assert setup.start + 2 == 1
    counts = siege.simulate(setup, np.random.default_rng(2), 40)
    assert counts["defender"][3] == 40 and counts["defender"].sum() == 40


def test_example_afs_e7_and_e19_card_disposal(acres):
    """AFS-8.11: the winner keeps everything; the loser returns one non-location card."""
    gb = [acres.card("british", c) for c in ("siege_artillery", "regular_infantry", "regular_infantry", "leader")]
    fr = [acres.card("french", "regular_infantry"), acres.card("french", "port_royal")]
    kept, returned, discarded = siege.dispose(gb, fr)
    assert kept == gb and returned.id == "regular_infantry" and [c.id for c in discarded] == ["port_royal"]
    assert siege.dispose(gb, [acres.card("french", "port_royal")])[1] is None     # AFS-8.11.4
    kept, returned, discarded = siege.dispose([], [acres.card("french", "regular_infantry")])
    assert returned.id == "regular_infantry" and discarded == []                  # E19


def test_fortification_card_helps_only_the_defender(acres):
    card, albany = acres.card("french", "fortification"), acres.location("albany")
    assert siege.card_value(card, albany, "defender") == 1
    assert siege.card_value(card, albany, "attacker") == 0 and not siege.can_open(card, albany)


def test_leader_never_opens_a_siege(acres):
    assert not siege.can_open(acres.card("british", "leader"), acres.location("albany"))
    with pytest.raises(UserError, match="no card that can open"):
        siege.make_setup(acres, "albany", "british", {"british": acres.deck("british", {"leader": 2})})


def test_artillery_needs_three_money(acres):
    decks = {"british": acres.deck("british", {"siege_artillery": 1})}
    with pytest.raises(UserError, match="no card that can open"):
        siege.make_setup(acres, "albany", "british", decks, money={"british": 2})
    setup = siege.make_setup(acres, "albany", "british", decks, money={"british": 3})
    assert setup.sides[0].cost == (3,)


def test_track_limit_clips_the_marker(acres):
    """AFS-18 A1 bounds: with a limit of 2 the marker cannot pass attacker 2."""
    rules = dataclasses.replace(acres.rules.siege, track_limit=2)
    assert siege.track_bounds(rules) == (-2, 2)
    assert siege.track_bounds(dataclasses.replace(rules, zero_space=False)) == (-2, 1)
    assert siege.track_bounds(acres.rules.siege) == (None, None)
