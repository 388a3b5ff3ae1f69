"""Players of A Few Acres of Snow: the decision protocol of AFS-21 and the random-legal baseline;
`play.make_player` is the factory.

A player serves one side of one game. The engine asks it for its turn's actions (AFS-21 items
1-19, one `choose_action` per action or free action) and, on the opponent's turn, for its
reactions (items 20-24: block a raid, block an ambush, which vulnerable card or which neutral
Native Americans card to give up, which siege card to lose), plus the captured location's cube
(item 9) and Scen13's extra starting card. It reads the game through `engine.view` (no opponent
hand, no deck order) and answers with actions of sim.acres.actions or card numbers from the
options it was given; the engine checks every answer.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

import numpy as np

from sim.acres.actions import Action, LeaveNeutral, Occupy
from sim.acres.choices import Choices


@functools.cache
def strategies() -> tuple[str, ...]:
    """The names of the scripted strategies of data/strategies.toml."""
    text = resources.files("sim.acres").joinpath("data/strategies.toml").read_text("utf-8")
    return tuple(sorted(tomllib.loads(text)))


class SeatPlayer(Protocol):
    """The decisions of AFS-21, one method each."""

    g: int
    side: int

    def choose_action(self, choices: Choices) -> Action: ...                      # items 1-19
    def block_raid(self, location: int, options: list[int]) -> int | None: ...    # item 20
    def block_ambush(self, options: list[int]) -> int | None: ...                 # item 21
    def give_up_ambush(self, options: list[int]) -> int: ...                      # item 22
    def give_up_native(self, options: list[int]) -> int: ...                      # item 23
    def siege_loss_card(self, options: list[int]) -> int: ...                     # item 24
    def occupy(self, location: int, options: list[Occupy | LeaveNeutral]) -> Occupy | LeaveNeutral: ...  # item 9
    def start_card(self, options: list[int]) -> int: ...                          # Scen13
    def shed(self, options: list[int]) -> int: ...                                # Scen0, Scen5: a card to discard
    def cycle_after_siege(self) -> bool: ...                                      # Scen5: cycle a card?


@dataclass(frozen=True)
class Roster:
    """How the engine seats players: `make(strategy, engine, g, side, rng)` per side."""

    make: Callable[..., SeatPlayer]


class Player:
    """Common plumbing: the engine's view and a lazily made random stream."""

    def __init__(self, engine, g: int, side: int, rng) -> None:
        self.e, self.view, self.g, self.side, self._rng = engine, engine.view, g, side, rng

    @property
    def rng(self) -> np.random.Generator:
        if callable(self._rng):
            self._rng = self._rng()
        return self._rng

    def pick(self, items: list) -> Any:
        return items[int(self.rng.integers(len(items)))]


class RandomPlayer(Player):
    """The random-legal baseline: an action kind uniformly among those with a legal choice, then
    one of its choices uniformly; each reaction uniformly among its options (blocking or not
    counted as options)."""

    def choose_action(self, choices: Choices) -> Action:
        kinds = list(choices.kinds())
        while True:                    # a uniform kind among the untried, until one has a choice
            kind = kinds.pop(int(self.rng.integers(len(kinds))))
            options = choices.list(kind)
            if options:
                return self.pick(options)

    def block_raid(self, location: int, options: list[int]) -> int | None:
        return self.pick([None, *options])

    def block_ambush(self, options: list[int]) -> int | None:
        return self.pick([None, *options])

    def give_up_ambush(self, options: list[int]) -> int:
        return self.pick(options)

    def give_up_native(self, options: list[int]) -> int:
        return self.pick(options)

    def siege_loss_card(self, options: list[int]) -> int:
        return self.pick(options)

    def occupy(self, location: int, options: list) -> Occupy | LeaveNeutral:
        return self.pick(options)

    def start_card(self, options: list[int]) -> int:
        return self.pick(options)

    def shed(self, options: list[int]) -> int:
        return self.pick(options)

    def cycle_after_siege(self) -> bool:
        return bool(self.pick([False, True]))
