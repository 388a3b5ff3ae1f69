"""The per-decision tables of `Choices` (AFS-6.1 playable cards, one card per copy key) against
their definitions through the engine's own tests, at every step of scripted and random-legal
games: the speed-ups that read the connected set and the siege markers once per decision list
exactly the cards `Engine.playable` allows, in hand order, and list each settle and siege once."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.acres import play
from sim.acres.choices import Choices
from sim.core.seating import Seating


def _first_per_copy(engine, cards: list[int]) -> list[int]:
    keys = [engine.t.copy_key[c] for c in cards]
    return [c for i, c in enumerate(cards) if keys[i] not in keys[:i]]


def _watch(seen: list[int]):
    def watch(engine):
        def on_step(e, g, where):
            for side in (0, 1):
                ch = Choices(e, g, side, 1)
                hand = e.s.hand[g][side]
                assert ch.live == [c for c in hand if e.playable(g, side, c)]          # AFS-6.1
                assert ch.hand == _first_per_copy(e, ch.live)
                used = tuple(ch.hand[:1])
                assert ch._others(used) == _first_per_copy(e, [c for c in ch.live if c not in used])
                for kind in ("settle", "besiege"):                  # listed once each (AFS-7.1, AFS-8.1)
                    assert len(set(ch.list(kind))) == len(ch.list(kind))
            seen[0] += 1
        return on_step
    return watch


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 999),
       strategies=st.tuples(st.sampled_from(play.STRATEGIES), st.sampled_from(play.STRATEGIES)))
def test_afs_6_1_playable_and_distinct_tables_match_the_engine(seed, strategies):
    seen = [0]
    play.play_with(seed, [0], [Seating(("british", "french"), strategies)], watch=_watch(seen))
    assert seen[0] > 0
