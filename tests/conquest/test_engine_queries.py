"""The engine's board queries (COE-11.5): the compiled `other_seat_at` equals the plain reading
below of every province, and `others_at` of many spaces is `other_seat_at` of each, on the
boards of random-legal games (armies, standing leaders, leaders aboard galleys, captured
colours), so the battles, the steps and the provinces taken are those the rules give."""

import pytest

from sim.conquest.components import load_components
from sim.conquest.play import new_engine
from sim.conquest.state import FREE
from sim.core.lockstep import RuleViolation
from sim.core.seating import Seating

COLOURS = ("red", "blue", "green", "yellow", "black", "white")


def plain_other_seat_at(e, g: int, seat: int, p: int) -> int:
    """The other seat with land units or standing leaders in province p, or -1: the colours in
    order, each one's land units before its free leaders not aboard."""
    s = e.s
    for c, o in enumerate(s.owner[g].tolist()):
        if o == seat or o < 0:
            continue
        if any(s.land[g, c, p].tolist()):
            return o
        if any(q == p and st == FREE and sh < 0
               for q, st, sh in zip(s.ldr_loc[g, c].tolist(), s.ldr_state[g, c].tolist(), s.ldr_ship[g, c].tolist())):
            return o
    return -1


def test_coe11_5_other_seat_queries_are_the_plain_reading():
    found = 0

    def check(e, g: int, seat: int) -> None:
        nonlocal found
        spaces = list(range(e.t.n_prov))
        plain = [plain_other_seat_at(e, g, seat, q) for q in spaces]
        assert [e.other_seat_at(g, seat, q) for q in spaces] == plain
        assert e.others_at(g, seat, spaces) == plain
        assert e.others_at(g, seat, spaces[::-3]) == plain[::-3]
        assert e.others_at(g, seat, []) == []
        found += sum(x >= 0 for x in plain)

    assert every_seat_after_every_step(check, turn_cap=15, seed=7) > 100 and found > 1000


def every_seat_after_every_step(check, turn_cap: int, seed: int) -> int:
    """Random-legal 2-, 4- and 6-player games: `check(engine, game, seat)` for every seat of
    every game after every step; the number of checks made."""
    checked = 0

    def each_seat(e, where) -> None:
        nonlocal checked
        for g in range(len(e.seatings)):
            for seat in range(int(e.s.n_players[g])):
                check(e, g, seat)
                checked += 1

    seatings = [Seating(COLOURS[:n], ("random",) * n) for n in (2, 4, 6)]
    e = new_engine(load_components([f"rules.turn_cap={turn_cap}"]), seatings, seed, range(3))
    e.on_step = each_seat
    e.play()
    return checked


def test_coe11_5_other_seat_queries_on_each_kind_of_piece():
    """Every piece the query reads, set by hand on a province nobody stands in: another seat's
    land units of any type or free leader standing there count; a leader aboard a galley or
    captive, the asker's own pieces and a colour nobody commands do not."""
    e = new_engine(load_components(), [Seating(COLOURS[:4], ("random",) * 4)], 3, range(1))
    e.setup()                                # the Home Provinces, their pieces, the colours' seats
    s = e.s
    assert s.owner[0].tolist()[:4] == [0, 1, 2, 3]
    q = next(q for q in range(e.t.n_prov) if all(plain_other_seat_at(e, 0, seat, q) < 0 for seat in range(4)))
    leader = (0, 2, 1)
    scenes = [([(s.land, (0, 1, q, k), 1)], 1) for k in range(3)] + [     # (edits, the seat seat 0 finds)
        ([(s.ldr_loc, leader, q)], 2),
        ([(s.ldr_loc, leader, q), (s.ldr_ship, leader, 3)], -1),
        ([(s.ldr_loc, leader, q), (s.ldr_state, leader, FREE + 1)], -1),
        ([(s.land, (0, 5, q, 1), 1), (s.owner, (0, 5), -1)], -1),
        ([(s.land, (0, 1, q, 1), 1), (s.owner, (0, 1), -1), (s.ldr_loc, leader, q)], 2),
    ]
    for scene, found in scenes:
        before = [array[at] for array, at, _ in scene]
        for array, at, value in scene:
            array[at] = value
        for seat in range(4):
            assert e.other_seat_at(0, seat, q) == plain_other_seat_at(e, 0, seat, q)
            assert e.others_at(0, seat, [q, 0, q]) == [plain_other_seat_at(e, 0, seat, r) for r in (q, 0, q)]
        assert e.other_seat_at(0, 0, q) == found
        for (array, at, _), value in zip(scene, before):
            array[at] = value


def test_other_seat_queries_refuse_a_space_off_the_provinces():
    e = new_engine(load_components(), [Seating(COLOURS[:2], ("random",) * 2)], 3, range(1))
    for q in (-1, e.t.n_prov):
        with pytest.raises(IndexError):
            e.other_seat_at(0, 0, q)
        with pytest.raises(IndexError):
            e.others_at(0, 0, [0, q])


def plain_retreat_options(e, g: int, seat: int, q: int) -> list[int]:
    """COE-16.4 / COE-A22 read plainly: the provinces next to q with no other seat's land units
    or standing leaders and no galley of another living seat."""
    s = e.s
    fleets = {int(z) for c, o in enumerate(s.owner[g].tolist()) if o >= 0 and o != seat and s.alive[g, o]
              for z in s.gal_loc[g, c].tolist()}
    return [r for r in e.t.steps[q] if plain_other_seat_at(e, g, seat, r) < 0 and r not in fleets]


def test_coe16_4_retreat_options_are_the_plain_reading():
    """The retreat options (read once per question: the other seats' galleys, and who stands in
    the neighbours in one compiled pass) equal the plain reading on random-legal boards with
    galleys at sea and on coasts."""
    fleets = 0

    def check(e, g: int, seat: int) -> None:
        nonlocal fleets
        for q in range(e.t.n_prov):
            assert e.retreat_options(g, seat, q) == plain_retreat_options(e, g, seat, q)
        fleets += len(e.enemy_galley_spaces(g, seat) - {-1})

    assert every_seat_after_every_step(check, turn_cap=12, seed=11) > 100 and fleets > 100


def test_a_broken_rule_names_its_values():
    """`Engine.require` formats its message with the values given only when the rule is broken."""
    e = new_engine(load_components(), [Seating(COLOURS[:2], ("random",) * 2)], 3, range(1))
    e.require(True, "units {} have no MP left in {}", (9, 9, 9), 5)
    with pytest.raises(RuleViolation, match=r"units \(1, 0, 2\) have no MP left in 5"):
        e.require(False, "units {} have no MP left in {}", (1, 0, 2), 5)
    with pytest.raises(RuleViolation, match=r"^a move needs \{\} braces kept$"):
        e.require(False, "a move needs {} braces kept")
