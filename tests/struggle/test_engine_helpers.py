"""Hand-built Struggle of Empires positions for engine tests: an engine with no setup, stub
players that answer from scripts, and fixed dice."""

from __future__ import annotations

import numpy as np

from sim.core.seating import Seating
from sim.struggle.components import default_components
from sim.struggle.engine import Engine
from sim.struggle.play import new_engine
from sim.struggle.players import Roster
from sim.struggle.scripted import ScriptedWork
from sim.struggle.state import LOWER, UPPER


def pair(a: int, b: int) -> int:
    """Index 0..35 of a roll of two dice (sim.core.dice tables)."""
    return (a - 1) * 6 + (b - 1)


def duel(att: tuple[int, int], dfn: tuple[int, int]) -> int:
    """Duel index 0..1295: attacker pair * 36 + defender pair."""
    return pair(*att) * 36 + pair(*dfn)


class Fixed:
    """A dice buffer returning scripted values."""

    def __init__(self, values):
        self.values = list(values)

    def next(self) -> int:
        return self.values.pop(0)


class Stub:
    """A player whose answers are set by the test (defaults: decline, commit everything)."""

    def __init__(self, name, engine, g, seat, rng):
        self.e, self.g, self.p = engine, g, seat
        self.bids: list = []
        self.naval = True
        self.commit = None
        self.refuse = False
        self.blockade = False
        self.symbol = None

    def alliance_symbol(self, attack, land):
        return self.symbol

    def bid(self, current, proposal, unallied):
        return self.bids.pop(0) if self.bids else (None, None)

    def help(self, ally, opp, region, armies, fleets, attacker_side):
        return (armies, fleets) if self.commit is None else self.commit

    def fight_naval(self, attack, mine, theirs, as_attacker):
        return self.naval

    def refuse_battle(self, attack, res):
        return self.refuse

    def use_blockade_defence(self, attack):
        return self.blockade


def blank(powers, rows=None, war: int = 1, comp=None, player=Stub):
    """An engine for one game with the given powers (seat order), no setup done: tiles on the
    display, 10 gold and 5 population each, alliance rows as given (default alternating);
    `comp`: components with overrides (default data when None); `player`: the players' class."""
    comp = comp if comp is not None else default_components()
    seating = Seating(tuple(powers), ("random",) * len(powers))
    e = new_engine(comp, [seating], 1, [0], log=True, roster=Roster(player, work=ScriptedWork))
    s = e.s
    s.dev_display[0] = e.t.dev_copies
    n = len(powers)
    s.gold[0, :n] = 10
    s.population[0, :n] = 5
    rows = rows if rows is not None else [UPPER if i % 2 == 0 else LOWER for i in range(n)]
    s.row[0, :n] = rows
    s.turn_order[0, :n] = np.arange(n)
    s.war = war
    e.refresh_rows()
    return e


def seat_of(e: Engine, power: str) -> int:
    return list(e.seatings[0].powers).index(power)


def region(e: Engine, key: str) -> int:
    return e.t.region(key)


def give_tile(e: Engine, seat: int, key: str, copies: int = 1) -> None:
    k = e.k[key]
    e.s.dev_owned[0, seat, k] += copies
    e.s.dev_display[0, k] -= copies
