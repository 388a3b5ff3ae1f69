"""The invariants of sim.acres.checks (issue 14 item 7) after every step of random-legal and
scripted games under either edition and any combination of Yucata's variants and the AFS-18
options, and determinism alone vs in a batch. (The conformance suite plays 500 random-legal games
under the default rules besides.)"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.acres import checks, play
from sim.acres.rulebook import SCENARIOS
from sim.core.seating import Seating

OPTIONS = ("options.artillery_cost=6", 'options.governor_cards="two"', "options.home_support_reshuffles=false",
           "options.raid_from_besieged=false", "options.raid_through_own_besieged=false",
           "options.blocked_attack_uses_action=false", "options.raid_uses_card_boat_links=true",
           "options.supply_uses_card_boat_links=true",
           "options.capital_must_be_controlled=true", "options.fortification_blocks_raids=false",
           "options.settle_capital_wins=true", "options.location_cards_in_reserve=false",
           "options.ambush_pays_fee=false", "options.chain_through_own_besieged=false",
           "options.leader_needs_supply=false", "options.ship_opens_siege=false",
           'options.free_discard="once_per_turn"',
           'options.raid_range="exactly"', 'rules.deck.reshuffle="on_draw"', 'rules.scoring.end_when="both"',
           "rules.siege.zero_space=false", "rules.siege.track_limit=6")


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), second=st.booleans(),
       variants=st.sets(st.integers(0, SCENARIOS - 1), max_size=6),
       options=st.sets(st.sampled_from(OPTIONS), max_size=3),
       strategies=st.tuples(st.sampled_from(play.STRATEGIES), st.sampled_from(play.STRATEGIES)))
def test_invariants_under_any_rules(seed, second, variants, options, strategies):
    overrides = [f"rules.variants.scen{n}=true" for n in sorted(variants)] + sorted(options)
    if second:
        overrides.append('rules.game.edition="second"')
    data = play.load_data(overrides)
    seatings = [Seating(("british", "french"), strategies), Seating(("french", "british"), strategies)]
    table = checks.check_games(seed % 1000, [0, 1], seatings, data)
    assert len(table) == 4 and table.groupby("game_index").winner.sum().eq(1).all()


def test_a_game_alone_equals_the_game_in_a_batch():
    seatings = [Seating(("british", "french"), ("hammer", "raider")),
                Seating(("french", "british"), ("random", "balanced")),
                Seating(("british", "french"), ("settler", "random"))]
    batch = play.play_games(9, [4, 8, 15], seatings)
    alone = [play.play_games(9, [i], [s]) for i, s in zip([4, 8, 15], seatings)]
    for k, one in enumerate(alone):
        assert one.reset_index(drop=True).equals(batch.iloc[2 * k: 2 * k + 2].reset_index(drop=True))
