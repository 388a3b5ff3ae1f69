"""The invariant checks themselves (sim.conquest.checks): read over the whole batch at once, each
one still fails on a state that breaks it, in the game that breaks it only (COE-2.4, COE-6.4,
COE-11.1, COE-12.5, COE-17, COE-20.4, COE-25.2)."""

import numpy as np
import pytest

from sim.conquest import play
from sim.conquest.checks import Invariants
from sim.conquest.state import FREE
from sim.core.seating import Seating


def _set_up():
    seating = Seating(play.INFO.powers[:4], ("random",) * 4)
    e = play.new_engine(play.components_of(None), [seating] * 3, 5, range(3))
    e.setup()
    return e


def _break_supply(e):
    e.s.land[1, 0, 0, 0] += e.t.limits[0] + 1


def _break_negative_units(e):
    e.s.land[1, 0, 0, 1] = -1


def _break_cargo(e):
    e.s.gal_cargo[1, 0, 0, 0] = e.t.capacity + 1


def _break_unled_cargo(e):
    e.s.ldr_ship[1, 0] = -1
    e.s.gal_cargo[1, 0, 0, 0] = 1


def _break_fortification(e):
    p = int((~e.s.city[1]).nonzero()[0][0])
    e.s.fort[1, p] = True


def _break_treasury(e):
    e.s.treasury[1, 2] = -1


def _break_elimination(e):
    e.s.alive[1, 1] = False          # still controls its home and commands its colour


def _break_leader_off_board(e):
    c, k = np.argwhere(e.s.ldr_state[1] == FREE)[0]
    e.s.ldr_loc[1, c, k] = -1


BREAKS = [_break_supply, _break_negative_units, _break_cargo, _break_unled_cargo, _break_fortification,
          _break_treasury, _break_elimination, _break_leader_off_board]


def test_coe_25_a_set_up_batch_keeps_every_invariant():
    Invariants.check(_set_up(), "setup")


@pytest.mark.parametrize("breaks", BREAKS, ids=lambda f: f.__name__)
def test_coe_2_4_each_broken_invariant_fails_in_its_game_only(breaks):
    e = _set_up()
    breaks(e)
    with pytest.raises(AssertionError):
        Invariants.check(e, "broken")
    Invariants.check(e, "the other games", games=[0, 2])


@pytest.mark.parametrize("breaks", BREAKS[:4] + BREAKS[-1:], ids=lambda f: f.__name__)
def test_coe_12_5_a_movement_action_checks_the_pieces_of_its_game(breaks):
    e = _set_up()
    breaks(e)
    with pytest.raises(AssertionError):
        Invariants.pieces(e, 1, "broken")
    Invariants.pieces(e, 0, "another game")


def _unled_step(e):
    """Game 1: one infantry of a colour steps from its home to a neighbour, no leader moved yet;
    (colour, its free leader, the mover, the neighbour, the state before)."""
    s = e.s
    before = s.land[1].copy(), s.ldr_loc[1].copy(), s.ldr_ship[1].copy()
    c, k = (int(x) for x in np.argwhere(s.ldr_state[1] == FREE)[0])
    home = int(s.ldr_loc[1, c, k])
    there = e.t.steps[home][0]
    s.land[1, c, home, 0] -= 1
    s.land[1, c, there, 0] += 1
    return c, k, int(s.owner[1, c]), there, before


def test_coe_11_1_land_units_arriving_need_a_leader_arriving():
    e = _set_up()
    c, k, mover, there, before = _unled_step(e)
    with pytest.raises(AssertionError, match="without a leader"):
        Invariants.led(e, 1, mover, *before)
    e.s.ldr_loc[1, c, k] = there
    Invariants.led(e, 1, mover, *before)


def test_coe_11_1_another_seat_s_leader_moving_leads_nobody_else_s_units():
    e = _set_up()
    c, _, mover, there, before = _unled_step(e)
    other = next(q for q in range(int(e.s.n_players[1])) if q != mover)
    oc = e.colours_of[1][other][0]
    ok = int(np.argwhere(e.s.ldr_state[1, oc] == FREE)[0][0])
    e.s.ldr_loc[1, oc, ok] = e.t.steps[int(e.s.ldr_loc[1, oc, ok])][0]      # he steps elsewhere
    with pytest.raises(AssertionError, match="without a leader of the mover"):
        Invariants.led(e, 1, mover, *before)
    with pytest.raises(AssertionError, match="without a leader of the mover"):
        Invariants.led(e, 1, other, *before)         # nor do the mover's units grow in another seat's action


def test_coe_6_6_a_road_trip_drop_off_needs_the_trip_s_leader_arriving():
    e = _set_up()
    c, k, mover, there, before = _unled_step(e)
    with pytest.raises(AssertionError, match="without a leader"):
        Invariants.led(e, 1, mover, *before, drops=(there,))
    e.s.ldr_loc[1, c, k] = next(q for q in range(e.t.n_prov) if q not in (there, before[1][c, k]))   # the trip's end
    Invariants.led(e, 1, mover, *before, drops=(there,))
