"""Who else stands in a province of Conquest of the Empire (COE-11.5), compiled with numba: the
players and the movement and battle steps ask tens of thousands of times a game
(`Engine.other_seat_at`, `Engine.others_at`). Its own module, so that the engine beside it can be
compiled as ordinary Python (sim.compiled)."""

from __future__ import annotations

import numpy as np
from numba import njit

from sim.conquest.state import FREE


@njit(cache=True)
def other_seat(land, owner, loc, state, ship, g, seat, p):
    """`Engine.other_seat_at` of game g: the first other seat's colour with land units or a free
    leader standing (not aboard) in province p, its seat; -1 when none."""
    if not 0 <= p < land.shape[2]:
        raise IndexError("not a province")          # compiled code does not check its indices
    for c in range(owner.shape[1]):
        o = owner[g, c]
        if o == seat or o < 0:
            continue
        if land[g, c, p, 0] or land[g, c, p, 1] or land[g, c, p, 2]:
            return o
        for i in range(loc.shape[2]):
            if loc[g, c, i] == p and state[g, c, i] == FREE and ship[g, c, i] < 0:
                return o
    return -1


@njit(cache=True)
def other_seats(land, owner, loc, state, ship, g, seat, spaces):
    """`other_seat` of each space."""
    out = np.empty(len(spaces), dtype=np.int64)
    for k in range(len(spaces)):
        out[k] = other_seat(land, owner, loc, state, ship, g, seat, spaces[k])
    return out
