"""The decision protocol of AOD-21 (`SeatPlayer`), the random-legal player and the `Roster`.

One method per decision; each gets the legal choices the engine computed and returns one of
them (sim.discovery.actions; `None` passes where allowed). A player reads the game only through
`engine.view` (sim.discovery.view), never the engine's state.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from sim.discovery.actions import Battle, Bid, Expedition, Move, Place, UseUniversity, War
from sim.discovery.choices import ExpeditionChoices, VictimChoices


class SeatPlayer(Protocol):
    """AOD-21 D1-D10 (D11 and D12 need no decision: the engine takes the best sets)."""

    def bid(self, choices: list[Bid | None], high: int) -> Bid | None: ...                         # D1
    def auction_specialist(self, choices: list[int]) -> int: ...                                   # D1
    def caribbean_colonist(self, choices: list[bool]) -> bool: ...                                 # D1
    def place(self, choices: list[Place]) -> Place: ...                                            # D2
    def university(self, choices: list[UseUniversity | None]) -> UseUniversity | None: ...         # D6
    def dock_destination(self, choices: list[int], unit: int) -> int: ...                          # D3
    def take_good(self, choices: list[int]) -> int: ...                                            # D4
    def buy_building(self, choices: list[int | None]) -> int | None: ...                           # D5
    def building_region(self, choices: list[int], building: str) -> int: ...                       # D6
    def expedition(self, choices: ExpeditionChoices) -> Expedition | None: ...                     # D7
    def train(self, choices: list[int | None]) -> int | None: ...                                  # D8
    def conflict(self, choices: list[Battle | War | None]) -> Battle | War | None: ...             # D9
    def victims(self, choices: VictimChoices, region: int, enemy: int) -> tuple[int, ...]: ...     # D9
    def move(self, choices: list[Move | None], building: str) -> Move | None: ...                  # D10


@dataclass(frozen=True)
class Roster:
    """How the engine seats its players: `make(strategy, engine, g, seat, rng)` per seat."""

    make: Callable[..., Any]


class Player:
    """Common plumbing: the seat, its lazily made random stream and the view."""

    def __init__(self, engine: Any, g: int, seat: int, rng) -> None:
        self.view, self.g, self.p, self._rng = engine.view, g, seat, rng

    @property
    def rng(self) -> np.random.Generator:
        if callable(self._rng):
            self._rng = self._rng()
        return self._rng

    def pick(self, choices: list):
        return choices[int(self.rng.integers(len(choices)))]


class RandomPlayer(Player):
    """The random-legal baseline: every decision uniform over its legal choices (an expedition:
    pass or go with equal chance, then each unit type's count uniform, then the target)."""

    def bid(self, choices, high):
        return self.pick(choices)

    def auction_specialist(self, choices):
        return self.pick(choices)

    def caribbean_colonist(self, choices):
        return self.pick(choices)

    def place(self, choices):
        return self.pick(choices)

    def university(self, choices):
        return self.pick(choices)

    def dock_destination(self, choices, unit):
        return self.pick(choices)

    def take_good(self, choices):
        return self.pick(choices)

    def buy_building(self, choices):
        return self.pick(choices)

    def building_region(self, choices, building):
        return self.pick(choices)

    def expedition(self, choices):
        if self.rng.integers(2) == 0:
            return None
        while True:
            party = tuple(int(self.rng.integers(k + 1)) for k in choices.units)
            if sum(party):
                return Expedition(party, self.pick(list(choices.targets)))

    def train(self, choices):
        return self.pick(choices)

    def conflict(self, choices):
        return self.pick(choices)

    def victims(self, choices, region, enemy):
        pool = [u for u, k in enumerate(choices.units) for _ in range(k)]
        chosen = self.rng.permutation(len(pool))[:choices.kills]
        losses = [0] * len(choices.units)
        for i in chosen:
            losses[pool[int(i)]] += 1
        return tuple(losses)

    def move(self, choices, building):
        return self.pick(choices)
