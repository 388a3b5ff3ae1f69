"""Naval battles in the scripted players (COE-32): whether to start one (COE-13.4) on the exact
odds (`naval.solve_naval`) and the cargo at stake (COE-15.5: sunk land units are destroyed,
leaders captured, a Caesar's capture ends his empire, COE-25.2), which galleys sink (COE-15.3),
and the forecast logged for the player audit."""

import pytest

from sim.conquest.audit import audit_records
from sim.conquest.battle import NavalChoice
from sim.conquest.naval import Fleet, naval_stake, solve_naval
from sim.conquest.state import LEADERS
from tests.conquest.engine_setup import dice, engine, events, seat_of
from tests.conquest.test_scripted_plans import scripted

ZONE = "mare_alexandria"


def fleets(mine: list[tuple], theirs: list[tuple]):
    """Aegyptus (the scripted seat) and Galatia with galleys in one sea zone, each galley given as
    (land units by type, leader indices aboard); returns the engine, both seats and the zone."""
    e = engine(6)
    me, them = seat_of(e, "aegyptus"), seat_of(e, "galatia")
    z = e.t.index(ZONE)
    s = e.s
    n = s.gal_loc.shape[2]
    for seat, galleys in ((me, mine), (them, theirs)):
        for k, (cargo, leaders) in enumerate(galleys):
            s.gal_loc[0, seat, k], s.gal_cargo[0, seat, k] = z, cargo
            for i in leaders:
                s.ldr_loc[0, seat, i], s.ldr_ship[0, seat, i] = z, seat * n + k
    return e, me, them, z


EMPTY = ((0, 0, 0), ())


def decide(mine, theirs, strategy: str = "expansionist") -> tuple[NavalChoice, float]:
    """The scripted Aegyptus' answer and solve_naval's win chance of the same galley counts."""
    e, me, them, z = fleets(mine, theirs)
    choice = scripted(e, me, strategy).fight_naval(z, them, len(mine), len(theirs))
    return choice, solve_naval(Fleet(len(mine)), Fleet(len(theirs)), e.comp).attacker_win


@pytest.mark.parametrize("strategy", ["expansionist", "fortifier", "hunter", "siege_train"])
def test_coe_13_4_coe_15_the_naval_decision_follows_the_exact_odds(strategy):
    ahead, p_ahead = decide([EMPTY] * 3, [EMPTY], strategy)
    behind, p_behind = decide([EMPTY], [EMPTY] * 3, strategy)
    assert ahead.fight and p_ahead > 0.5
    assert not behind.fight and p_behind < 0.2
    even, _ = decide([EMPTY], [EMPTY], strategy)
    assert not even.fight                        # an even fight of empty galleys gains nothing


@pytest.mark.parametrize(("mine", "theirs"), [(1, 1), (2, 1), (1, 3), (4, 2), (3, 3)])
def test_coe_15_the_logged_forecast_is_solve_navals_win_chance(mine, theirs):
    choice, p_win = decide([EMPTY] * mine, [EMPTY] * theirs)
    assert choice.p_win == pytest.approx(p_win, abs=1e-12)


def test_coe_15_5_cargo_changes_the_decision():
    """Even galleys: worth fighting when the enemy's carries its Caesar, not when one's own does;
    two against one: worth it with empty galleys, not when they carry a Caesar and a legion."""
    caesar = ((1, 0, 0), (0,))
    legion = ((7, 0, 0), (1,))
    assert decide([EMPTY], [caesar])[0].fight
    assert not decide([caesar], [EMPTY])[0].fight
    assert decide([EMPTY, EMPTY], [EMPTY])[0].fight
    assert not decide([caesar, legion], [EMPTY])[0].fight


def test_coe_15_3_the_least_valuable_galleys_sink_first():
    e, me, _, _ = fleets([((0, 0, 2), (1,)), ((1, 0, 0), (0,)), ((3, 0, 0), ()), EMPTY], [EMPTY])
    n = e.s.gal_loc.shape[2]
    galleys = [me * n + k for k in range(4)]
    player = scripted(e, me, "expansionist")
    order = player.sink(e.t.index(ZONE), galleys, 4)
    assert order == [galleys[3], galleys[2], galleys[0], galleys[1]]   # empty, 3 INF, General, Caesar
    assert player.sink(e.t.index(ZONE), galleys, 1) == [galleys[3]]


@pytest.mark.parametrize("cargo", [((0, 0), (3, 0), (7, 0)), ((2, 0), (5, 0)), ((1, 0), (1, 0), (4, 0), (6, 0))])
def test_coe_15_5_expected_loss_matches_solve_navals_cargo_law(cargo):
    """Worth = land units aboard: the expected worth lost is solve_naval's expected units lost."""
    comps = engine(2).comp
    for other in (1, 2, 4):
        stake = naval_stake([u for u, _ in cargo], [0.0] * other, comps)
        odds = solve_naval(Fleet(len(cargo), cargo), Fleet(other), comps)
        assert stake.p_win == pytest.approx(odds.attacker_win, abs=1e-12)
        assert stake.attacker_loss == pytest.approx(sum(k * p for k, p in odds.attacker_units_lost.items()))
        assert stake.defender_loss == 0.0


def test_coe_13_4_the_naval_forecast_is_logged_and_audited():
    """The forecast a mover starts a naval battle on is logged on the battle and the audit pairs
    it with the result (won: only the mover's galleys left)."""
    e, me, _, _ = fleets([EMPTY, EMPTY], [EMPTY])
    player = scripted(e, me, "expansionist")
    e.players[0][me] = player
    dice(e, "galley", "blank", "blank", "blank", "blank", "blank")   # round 1: mover 1 hit, Galatia none
    e.active[0], e.phase[0] = me, 2
    e.battle_phase(0, me)
    (start,) = [x for x in events(e, "battle") if x["kind"] == "naval"]
    (end,) = events(e, "battle_end")
    assert start["p_win"] == pytest.approx(solve_naval(Fleet(2), Fleet(1), e.comp).attacker_win, abs=1e-6)
    assert end["winner"] == me
    head = {"strategies": ["random"] * 6}
    head["strategies"][me] = "expansionist"
    turn = [{"event": "turn", "seat": me}]
    (f,) = audit_records(head, turn + list(e.logs[0])).forecasts
    assert (f.strategy, f.kind, f.predicted, f.happened) == ("expansionist", "naval", start["p_win"], True)


def test_coe_15_5_a_caesar_sunk_at_sea_ends_the_battle_with_its_end_logged():
    """The mover sinks the galley carrying Galatia's Caesar in the first round: Galatia's empire
    passes to him (COE-25.2) and the battle's end is logged as his win."""
    e, me, them, _ = fleets([EMPTY, EMPTY], [((1, 0, 0), (0,))])
    e.players[0][me] = scripted(e, me, "expansionist")
    dice(e, "galley", "blank", "blank", "blank", "blank", "blank")
    e.active[0], e.phase[0] = me, 2
    e.battle_phase(0, me)
    assert not e.s.alive[0, them] and e.s.ldr_state[0, them, 0] != 0
    (end,) = events(e, "battle_end")
    assert end["winner"] == me
    assert them * LEADERS in events(e, "galleys_lost")[0]["leaders"]
