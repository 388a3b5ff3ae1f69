"""The Age of Discovery engine: the round loop (AOD-4), `ask` (the only way a player's answer
gets in), the log and the `on_step` hook. The rules of each chapter are parts of the `Engine`
class: setup and the auction (`setup.py`, AOD-3, AOD-16), placement (`placement.py`, AOD-5),
the event boxes (`resolution.py`, AOD-6 to AOD-8), warfare (`conflicts.py`, AOD-9), capital
buildings (`buildings.py`, AOD-11.2/11.3, AOD-14) and the end-of-round steps and scoring
(`rounds.py`, AOD-11 to AOD-13).

The games of a batch advance phase by phase together (lockstep); inside a phase each game runs
plain Python. Players are injected through a `Roster`; every draw of game g comes from its own
streams `(root_seed, game_indices[g], purpose)`.
"""

from __future__ import annotations

import functools
import itertools
import operator
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from sim.core.interventions import Intervention, parse
from sim.core.lockstep import GameLog, RuleViolation, game_header
from sim.core.random import stream
from sim.core.seating import Seating
from sim.discovery.buildings import Buildings
from sim.discovery.components import Components
from sim.discovery.conflicts import Conflicts
from sim.discovery.placement import Placement
from sim.discovery.resolution import Resolution
from sim.discovery.rounds import Rounds
from sim.discovery.setup import Setup
from sim.discovery.state import BatchState, GameState, Tables
from sim.discovery.view import View

GAME = "discovery"
OPTIONS = ("start_order", "auction_compensation", "prosperity_counts_itself", "winner_tie", "specialists_persist",
           "overpopulation_single_region", "migration_moves_specialists", "cartography_when_map_done",
           "discovery_reveal_public", "cards_mid_resolution", "stables_needs_discovered",
           "indian_allies_needs_colonist", "dock_x_before_y", "first_to_three_counts_specialists",
           "tie_goods_count_ships", "conflict_may_decline", "university_moment", "piracy_counts",
           "piracy_short_payment", "building_units_at", "limited_supply", "force_saving")


class Engine(Setup, Placement, Resolution, Conflicts, Buildings, Rounds):
    """A batch of games: `play()` runs them to the end; `s` is the BatchState."""

    def __init__(self, comp: Components, seatings: Sequence[Seating], root_seed: int, game_indices: Sequence[int],
                 roster: Any, log: bool = False) -> None:
        self.comp, self.t = comp, Tables.of(comp)
        self.seatings, self.seed, self.game_indices = list(seatings), int(root_seed), [int(i) for i in game_indices]
        self.opts = {name: comp.option(name) for name in OPTIONS}
        self.rules = comp.data.get("rules")
        self.s = BatchState([])
        self.view = View(self.s, len(comp.tokens), len(comp.cards))
        self.logging = log
        self.logs: list[list[dict]] = [[] for _ in self.game_indices]
        self.capacities: list[list[int] | None] = []       # per game, the spaces of each box (placement.py)
        self.on_step: Callable[[Engine, int, str], None] | None = None
        self.rng: list[np.random.Generator | None] = [None] * len(self.game_indices)
        self.interventions: list[list[Intervention]] = []
        self.strategies: list[list[str]] = []
        for seating in self.seatings:
            parsed = [parse(spec) for spec in seating.strategies]
            self.strategies.append([name for name, _ in parsed])
            self.interventions.append([iv for _, iv in parsed])
        self.players = [[roster.make(name, self, g, p, functools.partial(stream, self.seed, gi, f"players{p}"))
                         for p, name in enumerate(self.strategies[g])]
                        for g, gi in enumerate(self.game_indices)]

    # ---- plumbing
    def draws(self, g: int) -> np.random.Generator:
        """Game g's stream for the draws after setup (goods, East India, the reshuffled deck)."""
        rng = self.rng[g]
        if rng is None:
            rng = self.rng[g] = stream(self.seed, self.game_indices[g], "draws")
        return rng

    def ask(self, g: int, p: int, decision: str, choices, *args):
        """Seat p's answer to one decision of AOD-21, checked against the legal choices."""
        answer = getattr(self.players[g][p], decision)(choices, *args)
        if hasattr(choices, "allows"):
            legal = choices.allows(answer)
        else:                                    # identity first: most choices are shared instances
            legal = any(map(operator.is_, choices, itertools.repeat(answer))) or answer in choices
        if not legal:
            raise RuleViolation(f"game {self.game_indices[g]}, seat {p}, {decision}: {answer!r} is not legal")
        return answer

    def log(self, g: int, event: str, **fields) -> None:
        if self.logging:
            self.logs[g].append({"event": event, "round": self.s.games[g].round, **fields})

    def step(self, g: int, where: str) -> None:
        if self.on_step is not None:
            self.on_step(self, g, where)

    def game_logs(self) -> list[GameLog]:
        return [(game_header(GAME, self.seed, gi, seating), events)
                for gi, seating, events in zip(self.game_indices, self.seatings, self.logs)]

    def game(self, g: int) -> GameState:
        return self.s.games[g]

    # ---- the round loop (AOD-4)
    def play(self) -> None:
        """AOD-4.1 / AOD-4.2: setup, then 8 rounds of steps A-J; final scoring after round 8."""
        self.setup()
        games = range(len(self.s.games))
        rounds = int(self.rules["game"]["rounds"])
        for r in range(1, rounds + 1):
            for g in games:
                self.placement(g)
            for g in games:
                self.resolution(g)
            self.income(list(games), last=r == rounds)
            for g in games:
                self.end_of_round(g, last=r == rounds)
        for g in games:
            self.final_scoring(g)
