"""The decision layer's shortcuts against their definitions: the connected set (AFS-6.2) found
with the sea network opened at once equals the closure over every supply link, and the scripted
players' choice with score ceilings (kinds not listed, sieges not estimated where they cannot
beat the best found) equals scoring every listed action (AFS-21 items 1-19), and the dead cards
read off the decision's playable cards are those `ScriptedPlayer.dead` finds card by card, and a
siege taken as lost at once without a simulation is one the simulation estimates at 0."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from sim.acres import play, players
from sim.acres.actions import Pass
from sim.acres.choices import Choices
from sim.acres.scripted import SCORED, ScriptedPlayer
from sim.core.seating import Seating
from tests.acres.engine_kit import Game

GAME = Game()
# the score weights of data/strategies.toml, drawn from few values so that ties are common
WEIGHTS = ("settle", "develop", "fortify", "frontier", "besiege", "capital", "reinforce_attack", "reinforce_defend",
           "raid", "ambush", "steal", "money", "recruit_military", "recruit_raider", "recruit_settler",
           "recruit_fortification", "recruit_economy", "reserve")


def _closure(t, control: list[int], side: int) -> frozenset[int]:
    """AFS-6.2 by definition: own locations reached from the capital along any supply link."""
    cap, mine = t.capital[side], side + 1
    seen, todo = {cap}, [cap]
    while todo:
        for n in t.supply_adj[todo.pop()]:
            if n not in seen and control[n] == mine:
                seen.add(n)
                todo.append(n)
    return frozenset(seen)


@settings(max_examples=200, deadline=None)
@given(data=st.data())
def test_afs_6_2_connected_set_is_the_closure_over_all_supply_links(data):
    e, s, t = GAME.e, GAME.s, GAME.t
    control = data.draw(st.lists(st.sampled_from((0, 1, 2)), min_size=len(t.locs), max_size=len(t.locs)))
    for side in (0, 1):
        control[t.capital[side]] = side + 1           # the option that drops a lost capital's set aside
    s.control[0][:] = control
    s.version[0] += 1
    for side in (0, 1):
        assert e.connected(0, side) == _closure(t, control, side)


def _scored_in_full(player: ScriptedPlayer, choices: Choices):
    """The definition: every listed action of every scored kind scored, in `SCORED` order then
    list order; the first with the highest score above 0, else Pass."""
    best, top = Pass(), 0.0
    for kind in SCORED:
        for a in choices.list(kind):
            sc = getattr(player, "s_" + kind)(a)
            if sc > top:
                best, top = a, sc
    return best, top


def _prepared(e, g, params: dict):
    """(side, actions left, a scripted player prepared to decide) for both sides and one and two
    actions left at this step of game g; nothing once the game is over."""
    if e.s.over[g]:
        return
    for side in (0, 1):
        for left in (1, 2):
            player = ScriptedPlayer(e, g, side, None, params)
            player.left = left
            player._prepare()
            yield side, left, player


def _compare(params: dict, checked: list[int], pruned: list[int]):
    def watch(engine):
        def on_step(e, g, where):
            for side, left, player in _prepared(e, g, params):
                choices = Choices(e, g, side, left)
                got = player.best_scored(choices)
                listed = len(choices._lists)
                player._prepare()
                assert got == _scored_in_full(player, Choices(e, g, side, left)), (where, side, left)
                hand = e.s.hand[g][side]                             # AFS-6.3.1 dead cards
                assert player.dead_in_hand(choices) == [c for c in hand if player.dead(c)]
                checked[0] += 1
                pruned[0] += listed < len(SCORED)
        return on_step
    return watch


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 999), lineup=st.tuples(st.sampled_from(play.STRATEGIES), st.sampled_from(play.STRATEGIES)),
       table=st.sampled_from(players.strategies()),
       weights=st.lists(st.sampled_from((0.0, 0.5, 1.0, 2.0, 5.0)), min_size=len(WEIGHTS), max_size=len(WEIGHTS)))
def test_afs_21_choice_with_score_ceilings_is_the_best_of_all_listed_actions(seed, lineup, table, weights):
    params = {**play.load_data().tree["strategies"][table], **dict(zip(WEIGHTS, weights))}
    checked, pruned = [0], [0]
    play.play_with(seed, [0], [Seating(("british", "french"), lineup)], watch=_compare(params, checked, pruned))
    assert checked[0] > 0 and pruned[0] > 0


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 999), lineup=st.tuples(st.sampled_from(play.STRATEGIES), st.sampled_from(play.STRATEGIES)),
       table=st.sampled_from(players.strategies()))
def test_afs_8_8_2_a_siege_lost_at_once_is_estimated_at_zero(seed, lineup, table):
    """`lost_at_once` (no simulation) only where the simulated estimate is 0: every listed
    besiege of both sides at every step, with one and two actions left."""
    params = play.load_data().tree["strategies"][table]
    seen = [0, 0]

    def on_step(e, g, where):
        for side, left, player in _prepared(e, g, params):
            for a in Choices(e, g, side, left).list("besiege"):
                lost = player.lost_at_once(a, left)
                assert not lost or player.estimate(a, left) == 0.0, (where, side, left, a)
                seen[lost] += 1

    play.play_with(seed, [0], [Seating(("british", "french"), lineup)], watch=lambda engine: on_step)
    assert seen[0] + seen[1] > 0


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 999), lineup=st.tuples(st.sampled_from(play.STRATEGIES), st.sampled_from(play.STRATEGIES)),
       table=st.sampled_from(players.strategies()),
       weights=st.lists(st.sampled_from((0.0, 0.5, 1.0, 2.0, 5.0)), min_size=len(WEIGHTS), max_size=len(WEIGHTS)))
def test_afs_21_no_listed_action_scores_above_its_kinds_ceilings(seed, lineup, table, weights):
    """Every listed action of a kind scores at most the kind's ceiling (`ceilings`: from the hand,
    the board and the weights) and, for raids, ambushes and steals, its ceiling from the
    decision's chances: at every step, both sides, one and two actions left (sieges aside: their
    kind ceiling is the data's best prize at odds 1, and `besiege_ceiling` bounds each one)."""
    params = {**play.load_data().tree["strategies"][table], **dict(zip(WEIGHTS, weights))}
    seen = [0]

    def on_step(e, g, where):
        for side, left, player in _prepared(e, g, params):
            bounds = player.ceilings()
            chanced = {"raid": player.raid_ceiling(), "ambush": player.ambush_ceiling(),
                       "steal": player.steal_ceiling()}
            choices = Choices(e, g, side, left)
            for kind in SCORED[1:]:
                for a in choices.list(kind):
                    sc = getattr(player, "s_" + kind)(a)
                    assert sc <= bounds[kind] and sc <= chanced.get(kind, sc), (where, side, left, kind, a)
                    seen[0] += 1

    play.play_with(seed, [0], [Seating(("british", "french"), lineup)], watch=lambda engine: on_step)
    assert seen[0] > 0
