"""The engine's board queries read in bulk (COE-11.5): `others_at` of many spaces is
`other_seat_at` of each, on the boards of random-legal games (armies, standing leaders,
leaders aboard galleys, captured colours), so the battles and the provinces taken are those
the one-space query finds."""

from sim.conquest.components import load_components
from sim.conquest.play import new_engine
from sim.core.seating import Seating

COLOURS = ("red", "blue", "green", "yellow", "black", "white")


def test_coe11_5_others_at_is_other_seat_at_of_each_space():
    checked = 0

    def check(e, where):
        nonlocal checked
        spaces = list(range(e.t.n_prov))
        for g in range(len(e.seatings)):
            for seat in range(int(e.s.n_players[g])):
                assert e.others_at(g, seat, spaces) == [e.other_seat_at(g, seat, q) for q in spaces]
                assert e.others_at(g, seat, spaces[::-3]) == [e.other_seat_at(g, seat, q) for q in spaces[::-3]]
                checked += 1

    seatings = [Seating(COLOURS[:n], ("random",) * n) for n in (2, 4, 6)]
    e = new_engine(load_components(["rules.turn_cap=15"]), seatings, 7, range(3))
    e.on_step = check
    e.play()
    assert checked > 100
