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

from sim.conquest.engine import Engine
from sim.conquest.play import BATCH, EXTRA_COLUMNS, components_of, new_engine, results_frame
from sim.conquest.state import CAPTIVE, FREE, LEADERS, NEUTRAL
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
            self.led(engine, g, *before)
            self.pieces(engine, g, _After(action))

        engine.apply = apply

    @staticmethod
    def led(e: Engine, g: int, land: np.ndarray, loc: np.ndarray, ship: np.ndarray) -> None:
        """COE-11.1 / COE-12.6: land units that arrived anywhere came with a leader who arrived
        (stepped, rode or went ashore) in that action."""
        s = e.s
        grew = np.flatnonzero((s.land[g] > land).any(axis=(0, 2)))
        if not len(grew):
            return
        standing = (s.ldr_ship[g] < 0) & (s.ldr_state[g] == FREE)
        arrived = standing & ~((loc == s.ldr_loc[g]) & (ship < 0))
        assert arrived.any(), f"land units entered {[e.t.names[q] for q in grew]} without a leader (COE-11.1)"

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


def _pieces(e: Engine, sel, where: str | _After) -> None:
    """`Invariants.pieces` over the games `sel` (a slice or indices) at once."""
    s, t = e.s, e.t
    land, cargo = s.land[sel], s.gal_cargo[sel]
    assert land.min() >= 0 and cargo.min() >= 0 and s.ready[sel].min() >= 0, where
    on_board = land.sum(axis=2) + cargo.sum(axis=2)                        # (games, colours, 3)
    assert (on_board <= np.array(t.limits[:3])).all(), f"land units beyond a colour's supply: {where}"
    aboard = cargo.sum(axis=3)                                             # (games, colours, galleys)
    assert aboard.max() <= t.capacity, f"galley cargo above {t.capacity}: {where}"
    free = s.ldr_state[sel] == FREE
    ship = s.ldr_ship[sel]
    if aboard.any():
        manned = np.zeros((len(aboard), aboard.shape[1] * aboard.shape[2]), dtype=bool)
        gi, ci, li = np.nonzero(free & (ship >= 0))
        manned[gi, ship[gi, ci, li]] = True
        assert not ((aboard.reshape(manned.shape) > 0) & ~manned).any(), \
            f"land units aboard a galley without a leader: {where}"
    assert not (free & (s.ldr_loc[sel] < 0)).any(), where


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
