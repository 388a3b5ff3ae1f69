"""The engine under every alternative reading of COE-30 (sim/conquest/data/options.toml): random-
legal games keep the invariants (sim.conquest.checks) after every step and movement action."""

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.conquest import checks, play
from sim.core.seating import Seating

ALTERNATIVES = [
    "options.simultaneous_hits=false", "options.catapult_cap=formation_min1",
    "options.fort_bonus_requires_control=false", "options.naval_hits_capped=true",
    "options.leaders_on_sunk_galley=killed", "options.mutual_annihilation=defender_holds_no_capture",
    "options.pursuit_cap=uncapped", "options.formation_open_info=false", "options.leaders_move_alone=false",
    "options.lone_leaders_captured_on_contact=false", "options.neutral_capture_timing=end_of_turn",
    "options.empty_enemy_province_like_neutral=false", "options.land_move_before_boarding=false",
    "options.board_and_land_same_turn=false", "options.galley_entering_coast_ends_move=true",
    "options.galleys_conquer=true", "options.galley_end_restriction=false",
    "options.destroy_beached_on_unopposed_capture=false", "options.destroy_attacker_galleys_on_failed_landing=true",
    "options.inherit_free_generals=false", "options.placement_requires_home_control=false",
    "options.starting_talents=50", "options.units_per_leader=3", "options.roads_usable_by_all=false",
    "options.tax_cap=60", "economy.inflation.inflation_measure=treasury", "map.options.mesopotamia_arabia_border=true",
    "options.retreat_single_destination=false", "options.captive_decision=any_time", "options.allow_surrender=true",
]


@pytest.mark.parametrize("override", ALTERNATIVES)
def test_coe_30_alternative_readings_keep_the_invariants(override):
    data = play.load_data([override, "rules.turn_cap=12"])
    seatings = [Seating(play.INFO.powers[:n], ("random",) * n) for n in (2, 4, 6)]
    table = checks.check_games(7, [0, 1, 2], seatings, data)
    assert len(table) == 12 and set(table.end_reason) <= {"victory", "draw", "turn_cap"}


@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 2**31 - 1), players=st.integers(2, 6), index=st.integers(0, 10**6))
def test_random_legal_games_keep_the_invariants(seed, players, index):
    """Invariants after every step of random-legal games at any seed, index and player count."""
    rng = np.random.default_rng(seed)
    powers = tuple(play.INFO.powers[i] for i in rng.permutation(6)[:players])
    table = checks.check_games(seed, [index], [Seating(powers, ("random",) * players)], play.load_data())
    assert table.winner.any() and (table.vp >= 0).all()
