"""The Conquest of the Empire engine's own invariants and its hooks for the conformance suite
(sim.core.conformance): games played with the invariants checked after every engine step, and a
seat's talents after setup (for the grant check). The game has no hidden information (COE-14.1,
COE-A4: formations are open), so there is no `scrambled_games`.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence

import numpy as np
import pandas as pd
from numba import njit

from sim.conquest.engine import Engine
from sim.conquest.play import BATCH, EXTRA_COLUMNS, components_of, new_engine, results_frame
from sim.conquest.state import CAPTIVE, FREE, NEUTRAL
from sim.core.lockstep import play_in_batches
from sim.core.seating import RESULT_COLUMNS, Seating

ASSET_COLUMN = "assets"   # the pieces each seat bought (sim.core.conformance)
STEP_CAP = 300            # engine steps (one turn of every unfinished game) of one batch: 40 rounds x 6 seats, and slack for --set


class Invariants:
    """Checked after every engine step (`Engine.on_step`), and what a movement action changes
    around every one (`pieces`):
    pieces within each colour's supply and the shared pools (COE-2.4), no land unit moved
    without a leader (COE-11.1), galley cargo <= 7 with a leader aboard (COE-12.5), treasury
    >= 0 (COE-20.4), each province controlled by at most one seat (COE-17) and an eliminated
    seat owning nothing (COE-25.2)."""

    def __init__(self, engine: Engine, step_cap: int = STEP_CAP) -> None:
        self.steps, self.step_cap = 0, step_cap
        original = engine.apply

        def apply(g, p, action):
            s = engine.s
            before = (s.land[g].copy(), s.ldr_loc[g].copy(), s.ldr_ship[g].copy())
            original(g, p, action)
            self.led(engine, g, p, *before, drops=tuple(q for q, _ in getattr(action, "drops", ())))
            self.pieces(engine, g, _After(action))

        engine.apply = apply

    @staticmethod
    def led(e: Engine, g: int, mover: int, land: np.ndarray, loc: np.ndarray, ship: np.ndarray,
            drops: tuple[int, ...] = ()) -> None:
        """COE-11.1 / COE-12.6: land units that arrived anywhere in a movement action are the
        mover's and came with one of his leaders who arrived there (stepped, rode or went ashore)
        in that action; at a road trip's drop-offs (COE-6.6, COE-E2) with one of his leaders
        arriving at its end."""
        s = e.s
        mine = np.zeros(s.land.shape[1], dtype=np.bool_)
        mine[e.colours_of[g][mover]] = True
        grew = _unled(s.land[g], land, s.ldr_loc[g], loc, s.ldr_ship[g], ship, s.ldr_state[g], mine,
                      np.array(drops, dtype=np.int64))
        assert grew < 0, f"land units entered {e.t.names[grew]} without a leader of the mover (COE-11.1)"

    def __call__(self, e: Engine, where: str) -> None:
        self.steps += 1
        assert self.steps <= self.step_cap, f"more than {self.step_cap} steps: the game does not end"
        self.check(e, where)

    @staticmethod
    def pieces(e: Engine, g: int, where: str | _After) -> None:
        """What a movement action changes (COE-11, COE-12): land units within the supplies and
        never negative, galley cargo <= 7 with a leader aboard, free leaders on the board. The
        rest (buildings, treasuries, control, eliminations) no movement action touches: `check`
        reads it after every engine step."""
        _pieces(e, slice(g, g + 1), where)

    @staticmethod
    def check(e: Engine, where: str, games: list[int] | None = None) -> None:
        """Every invariant in every game (or `games`), each read over the batch at once."""
        s, t = e.s, e.t
        sel = slice(None) if games is None else np.asarray(games, dtype=np.int64)
        _pieces(e, sel, where)
        city, fort = s.city[sel], s.fort[sel]
        assert (city.sum(axis=1) <= t.pools["city"]).all() and (fort.sum(axis=1) <= t.pools["fortification"]).all(), where
        assert (s.road[sel].sum(axis=1) <= t.pools["road"]).all(), where
        assert not (fort & ~city).any(), f"a Fortification without its City (COE-6.4): {where}"
        treasury, control, owner = s.treasury[sel], s.control[sel], s.owner[sel]
        assert treasury.min() >= 0, f"negative treasury (COE-20.4): {where}"
        n = s.n_players[sel][:, None]
        assert control.min() >= NEUTRAL and (control < n).all(), where
        dead = ~s.alive[sel] & (np.arange(s.alive.shape[1])[None, :] < n)
        if dead.any():
            assert not _held_by(dead, control).any(), f"eliminated seat {_seats(dead, control)} controls provinces: {where}"
            assert not _held_by(dead, owner).any(), f"eliminated seat {_seats(dead, owner)} commands pieces: {where}"
            assert not treasury[dead].any(), where
            captive = s.ldr_state[sel] == CAPTIVE
            holder = np.where(captive, s.ldr_holder[sel], -1).reshape(len(dead), -1)
            assert not _held_by(dead, holder).any(), f"eliminated seat {_seats(dead, holder)} holds captives: {where}"
        free = s.ldr_state[sel] == FREE
        assert not (free & (owner[:, :, None] < 0)).any(), where


class _After:
    """Where a movement action's check failed, formatted only then (most actions pass)."""

    def __init__(self, action) -> None:
        self.action = action

    def __str__(self) -> str:
        return f"after {self.action}"


def _pieces(e: Engine, sel: slice | np.ndarray, where: str | _After) -> None:
    """`Invariants.pieces` over the games `sel` at once (one compiled pass: a movement action
    is checked this way thousands of times a game, and numpy's calls on such tiny arrays cost
    far more than the loops)."""
    s, t = e.s, e.t
    broken = _broken_piece(s.land[sel], s.gal_cargo[sel], s.ready[sel], s.ldr_state[sel], s.ldr_ship[sel],
                           s.ldr_loc[sel], np.asarray(t.limits[:3], dtype=np.int64), t.capacity)
    assert not broken, f"{_BROKEN[broken].format(capacity=t.capacity)}: {where}"


@njit(cache=True)
def _arrived(loc, loc_before, ship, ship_before, state, c, i):
    """Whether leader i of colour c arrived standing in this action (stepped, rode or went ashore)."""
    return ship[c, i] < 0 and state[c, i] == FREE and not (loc_before[c, i] == loc[c, i] and ship_before[c, i] < 0)


@njit(cache=True)
def _unled(land, land_before, loc, loc_before, ship, ship_before, state, mine, drops):
    """`Invariants.led` in one compiled pass: the first province whose land units grew that no
    leader of the mover (colours `mine`) arrived in, or where another seat's units grew; a
    drop-off province needs one of his leaders arriving anywhere; -1 when none."""
    colours, spaces, kinds = land.shape
    leaders = state.shape[1]
    arrived_any = False
    for c in range(colours):
        for i in range(leaders):
            if mine[c] and _arrived(loc, loc_before, ship, ship_before, state, c, i):
                arrived_any = True
    for q in range(spaces):
        grew = False
        for c in range(colours):
            for u in range(kinds):
                if land[c, q, u] > land_before[c, q, u]:
                    if not mine[c]:
                        return q
                    grew = True
        if not grew:
            continue
        led = False
        for d in drops:
            if d == q and arrived_any:
                led = True
        for c in range(colours):
            for i in range(leaders):
                if mine[c] and loc[c, i] == q and _arrived(loc, loc_before, ship, ship_before, state, c, i):
                    led = True
        if not led:
            return q
    return -1


NEGATIVE, SUPPLY, CARGO, UNMANNED, OFF_BOARD = 1, 2, 3, 4, 5
_BROKEN = {NEGATIVE: "negative land units or movement points", SUPPLY: "land units beyond a colour's supply",
           CARGO: "galley cargo above {capacity}", UNMANNED: "land units aboard a galley without a leader",
           OFF_BOARD: "a free leader off the board"}


@njit(cache=True)
def _broken_piece(land, cargo, ready, state, ship, loc, limits, capacity):
    """The first broken piece invariant (a code above) of any game, 0 when none: land units and
    movement points never negative, each colour's units on the board and aboard within its
    supply (COE-2.4), cargo <= capacity with a free leader aboard (COE-12.5), free leaders on
    the board. Galley k of colour c is `c * galleys + k` in `ship`."""
    games, colours, spaces, kinds = land.shape
    galleys, leaders = cargo.shape[2], state.shape[2]
    for g in range(games):
        for x in ready[g].flat:
            if x < 0:
                return NEGATIVE
        for c in range(colours):
            for u in range(kinds):
                total = 0
                for q in range(spaces):
                    if land[g, c, q, u] < 0:
                        return NEGATIVE
                    total += land[g, c, q, u]
                for k in range(galleys):
                    if cargo[g, c, k, u] < 0:
                        return NEGATIVE
                    total += cargo[g, c, k, u]
                if total > limits[u]:
                    return SUPPLY
            for k in range(galleys):
                aboard = 0
                for u in range(kinds):
                    aboard += cargo[g, c, k, u]
                if aboard > capacity:
                    return CARGO
                if aboard > 0:
                    manned = False
                    for c2 in range(colours):
                        for i in range(leaders):
                            if state[g, c2, i] == FREE and ship[g, c2, i] == c * galleys + k:
                                manned = True
                    if not manned:
                        return UNMANNED
            for i in range(leaders):
                if state[g, c, i] == FREE and loc[g, c, i] < 0:
                    return OFF_BOARD
    return 0


def _held_by(dead: np.ndarray, seat: np.ndarray) -> np.ndarray:
    """Per entry of `seat` (games, k; -1 for none): whether it names an eliminated seat."""
    return (seat >= 0) & np.take_along_axis(dead, np.maximum(seat, 0), axis=1)


def _seats(dead: np.ndarray, seat: np.ndarray) -> list[int]:
    """The eliminated seats named in `seat` (for a failure's message)."""
    g, k = np.nonzero(_held_by(dead, seat))
    return sorted(set(seat[g, k].tolist()))


def check_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating], data=None,
                step_cap: int = STEP_CAP) -> pd.DataFrame:
    """`play_games` with the invariants checked after every step and every movement action
    (AssertionError when one breaks, RuleViolation for an illegal choice)."""
    comp = components_of(data)

    def watch(e: Engine) -> None:
        e.on_step = Invariants(e, step_cap)

    return play_in_batches(root_seed, game_indices, seatings, BATCH, functools.partial(new_engine, comp), results_frame,
                           [*RESULT_COLUMNS, *EXTRA_COLUMNS], prepare=watch)


def start_resources(root_seed: int, game_index: int, seating: Seating, data=None) -> dict[str, list[int]]:
    """Each seat's talents after setup (COE-8.6, COE-A29), grants included."""
    e = new_engine(components_of(data), [seating], root_seed, [game_index])
    e.setup()
    return {"talents": e.s.treasury[0, : seating.players].tolist()}
