"""Scripted players: legal play, hidden information, exact odds, and strength vs the baseline."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from sim.core.errors import UserError
from sim.core.seating import Seating
from sim.core.stats import wilson_interval
from sim.struggle.play import INFO, new_engine, play_games
from sim.struggle import combat_exact
from sim.struggle.attack_laws import attack_summary, canonical_attack, duel_odds
from sim.struggle.players import STRATEGIES
from sim.struggle.components import load_components


def test_strategies_named_in_data():
    """Issue 4 item 3: a random baseline and at least four scripted strategies."""
    assert {"random", "colonial", "european", "mixed", "opportunist"} <= set(STRATEGIES)


def test_duel_odds_exact():
    """SOE-12.4 with Example SOE-E9: equal strengths -> P(win) = P(loss), P(tie) = sum p^2."""
    win, tie = duel_odds(3, 3)
    p = np.array([6, 10, 8, 6, 4, 2]) / 36
    assert tie == pytest.approx(float((p ** 2).sum()))
    assert win == pytest.approx((1 - tie) / 2)
    assert duel_odds(9, 0)[0] == 1.0


def test_other_players_unrest_is_hidden_unless_public_memory():
    """SOE-2.3 / SOE-A37: with unrest_memory = none a player sees only its own unrest."""
    from sim.struggle.play import new_engine
    seating = Seating(("spain", "france"), ("mixed", "mixed"))
    e = new_engine(load_components(["options.unrest_memory=none"]), [seating], 1, [0])
    e.add_unrest(0, 1, 5)
    player = e.players[0][0]
    assert player.unrest_of(1) == 0 and e.players[0][1].unrest_of(1) == 5
    e = new_engine(load_components(), [seating], 1, [0])
    e.add_unrest(0, 1, 5)
    assert e.players[0][0].unrest_of(1) == 5


def test_unknown_strategy_is_a_user_error():
    with pytest.raises(UserError, match="strategy"):
        play_games(1, [0], [Seating(("spain", "france"), ("mixed", "genius"))])


def test_strategy_parameters_can_be_overridden():
    """Strategies are data: --set strategies.<name>.<param> changes play."""
    seatings = [Seating(("spain", "france", "russia"), ("european", "european", "european"))] * 4
    base = play_games(3, range(4), seatings)
    changed = play_games(3, range(4), seatings, data=load_components(["strategies.european.europe_weight=0.1"]))
    assert not base.vp.equals(changed.vp)


@pytest.mark.parametrize("strategy", ["mixed", "opportunist"])
def test_scripted_beats_random_baseline(strategy):
    """Issue 4 item 6: in 2-player games (seats and powers rotated) the scripted strategy's
    win rate has a Wilson 95 % lower bound above 1/2."""
    rng = np.random.default_rng(8)
    seatings = []
    for i in range(40):
        powers = tuple(rng.permutation(INFO.powers)[:2].tolist())
        seatings.append(Seating(powers, (strategy, "random") if i % 2 == 0 else ("random", strategy)))
    df = play_games(8, range(40), seatings)
    mine = df[df.strategy == strategy]
    wins = int((mine.winner & ~mine.shared_win).sum())
    low, _ = wilson_interval(wins, len(mine))
    assert low > 0.5


def test_players_read_the_game_only_through_the_view_which_hides_unrest():
    """SOE-2.3: the player modules never touch the engine's state (`e.s`), only its `View`, which
    has no `unrest` field; a seat's own unrest comes from `own_unrest`, another's through
    `unrest_of` (public count, SOE-A37)."""
    import re

    from sim.compiled import source_path
    from sim.struggle import attack_scan, players, scripted, scripted_auction, scripted_passes
    from sim.struggle.view import View
    for module in (players, scripted, scripted_auction, scripted_passes, attack_scan):
        source = source_path(module.__name__).read_text()     # the .py file, also where it runs compiled
        assert not re.search(r"\be\.s\b", source) and ".unrest[" not in source, module.__name__
    e = new_engine(load_components(), [Seating(INFO.powers[:3], ("mixed",) * 3)], 1, [0])
    e.s.unrest[0, :3], e.s.public_unrest[0, :3] = (7, 5, 3), (2, 1, 0)
    assert not hasattr(e.view, "unrest") and isinstance(e.view, View)
    assert [e.view.unrest_of(0, 1, q) for q in range(3)] == [2, 5, 0]
    assert e.view.own_unrest(0, 2) == 3


RULE_VARIANTS = {
    "default": (),
    "reserves never": ("options.reserves_policy=never",),
    "forts first": ("options.land_loss_order=forts_first",),
    "no allies vs neutrals": ("options.neutral_attacker_allies=false",),
}


@settings(max_examples=150)
@given(variant=st.sampled_from(sorted(RULE_VARIANTS)), neutral=st.booleans(), naval=st.booleans(),
       counts=st.lists(st.integers(0, 9), min_size=12, max_size=12),
       training=st.lists(st.integers(0, 3), min_size=4, max_size=4),
       alliance=st.lists(st.integers(0, 1), min_size=2, max_size=2),
       reserves=st.lists(st.integers(0, 2), min_size=2, max_size=2), strength=st.integers(1, 9),
       refuse=st.booleans(), marker=st.booleans(), bonus=st.tuples(st.integers(-24, 24), st.integers(-24, 24)))
def test_canonical_attack_has_the_same_exact_law(variant, neutral, naval, counts, training, alliance, reserves,
                                                 strength, refuse, marker, bonus):
    """The players' cache folds many configurations into one canonical form (SOE-12.3..12.13);
    the exact summary of the canonical form must equal the configuration's own."""
    rules = load_components(RULE_VARIANTS[variant]).combat
    attack = combat_exact.Attack(
        att_armies=max(1, counts[0]), def_armies=counts[1], def_forts=min(counts[2], 2), att_fleets=counts[3],
        def_fleets=counts[4], att_ally_armies=counts[5], att_ally_fleets=counts[6], def_ally_armies=counts[7],
        def_ally_fleets=counts[8], att_army_training=training[0], def_army_training=training[1],
        att_naval_training=training[2], def_naval_training=training[3], att_alliance_army=alliance[0],
        def_alliance_army=alliance[1], naval_phase=naval, neutral=strength if neutral else -1,
        att_reserves=reserves[0], def_reserves=reserves[1], def_refuse=refuse, def_has_marker=marker,
        att_bonus=bonus[0], att_naval_bonus=bonus[1])
    assert attack_summary(canonical_attack(attack, rules), rules) == pytest.approx(attack_summary(attack, rules),
                                                                                  abs=1e-12)


def test_the_view_shares_the_states_arrays_for_a_whole_game():
    """The View holds the state's own arrays; the engine changes them in place and never
    rebinds one, so after a whole game every field still is the state's."""
    from sim.struggle.view import SHARED
    e = new_engine(load_components(), [Seating(INFO.powers[:4], ("mixed", "random", "colonial", "european"))], 2, [0])
    e.play()
    assert all(getattr(e.view, name) is getattr(e.s, name) for name in SHARED)
    assert (e.view.war, e.view.round) == (e.s.war, e.s.round) and "unrest" not in SHARED
