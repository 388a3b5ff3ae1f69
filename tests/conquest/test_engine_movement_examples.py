"""The movement examples COE-E1 .. COE-E3 through the engine, and the refusals next to them: a legion
of more than 7 land units per leader (COE-11.1), a leader without movement points (COE-11.2), a
drop-off off the trip's path (COE-E2) and an infantry on a second leg (COE-E3)."""

import pytest

from sim.conquest.actions import RoadTrip, Step
from sim.core.lockstep import RuleViolation
from tests.conquest.engine_setup import clear, control, engine, leader, units

G = 1                                    # seat 0's General 1


def _moving(players: int = 2):
    """Seat 0 in its movement phase with nothing on the board but its Caesar at home."""
    e = engine(players)
    clear(e, 0), clear(e, 1)
    return e


def _start(e) -> None:
    e.active[0], e.phase[0] = 0, 1
    e.refresh_mp(0, 0)


def _road_line(e, length: int) -> list[int]:
    """`length` provinces in a line, each joined to the next by a border that can carry a road,
    none of them a seat's home."""
    t, homes = e.t, set(e.s.home[0].tolist())
    nxt = {q: [] for q in range(t.n_prov)}
    for a, b in t.edges:
        nxt[a].append(b)
        nxt[b].append(a)

    def extend(line):
        if len(line) == length:
            return line
        for r in nxt[line[-1]]:
            if r not in line and r not in homes:
                found = extend(line + [r])
                if found:
                    return found
        return None

    for q in range(t.n_prov):
        if q not in homes and (line := extend([q])):
            return line
    raise AssertionError("no such line on the map")


def _road(e, a: int, b: int) -> None:
    e.s.road[0, e.t.edges.index((min(a, b), max(a, b)))] = True


def _on_roads(e, cities: list[int], start: int, army: tuple[int, int, int]) -> int:
    """Seat 0 holds `cities` as Cities joined by roads one to the next, and its General stands in
    `start` with `army`; the movement phase begins. Returns the General."""
    control(e, 0, *(e.t.names[q] for q in cities), city=True)
    for a, b in zip(cities, cities[1:]):
        _road(e, a, b)
    units(e, 0, e.t.names[start], army)
    gen = leader(e, 0, G, e.t.names[start])
    _start(e)
    return gen


def _mp(e, q: int, kind: int = 0) -> dict[int, int]:
    """Seat 0's land units of one kind in q by movement points left."""
    return {mp: int(n) for mp, n in enumerate(e.s.ready[0, 0, q, kind]) if n}


def test_example_coe_e1_a_leader_relays_two_groups():
    e = _moving()
    p0, p1, p2 = _road_line(e, 3)
    units(e, 0, e.t.names[p0], (6, 0, 0))
    units(e, 0, e.t.names[p1], (2, 0, 0))
    control(e, 0, e.t.names[p1], city=True)
    gen = leader(e, 0, G, e.t.names[p0])
    _start(e)
    e.apply(0, 0, Step((gen,), (6, 0, 0), p0, p1))
    e.apply(0, 0, Step((gen,), (2, 0, 0), p1, p2))           # the 2 that waited in P1
    assert e.s.ldr_loc[0, 0, G] == p2 and e.s.ldr_mp[0, 0, G] == 0
    assert e.units_at(0, 0, p1) == [6, 0, 0] and _mp(e, p1) == {0: 6}
    assert e.units_at(0, 0, p2) == [2, 0, 0] and _mp(e, p2) == {0: 2}
    with pytest.raises(RuleViolation):                     # no MP left (COE-11.2)
        e.apply(0, 0, Step((gen,), (0, 0, 0), p2, p1))


def test_coe_11_1_a_leader_leads_at_most_seven_land_units():
    e = _moving()
    p0, p1 = _road_line(e, 2)
    units(e, 0, e.t.names[p0], (8, 0, 0))
    gen = leader(e, 0, G, e.t.names[p0])
    _start(e)
    with pytest.raises(RuleViolation):
        e.apply(0, 0, Step((gen,), (8, 0, 0), p0, p1))
    e.apply(0, 0, Step((gen,), (7, 0, 0), p0, p1))
    assert e.units_at(0, 0, p0) == [1, 0, 0] and e.units_at(0, 0, p1) == [7, 0, 0]


def test_example_coe_e2_road_trip_with_a_drop_off_then_a_step_alone():
    e = _moving()
    a, b, d, x = _road_line(e, 4)
    gen = _on_roads(e, [a, b, d], a, (4, 0, 0))
    with pytest.raises(RuleViolation):                     # a drop-off must be a City on the way
        e.apply(0, 0, RoadTrip((gen,), (4, 0, 0), a, d, ((x, (2, 0, 0)),)))
    e.apply(0, 0, RoadTrip((gen,), (4, 0, 0), a, d, ((b, (2, 0, 0)),)))
    assert e.units_at(0, 0, b) == [2, 0, 0] and e.units_at(0, 0, d) == [2, 0, 0]
    assert _mp(e, b) == {0: 2} and _mp(e, d) == {0: 2} and e.s.ldr_mp[0, 0, G] == 1   # the trip: 1 MP
    e.apply(0, 0, Step((gen,), (0, 0, 0), d, x))             # alone (COE-A6)
    assert e.s.ldr_loc[0, 0, G] == x and e.s.ldr_mp[0, 0, G] == 0


@pytest.mark.parametrize("road_first", [False, True])
def test_example_coe_e3_cavalry_combines_a_step_and_a_road_trip(road_first):
    e = _moving()
    x, y, z, w = _road_line(e, 4)
    gen = _on_roads(e, [y, z, w], y if road_first else x, (0, 1, 0))
    if road_first:                                         # version b: Y -> W by road, then a step on
        e.apply(0, 0, RoadTrip((gen,), (0, 1, 0), y, w))
        e.apply(0, 0, Step((gen,), (0, 1, 0), w, z))
        end = z
    else:                                                  # version a: X -> Y, then Y -> W by road
        e.apply(0, 0, Step((gen,), (0, 1, 0), x, y))
        e.apply(0, 0, RoadTrip((gen,), (0, 1, 0), y, w))
        end = w
    assert e.units_at(0, 0, end) == [0, 1, 0] and _mp(e, end, kind=1) == {0: 1}
    assert e.s.ldr_mp[0, 0, G] == 0


def test_example_coe_e3_an_infantry_in_the_group_does_only_one_leg():
    e = _moving()
    x, y, z, w = _road_line(e, 4)
    gen = _on_roads(e, [y, z, w], x, (1, 1, 0))
    e.apply(0, 0, Step((gen,), (1, 1, 0), x, y))
    with pytest.raises(RuleViolation):
        e.apply(0, 0, RoadTrip((gen,), (1, 1, 0), y, w))
    e.apply(0, 0, RoadTrip((gen,), (0, 1, 0), y, w))         # the cavalry goes on, the infantry waits
    assert e.units_at(0, 0, y) == [1, 0, 0] and e.units_at(0, 0, w) == [0, 1, 0]
