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
            self.pieces(engine, g, f"after {action}")

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
    def pieces(e: Engine, g: int, where: str) -> None:
        """What a movement action changes (COE-11, COE-12): land units within the supplies and
        never negative, galley cargo <= 7 with a leader aboard, free leaders on the board. The
        rest (buildings, treasuries, control, eliminations) no movement action touches: `check`
        reads it after every engine step."""
        s, t = e.s, e.t
        land, cargo = s.land[g], s.gal_cargo[g]
        assert (land >= 0).all() and (cargo >= 0).all() and (s.ready[g] >= 0).all(), where
        on_board = land.sum(axis=1) + cargo.sum(axis=1)                        # (colours, 3)
        assert (on_board <= np.array(t.limits[:3])).all(), f"land units beyond a colour's supply: {where}"
        aboard = cargo.sum(axis=2)
        assert (aboard <= t.capacity).all(), f"galley cargo above {t.capacity}: {where}"
        free = s.ldr_state[g] == FREE
        if aboard.any():
            ships = set(s.ldr_ship[g][free].tolist())
            for c, k in zip(*np.nonzero(aboard > 0)):
                assert c * s.gal_loc.shape[2] + k in ships, f"land units aboard a galley without a leader: {where}"
        assert (s.ldr_loc[g][free] >= 0).all(), where

    @staticmethod
    def check(e: Engine, where: str, games: list[int] | None = None) -> None:
        s, t = e.s, e.t
        for g in range(len(s.n_players)) if games is None else games:
            Invariants.pieces(e, g, where)
            assert s.city[g].sum() <= t.pools["city"] and s.fort[g].sum() <= t.pools["fortification"], where
            assert s.road[g].sum() <= t.pools["road"], where
            assert not (s.fort[g] & ~s.city[g]).any(), f"a Fortification without its City (COE-6.4): {where}"
            assert (s.treasury[g] >= 0).all(), f"negative treasury (COE-20.4): {where}"
            n = int(s.n_players[g])
            assert ((s.control[g] >= NEUTRAL) & (s.control[g] < n)).all(), where
            for q in range(n):
                if not s.alive[g, q]:
                    assert not (s.control[g] == q).any(), f"eliminated seat {q} controls provinces: {where}"
                    assert not (s.owner[g] == q).any(), f"eliminated seat {q} commands pieces: {where}"
                    assert s.treasury[g, q] == 0, where
                    held = (s.ldr_state[g] == CAPTIVE) & (s.ldr_holder[g] == q)
                    assert not held.any(), f"eliminated seat {q} holds captives: {where}"
            free = s.ldr_state[g] == FREE
            assert (s.owner[g][:, None].repeat(LEADERS, axis=1)[free] >= 0).all(), where


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
