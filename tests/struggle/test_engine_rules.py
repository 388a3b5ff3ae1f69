"""Engine rules on hand-built positions, and the worked examples of the rules reference."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.lockstep import RuleViolation
from sim.struggle.actions import Buy, Colonise, PlaceBlockade
from sim.struggle.state import ARMY, FLEET, FORT, HOME, IN_BOX, LOWER, ON_MAP, UPPER
from tests.struggle.test_engine_helpers import Fixed, blank, duel, give_tile, region


def test_example_soe_e7_borrowing():
    """SOE-2.2, Example SOE-E7: borrow 2 gold per unrest (3 with Banking), only when paying."""
    e = blank(["great_britain", "france"])
    e.s.gold[0, 0] = 1
    e.pay(0, 0, 4)
    assert (e.s.gold[0, 0], e.s.unrest[0, 0]) == (1, 2)
    e.s.gold[0, 1] = 1
    give_tile(e, 1, "banking")
    e.pay(0, 1, 4)
    assert (e.s.gold[0, 1], e.s.unrest[0, 1]) == (0, 1)


def test_example_soe_e7_upkeep_borrowing():
    """SOE-15.2, Example SOE-E7: 2 gold after income, 5 upkeep -> borrow twice -> 1 gold."""
    e = blank(["great_britain", "france"])
    s = e.s
    s.population[0, 0] = 0
    s.gold[0, 0] = 2
    s.units[0, 0, region(e, "india"), FLEET] = 5
    e.income_upkeep_growth()
    assert (s.gold[0, 0], s.unrest[0, 0]) == (1, 2)


def test_example_soe_e12_income_and_growth():
    """SOE-15, Example SOE-E12: income 3 + 7 (captured marker excluded), upkeep 6, pop 3 -> 8;
    population 6 -> capped at 9."""
    e = blank(["great_britain", "france"])
    s = e.s
    india = region(e, "india")
    s.population[0, :2] = 3, 6
    s.gold[0, :2] = 1, 0
    s.markers[0, 0, india] = 7
    s.pirates_region[0], s.pirates_victim[0] = india, 0         # 1 more marker held by Pirates
    s.units[0, 0, india, ARMY] = 5
    s.units[0, 0, HOME, ARMY] = 1
    e.income_upkeep_growth()
    assert (s.gold[0, 0], s.population[0, 0], s.unrest[0, 0]) == (5, 8, 0)
    assert s.population[0, 1] == 9


def test_example_soe_e4_and_e14_scoring_through_engine():
    """SOE-16, Examples SOE-E4 and SOE-E14: dense ranks, full value for tied players."""
    e = blank(["great_britain", "france", "austria", "spain"])
    gs, af = region(e, "german_states"), region(e, "africa")
    e.s.markers[0, :4, gs] = 3, 3, 2, 1
    e.s.markers[0, :4, af] = 2, 2, 2, 1
    e.score_war()
    assert e.s.vp[0, :4].tolist() == [8 + 3, 8 + 3, 5 + 3, 3 + 2]


def test_example_soe_e13_end_game_unrest():
    """SOE-18, Example SOE-E13: revolution at 20+, dense -7 / -4 penalties among the rest."""
    e = blank(["great_britain", "france", "spain", "russia", "austria"])
    e.s.vp[0, :5] = 40, 35, 38, 30, 28
    e.s.unrest[0, :5] = 22, 15, 15, 9, 3
    e.end_game()
    assert e.s.vp[0, :5].tolist() == [0, 28, 31, 26, 28]
    assert e.s.stats["revolution"][0, :5].tolist() == [True, False, False, False, False]


def test_example_soe_e3_alliance_auction():
    """SOE-6, Example SOE-E3: GB opens war 2 with 0 (GB, Prussia); Prussia bids 1 (Austria,
    France); all others pass; Austria -> space 1 (upper), France -> space 2 (lower); the next
    auction is opened by France."""
    powers = ["great_britain", "france", "prussia", "austria", "spain"]
    e = blank(powers, rows=[-1] * 5, war=2)
    gb, fr, pr, au, sp = range(5)
    pl = e.players[0]
    pl[gb].bids = [(0, (gb, pr))]
    pl[pr].bids = [(1, (au, fr))]
    placed = e.auction(0, gb, 0)
    assert placed == 2
    assert (e.s.row[0, au], e.s.row[0, fr]) == (UPPER, LOWER)
    assert e.s.turn_order[0, :2].tolist() == [au, fr]
    assert e.s.gold[0, pr] == 9
    # next auction, opened by France: France opens 0 with (GB, Prussia), all pass
    pl[fr].bids = [(0, (gb, pr))]
    placed = e.auction(0, fr, placed)
    assert e.s.turn_order[0, :4].tolist() == [au, fr, gb, pr]
    # third auction: one unallied player, the bid decides his row (SOE-A4)
    pl[pr].bids = [(0, (sp, LOWER))]
    placed = e.auction(0, pr, placed)
    assert placed == 5 and e.s.row[0, sp] == LOWER and e.s.turn_order[0, 4] == sp


def test_auction_bid_must_raise_and_proposal_must_be_unallied():
    """SOE-6.3 / 6.4: a bid must be higher; proposals name two different unallied players."""
    e = blank(["great_britain", "france", "spain"], rows=[-1, -1, -1])
    e.players[0][0].bids = [(0, (0, 0))]
    with pytest.raises(RuleViolation):
        e.auction(0, 0, 0)
    e = blank(["great_britain", "france", "spain"], rows=[-1, -1, -1])
    e.players[0][0].bids = [(1, (0, 1))]
    e.players[0][1].bids = [(1, (1, 2))]
    with pytest.raises(RuleViolation):
        e.auction(0, 0, 0)


def test_example_soe_e1_battle_in_north_america():
    """SOE-12, Example SOE-E1: Spain (2 armies, 2 fleets, Army Training, Indians) attacks GB
    (1 army, 1 fleet) helped by Austria's army; GB avoids the naval battle; Spain 2+5 -> 8,
    GB 1+6 -> 7; Spain wins; both 7s: Spain loses an army, GB's second loss is Austria's."""
    e = blank(["spain", "great_britain", "austria"], rows=[UPPER, LOWER, LOWER])
    s = e.s
    sp, gb, au = 0, 1, 2
    na = region(e, "north_america")
    s.units[0, sp, na, ARMY], s.units[0, sp, na, FLEET] = 2, 2
    s.units[0, gb, na, ARMY], s.units[0, gb, na, FLEET] = 1, 1
    s.units[0, au, na, ARMY], s.units[0, au, na, FLEET] = 1, 1
    s.markers[0, gb, na] = 1
    give_tile(e, sp, "army_training")
    s.alliance_owner[0, e.t.alliance.index("indians")] = sp
    e.players[0][au].commit = (1, 0)            # army yes, fleet no
    e.players[0][gb].naval = False              # GB avoids the naval battle
    e.battle_dice[0] = Fixed([duel((2, 5), (1, 6))])
    a = e.declare_attack(0, sp, na, ("player", gb))
    assert a.support == 1 and a.naval is None
    assert a.land.strength(2) == 5 and a.land_def.strength(2) == 2
    e.resolve([a])
    assert s.units[0, sp, na].tolist()[:2] == [1, 2]
    assert s.units[0, gb, na].tolist()[:2] == [0, 1]
    assert s.units[0, au, na].tolist()[:2] == [0, 1]
    assert s.unrest[0, :3].tolist() == [1, 1, 1]
    assert s.gold[0, sp] == 8
    assert (s.markers[0, gb, na], s.markers[0, sp, na]) == (0, 1)


def test_example_soe_e2_sea_movement():
    """SOE-10.3, SOE-11, Example SOE-E2: fleet NA -> India rolls 2 (arrives); army German
    States -> India rolls 1 then 3 (back to the German States)."""
    e = blank(["great_britain", "france"])
    s = e.s
    na, india, gs = region(e, "north_america"), region(e, "india"), region(e, "german_states")
    s.units[0, 0, na, FLEET] = 1
    s.units[0, 0, gs, ARMY] = 1
    assert not e.army_may_enter(0, 0, india)
    e.sea_dice[0] = Fixed([2 - 1, 1 - 1, 3 - 1])
    e.move(0, 0, [(FLEET, na, india), (ARMY, gs, india)])
    assert s.units[0, 0, india, FLEET] == 1 and s.units[0, 0, gs, ARMY] == 1 and s.units[0, 0, india, ARMY] == 0


def test_example_soe_e6_attacking_a_co_leader():
    """SOE-23.8, Example SOE-E6: you 3, X 3, Y 2 -> 8, 8, 5; taking one of X's markers -> 8, 5, 5."""
    e = blank(["great_britain", "france", "spain"], rows=[UPPER, LOWER, LOWER])
    s = e.s
    gs = region(e, "german_states")
    s.markers[0, :3, gs] = 3, 3, 2
    s.units[0, 0, gs, ARMY] = 3
    e.battle_dice[0] = Fixed([duel((6, 1), (1, 1))])
    e.players[0][2].commit = (0, 0)
    a = e.declare_attack(0, 0, gs, ("player", 1))
    e.resolve([a])
    assert s.markers[0, :3, gs].tolist() == [4, 2, 2]
    e.score_war()
    assert s.vp[0, :3].tolist() == [8, 5, 5]


def test_example_soe_e10_tie_with_fort():
    """SOE-12.11, Example SOE-E10: Russia 2 armies vs Austria's fort in the Ottoman Empire,
    4 v 4: Russia loses an army (+1 unrest), the fort is never lost in a tie, marker kept."""
    e = blank(["russia", "austria"])
    s = e.s
    ot = region(e, "ottoman_empire")
    s.units[0, 0, ot, ARMY] = 2
    s.units[0, 1, ot, FORT] = 1
    s.markers[0, 1, ot] = 1
    e.battle_dice[0] = Fixed([duel((4, 2), (5, 3))])
    a = e.declare_attack(0, 0, ot, ("player", 1))
    e.resolve([a])
    assert s.units[0, 0, ot, ARMY] == 1 and s.unrest[0, 0] == 1
    assert s.units[0, 1, ot, FORT] == 1 and s.unrest[0, 1] == 0 and s.markers[0, 1, ot] == 1
    assert s.gold[0, 0] == 8


@pytest.mark.parametrize("dice, won", [(((6, 2), (3, 3)), True), (((3, 1), (6, 3)), False)])
def test_example_soe_e11_attacking_a_neutral(dice, won):
    """SOE-12.14, Example SOE-E11: Prussia (2 armies, 1 fleet, Army Training) vs a neutral
    3 with gold 2 in the Baltic: 8 v 3 wins (+2 gold, marker); 6 v 6 ties (-1 army, +1 unrest)."""
    e = blank(["prussia", "russia"])
    s = e.s
    baltic = region(e, "baltic")
    tok = int(np.flatnonzero((e.t.token_region == baltic) & (e.t.token_strength == 3) & (e.t.token_gold == 2))[0]) \
        if ((e.t.token_region == baltic) & (e.t.token_strength == 3) & (e.t.token_gold == 2)).any() else \
        int(np.flatnonzero((e.t.token_region == baltic) & (e.t.token_strength == 3))[0])
    s.token_state[0, tok] = ON_MAP
    s.units[0, 0, baltic, ARMY], s.units[0, 0, baltic, FLEET] = 2, 1
    give_tile(e, 0, "army_training")
    e.battle_dice[0] = Fixed([duel(*dice)])
    a = e.declare_attack(0, 0, baltic, ("neutral", tok))
    assert a.land.strength(2) == 4 and a.land_def.strength(2) == 3
    e.resolve([a])
    if won:
        assert s.token_state[0, tok] == IN_BOX and s.markers[0, 0, baltic] == 1
        assert s.gold[0, 0] == 8 + e.t.token_gold[tok]
    else:
        assert s.token_state[0, tok] == ON_MAP and s.units[0, 0, baltic, ARMY] == 1 and s.unrest[0, 0] == 1


def test_example_soe_e15_pirates():
    """SOE-20.16, Example SOE-E15: Pirates 5,1 -> 5 beat Britain (1 fleet + Naval Training) 3,3
    -> 2; the marker goes on the tile (no income/VP); Spain's 2 fleets 4,2 -> 4 beat the tile
    6,6 -> 1: Spain's marker takes the space, the tile returns to the display."""
    e = blank(["france", "great_britain", "spain"], rows=[UPPER, LOWER, UPPER])
    s = e.s
    fr, gb, sp = 0, 1, 2
    india = region(e, "india")
    s.markers[0, gb, india] = 1
    s.units[0, gb, india, FLEET] = 1
    give_tile(e, gb, "naval_training")
    pirates = e.k["pirates"]
    e.battle_dice[0] = Fixed([duel((5, 1), (3, 3)), duel((4, 2), (6, 6))])
    a = e.apply(0, fr, Buy("dev", pirates, (india, gb)))
    assert a.land_def.strength(2) == 2
    e.resolve([a])
    assert s.units[0, gb, india, FLEET] == 0 and s.unrest[0, gb] == 1
    assert s.markers[0, gb, india] == 0 and (s.pirates_region[0], s.pirates_victim[0]) == (india, gb)
    assert s.dev_display[0, pirates] == 0
    s.units[0, sp, india, FLEET] = 2
    a = e.declare_attack(0, sp, india, ("pirates",))
    e.resolve([a])
    assert s.markers[0, sp, india] == 1 and s.pirates_region[0] == -1 and s.dev_display[0, pirates] == 1
    assert s.gold[0, sp] == 8


def test_example_soe_e5_region_capacity_in_play():
    """SOE-1.4.5, Example SOE-E5: markers in the Ottoman Empire never exceed its 4 spaces; a
    neutral there can only be replaced, never added to."""
    e = blank(["russia", "austria"])
    ot = region(e, "ottoman_empire")
    assert e.t.spaces[ot] == 4
    toks = np.flatnonzero(e.t.token_region == ot)
    e.s.token_state[0, toks] = IN_BOX
    e.s.markers[0, 0, ot] = 4
    assert e.s.markers[0, :, ot].sum() <= e.t.spaces[ot]
    assert e.attack_targets(0, 1) == []


def test_build_costs_population_and_moves_home_unit():
    """SOE-9.1 .. 9.3: build at home for 1 population, optional free move with movement rules."""
    e = blank(["prussia", "russia"])
    s = e.s
    baltic = region(e, "baltic")
    e.build(0, 0, ARMY, None, baltic)
    assert s.population[0, 0] == 4 and s.units[0, 0, baltic, ARMY] == 1
    s.population[0, 0] = 0
    assert (ARMY, None) not in e.build_options(0, 0)
    give_tile(e, 0, "mercenaries")
    e.build(0, 0, ARMY, "mercenaries", None)
    assert s.units[0, 0, HOME, ARMY] == 1 and s.population[0, 0] == 0
    assert (ARMY, "mercenaries") not in e.build_options(0, 0)          # once per war


@pytest.mark.parametrize("stacks, extra", [(False, 1), (True, 2)])
def test_militia_builds_extra_armies_soe_20_8_and_a16(stacks, extra):
    """SOE-20.8 / SOE-A16: with Militia a build without a free tile adds an army for its
    population; two copies add one (recommended) or one per copy (option militia_stacks)."""
    from sim.struggle.components import load_components
    e = blank(["prussia", "russia"], comp=load_components([f"options.militia_stacks={str(stacks).lower()}"]))
    s = e.s
    give_tile(e, 0, "militia", copies=2)
    baltic = region(e, "baltic")
    e.build(0, 0, ARMY, None, baltic, militia_dst=baltic)
    assert s.units[0, 0, baltic, ARMY] == 1 + extra
    assert s.population[0, 0] == 5 - 1 - extra


def test_destroy_and_rebuild_costs_one_unrest():
    """SOE-9.5: with every piece of a kind on the map, destroy one (+1 unrest) to build it."""
    e = blank(["prussia", "russia"])
    s = e.s
    gs = region(e, "german_states")
    s.units[0, 0, gs, FORT] = 2
    with pytest.raises(RuleViolation):
        e.build(0, 0, FORT, None, None)
    e.build(0, 0, FORT, None, None, destroy_at=gs)
    assert s.units[0, 0, gs, FORT] == 1 and s.units[0, 0, HOME, FORT] == 1 and s.unrest[0, 0] == 1


def test_destroy_and_rebuild_at_any_time_soe_9_5_and_a14():
    """SOE-9.5 / SOE-A14 (recommended): a player may destroy an own unit and build one of the
    same type although pieces are left, for 1 unrest and the normal population; a unit of
    another type may not be destroyed for it."""
    e = blank(["prussia", "russia"])
    s = e.s
    gs, baltic = region(e, "german_states"), region(e, "baltic")
    s.units[0, 0, gs, ARMY] = 1
    with pytest.raises(RuleViolation):
        e.build(0, 0, ARMY, None, baltic, destroy_at=HOME)             # no army at home
    s.units[0, 0, baltic, FLEET] = 1
    with pytest.raises(RuleViolation):
        e.build(0, 0, ARMY, None, None, destroy_at=baltic, destroy_kind=FLEET)
    e.build(0, 0, ARMY, None, baltic, destroy_at=gs)
    assert s.units[0, 0, gs, ARMY] == 0 and s.units[0, 0, baltic, ARMY] == 1
    assert s.unrest[0, 0] == 1 and s.population[0, 0] == 4


def test_rebuild_options_soe_a14():
    """The SOE-A14 alternatives: only with every piece on the map (`rebuild_any_time=false`),
    any type (`rebuild_same_type=false`, but a type with no piece left needs its own), and a
    free rebuild (`rebuild_pays_population=false`: no population, offered even at 0)."""
    from sim.struggle.components import load_components
    e = blank(["prussia", "russia"], comp=load_components(["options.rebuild_any_time=false"]))
    gs = region(e, "german_states")
    e.s.units[0, 0, gs, ARMY] = 1
    with pytest.raises(RuleViolation):
        e.build(0, 0, ARMY, None, None, destroy_at=gs)
    assert e.rebuild_sources(0, 0, ARMY) == []

    e = blank(["prussia", "russia"], comp=load_components(["options.rebuild_same_type=false"]))
    s = e.s
    baltic = region(e, "baltic")
    s.units[0, 0, baltic, FLEET] = 1
    e.build(0, 0, ARMY, None, None, destroy_at=baltic, destroy_kind=FLEET)
    assert s.units[0, 0, baltic, FLEET] == 0 and s.units[0, 0, HOME, ARMY] == 1 and s.unrest[0, 0] == 1
    s.units[0, 0, gs, FORT], s.units[0, 0, baltic, FLEET] = e.limits[FORT], 1
    assert e.rebuild_sources(0, 0, FORT) == [(gs, FORT)]                # every fort on the map
    with pytest.raises(RuleViolation):
        e.build(0, 0, FORT, None, None, destroy_at=baltic, destroy_kind=FLEET)

    e = blank(["prussia", "russia"], comp=load_components(["options.rebuild_pays_population=false"]))
    s = e.s
    s.population[0, 0] = 0
    assert (ARMY, None) not in e.build_options(0, 0)                   # nothing to destroy
    s.units[0, 0, gs, ARMY] = 1
    assert (ARMY, None) in e.build_options(0, 0)
    with pytest.raises(RuleViolation):
        e.build(0, 0, ARMY, None, None)                                 # a plain build still pays
    e.build(0, 0, ARMY, None, None, destroy_at=gs)
    assert s.population[0, 0] == 0 and s.units[0, 0, HOME, ARMY] == 1 and s.unrest[0, 0] == 1


def test_forts_move_only_from_home():
    """SOE-9.4: a fort moves (as an army) only until it has stood in a VP region."""
    e = blank(["prussia", "russia"])
    s = e.s
    gs, ce = region(e, "german_states"), region(e, "central_europe")
    s.units[0, 0, HOME, FORT] = 1
    e.move(0, 0, [(FORT, HOME, gs)])
    assert s.units[0, 0, gs, FORT] == 1
    assert not e.may_move(0, 0, FORT, gs, ce)


@pytest.mark.parametrize("again", [False, True])
def test_one_unit_twice_in_a_move_only_with_the_option_soe_a26(again):
    """SOE-10.1 / SOE-A26: a Move moves two different units (recommended); with the option
    `move_same_unit_again` one army may take both steps."""
    from sim.struggle.components import load_components
    e = blank(["prussia", "russia"], comp=load_components([f"options.move_same_unit_again={str(again).lower()}"]))
    s = e.s
    gs, ce = region(e, "german_states"), region(e, "central_europe")
    s.markers[0, 0, gs] = s.markers[0, 0, ce] = 1
    s.units[0, 0, HOME, ARMY] = 1
    plan = [(ARMY, HOME, gs), (ARMY, gs, ce)]
    if again:
        e.move(0, 0, plan)
        assert s.units[0, 0, ce, ARMY] == 1 and s.units[0, 0, gs, ARMY] == 0
    else:
        with pytest.raises(RuleViolation):
            e.move(0, 0, plan)


def test_army_movement_conditions():
    """SOE-10.3 / 10.4 / 10.6: colonies need an own fleet there; European regions need a
    marker there or next door, home adjacency, or a fleet (Ottoman: fleet in the
    Mediterranean)."""
    e = blank(["spain", "russia"])
    s = e.s
    gs, ot, med, ce, na = (region(e, k) for k in ("german_states", "ottoman_empire", "mediterranean",
                                                   "central_europe", "north_america"))
    assert e.army_may_enter(0, 0, med)                 # Spain's home is next to the Mediterranean
    assert not e.army_may_enter(0, 0, gs) and not e.army_may_enter(0, 0, ot) and not e.army_may_enter(0, 0, na)
    s.units[0, 0, med, FLEET] = 1
    assert e.army_may_enter(0, 0, ot)                  # condition 5
    s.markers[0, 0, ce] = 1
    assert e.army_may_enter(0, 0, gs)                  # condition 2 (adjacent marker)
    s.units[0, 0, na, FLEET] = 1
    assert e.army_may_enter(0, 0, na)                  # SOE-10.3
    assert e.army_may_enter(0, 0, HOME)                # own home always
    assert not e.fleet_may_enter(0, 0, gs)             # SOE-10.2


def test_blockade_a_stops_enemy_armies():
    """SOE-20.20 (a), SOE-10.7: an enemy needs more fleets than the blockader to move armies in."""
    e = blank(["spain", "france"])
    s = e.s
    na = region(e, "north_america")
    give_tile(e, 0, "blockade")
    s.units[0, 0, na, FLEET] = 1
    e.apply(0, 0, PlaceBlockade(na))
    s.units[0, 1, na, FLEET] = 1
    assert not e.army_may_enter(0, 1, na)
    s.units[0, 1, na, FLEET] = 2
    assert e.army_may_enter(0, 1, na)


def test_buy_once_per_round_and_reform_floor():
    """SOE-7.2 / SOE-8: one Buy a round; Government Reform discards 2 unrest, never below 0."""
    e = blank(["spain", "france"])
    s = e.s
    s.unrest[0, 0] = 1
    e.apply(0, 0, Buy("dev", e.k["government_reform"]))
    assert s.unrest[0, 0] == 0
    assert e.buyable(0, 0) == []
    with pytest.raises(RuleViolation):
        e.apply(0, 0, Buy("dev", e.k["industry"]))


def test_industry_gives_vp_and_costs_unrest():
    """SOE-20.15: +3 VP on taking, with its unrest cost (SOE-26.5)."""
    e = blank(["spain", "france"])
    e.apply(0, 0, Buy("dev", e.k["industry"]))
    assert e.s.vp[0, 0] == 3 and e.s.unrest[0, 0] == e.t.dev_unrest[e.k["industry"]]


def test_colonise_and_enslave_once_per_round():
    """SOE-13: colonise a Pop token for 1 population; enslave needs a fleet in Africa; only one
    of them per round."""
    e = blank(["spain", "france"])
    s = e.s
    pop = int(np.flatnonzero(e.t.token_kind == 1)[0])
    slave = int(np.flatnonzero(e.t.token_kind == 2)[0])
    s.token_state[0, [pop, slave]] = ON_MAP
    assert slave not in e.colonise_targets(0, 0)
    s.units[0, 0, region(e, "africa"), FLEET] = 1
    assert slave in e.colonise_targets(0, 0)
    e.apply(0, 0, Colonise(pop))
    assert s.population[0, 0] == 4 and s.markers[0, 0, e.t.token_region[pop]] == 1
    assert e.colonise_targets(0, 0) == []


def test_allies_cannot_be_attacked():
    """SOE-6.7 / SOE-12.2: no attacks on allies."""
    e = blank(["spain", "france", "austria"], rows=[UPPER, LOWER, UPPER])
    gs = region(e, "german_states")
    e.s.units[0, 0, gs, ARMY] = 1
    e.s.markers[0, 2, gs] = 1
    e.s.markers[0, 1, gs] = 1
    targets = e.attack_targets(0, 0)
    assert (gs, ("player", 1)) in targets and (gs, ("player", 2)) not in targets
    with pytest.raises(RuleViolation):
        e.declare_attack(0, 0, gs, ("player", 2))


def test_naval_only_attack_destroys_fleets_only():
    """SOE-12.15: fleets but no army: only a naval battle, no marker changes hands."""
    e = blank(["spain", "france"])
    s = e.s
    india = region(e, "india")
    s.units[0, 0, india, FLEET] = 3
    s.units[0, 1, india, FLEET] = 1
    s.markers[0, 1, india] = 1
    e.battle_dice[0] = Fixed([duel((6, 1), (1, 1))])
    a = e.declare_attack(0, 0, india, ("player", 1))
    e.resolve([a])
    assert s.units[0, 1, india, FLEET] == 0 and s.markers[0, 1, india] == 1 and s.markers[0, 0, india] == 0


def test_refuse_battle_cancels_defender_losses():
    """SOE-20.18: the defender avoids every military loss but still loses the marker."""
    e = blank(["spain", "france"])
    s = e.s
    gs = region(e, "german_states")
    s.units[0, 0, gs, ARMY] = 3
    s.units[0, 1, gs, ARMY] = 1
    s.markers[0, 1, gs] = 1
    give_tile(e, 1, "refuse_battle")
    e.players[0][1].refuse = True
    e.battle_dice[0] = Fixed([duel((6, 1), (1, 1))])
    e.resolve([e.declare_attack(0, 0, gs, ("player", 1))])
    assert s.units[0, 1, gs, ARMY] == 1 and s.unrest[0, 1] == 0
    assert s.markers[0, 0, gs] == 1 and s.markers[0, 1, gs] == 0
    assert s.dev_display[0, e.k["refuse_battle"]] == e.t.dev_copies[e.k["refuse_battle"]]


def test_war_office_attack_is_free():
    """SOE-20.4: one attack per war without the fee."""
    e = blank(["spain", "france"])
    gs = region(e, "german_states")
    e.s.units[0, 0, gs, ARMY] = 2
    e.s.markers[0, 1, gs] = 1
    give_tile(e, 0, "war_office")
    e.battle_dice[0] = Fixed([duel((1, 1), (1, 1))])
    e.resolve([e.declare_attack(0, 0, gs, ("player", 1), war_office=True)])
    assert e.s.gold[0, 0] == 10
    assert not e.can_use(0, 0, "war_office")


def test_end_of_war_returns_alliance_tiles_and_turns_tiles_upright():
    """SOE-17: alliance tiles and a placed Blockade back to the display, triangle tiles reset."""
    e = blank(["spain", "france"])
    e.s.alliance_owner[0, 0] = 0
    give_tile(e, 0, "reserves")
    e.turn_tile(0, 0, "reserves")
    e.end_war()
    assert e.s.alliance_owner[0, 0] == -1 and e.can_use(0, 0, "reserves")


def test_two_symbol_alliance_tile_counts_once():
    """SOE-12.6: a tile with army and fleet symbols gives +1 to one strength per battle."""
    e = blank(["russia", "austria"])
    s = e.s
    med = region(e, "mediterranean")
    turkey = e.t.alliance.index("turkey")
    assert e.t.alliance_army[turkey] and e.t.alliance_fleet[turkey]
    s.alliance_owner[0, turkey] = 0
    s.units[0, 0, med, ARMY], s.units[0, 0, med, FLEET] = 1, 1
    s.units[0, 1, med, FLEET] = 1
    s.markers[0, 1, med] = 1
    e.players[0][1].naval = True
    a = e.declare_attack(0, 0, med, ("player", 1))
    assert a.naval.bonus == 0 and a.land.bonus == 1          # the land battle takes the +1
    s.units[0, 0, med, ARMY] = 0
    a = e.declare_attack(0, 0, med, ("player", 1))
    assert a.land_kind == FLEET and a.land.bonus == 1        # naval-only: the fleet takes it


def test_trained_natives_placed_without_fleet_then_free_move():
    """SOE-20.7: an army straight into a colony with an own marker (no fleet, no sea roll),
    once per war, then the normal free build move with its sea roll."""
    e = blank(["spain", "france"])
    s = e.s
    india, med = region(e, "india"), region(e, "mediterranean")
    s.markers[0, 0, india] = 1
    give_tile(e, 0, "trained_natives")
    e.build(0, 0, ARMY, "trained_natives", india)
    assert s.units[0, 0, india, ARMY] == 1 and s.population[0, 0] == 5
    assert (ARMY, "trained_natives") not in e.build_options(0, 0)
    e.s.dev_used[0, 0, e.k["trained_natives"]] = 0
    e.sea_dice[0] = Fixed([3])
    e.build(0, 0, ARMY, "trained_natives", india, then=med)
    assert s.units[0, 0, india, ARMY] == 1 and s.units[0, 0, med, ARMY] == 1


@pytest.mark.parametrize("navigation, expected", [(False, (32, 2, 2)), (True, (34, 2, 0))])
def test_example_soe_e8_sea_roll_outcomes_through_engine(navigation, expected):
    """SOE-11.1, Example SOE-E8: over the 36 (first, second) rolls the engine's sea roll gives
    arrive / return / destroyed 32/2/2 (8/9, 1/18, 1/18), with Navigation 34/2/0."""
    e = blank(["spain", "france"])
    if navigation:
        give_tile(e, 0, "navigation")
    counts = [0, 0, 0]
    for first in range(6):
        for second in range(6):
            e.sea_dice[0] = Fixed([first, second])
            counts[e.sea_roll(0, 0)] += 1
    assert tuple(counts) == expected
