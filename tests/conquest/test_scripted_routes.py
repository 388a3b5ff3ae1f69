"""Galleys and roads in the scripted players' plans (COE-32): a legion shipped to a province only
the sea reaches (COE-12.5, COE-12.6), a galley bought for it (COE-22.3), roads that extend the
home's network towards the frontier (COE-6.6, COE-22.6) and road trips that get nearer the goal
than a step (COE-6.6)."""

from sim.conquest.actions import Board, Buy, Sail
from sim.conquest.choices import Choices
from sim.conquest.routes import crossings, distance_to, sea_only
from sim.conquest.state import LEADERS
from tests.conquest.engine_setup import clear, control, engine, leader, seat_of, units
from tests.conquest.test_scripted_plans import scripted


def beach_galley(e, seat: int, where: str) -> int:
    """An empty galley of the seat's colour beached in a province; returns its id."""
    e.s.gal_loc[0, seat, 0] = e.t.index(where)
    return seat * e.s.gal_loc.shape[2]


def test_coe_3_4_sea_only_provinces_are_the_islands_without_a_strait():
    t = engine(2).t
    names = {t.names[q] for q in sea_only(t)}
    assert {"baleares", "corsica", "sardinia", "creta", "cyprus"} == names
    for q in sea_only(t):
        assert all(distance_to(t, r, [q]) >= t.n_prov for r in range(t.n_prov) if r != q)


def test_coe_12_2_a_crossing_puts_to_sea_on_the_coast_and_lands_on_another_coast_of_that_zone():
    t = engine(2).t
    for q in range(t.n_prov):
        for r, zone in crossings(t)[q].items():
            assert r != q and zone in t.coast[q] and r in t.sea_coast[zone - t.n_prov]


def test_coe_12_6_the_expansionist_ships_a_legion_to_an_island_and_takes_it():
    e = engine(2)
    me = seat_of(e, "hispania")
    clear(e, me)
    units(e, me, "hispania", (6, 0, 0))
    general = leader(e, me, 1, "hispania")
    galley = beach_galley(e, me, "hispania")
    player = scripted(e, me, "expansionist")
    plan = player.march(Choices(e, 0, me))
    board, out, landing = plan[:3]
    island = landing.dst
    assert board == Board(galley, (general,), (player.k["ferry_units"], 0, 0))
    assert type(out) is Sail and type(landing) is Sail and landing.land and island in sea_only(e.t)
    assert island in crossings(e.t)[e.t.index("hispania")]
    e.phase[0], e.active[0] = 1, me
    for action in plan[:3]:
        e.apply(0, me, action)
    e.occupy(0, me)
    assert e.s.control[0, island] == me and e.s.land[0, me, island].tolist() == [2, 0, 0]
    assert e.s.ldr_loc[0, me, general % LEADERS] == island


def test_coe_22_3_a_galley_is_bought_only_while_an_island_waits_one_crossing_from_a_dock():
    e = engine(2)
    me = seat_of(e, "hispania")
    player = scripted(e, me, "expansionist")
    offer = Buy("galley", e.t.index("hispania"))
    assert player.galley_wanted([offer], []) == offer
    assert player.galley_wanted([offer], [offer]) is None                # one galley is enough
    assert scripted(e, me, "fortifier").galley_wanted([offer], []) is None   # galleys = 0
    for q in crossings(e.t)[e.t.index("hispania")]:
        if q in sea_only(e.t):
            control(e, me, e.t.names[q])
    assert player.galley_wanted([offer], []) is None                     # nothing left to ship to


def empire_with_cities(e, me: int, *cities: str) -> None:
    """The seat holds every province but the other seat's home, Cities where named."""
    home_them = int(e.s.home[0, 1 - me])
    for q in range(e.t.n_prov):
        if q != home_them:
            control(e, me, e.t.names[q], city=e.t.names[q] in cities)


def road(e, a: str, b: str) -> int:
    qa, qb = e.t.index(a), e.t.index(b)
    return e.t.edge_of[(min(qa, qb), max(qa, qb))]


def test_coe_6_6_the_fortifier_builds_the_road_towards_the_frontier():
    e = engine(2)
    me = seat_of(e, "aegyptus")
    empire_with_cities(e, me, "aegyptus", "cyrenaica", "palaestina")
    player = scripted(e, me, "fortifier")
    west, east = Buy("road", road(e, "aegyptus", "cyrenaica")), Buy("road", road(e, "aegyptus", "palaestina"))
    assert player.shortening_road([east, west]) == [west]                # nearer Hispania
    assert player.shortening_road([east]) == []                          # no nearer than home


def test_coe_6_6_a_road_trip_replaces_a_step_when_its_city_is_nearer_the_goal():
    e = engine(2)
    me = seat_of(e, "aegyptus")
    empire_with_cities(e, me, "aegyptus", "cyrenaica", "africa")
    e.s.road[0, road(e, "aegyptus", "cyrenaica")] = e.s.road[0, road(e, "cyrenaica", "africa")] = True
    clear(e, me)
    units(e, me, "aegyptus", (10, 0, 0))
    leader(e, me, 1, "aegyptus")
    player = scripted(e, me, "fortifier")
    ch = Choices(e, 0, me)
    assert player.road_trip(ch, e.t.index("aegyptus"), e.t.index("cyrenaica")) == e.t.index("africa")
    assert player.road_trip(ch, e.t.index("aegyptus"), e.t.index("africa")) is None


def hunter_at_hispania(*held: str):
    """Four seats in round 3: the hunter's Hispania with 10 units, a General and an empty galley
    beached there, its neighbours (and those named) held, Numidia's Caesar hunted at home (the
    other Caesars' guards are larger)."""
    e = engine(4)
    me = seat_of(e, "hispania")
    for home in ("macedonia", "mesopotamia"):
        units(e, seat_of(e, home), home, (20, 0, 0))
    e.s.round[0] = 3
    clear(e, me)
    units(e, me, "hispania", (7, 2, 1))
    general = leader(e, me, 1, "hispania")
    galley = beach_galley(e, me, "hispania")
    control(e, me, "hispania", "aquitania", "baetica", "lusitania", "narbonensis", *held)
    return e, me, general, galley


def test_coe_12_6_the_hunter_ships_a_legion_across_the_sea_towards_the_hunted_caesar():
    """Hispania to Numidia: 4 steps by land, 1 crossing to Caesariensis and 1 step by sea."""
    e, me, general, galley = hunter_at_hispania()
    player = scripted(e, me, "hunter")
    assert player.hunted() == {e.t.index("numidia")}
    plan = player.march(Choices(e, 0, me))
    board, out, landing = plan[:3]
    caesariensis = e.t.index("caesariensis")
    assert type(board) is Board and board.galley == galley and board.leaders == (general,)
    assert sum(board.units) == e.t.capacity and board.units[2] == 1        # catapult and cavalry first
    assert out == Sail(galley, crossings(e.t)[e.t.index("hispania")][caesariensis])
    assert landing == Sail(galley, caesariensis, True)
    e.phase[0], e.active[0] = 1, me
    for action in plan[:3]:
        e.apply(0, me, action)
    e.occupy(0, me)
    assert e.s.control[0, caesariensis] == me and e.s.land[0, me, caesariensis].sum() == e.t.capacity
    home = player.guard(e.t.index("hispania"))
    assert e.s.land[0, me, e.t.index("hispania")].sum() == 10 - e.t.capacity and home <= 3


def test_coe_32_no_sea_march_without_the_table_or_with_a_target_in_reach():
    e, me, _, _ = hunter_at_hispania()
    assert not any(type(a) is Board for a in scripted(e, me, "hunter", sea_march=0).march(Choices(e, 0, me)))
    assert not any(type(a) is Board for a in scripted(e, me, "hunter", sea_march=3).march(Choices(e, 0, me)))
    e, me, _, _ = hunter_at_hispania()
    e.s.control[0, e.t.index("baetica")] = -1                             # a neutral province next door
    plan = scripted(e, me, "hunter").march(Choices(e, 0, me))
    assert not any(type(a) is Board for a in plan) and plan[0].dst == e.t.index("baetica")


def test_coe_22_3_the_hunter_buys_a_galley_only_for_a_sea_march():
    e, me, _, _ = hunter_at_hispania()
    e.s.gal_loc[0, me, 0] = -1
    offer = Buy("galley", e.t.index("hispania"))
    assert scripted(e, me, "hunter").galley_wanted([offer], []) == offer
    assert scripted(e, me, "hunter", sea_march=0).galley_wanted([offer], []) is None   # not for islands
    e.s.round[0] = 0                                                      # not hunting yet
    assert scripted(e, me, "hunter").galley_wanted([offer], []) is None
