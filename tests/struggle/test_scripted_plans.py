"""The scripted players' plans (sim.struggle.scripted): the unrest budget follows the revolution
threshold and the wars left (SOE-18), tiles are bought only when useful and never twice when a
second copy changes nothing (SOE-A16), rebuilds only move units somewhere useful (SOE-9.5)."""

from __future__ import annotations

import numpy as np
import pytest

from sim.core.seating import Seating
from sim.struggle.choices import Choices
from sim.struggle.components import load_components
from sim.struggle.play import new_engine
from sim.struggle.state import ARMY, FLEET, HOME, N_REGIONS
from sim.struggle.tiles import NON_STACKING

SEATING = Seating(("spain", "france", "great_britain"), ("mixed", "colonial", "european"))


def engine(*overrides: str):
    return new_engine(load_components(list(overrides)), [SEATING], 1, [0])


@pytest.mark.parametrize("threshold", [20, 15])
def test_unrest_budget_follows_the_revolution_threshold_and_the_wars_left_soe_18(threshold):
    e = engine(f"rules.end.revolution_unrest={threshold}", "strategies.mixed.unrest_margin=8",
               "strategies.mixed.unrest_margin_last=2")
    player = e.players[0][0]
    budgets = []
    for war in range(1, e.wars + 1):
        e.s.war = war
        budgets.append(player.unrest_budget())
    assert budgets[0] == threshold - 8 and budgets[-1] == threshold - 2
    assert all(a < b for a, b in zip(budgets, budgets[1:]))


def test_a_rebuild_takes_a_unit_from_outside_the_targets_never_from_home_or_the_destination_soe_9_5():
    e = engine()
    player, g, p = e.players[0][0], 0, 0
    e.s.units[g, p, :, ARMY] = 0
    limit = e.limits[ARMY]
    e.s.units[g, p, HOME, ARMY] = limit - 2
    e.s.units[g, p, 3, ARMY] = 1
    e.s.units[g, p, 5, ARMY] = 1
    assert player.rebuild_source(ARMY, 3, targets=[3]) == (True, 5)
    assert player.rebuild_source(ARMY, 3, targets=[3, 5]) == (False, None)
    assert player.rebuild_source(ARMY, 5, targets=[]) == (True, 3)
    e.s.units[g, p, HOME, ARMY] -= 1                    # a piece left in the supply: no destroy at all
    assert player.rebuild_source(ARMY, 3, targets=[3, 5]) == (True, None)


def test_fleet_and_army_tiles_wait_for_fleets_and_armies_soe_20():
    e = engine()
    player, g, p = e.players[0][0], 0, 0
    choices = Choices(e, g, p)
    k = e.k
    e.s.units[g, p, :N_REGIONS] = 0
    assert not player.tile_is_useful("naval_training", k["naval_training"], choices)
    assert not player.tile_is_useful("army_training", k["army_training"], choices)
    e.s.units[g, p, 4, FLEET] = 2
    e.s.units[g, p, 4, ARMY] = 2
    assert player.tile_is_useful("naval_training", k["naval_training"], choices)
    assert player.tile_is_useful("army_training", k["army_training"], choices)


def test_scripted_players_never_own_two_copies_of_a_tile_that_does_not_stack_soe_a16():
    strategies = ("colonial", "european", "mixed", "opportunist")
    seatings = [Seating(("spain", "france", "great_britain", "austria"), tuple(np.roll(strategies, i)))
                for i in range(4)] * 12
    e = new_engine(load_components(), seatings, 5, list(range(len(seatings))))
    e.play()
    owned = e.s.dev_owned[:, :4, [e.k[name] for name in NON_STACKING]]
    assert owned.max() == 1                            # bought, and never a second copy


def test_armies_spread_off_a_big_stack_rather_than_pass_soe_10():
    e = engine("strategies.mixed.focus_regions=1")
    player, g, p = e.players[0][0], 0, 0
    targets = player.target_regions()

    def stack_in(r: int, armies: int) -> list[tuple[int, int, int]]:
        e.s.units[g, p, :N_REGIONS, ARMY] = 0
        e.s.units[g, p, r, ARMY] = armies
        return [(src, dst) for kind, src, dst in Choices(e, g, p).moves
                if kind == ARMY and src == r and dst < N_REGIONS and dst not in targets]

    region = next(r for r in range(N_REGIONS) if stack_in(r, player.q["spread_from"]))
    stack_in(region, player.q["spread_from"])
    move = player.choose_spread(Choices(e, g, p))
    assert move is not None and move.moves
    assert all(kind == ARMY and src == region and dst < N_REGIONS and dst not in targets
               for kind, src, dst in move.moves)
    stack_in(region, player.q["spread_from"] - 1)
    assert player.choose_spread(Choices(e, g, p)) is None
