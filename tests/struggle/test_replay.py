"""`sim.struggle.replay.account`: the readable account of a logged game."""

from __future__ import annotations

from sim.core.seating import Seating
from sim.struggle.components import default_components
from sim.struggle.play import new_engine
from sim.struggle.replay import account
from sim.struggle.state import LOWER, UPPER

POWERS = ("great_britain", "france", "spain")


def test_single_marker_proposal_names_its_row_soe_6_4_and_a4():
    """SOE-6.4 / SOE-A4: with one player left outside the rows a proposal is (that seat, its
    row); the account names the row, not a power with the row's number as seat."""
    head = {"game_index": 0, "seed": 1, "powers": list(POWERS), "strategies": ["random"] * 3}
    war = {"war": 1, "round": 0}
    events = [{"event": "bid", "seat": 0, "bid": 0, "proposal": [1, 2], **war},
              {"event": "auction_won", "seat": 0, "bid": 0, "rows": {"france": UPPER, "spain": LOWER}, **war},
              {"event": "bid", "seat": 1, "bid": 0, "proposal": [0, LOWER], **war},
              {"event": "auction_won", "seat": 1, "bid": 0, "rows": {"great_britain": LOWER}, **war},
              {"event": "bid", "seat": 2, "bid": 1, "proposal": [0, 1], "war": 2, "round": 0}]
    lines = account(head, events)
    assert "  great_britain bids 0 proposing france -> upper, spain -> lower" in lines
    assert "  france bids 0 proposing great_britain -> lower" in lines
    assert "  spain bids 1 proposing great_britain -> upper, france -> lower" in lines     # a new war: two markers


def test_every_bid_of_a_played_three_player_game_names_rows_soe_6():
    """SOE-6: in a logged 3-player game each war's last auction places one player; every bid
    line of that auction names one power and a row, the others two powers."""
    e = new_engine(default_components(), [Seating(POWERS, ("random",) * 3)], 5, [0], log=True)
    e.play()
    (head, events), = e.game_logs()
    lines = [line for line in account(head, events) if " bids " in line]
    bids, won = [], {}                      # each bid with whether it comes after its war's first auction
    for ev in events:
        if ev["event"] == "bid":
            bids.append((ev, won.get(ev["war"], 0) == 1))
        elif ev["event"] == "auction_won":
            won[ev["war"]] = won.get(ev["war"], 0) + 1
    assert len(lines) == len(bids) > 0
    for line, (ev, single) in zip(lines, bids):
        named = line.split(" proposing ")[1]
        if single:
            who, row = ev["proposal"]
            assert named == f"{POWERS[who]} -> {'upper' if row == UPPER else 'lower'}"
        else:
            a, b = ev["proposal"]
            assert named == f"{POWERS[a]} -> upper, {POWERS[b]} -> lower"
    assert sum(single for _, single in bids) >= 3           # a single-marker auction in every war


def test_an_attack_names_each_allys_help_and_units_take_their_article_soe_12_5():
    head = {"game_index": 0, "seed": 1, "powers": list(POWERS), "strategies": ["random"] * 3}
    at = {"war": 1, "round": 1}
    events = [{"event": "attack", "seat": 2, "region": "german_states", "target": "france", "war_office": False,
               "surprise": False, "helpers": {"great_britain": [3, 1], "russia": [1, 0]},
               "def_helpers": {}, **at},
              {"event": "loss", "seat": 1, "unit": "army", "region": "german_states", **at},
              {"event": "place", "seat": 0, "unit": "fleet", "region": "baltic", **at}]
    assert account(head, events)[-3:] == [
        "  spain attacks france in german_states; allies' help great_britain 3 armies and 1 fleet, russia 1 army "
        "vs none",
        "    france loses an army in german_states (+1 unrest)",
        "  great_britain places a fleet in baltic"]
