"""Players of Conquest of the Empire: the decision protocol (COE-32, one method per decision,
the defender's decisions on another player's turn included), the random-legal baseline and the
`Roster` the engine is given; `play.make_player` is the factory.

A player serves one seat of one game. It reads the open board through `engine.view` and the
legal choices the engine hands it, and answers; the engine validates every answer.
"""

from __future__ import annotations

import functools
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from importlib import resources
from typing import Any, Protocol

from sim.conquest.actions import Board, Buy, Disembark, EndMovement, MoveAction, Ransom, RoadTrip, Sail, Step
from sim.conquest.battle import Fight, NavalChoice
from sim.conquest.choices import Choices

Units = tuple[int, int, int]
Retreat = tuple[int, Units, tuple[int, ...]]    # a retreating group: destination, units, leaders


@functools.cache
def strategies() -> tuple[str, ...]:
    """The names of the scripted strategies of data/strategies.toml."""
    text = resources.files("sim.conquest").joinpath("data/strategies.toml").read_text("utf-8")
    return tuple(sorted(tomllib.loads(text)))


STRATEGIES = ("random",) + strategies()


class SeatPlayer(Protocol):
    """The decisions of COE-32, one method each."""

    g: int
    p: int

    def move(self, choices: Choices) -> MoveAction: ...                          # phase 1 (COE-11, 12)

    def battle_order(self, pending: list[tuple[str, int, int]]) -> int: ...      # COE-13.3

    def fight_naval(self, zone: int, opponent: int, mine: int, theirs: int) -> NavalChoice: ...   # COE-13.4

    def formation(self, fight: Fight, seat: int, size: int) -> Units: ...        # COE-14.1

    def casualties(self, fight: Fight, seat: int, formation: Units, hits: int) -> Units: ...   # COE-14.4

    def retreat(self, fight: Fight, seat: int, options: list[int]) -> int | None: ...   # COE-14.5, 16.4

    def pursuit(self, fight: Fight, fleeing: Units, hits: int) -> Units: ...     # COE-16.2

    def retreat_split(self, fight: Fight, seat: int, units: Units, leaders: list[int], options: list[int],
                      where: int) -> list[Retreat]: ...                           # COE-A22 alternative

    def hold_captive(self, leader: int) -> bool: ...                             # COE-5.5: hold, or kill

    def execute_captives(self, held: list[int]) -> list[int]: ...                # COE-A25 alternative

    def surrender(self, options: list[int]) -> int | None: ...                   # COE-A41 option

    def sink(self, zone: int, galleys: list[int], hits: int) -> list[int]: ...   # COE-15.3

    def raze(self, options: list[int]) -> int | None: ...                        # COE-19

    def buy(self, options: list[Buy], bought: list[Buy]) -> Buy | None: ...      # COE-20

    def ransom(self, options: list[tuple[int, int]], treasury: int,
               swaps: dict[int, list[int]]) -> Ransom | None: ...                # COE-23

    def accept_ransom(self, leader: int, talents: int, offerer: int, swap: int) -> bool: ...  # COE-23, as captor


class NoWork:
    """For players that need no batch-wide preparation."""

    def __init__(self, engine: Any) -> None:
        pass


@dataclass(frozen=True)
class Roster:
    """How the engine seats its players: `make(spec, engine, g, seat, rng)` for each seat and
    `work(engine)`, made once per engine, for their shared work."""

    make: Callable[..., SeatPlayer]
    work: Callable[[Any], Any] = NoWork


class Player:
    """Common plumbing: the seat's random stream (made at the first draw) and small helpers."""

    def __init__(self, engine, g: int, seat: int, rng) -> None:
        self.e, self.g, self.p, self._rng = engine, g, seat, rng
        self._u: list[float] = []

    def u(self) -> float:
        """A uniform draw from the seat's stream, 256 at a time."""
        if not self._u:
            if callable(self._rng):
                self._rng = self._rng()
            self._u = self._rng.random(256).tolist()
        return self._u.pop()

    def pick(self, items):
        return items[int(self.u() * len(items))]

    def upto(self, n: int) -> int:
        """Uniform 0..n."""
        return int(self.u() * (n + 1))

    def split(self, available, total: int) -> Units:
        """`total` units drawn at random, one at a time, from `available` (by type)."""
        left = list(available)
        out = [0, 0, 0]
        for _ in range(total):
            r = self.u() * sum(left)
            k = 0 if r < left[0] else 1 if r < left[0] + left[1] else 2
            left[k] -= 1
            out[k] += 1
        return tuple(out)  # type: ignore[return-value]

    # ---- default answers
    def retreat_split(self, fight: Fight, seat: int, units: Units, leaders: list[int], options: list[int],
                      where: int) -> list[Retreat]:
        """Keep the force together (the COE-A22 reading even where splitting is allowed)."""
        return [(where, units, tuple(leaders))]

    def hold_captive(self, leader: int) -> bool:
        return True

    def execute_captives(self, held: list[int]) -> list[int]:
        """COE-A25: a held General stays held."""
        return []

    def surrender(self, options: list[int]) -> int | None:
        """COE-A41: fight on."""
        return None

    def accept_ransom(self, leader: int, talents: int, offerer: int, swap: int) -> bool:
        """COE-23: 20 talents, or one of his own Generals back."""
        return talents >= 20 or swap != -1


class RandomPlayer(Player):
    """The random-legal baseline: a decision kind uniformly among those the board allows (a move
    kind with no legal instance ends the movement), then an instance of it uniformly (legion
    sizes, destinations, purchases, retreats)."""

    def move(self, ch: Choices) -> MoveAction:
        if ch.transit:
            galley = ch.transit[0]
            return Sail(galley, self.pick(ch.sail_targets(galley))[0])
        kinds = ["end"]
        if ch.leaders:
            kinds += ["step", "road"]
        if ch.galleys:
            kinds.append("sail")
        if ch.beached():
            kinds += ["board", "land"]
        kind = self.pick(kinds)
        if kind in ("step", "road"):
            src = self.pick(sorted(ch.leaders))
            here = ch.leaders[src]
            leaders = tuple(here[: 1 + self.upto(len(here) - 1)])
            ready = ch.ready(src)
            cap = self.e.opt.units_per_leader * len(leaders)
            units = self.split(ready, min(self.upto(sum(ready)), cap))
            alone = not sum(units)
            if alone and not self.e.opt.leaders_move_alone:
                return EndMovement()
            if kind == "step":
                targets = ch.step_targets(src, alone)
                return Step(leaders, units, src, self.pick(targets)) if targets else EndMovement()
            net = ch.road_targets(src, alone)
            if not net:
                return EndMovement()
            return RoadTrip(leaders, units, src, self.pick(sorted(net)))
        if kind == "sail":
            galley = self.pick(ch.galleys)
            dst, land = self.pick(ch.sail_targets(galley))
            return Sail(galley, dst, land)
        if kind == "board":
            boardings = ch.boardings()
            if not boardings:
                return EndMovement()
            galley, leaders, units, room = self.pick(boardings)
            chosen = tuple(ld for ld in leaders if self.u() < 0.5) or tuple(leaders[:1])
            load = self.split(units, self.upto(min(sum(units), room)))
            if not chosen and not sum(load):
                return EndMovement()
            return Board(galley, chosen, load)
        if kind == "land":
            landings = ch.landings()
            return Disembark(self.pick(landings)) if landings else EndMovement()
        return EndMovement()

    def battle_order(self, pending) -> int:
        return int(self.u() * len(pending))

    def fight_naval(self, zone, opponent, mine, theirs) -> NavalChoice:
        return NavalChoice(self.u() < 0.5)

    def formation(self, fight: Fight, seat: int, size: int) -> Units:
        return self.split(fight.units[seat], size)

    def casualties(self, fight: Fight, seat: int, formation: Units, hits: int) -> Units:
        return self.split(formation, hits)

    def retreat(self, fight: Fight, seat: int, options: list[int]) -> int | None:
        return self.pick(options) if self.u() < 0.25 else None

    def pursuit(self, fight: Fight, fleeing: Units, hits: int) -> Units:
        return self.split(fleeing, hits)

    def retreat_split(self, fight: Fight, seat: int, units: Units, leaders: list[int], options: list[int],
                      where: int) -> list[Retreat]:
        """Each unit and leader to an open province drawn uniformly."""
        parts: dict[int, tuple[list[int], list[int]]] = {}
        for k, n in enumerate(units):
            for _ in range(n):
                parts.setdefault(self.pick(options), ([0, 0, 0], []))[0][k] += 1
        for ld in leaders:
            parts.setdefault(self.pick(options), ([0, 0, 0], []))[1].append(ld)
        return [(r, tuple(u), tuple(ls)) for r, (u, ls) in parts.items()]  # type: ignore[misc]

    def hold_captive(self, leader: int) -> bool:
        return self.u() < 0.5

    def execute_captives(self, held: list[int]) -> list[int]:
        return [ld for ld in held if self.u() < 0.25]

    def surrender(self, options: list[int]) -> int | None:
        """Rarely (a surrender ends a seat's game): 1 turn in 50, to a seat or nobody uniformly."""
        return self.pick(options) if self.u() < 0.02 else None

    def sink(self, zone: int, galleys: list[int], hits: int) -> list[int]:
        order = list(galleys)
        out = []
        for _ in range(hits):
            out.append(order.pop(int(self.u() * len(order))))
        return out

    def raze(self, options: list[int]) -> int | None:
        return self.pick(options) if self.u() < 0.05 else None

    def buy(self, options: list[Buy], bought: list[Buy]) -> Buy | None:
        if self.u() < 0.1:
            return None
        kinds = sorted({b.item for b in options})
        kind = self.pick(kinds)
        return self.pick([b for b in options if b.item == kind])

    def ransom(self, options: list[tuple[int, int]], treasury: int,
               swaps: dict[int, list[int]]) -> Ransom | None:
        if self.u() < 0.5:
            return None
        leader, captor = self.pick(options)
        if swaps.get(captor) and (treasury < 5 or self.u() < 0.5):     # COE-23.1: a General for a General
            return Ransom(leader, 0, self.pick(swaps[captor]))
        return Ransom(leader, 5 * (1 + self.upto(treasury // 5 - 1))) if treasury >= 5 else None

    def accept_ransom(self, leader: int, talents: int, offerer: int, swap: int) -> bool:
        return self.u() < 0.5

