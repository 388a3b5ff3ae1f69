"""COE-23 / COE-A26 / COE-A28 ransom through the engine: talents, a General for a General
(COE-23.1), the captor's answer, placement in the Home Province (COE-23.2), and the offers the
rules refuse."""

import numpy as np
import pytest

from sim.conquest.actions import Ransom
from sim.conquest.play import make_player
from sim.conquest.players import RandomPlayer
from sim.conquest.replay import account
from sim.conquest.state import CAPTIVE, FREE, LEADERS
from sim.core.lockstep import RuleViolation
from tests.conquest.engine_setup import control, engine, events

MINE = 0 * LEADERS + 1                  # seat 0's General 1, held by seat 1
THEIRS = 1 * LEADERS + 2                # seat 1's General 2, held by seat 0


def captives(ransoms, accepts=(), treasury=40, swap=True):
    """Seat 1 holds seat 0's General 1 (and seat 0 holds seat 1's General 2 when `swap`); seat
    0's ransom phase runs with the offers `ransoms`, seat 1 answering `accepts`."""
    e = engine(2, {0: {"ransoms": list(ransoms)}, 1: {"accepts": list(accepts)}})
    s = e.s
    s.ldr_state[0, 0, 1], s.ldr_holder[0, 0, 1], s.ldr_loc[0, 0, 1] = CAPTIVE, 1, -1
    if swap:
        s.ldr_state[0, 1, 2], s.ldr_holder[0, 1, 2], s.ldr_loc[0, 1, 2] = CAPTIVE, 0, -1
    s.treasury[0, 0], s.treasury[0, 1] = treasury, 0
    return e


def asked(e, seat, kind):
    return [x[2] for x in e.players[0][seat].journal if x[1] == kind]


def test_coe_23_1_a_talent_ransom_accepted_frees_the_general_at_home_and_pays_the_captor():
    e = captives([Ransom(MINE, 25)], [True], swap=False)
    e.ransom_phase(0, 0)
    s = e.s
    assert asked(e, 0, "ransom") == [([(MINE, 1)], 40, {})]
    assert asked(e, 1, "accept_ransom") == [(MINE, 25, 0, -1)]
    assert s.ldr_state[0, 0, 1] == FREE and s.ldr_loc[0, 0, 1] == s.home[0, 0]          # COE-23.2
    assert (s.treasury[0, 0], s.treasury[0, 1]) == (15, 25)
    assert events(e, "ransom")[0]["accepted"] and "swap" not in events(e, "ransom")[0]


def test_coe_23_1_a_refused_ransom_changes_nothing():
    e = captives([Ransom(MINE, 25)], [False], swap=False)
    e.ransom_phase(0, 0)
    assert e.s.ldr_state[0, 0, 1] == CAPTIVE and e.s.treasury[0, 0] == 40 and e.s.treasury[0, 1] == 0


def test_coe_23_1_a_general_for_a_general_frees_both_at_their_homes():
    e = captives([Ransom(MINE, 0, THEIRS)], [True], treasury=0)
    e.ransom_phase(0, 0)
    s = e.s
    assert asked(e, 0, "ransom") == [([(MINE, 1)], 0, {1: [THEIRS]})]     # asked with no talents: a swap is open
    assert asked(e, 1, "accept_ransom") == [(MINE, 0, 0, THEIRS)]
    assert s.ldr_state[0, 0, 1] == FREE and s.ldr_loc[0, 0, 1] == s.home[0, 0]
    assert s.ldr_state[0, 1, 2] == FREE and s.ldr_loc[0, 1, 2] == s.home[0, 1] and s.ldr_holder[0, 1, 2] == -1
    text = "\n".join(account(e.game_logs()[0][0], e.logs[0]))
    assert "General 2 to" in text and "for" in text and "accepted" in text


def test_coe_23_1_a_refused_swap_keeps_both_held():
    e = captives([Ransom(MINE, 0, THEIRS)], [False], treasury=0)
    e.ransom_phase(0, 0)
    assert e.s.ldr_state[0, 0, 1] == CAPTIVE and e.s.ldr_state[0, 1, 2] == CAPTIVE
    assert events(e, "ransom")[0]["swap"] == THEIRS and not events(e, "ransom")[0]["accepted"]


@pytest.mark.parametrize("offer", [Ransom(MINE, 0), Ransom(MINE, 50), Ransom(MINE, 0, 1 * LEADERS + 3),
                                   Ransom(1 * LEADERS + 1, 5)])
def test_coe_23_offers_the_rules_refuse(offer):
    """Nothing offered, more than the treasury, a General not held, someone else's General."""
    e = captives([offer], [True])
    with pytest.raises(RuleViolation, match="ransom"):
        e.ransom_phase(0, 0)


def test_coe_a28_no_swap_is_offered_to_a_captor_who_cannot_place_at_home():
    e = captives([None], treasury=0)
    control(e, 0, e.t.names[int(e.s.home[0, 1])])            # seat 1 has lost his Home Province
    e.ransom_phase(0, 0)
    assert asked(e, 0, "ransom") == []                       # no talents and no swap: nothing to offer


def test_coe_23_the_players_offer_and_accept_swaps():
    """The scripted strategies offer a General held of the captor's before talents, and take
    their own General back for one held; the random player sometimes offers a swap."""
    e = captives([])
    scripted = make_player("hunter", e, 0, 0, np.random.default_rng(3))
    offer, accept = int(scripted.k["ransom_offer"]), int(scripted.k["ransom_accept"])
    assert scripted.ransom([(MINE, 1)], 0, {1: [THEIRS]}) == Ransom(MINE, 0, THEIRS)
    rich = offer + int(scripted.k["reserve"])
    assert scripted.ransom([(MINE, 1)], rich, {}) == (Ransom(MINE, offer) if offer else None)
    assert scripted.accept_ransom(MINE, 0, 1, THEIRS) and not scripted.accept_ransom(MINE, accept - 1, 1, -1)
    rnd = RandomPlayer(e, 0, 0, np.random.default_rng(3))
    offers = {rnd.ransom([(MINE, 1)], 0, {1: [THEIRS]}) for _ in range(40)}
    assert offers == {None, Ransom(MINE, 0, THEIRS)}


def bids(player, e, turns, treasury=500, options=((MINE, 1),)):
    """The talents a scripted player bids in his ransom phases of `turns` (None: no bid), the
    General staying captive (each bid refused)."""
    out = []
    for turn in turns:
        e.s.turn[0] = turn
        offer = player.ransom(list(options), treasury, {})
        out.append(None if offer is None else offer.talents)
    return out


@pytest.mark.parametrize("strategy", ["expansionist", "fortifier", "hunter", "siege_train"])
def test_coe_23_a_refused_bid_rises_by_the_step_up_to_the_most_the_table_pays_then_stops(strategy):
    """Engine version 14: the first bid is `ransom_offer`, each turn after a refusal `ransom_step`
    more, capped at `ransom_max`; once that was refused, no more bids for that General."""
    e = captives([])
    player = make_player(strategy, e, 0, 0, np.random.default_rng(3))
    first, step, most = (int(player.k[k]) for k in ("ransom_offer", "ransom_step", "ransom_max"))
    rises = [min(first + i * step, most) for i in range(1 + -(-(most - first) // step))]
    assert len(rises) > 1 and rises[-1] == most
    assert bids(player, e, range(1, len(rises) + 3)) == [*rises, None, None]


def test_coe_23_a_general_freed_and_taken_again_is_bid_for_from_the_first_offer():
    e = captives([])
    player = make_player("expansionist", e, 0, 0, np.random.default_rng(3))
    first, step = int(player.k["ransom_offer"]), int(player.k["ransom_step"])
    assert bids(player, e, [1, 2]) == [first, first + step]
    e.s.turn[0] = 3
    assert player.ransom([(THEIRS, 1)], 500, {}).leader == THEIRS      # turn 3: MINE was freed
    assert bids(player, e, [4]) == [first]                               # ... and is held again


def test_coe_23_bids_and_the_smallest_ransom_accepted_scale_with_the_price_multiplier():
    """COE-21: talents buy half as much after the first inflation, so a General's price doubles
    (the rules leave ransoms to the players, COE-20.2)."""
    e = captives([])
    player = make_player("fortifier", e, 0, 0, np.random.default_rng(3))
    first, accept = int(player.k["ransom_offer"]), int(player.k["ransom_accept"])
    e.s.multiplier[0] = 2
    assert bids(player, e, [1]) == [2 * first]
    assert bids(player, e, [2], treasury=2 * first) == [None]            # the raised bid is not affordable
    assert player.accept_ransom(MINE, 2 * accept, 1, -1) and not player.accept_ransom(MINE, 2 * accept - 1, 1, -1)


def test_coe_23_every_bidder_can_reach_the_price_of_every_captor_who_keeps_generals():
    """The tables strike deals: each strategy's highest bid meets the smallest ransom of each
    strategy that holds captured Generals (`kill_generals` 0) rather than killing them."""
    e = captives([])
    tables = {s: make_player(s, e, 0, 0, np.random.default_rng(3)).k
              for s in ("expansionist", "fortifier", "hunter", "siege_train")}
    keepers = [k for k in tables.values() if not k["kill_generals"]]
    assert keepers
    assert all(k["ransom_max"] >= c["ransom_accept"] for k in tables.values() for c in keepers)
