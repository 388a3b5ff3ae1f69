"""COE-A21 through the engine: both sides lose their last units in the same round, and each side's
leaders there are captured by the other. Two Caesars captured at once are both out and nobody
inherits; the game is over only once the whole event is done, so the last two Caesars taken
together are a draw (COE-25), never a victory of the second."""

from sim.conquest.play import results_frame
from sim.conquest.state import NEUTRAL
from tests.conquest.engine_setup import clear, control, dice, engine, leader, units

INF = "infantry"


def caesars_meet(players: int, overrides=()):
    """Seat 0's and seat 1's Caesars, one infantry each, in Lusitania (seat 1's); both roll a hit."""
    e = engine(players, overrides=overrides)
    clear(e, 0), clear(e, 1)
    units(e, 0, "lusitania", (1, 0, 0))
    leader(e, 0, 0, "lusitania")
    units(e, 1, "lusitania", (1, 0, 0))
    leader(e, 1, 0, "lusitania")
    control(e, 1, "lusitania")
    dice(e, INF, INF)
    e.active[0], e.phase[0] = 0, 2
    e.land_battle(0, 0, e.t.index("lusitania"), 1)
    return e


def test_coe_a21_the_last_two_caesars_captured_together_are_a_draw():
    e = caesars_meet(2)
    assert e.s.alive[0, :2].tolist() == [False, False] and e.s.over[0]
    assert e.s.end_reason[0] == "draw"
    assert (e.s.control[0] == NEUTRAL).all()
    table = results_frame(e)
    assert set(table.end_reason) == {"draw"}
    assert table.winner.all() and (table["rank"] == 1).all()    # nobody won: both share first place


def test_coe_a21_two_caesars_captured_together_leave_the_third_the_victor():
    e = caesars_meet(3)
    assert e.s.alive[0, :3].tolist() == [False, False, True]
    assert e.s.over[0] and e.s.end_reason[0] == "victory"


def test_coe_a21_alternative_nobody_is_captured_and_the_game_goes_on():
    """`defender_holds_no_capture`: the attack fails, the attacker's leaders leave the province."""
    e = caesars_meet(2, ["options.mutual_annihilation=\"defender_holds_no_capture\""])
    assert e.s.alive[0, :2].tolist() == [True, True] and not e.s.over[0]
