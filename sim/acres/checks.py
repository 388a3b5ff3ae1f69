"""The A Few Acres of Snow engine's invariants and its hooks for the conformance suite
(sim.core.conformance): games with the invariants checked after every step (AFS issue item 7),
games with the other side's hidden cards scrambled around every decision, and each seat's
money after setup (for the grant check).
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence

import numpy as np
import pandas as pd

from sim.acres.actions import (
    Besiege,
    Develop,
    Fortify,
    FurCoin,
    FurTrade,
    Piracy,
    PlayLeader,
    Raid,
    Reinforce,
    SeaTrade,
    Settle,
    TakeMoney,
)
from sim.acres.engine import Engine
from sim.acres.interventions import asset_power as _asset_power
from sim.acres.play import ROSTER, new_engine, play_with, rulebook_of
from sim.acres.players import Roster
from sim.core.seating import Seating

ASSET_COLUMN = "cards"   # each seat's acquired cards and neutral locations (sim.core.conformance)
STEP_CAP = 6000          # steps of one game: the turn limit (400) x (siege check + actions + refill)
DECISIONS = ("choose_action", "block_raid", "block_ambush", "give_up_ambush", "give_up_native",
             "siege_loss_card", "occupy", "start_card", "shed", "cycle_after_siege")
PLAYED_LOCATIONS = {Settle: ("via", "transport", "settler"), Develop: ("card", "settler"),
                    Fortify: ("card",), Besiege: ("via", "transport", "military"), Reinforce: ("card",),
                    PlayLeader: ("card",), TakeMoney: ("card",), SeaTrade: ("ship", "cards"),
                    FurTrade: ("furs",), Piracy: ("louisbourg", "ship"), Raid: ("cards",), FurCoin: ("card",)}


class Invariants:
    """Checked after every step (`Engine.on_step`): every card in exactly one place (AFS-2.6);
    cubes, discs and forts conserved (AFS-1.1, AFS-1.2); money >= 0; at most one siege per side
    (AFS-8.3.1), each at an enemy location; and (wrapping `apply`) only playable location cards
    played (AFS-6.1)."""

    def __init__(self, engine: Engine, step_cap: int = STEP_CAP) -> None:
        self.steps = [0] * len(engine.seatings)
        self.step_cap = step_cap
        self.n_cards = engine.t.n_cards
        book = engine.book
        self.cubes, self.discs, self.forts = book.cubes, book.discs, book.forts
        original = engine.apply

        def apply(g, side, action, left):
            for name in PLAYED_LOCATIONS.get(type(action), ()):
                value = getattr(action, name)
                for c in value if isinstance(value, tuple) else (value,):
                    if c is not None and engine.t.kind[c].is_location:
                        assert engine.playable(g, side, c), f"unplayable location card played: {action}"
            return original(g, side, action, left)

        engine.apply = apply

    def __call__(self, e: Engine, g: int, where: str) -> None:
        s = e.s
        self.steps[g] += 1
        assert self.steps[g] <= self.step_cap, f"more than {self.step_cap} steps: the game does not end"
        cards = [c for zone in s.zones(g) for c in zone]
        assert len(cards) == self.n_cards and len(set(cards)) == self.n_cards, f"{where}: cards lost or doubled"
        control, town = s.control[g], s.town[g]
        for side in (0, 1):
            villages = sum(1 for i, c in enumerate(control) if c == side + 1 and not town[i])
            towns = sum(1 for i, c in enumerate(control) if c == side + 1 and town[i])
            lost_cubes, lost_discs = s.captured[g][1 - side]
            assert s.cubes[g][side] + villages + lost_cubes == self.cubes[side], f"{where}: cubes not conserved"
            assert s.discs[g][side] + towns + lost_discs == self.discs[side], f"{where}: discs not conserved"
            assert s.cubes[g][side] >= 0 and s.discs[g][side] >= 0 and s.money[g][side] >= 0, where
            loc = s.siege_loc[g][side]
            assert loc < 0 or control[loc] == 2 - side, f"{where}: a siege of a location the defender lost"
        assert s.forts_left[g] + sum(s.fort[g]) == self.forts, f"{where}: forts not conserved"
        assert len(s.reserve[g][0]) <= e.reserve_limit and len(s.reserve[g][1]) <= e.reserve_limit, where


def check_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating], data=None,
                step_cap: int = STEP_CAP) -> pd.DataFrame:
    """`play_games` with the invariants checked after every step."""
    return play_with(root_seed, game_indices, seatings, data, watch=lambda e: Invariants(e, step_cap))


def scrambled_games(root_seed: int, game_indices: Sequence[int], seatings: Sequence[Seating], data=None,
                    log=None) -> pd.DataFrame:
    """`play_games` with the other side's hand and draw pile (AFS-2.6: hidden) reshuffled
    together around each decision and restored after it."""
    return play_with(root_seed, game_indices, seatings, data, log,
                     roster=scrambling(ROSTER, np.random.default_rng(20261201)))


def asset_power(data=None) -> dict[str, str]:
    """The side the intervention check seats first for each asset (sim.core.conformance)."""
    return _asset_power(rulebook_of(data).tables)


def start_resources(root_seed: int, game_index: int, seating: Seating, data=None) -> dict[str, list[int]]:
    """Each seat's money after setup (AFS-4.5), grants included."""
    e = new_engine(rulebook_of(data), [seating], root_seed, [game_index])
    e.setup()
    return {"money": [e.s.money[0][0 if p == "british" else 1] for p in seating.powers]}


@contextlib.contextmanager
def _hidden_changed(e: Engine, g: int, side: int, noise: np.random.Generator):
    """Deal the opponent's hand and draw pile anew from their union, then put them back."""
    s = e.s
    foe = 1 - side
    hand, pile = s.hand[g][foe], s.draw[g][foe]
    saved = (list(hand), list(pile))
    union = saved[0] + saved[1]
    order = noise.permutation(len(union))
    mixed = [union[i] for i in order]
    hand[:], pile[:] = mixed[:len(hand)], mixed[len(hand):]
    try:
        yield
    finally:
        hand[:], pile[:] = saved


def scrambling(roster: Roster, noise: np.random.Generator) -> Roster:
    """The roster's players with the opponent's hidden cards scrambled around each decision."""

    def make(strategy, engine, g, side, rng):
        player = roster.make(strategy, engine, g, side, rng)
        for name in DECISIONS:
            setattr(player, name, _around(getattr(player, name), engine, g, side, noise))
        return player

    return Roster(make=make)


def _around(method, engine, g, side, noise):
    @functools.wraps(method)
    def decide(*args, **kwargs):
        with _hidden_changed(engine, g, side, noise):
            return method(*args, **kwargs)
    return decide
