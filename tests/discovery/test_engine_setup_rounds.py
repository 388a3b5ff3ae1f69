"""Worked examples of setup, placement and the end-of-round steps through the engine
(AOD-E1 - AOD-E6, AOD-E21, AOD-E22, AOD-E25)."""

import pytest

from sim.discovery.state import CAPTAIN, COLONIST, DOCK, INITIATIVE, MERCHANT, MISSIONARY, SHIPPING, TRAIN, TRAIN_ANY
from tests.discovery.engine_helpers import engine

TRAIN_CAPTAIN, TRAIN_MERCHANT = TRAIN[0], TRAIN[1]


def empty_pools(s):
    for p in range(s.n):
        s.out[p][COLONIST] -= s.pool[p][COLONIST]
        s.pool[p] = [0] * 5


def test_aod_e1_starting_money_by_turn_order():
    e = engine(5)
    s = e.s.games[0]
    assert [s.money[p] for p in s.order] == [10, 11, 12, 13, 14]
    assert all(pool == [5, 0, 0, 0, 0] for pool in s.pool)


def test_aod_e1_turn_order_money_is_overridable():
    s = engine(4, overrides=["rules.turn_order_money=2"]).s.games[0]
    assert [s.money[p] for p in s.order] == [10, 12, 14, 16]


@pytest.mark.parametrize("n", [2, 3, 4, 5])
def test_aod_e2_dock_size(n):
    e = engine(n)
    assert e.capacity(0, DOCK) == 2 * n - 1
    s = e.s.games[0]
    for k in range(2 * n - 1):
        s.boxes[DOCK].append((0, COLONIST))
    assert all(c.box != DOCK for c in e.placements(0, 0))     # full; X and Y are never placement spaces


def test_aod_e3_new_turn_order_from_initiative():
    e = engine(4)
    s = e.s.games[0]
    red, blue, green, orange = 0, 1, 2, 3
    s.order = [red, blue, green, orange]
    money = list(s.money)
    for p in (green, orange):
        s.pool[p][COLONIST] -= 1
        s.boxes[INITIATIVE].append((p, COLONIST))
    e.resolve_initiative(0)
    assert s.money[green] - money[green] == 1 and s.money[orange] - money[orange] == 2
    e.new_turn_order(0)
    assert s.order == [green, orange, red, blue]


def test_aod_e21_initiative_income_and_order():
    e = engine(4)
    s = e.s.games[0]
    yellow, red, green, blue = 0, 1, 2, 3
    s.order = [yellow, red, green, blue]
    money = list(s.money)
    for p in (blue, red, green):
        s.pool[p][COLONIST] -= 1
        s.boxes[INITIATIVE].append((p, COLONIST))
    e.resolve_initiative(0)
    assert [s.money[p] - money[p] for p in (blue, red, green, yellow)] == [1, 2, 3, 0]
    e.new_turn_order(0)
    assert s.order == [blue, red, green, yellow]


def test_aod_e4_pool_for_the_next_round():
    e = engine(3)
    s = e.s.games[0]
    red = 0
    s.owned[red].append(next(k for k in range(36) if e.tile_key(k) == "monastery"))
    s.held[red].add("monastery")
    empty_pools(s)
    s.out[red][COLONIST] += 1
    s.boxes[TRAIN_CAPTAIN].append((red, COLONIST))
    e.resolve_specialists(0)
    e.clean_up(0)
    e.end_of_round(0, last=False)
    assert s.pool[red] == [5, 1, 0, 1, 0] and sum(s.pool[red]) == 7


def test_aod_e5_building_refresh_and_age_change():
    e = engine(3)
    s = e.s.games[0]
    s.round = 2
    s.display = s.display[:3]
    left = len(s.stacks[0])
    e.refresh_buildings(0)
    assert len(s.display) == 5 and len(s.stacks[0]) == left - 2
    s.round = 3
    e.refresh_buildings(0)
    assert s.stacks[0] == [] and len(s.display) == 5 and all(e.t.tile_age[k] == 2 for k in s.display)


def test_aod_e6_recurring_building_in_every_later_age():
    e = engine(2)
    s = e.s.games[0]
    s.owned[0].append(next(k for k in range(36) if e.tile_key(k) == "settlers"))
    s.held[0].add("settlers")
    for rnd in (2, 5, 8):
        s.round = rnd
        before = s.pool[0][COLONIST]
        e.building_benefits(0)
        assert s.pool[0][COLONIST] == before + 1


@pytest.mark.parametrize("overrides, money, colonists", [((), 5, 1), (("buildings.tiles.trading_post.amount=7",), 7, 1)])
def test_aod_14_building_amounts_are_data(overrides, money, colonists):
    """AOD-14.1 Trading Post (+$5) and Settlers (+1 colonist) at step D: the amount and the unit
    type are data (data/buildings.toml), so `--set` changes the effect."""
    e = engine(2, overrides=overrides)
    s = e.s.games[0]
    for key in ("trading_post", "settlers"):
        s.owned[0].append(next(k for k in range(36) if e.tile_key(k) == key))
        s.held[0].add(key)
    before, pool = s.money[0], s.pool[0][COLONIST]
    e.building_benefits(0)
    assert (s.money[0] - before, s.pool[0][COLONIST] - pool) == (money, colonists)
    assert e.comp.amount["factory"] == 30 and e.comp.gives["navigator"] == CAPTAIN


def test_aod_e22_used_specialists_do_not_return():
    e = engine(2)
    s = e.s.games[0]
    empty_pools(s)
    s.out[0][CAPTAIN] += 1
    s.boxes[SHIPPING].append((0, CAPTAIN))
    e.resolve_shipping(0)
    e.clean_up(0)
    e.end_of_round(0, last=False)
    assert s.pool[0] == [5, 0, 0, 0, 0]


def test_aod_e22_option_specialists_persist():
    e = engine(2, overrides=["options.specialists_persist=true"])
    s = e.s.games[0]
    empty_pools(s)
    s.out[0][CAPTAIN] += 1
    s.boxes[SHIPPING].append((0, CAPTAIN))
    e.clean_up(0)
    assert s.pool[0][CAPTAIN] == 1


def test_aod_e25_specialist_training():
    e = engine(2, answers=[{"train": lambda choices: CAPTAIN}, {}])
    s = e.s.games[0]
    empty_pools(s)
    s.out[1][COLONIST] += 1
    s.boxes[TRAIN_MERCHANT].append((1, COLONIST))
    s.out[0][COLONIST] += 1
    s.boxes[TRAIN_ANY].append((0, COLONIST))
    s.money[0] = 4
    e.resolve_specialists(0)
    assert s.pool[1][MERCHANT] == 1 and s.pool[0] == [0] * 5 and s.money[0] == 4
    s.money[0] = 5
    e.resolve_specialists(0)
    assert s.pool[0][CAPTAIN] == 1 and s.money[0] == 0
    e.clean_up(0)
    assert s.out[1][COLONIST] == 1           # the colonist used went back: only the Turn Order marker is out


def test_placement_one_unit_per_turn_until_pools_are_empty():
    """AOD-5.1 - AOD-5.3: turns alternate; the seat with the bigger pool places its last units alone."""
    placed = []
    answers = [{"place": lambda c, p=p: placed.append(p) or next(x for x in c if x.box == SHIPPING)} for p in range(2)]
    e = engine(2, answers=answers)
    s = e.s.games[0]
    s.pool[s.order[1]][MISSIONARY] += 2
    s.out[s.order[1]][MISSIONARY] += 2
    e.placement(0)
    first, second = s.order
    assert placed == [first, second] * 5 + [second, second]


@pytest.mark.parametrize("reading, at_purchase, at_step_d", [("step_d", 0, 1), ("purchase", 1, 0)])
def test_aod_18_17_building_units_at_step_d_or_at_purchase(reading, at_purchase, at_step_d):
    """AOD-18.17: a Conquistador bought in round 2 puts its soldier into the Discovery box at
    step D (recommended) or at once, in time for this round's Discovery (option), never both;
    from the next round on it gives one at every step D either way."""
    from sim.discovery.state import SOLDIER
    e = engine(2, answers=[{"buy_building": lambda choices: next(c for c in choices if c is not None)}, {}],
               overrides=[f"options.building_units_at={reading}"])
    s = e.s.games[0]
    s.round, s.money[0] = 2, 50
    s.display[:] = [next(k for k in range(36) if e.tile_key(k) == "conquistador")]
    box = s.discovery_box[0]
    e.offer_building(0, 0)
    assert "conquistador" in s.held[0] and box[SOLDIER] == at_purchase
    e.building_benefits(0)
    assert box[SOLDIER] == at_purchase + at_step_d == 1
    s.round = 3
    e.building_benefits(0)
    assert box[SOLDIER] == 2 and s.out[0][SOLDIER] == 2


@pytest.mark.parametrize("limited, given", [("false", 5), ("true", 2)])
def test_aod_18_34_colonist_figures_unlimited_or_limited_supply(limited, given):
    """AOD-18.34 / AOD-2.2: the supply gives every colonist asked for (recommended), or, with
    limited_supply, no more colonist figures out than the colour has (here 8: 6 are out after
    setup, 5 in the pool and the Turn Order marker); specialists stay unlimited (AOD-2.3)."""
    e = engine(2, overrides=[f"options.limited_supply={limited}", "rules.supply.colonists=8"])
    s = e.s.games[0]
    assert s.out[0][COLONIST] == 6
    e.from_supply(s, 0, COLONIST, 5)
    e.from_supply(s, 0, CAPTAIN, 5)
    assert s.out[0][COLONIST] == 6 + given and s.pool[0][COLONIST] == 5 + given and s.pool[0][CAPTAIN] == 5
    e.arrive(0, 0, COLONIST, 0, count=3)
    assert s.world[0][0][COLONIST] == (3 if limited == "false" else 0)
