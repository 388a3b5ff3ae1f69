"""The COE-30 alternatives of COE-A22 (split retreat), COE-A25 (kill a held General later) and
COE-A41 (surrender) through the engine, both ways, on hand-built positions with fixed dice."""

import numpy as np
import pytest

from sim.conquest.players import RandomPlayer
from sim.conquest.replay import account
from sim.conquest.state import CAPTIVE, FREE, GONE, LEADERS, NEUTRAL
from sim.core.lockstep import RuleViolation
from tests.conquest.engine_setup import clear, control, dice, engine, events, leader, units

BLANK = "blank"
GENERAL = 1 * LEADERS + 1                  # seat 1's General 1
SPLIT = "options.retreat_single_destination=false"
ANY_TIME = "options.captive_decision=any_time"
SURRENDER = "options.allow_surrender=true"


def retreat_battle(overrides=(), split=None, blocked=()):
    """COE-E11's position without pursuit hits: D (2 INF, 1 CAT, a General) retreats from
    Lusitania after one blank round; baetica and hispania are open unless blocked."""
    e = engine(2, {1: {"retreats": ["baetica"], "splits": [split] if split else []}}, overrides)
    clear(e, 0), clear(e, 1)
    units(e, 0, "lusitania", (3, 2, 0))
    leader(e, 0, 1, "lusitania")
    for q in blocked:
        units(e, 0, q, (1, 0, 0))
    units(e, 1, "lusitania", (2, 0, 1))
    leader(e, 1, 1, "lusitania")
    control(e, 1, "lusitania")
    dice(e, *[BLANK] * 5, *[BLANK] * 3, *[BLANK] * 5)
    e.active[0], e.phase[0] = 0, 2
    e.land_battle(0, 0, e.t.index("lusitania"), 1)
    return e


def asked(e, seat, kind):
    return [x for x in e.players[0][seat].journal if x[1] == kind]


def test_coe_a22_default_the_whole_force_retreats_to_one_province():
    e = retreat_battle(split=[("hispania", (2, 0, 1), ())])
    assert not asked(e, 1, "retreat_split")
    assert e.units_at(0, 1, e.t.index("baetica")) == [2, 0, 1]
    assert e.s.ldr_loc[0, 1, 1] == e.t.index("baetica")


def test_coe_a22_alternative_the_loser_splits_among_open_provinces():
    e = retreat_battle([SPLIT], split=[("baetica", (1, 0, 1), (GENERAL,)), ("hispania", (1, 0, 0), ())])
    (question,) = asked(e, 1, "retreat_split")
    assert question[2] == ((2, 0, 1), [GENERAL], [e.t.index("baetica"), e.t.index("hispania")])
    assert e.units_at(0, 1, e.t.index("baetica")) == [1, 0, 1]
    assert e.units_at(0, 1, e.t.index("hispania")) == [1, 0, 0]
    assert e.units_at(0, 1, e.t.index("lusitania")) == [0, 0, 0]
    assert e.s.ldr_loc[0, 1, 1] == e.t.index("baetica") and e.s.ldr_state[0, 1, 1] == FREE
    assert e.s.control[0, e.t.index("lusitania")] == 0 and e.s.control[0, e.t.index("hispania")] == 1
    (logged,) = events(e, "retreat_split")
    assert [g["to"] for g in logged["groups"]] == ["baetica", "hispania"]
    assert (e.s.ready[0, 1, e.t.index("hispania"), :, 1:] == 0).all()      # COE-16.4: no MP left


@pytest.mark.parametrize("seed", range(12))
def test_coe_a22_alternative_a_random_players_split_is_legal_and_moves_every_piece(seed):
    e = engine(2, {1: {"retreats": ["baetica"]}}, [SPLIT])
    rnd = RandomPlayer(e, 0, 1, np.random.default_rng(seed))
    e.players[0][1].retreat_split = rnd.retreat_split
    clear(e, 0), clear(e, 1)
    units(e, 0, "lusitania", (3, 2, 0))
    leader(e, 0, 1, "lusitania")
    units(e, 1, "lusitania", (2, 0, 1))
    leader(e, 1, 1, "lusitania")
    dice(e, *[BLANK] * 13)
    e.active[0], e.phase[0] = 0, 2
    e.land_battle(0, 0, e.t.index("lusitania"), 1)
    after = [e.units_at(0, 1, e.t.index(q)) for q in ("baetica", "hispania")]
    assert [sum(x) for x in zip(*after)] == [2, 0, 1] and e.units_at(0, 1, e.t.index("lusitania")) == [0, 0, 0]
    assert e.s.ldr_loc[0, 1, 1] in (e.t.index("baetica"), e.t.index("hispania"))


def test_coe_a22_alternative_needs_two_open_provinces():
    e = retreat_battle([SPLIT], blocked=("hispania",))
    assert not asked(e, 1, "retreat_split")
    assert e.units_at(0, 1, e.t.index("baetica")) == [2, 0, 1]


@pytest.mark.parametrize("split", [
    [("baetica", (1, 0, 1), ()), ("hispania", (0, 0, 0), ())],        # a unit and the General left behind
    [("baetica", (2, 0, 1), ()), ("tingitana", (0, 0, 0), ("G",))],   # not an open neighbour
    [("baetica", (1, 0, 1), ("G",)), ("baetica", (1, 0, 0), ())],     # one destination twice
])
def test_coe_a22_alternative_an_illegal_split_is_refused(split):
    with pytest.raises(RuleViolation, match="retreat split"):
        retreat_battle([SPLIT], split=[(r, u, tuple(GENERAL for _ in ls)) for r, u, ls in split])


def held_general(overrides=(), executions=None):
    """Seat 1's General 1 is held by seat 0, whose turn comes next."""
    e = engine(2, {0: {"executions": [executions] if executions is not None else []}}, overrides)
    s = e.s
    s.ldr_state[0, 1, 1], s.ldr_holder[0, 1, 1], s.ldr_loc[0, 1, 1] = CAPTIVE, 0, -1
    e.play_turn(0)
    return e


def test_coe_a25_default_a_held_general_is_never_killed_later():
    e = held_general(executions=[GENERAL])
    assert not asked(e, 0, "execute_captives")
    assert e.s.ldr_state[0, 1, 1] == CAPTIVE and e.s.ldr_holder[0, 1, 1] == 0


def test_coe_a25_alternative_the_captor_kills_a_held_general_at_his_turn():
    e = held_general([ANY_TIME], executions=[GENERAL])
    (question,) = asked(e, 0, "execute_captives")
    assert question[2] == [GENERAL]
    assert e.s.ldr_state[0, 1, 1] == GONE
    assert events(e, "execution") == [{"event": "execution", "round": 1, "seat": 0, "leader": GENERAL}]


def test_coe_a25_alternative_keeping_him_keeps_him_for_ransom():
    e = held_general([ANY_TIME], executions=[])
    assert asked(e, 0, "execute_captives") and e.s.ldr_state[0, 1, 1] == CAPTIVE


def test_coe_a25_alternative_only_held_generals_may_be_killed():
    with pytest.raises(RuleViolation, match="execute"):
        held_general([ANY_TIME], executions=[1 * LEADERS + 2])


def surrendering(players, overrides, to):
    e = engine(players, {0: {"surrenders": [to]}}, overrides)
    e.s.treasury[0, 0] = 40
    mine = [q for q in range(e.t.n_prov) if e.s.control[0, q] == 0]
    e.play_turn(0)
    return e, mine


def test_coe_a41_default_nobody_is_asked_to_surrender():
    e, _ = surrendering(2, (), 1)
    assert not asked(e, 0, "surrender") and e.s.alive[0, 0] and not e.s.over[0]


def test_coe_a41_surrender_to_a_player_hands_him_the_empire_and_may_end_the_game():
    e, mine = surrendering(2, [SURRENDER], 1)
    assert asked(e, 0, "surrender")[0][2] == [1, NEUTRAL]
    assert not e.s.alive[0, 0] and e.s.ldr_state[0, 0, 0] == GONE
    assert all(e.s.control[0, q] == 1 for q in mine) and e.s.treasury[0, 1] == 40
    assert e.s.owner[0, 0] == 1 and e.s.ldr_state[0, 0, 1] == FREE       # COE-A27: free Generals pass
    assert e.s.over[0] and e.s.end_reason[0] == "victory"
    assert not events(e, "move") and not events(e, "tax")              # the surrendered turn is not played


def test_coe_a41_surrender_to_nobody_leaves_the_board_neutral():
    e, mine = surrendering(3, [SURRENDER], NEUTRAL)
    assert not e.s.alive[0, 0] and not e.s.over[0]
    assert all(e.s.control[0, q] == NEUTRAL for q in mine)
    assert not e.s.land[0, 0].any() and (e.s.ldr_state[0, 0] == GONE).all()


def test_coe_a41_fighting_on_plays_the_turn():
    e, _ = surrendering(2, [SURRENDER], None)
    assert asked(e, 0, "surrender") and e.s.alive[0, 0] and events(e, "tax")


def test_coe_a41_surrender_to_oneself_is_refused():
    with pytest.raises(RuleViolation, match="surrender"):
        surrendering(2, [SURRENDER], 0)


def test_coe_a25_executions_come_before_a_surrender():
    e = engine(3, {0: {"executions": [[GENERAL]], "surrenders": [2]}}, [ANY_TIME, SURRENDER])
    e.s.ldr_state[0, 1, 1], e.s.ldr_holder[0, 1, 1], e.s.ldr_loc[0, 1, 1] = CAPTIVE, 0, -1
    e.play_turn(0)
    assert [x[1] for x in e.players[0][0].journal[:2]] == ["execute_captives", "surrender"]
    assert e.s.ldr_state[0, 1, 1] == GONE and not e.s.alive[0, 0]


def test_replay_names_the_new_events():
    e = retreat_battle([SPLIT], split=[("baetica", (1, 0, 1), (GENERAL,)), ("hispania", (1, 0, 0), ())])
    extra = [{"event": "execution", "round": 1, "seat": 0, "leader": GENERAL},
             {"event": "surrender", "round": 1, "seat": 1, "to": NEUTRAL}]
    lines = account(e.game_logs()[0][0], e.logs[0] + extra)
    assert any("retreats in parts" in x and "1 infantry and 0 leaders to hispania" in x for x in lines)
    assert "kills the captive" in lines[-2] and "General 1" in lines[-2]
    assert lines[-1].endswith("surrenders to neutral")
