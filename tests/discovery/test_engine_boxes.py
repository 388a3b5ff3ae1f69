"""Worked examples of the event boxes through the engine: Merchant Shipping (AOD-E7, AOD-E8),
discovery (AOD-E14 - AOD-E16), the dock (AOD-E17, AOD-E18) and warfare (AOD-E11 - AOD-E13)."""

import pytest

from sim.discovery.actions import Battle, Expedition, War
from sim.discovery.state import CAPTAIN, CARDS, COLONIST, DOCK, MERCHANT, MISSIONARY, SHIPPING, SOLDIER, WARFARE
from tests.discovery.engine_helpers import engine, put, region, token, units


def shipping(e, order, box):
    s = e.s.games[0]
    s.order = order
    for p, unit in box:
        s.out[p][unit] += 1
        s.boxes[SHIPPING].append((p, unit))
    ships = list(s.ships)
    e.resolve_shipping(0)
    return [b - a for a, b in zip(ships, s.ships)]


def test_aod_e7_captains_count_two_in_merchant_shipping():
    e = engine(2)
    assert shipping(e, [1, 0], [(0, CAPTAIN), (0, CAPTAIN), (0, COLONIST)] + [(1, COLONIST)] * 4) == [1, 0]


@pytest.mark.parametrize("a, b, won", [
    ([MERCHANT, COLONIST], [CAPTAIN, COLONIST], [1, 0]),             # 3 : 3, A earlier in turn order
    ([MERCHANT, COLONIST], [CAPTAIN, COLONIST, COLONIST], [0, 1]),   # 3 : 4
    ([SOLDIER, MISSIONARY], [COLONIST], [1, 0]),                     # 2 : 1
])
def test_aod_e8_merchant_shipping_ties_go_by_turn_order(a, b, won):
    e = engine(2)
    assert shipping(e, [0, 1], [(0, u) for u in a] + [(1, u) for u in b]) == won


def test_aod_6_4_no_second_ship_and_the_ship_stays_without_units():
    e = engine(2)
    s = e.s.games[0]
    e.resolve_shipping(0)
    assert s.ship_in_box and s.ships == [0, 0]


def discovery_game(party_answer, **overrides):
    e = engine(2, answers=[{"expedition": party_answer}, {}], **overrides)
    s = e.s.games[0]
    s.order = [0, 1]
    return e, s


def test_aod_e14_successful_expedition():
    e, s = discovery_game(lambda c: Expedition(tuple(units(captain=1, soldier=1, colonist=1)), region(e, "canada")))
    r = region(e, "canada")
    s.token_at[r] = token(e, "T12")
    s.discovery_box[0] = units(captain=1, soldier=1, colonist=3)
    for u, k in enumerate(s.discovery_box[0]):
        s.out[0][u] += k
    money = s.money[0]
    e.resolve_discovery(0)
    assert s.money[0] - money == 7
    assert s.world[r][0] == units(colonist=1) and s.discovered[r] and s.token_at[r] == -1
    assert ("token", token(e, "T12")) in s.discoveries[0]
    assert s.discovery_box[0] == units(colonist=2)


def test_aod_e15_failed_expedition_shows_the_token():
    e, s = discovery_game(lambda c: Expedition(tuple(units(captain=1, colonist=1)), region(e, "peru")))
    r = region(e, "peru")
    s.token_at[r] = token(e, "T15")
    s.discovery_box[0] = units(captain=1, colonist=1)
    s.out[0] = [a + b for a, b in zip(s.out[0], s.discovery_box[0])]
    money = s.money[0]
    e.resolve_discovery(0)
    assert s.money[0] == money and not s.discovered[r] and s.token_at[r] == token(e, "T15")
    assert s.shown[token(e, "T15")] and sum(map(sum, s.world[r])) == 0
    assert e.view.known_token(0, 1, r) == token(e, "T15")          # public knowledge (AOD-8.4)
    assert s.discovery_box[0] == units()


def test_aod_18_31_failed_token_seen_only_by_the_explorer_under_the_option():
    e, s = discovery_game(lambda c: Expedition(tuple(units(colonist=1)), region(e, "peru")),
                          overrides=["options.discovery_reveal_public=false"])
    r = region(e, "peru")
    s.token_at[r] = token(e, "T15")
    s.discovery_box[0] = units(colonist=1)
    s.out[0][COLONIST] += 1
    e.resolve_discovery(0)
    assert e.view.known_token(0, 0, r) == token(e, "T15") and e.view.known_token(0, 1, r) == -1


@pytest.mark.parametrize("party, success", [(units(captain=2, soldier=2), True), (units(captain=2, soldier=1), False)])
def test_aod_e16_discovery_card(party, success):
    e, s = discovery_game(lambda c: Expedition(tuple(party), CARDS))
    for r in range(len(s.discovered)):
        s.discovered[r], s.token_at[r] = True, -1
    india = token(e, "C14", cards=True)
    s.deck.remove(india)
    s.deck.insert(0, india)
    s.discovery_box[0] = list(party)
    s.out[0] = [a + b for a, b in zip(s.out[0], party)]
    money, colonists = s.money[0], sum(sum(here[0]) for here in s.world)
    e.resolve_discovery(0)
    assert sum(sum(here[0]) for here in s.world) == colonists                # no colonist for a card
    if success:
        assert s.money[0] - money == 12 and ("card", india) in s.discoveries[0] and india not in s.deck
    else:
        assert s.money[0] == money and india in s.deck and len(s.deck) == 16


def test_aod_e17_dock_arrivals():
    red, blue = 0, 1
    florida = None

    def blue_dest(choices, unit):
        return florida

    e = engine(3, answers=[{"dock_destination": lambda c, u: region(e, "caribbean")}, {"dock_destination": blue_dest}, {}])
    s = e.s.games[0]
    florida = region(e, "florida")
    s.discovered[florida] = True
    s.held[blue].add("cathedral")
    for p, u in ((red, MERCHANT), (blue, MISSIONARY), (red, COLONIST)):
        s.out[p][u] += 1
        s.boxes[DOCK].append((p, u))
    money = list(s.money)
    e.resolve_dock(0)
    carib = region(e, "caribbean")
    assert s.money[red] - money[red] == 5
    assert s.world[florida][blue] == units(missionary=1, colonist=2)
    assert s.world[carib][red] == units(merchant=1, colonist=1)


def test_aod_e17_missionary_without_cathedral_brings_one():
    e = engine(2, answers=[{"dock_destination": lambda c, u: c[0]}, {}])
    s = e.s.games[0]
    s.out[0][MISSIONARY] += 1
    s.boxes[DOCK].append((0, MISSIONARY))
    e.resolve_dock(0)
    assert s.world[region(e, "caribbean")][0] == units(missionary=1, colonist=1)


def test_aod_e18_first_to_three_takes_the_good():
    red, blue = 0, 1
    e = engine(2, answers=[{"dock_destination": lambda c, u: region(e, "new_england")}] * 2)
    s = e.s.games[0]
    ne = region(e, "new_england")
    s.discovered[ne], s.token_at[ne] = True, -1
    put(e, red, "new_england", colonist=2)
    put(e, blue, "new_england", colonist=2)
    for p in (blue, red):
        s.out[p][COLONIST] += 1
        s.boxes[DOCK].append((p, COLONIST))
    fish = e.comp.goods.index("fish")
    e.resolve_dock(0)
    assert s.goods[blue][fish] == 1 and s.goods[red][fish] == 0 and not s.region_good[ne]


def warfare_game(n=2, attacker=None, defender=None, **kw):
    e = engine(n, answers=[attacker or {}, defender or {}, *({} for _ in range(n - 2))], **kw)
    s = e.s.games[0]
    s.out[0][COLONIST] += 1
    s.boxes[WARFARE].append((0, COLONIST))
    return e, s


def test_aod_e11_battle():
    albert, bela = 0, 1
    e, s = warfare_game(attacker={"conflict": lambda c: Battle(bela, region(e, "canada")),
                                  "victims": lambda c, r, q: tuple(units(soldier=1, colonist=1))},
                        defender={"victims": lambda c, r, q: tuple(units(soldier=1))})
    canada = region(e, "canada")
    s.discovered[canada] = True
    put(e, albert, "canada", soldier=2, colonist=3)
    put(e, bela, "canada", soldier=1, colonist=4)
    money = s.money[albert]
    e.resolve_warfare(0)
    assert s.world[canada][albert] == units(soldier=1, colonist=3)
    assert s.world[canada][bela] == units(colonist=3)
    assert s.money[albert] == money


def test_aod_e12_war():
    albert, bela = 0, 1
    e, s = warfare_game(attacker={"conflict": lambda c: War(bela)})
    for name in ("new_granada", "new_spain", "florida", "new_england", "canada"):
        s.discovered[region(e, name)] = True
    put(e, albert, "new_granada", soldier=1, colonist=2)
    put(e, albert, "new_spain", soldier=1, colonist=1)
    put(e, albert, "new_england", soldier=1, colonist=1)
    put(e, albert, "florida", colonist=2)
    put(e, albert, "canada", colonist=1)
    put(e, bela, "new_granada", colonist=2)
    put(e, bela, "canada", colonist=3)
    put(e, bela, "new_spain", colonist=1)
    put(e, bela, "florida", soldier=2)
    s.money[albert] = 12
    assert sorted(e.war_regions(0, albert, bela)) == sorted(region(e, r) for r in ("new_granada", "new_spain", "florida"))
    e.resolve_warfare(0)
    assert s.money[albert] == 2
    assert [e.logs[0][-1 - k]["region"] for k in range(3)][::-1] == ["new_granada", "new_spain", "florida"]


def test_aod_e12_no_war_without_the_money():
    e, s = warfare_game()
    put(e, 0, "caribbean", soldier=1)
    put(e, 1, "caribbean", colonist=1)
    s.money[0] = 9
    assert not any(isinstance(c, War) for c in e.conflicts(0, 0))


@pytest.mark.parametrize("militia, after_a, after_b", [
    (True, units(soldier=1, colonist=1), units(colonist=1)),
    (False, units(soldier=2, colonist=1), units(colonist=1)),
])
def test_aod_e13_militia_and_simultaneous_losses(militia, after_a, after_b):
    a, b = 0, 1
    e, s = warfare_game(attacker={"conflict": lambda c: Battle(b, region(e, "new_spain"))},
                        defender={"victims": lambda c, r, q: tuple(units(soldier=1))})
    ns = region(e, "new_spain")
    s.discovered[ns] = True
    if militia:
        s.held[b].add("militia")
    put(e, a, "new_spain", soldier=2, colonist=1)
    put(e, b, "new_spain", colonist=3)
    e.resolve_warfare(0)
    assert s.world[ns][a] == after_a and s.world[ns][b] == after_b


def test_aod_9_2_battle_needs_both_players_present():
    e, _ = warfare_game()
    put(e, 0, "caribbean", soldier=2)
    assert e.conflicts(0, 0) == [None]
    e2, _ = warfare_game(overrides=["rules.warfare.battle_needs_both_present=false"])
    put(e2, 0, "caribbean", soldier=2)
    assert Battle(1, region(e2, "caribbean")) in e2.conflicts(0, 0)
