"""Invariants of issue 16 item 4 after every engine step (sim.discovery.checks.Invariants):
units conserved per colour and type, box capacities, money >= 0, goods within the stock,
buildings and tokens each in one place -- in random-legal games of 2-5 players under the
alternative readings of AOD-18 (the conformance suite plays 2,000 more with the defaults), and
in games with scripted players."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.core.conformance import seatings_for
from sim.discovery import play
from sim.discovery.checks import check_games

VARIANTS = [
    ["options.start_order=auction"],
    ["options.start_order=auction", "options.auction_compensation=true", "options.limited_supply=true",
     "rules.supply.colonists=12"],
    ["options.specialists_persist=true", "options.overpopulation_single_region=false"],
    ["options.migration_moves_specialists=false", "options.cartography_when_map_done=vp_only",
     "options.discovery_reveal_public=false", "options.cards_mid_resolution=false"],
    ["options.stables_needs_discovered=false", "options.indian_allies_needs_colonist=true",
     "options.dock_x_before_y=false", "options.first_to_three_counts_specialists=false",
     "options.building_units_at=purchase"],
    ["options.conflict_may_decline=false", "options.university_moment=never", "options.winner_tie=turn_order",
     "options.piracy_counts=owner_ships", "options.piracy_short_payment=nothing",
     "rules.warfare.battle_needs_both_present=false", "rules.warfare.militia_counts_for_war=true"],
    ["goods.edition=hungarian", "rules.colonies.threshold_reading=per_player", "rules.final.round8_sets_pay_money=true",
     "rules.boxes.trade_goods=2", "rules.boxes.warfare=2", "rules.turn_order_money=3"],
]


@pytest.mark.parametrize("overrides", VARIANTS, ids=lambda o: o[0].split("=")[0].split(".")[-1])
def test_invariants_hold_under_every_reading(overrides):
    data = play.load_data(overrides)
    rng = np.random.default_rng(16)
    seatings = [s for n in range(2, 6) for s in seatings_for(play, n, ("random",), 15, rng)]
    table = check_games(11, list(range(len(seatings))), seatings, data)
    assert len(table) == sum(s.players for s in seatings) and table.winner.groupby(table.game_index).any().all()


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 5))
def test_invariants_hold_with_scripted_players(seed, players):
    rng = np.random.default_rng(seed)
    seatings = seatings_for(play, players, play.INFO.strategies, 4, rng)
    table = check_games(seed, [0, 1, 2, 3], seatings, play.load_data())
    assert (table.vp >= 0).all() and (table["rank"] >= 1).all()
