"""Balanced tournament designs with common random numbers.

A tournament plays a *lineup* -- one strategy per seat position, the user's strategy list
repeated to fill the seats (`a,b,c` for four players is `a,b,c,a`) -- in blocks of games (a
paired comparison plays a lineup and its mirror, see `paired`). Every game of a block uses the
same random streams (the block index is the stream key passed to the game engine), so the
games of a block differ only in who sits where: common random numbers.

Inside a block the arms cross two cyclic rotations (Latin-square style):

- strategy rotation r = 0 .. d-1: seat s plays `lineup[(s + r) % P]`, where d is the period of
  the lineup (P for distinct strategies; a lineup such as `a,b,a,b` repeats after 2, and a
  third rotation would only replay an arm already in the block with the same dice);
- power rotation q = 0 .. K-1 over all K powers of the game: seat s plays
  `powers[(s + q) % K]` (a window of P consecutive powers when K > P).

A block therefore has B = d * K games per lineup. In every block each strategy plays every
seat and every power equally often, each power sits at every seat equally often, and strategy
and power are crossed -- so strategy, seat and power effects separate. Game g is arm `g % B`
of block `g // B`; its streams are `stream(root_seed, g // B, purpose)`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from sim.core.errors import UserError, one_of
from sim.core.seating import Seating, bind_sides


def fill_lineup(strategies: Sequence[str], players: int) -> tuple[str, ...]:
    """The user's strategy list repeated to one strategy per seat (at most one per seat given)."""
    strategies = tuple(strategies)
    if not strategies:
        raise UserError("--strategies: give at least one strategy name")
    if len(strategies) > players:
        raise UserError(f"--strategies: {len(strategies)} strategies for {players} seats; "
                        f"give at most {players} (one per seat), or more --players")
    return tuple(strategies[i % len(strategies)] for i in range(players))


def period(lineup: Sequence[str]) -> int:
    """The smallest d >= 1 with lineup rotated by d equal to lineup."""
    n = len(lineup)
    return next(d for d in range(1, n + 1) if n % d == 0 and tuple(lineup[d:]) + tuple(lineup[:d]) == tuple(lineup))


def canonical(lineup: Sequence[str]) -> tuple[str, ...]:
    """The smallest rotation of a lineup: two lineups with the same one share all their arms."""
    n = len(lineup)
    return min(tuple(lineup[i:]) + tuple(lineup[:i]) for i in range(n))


@dataclass(frozen=True)
class Design:
    """A balanced block design: each lineup rotated over seats, crossed with the powers rotated.

    Several lineups (e.g. a lineup and its mirror with two strategies swapped, for paired
    comparisons) each contribute their rotations to every block; a lineup that is a rotation of
    an earlier one adds nothing, since its arms are already in the block.
    """

    powers: tuple[str, ...]
    lineups: tuple[tuple[str, ...], ...]
    sides: tuple[tuple[str, str], ...] = ()   # (strategy, power): side-bound strategies (bind_sides)

    def __post_init__(self) -> None:
        if len({len(lineup) for lineup in self.lineups}) != 1:
            raise ValueError(f"lineups of one design need the same length: {self.lineups}")
        if self.players > len(self.powers):
            raise UserError(f"--players {self.players}: this game has only {len(self.powers)} powers")
        seen: dict[tuple[str, ...], tuple[str, ...]] = {}
        for lineup in self.lineups:
            seen.setdefault(canonical(lineup), tuple(lineup))
        object.__setattr__(self, "lineups", tuple(seen.values()))

    @property
    def players(self) -> int:
        return len(self.lineups[0])

    @property
    def strategies(self) -> tuple[str, ...]:
        """Every strategy in the design, in order of first appearance."""
        return tuple(dict.fromkeys(s for lineup in self.lineups for s in lineup))

    @cached_property
    def arms(self) -> tuple[Seating, ...]:
        """The seatings of one block, in arm order (lineup, strategy rotation, power rotation).
        Side-bound strategies take their side (`sides`, sim.core.seating.bind_sides); an arm
        that binding makes equal to an earlier one is dropped, so a block plays no game twice."""
        p, k = self.players, len(self.powers)
        side_of = dict(self.sides).get
        arms = (Seating(powers=tuple(self.powers[(s + q) % k] for s in range(p)),
                        strategies=tuple(lineup[(s + r) % p] for s in range(p)))
                for lineup in self.lineups for r in range(period(lineup)) for q in range(k))
        return tuple(dict.fromkeys(bind_sides(a, side_of) if self.sides else a for a in arms))

    @property
    def block_size(self) -> int:
        """Games per block: strategy rotations times power rotations."""
        return len(self.arms)

    def block(self, game_index: int) -> int:
        """The stream key of a game: games of one block share their dice."""
        return game_index // self.block_size

    def arm(self, game_index: int) -> int:
        return game_index % self.block_size

    def seating(self, game_index: int) -> Seating:
        return self.arms[self.arm(game_index)]

    def whole_blocks(self, games: int) -> int:
        """`games` rounded up to whole blocks (balance holds over whole blocks only)."""
        return -(-games // self.block_size) * self.block_size

    def to_dict(self) -> dict[str, Any]:
        return {"kind": "balanced", "powers": list(self.powers),
                "lineups": [list(lineup) for lineup in self.lineups], "block_size": self.block_size,
                **({"sides": [list(x) for x in self.sides]} if self.sides else {})}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Design:
        if data.get("kind") != "balanced":
            raise UserError(f"design kind {data.get('kind')!r} is unknown; allowed: balanced")
        return cls(powers=tuple(data["powers"]), lineups=tuple(tuple(x) for x in data["lineups"]),
                   sides=tuple(tuple(x) for x in data.get("sides", ())))


def balanced(powers: Sequence[str], players: int, strategies: Sequence[str],
             known: Sequence[str], min_players: int, max_players: int,
             sides: Mapping[str, str] | None = None) -> Design:
    """Validate a tournament request against a game's limits and build its design."""
    if not min_players <= players <= max_players:
        raise UserError(f"--players {players} is out of range; this game allows {min_players}..{max_players}")
    for name in strategies:
        if name not in known:
            raise one_of("strategy", name, known)
    return Design(powers=tuple(powers), lineups=(fill_lineup(strategies, players),), sides=bound(sides))


def paired(powers: Sequence[str], players: int, a: str, b: str, sides: Mapping[str, str] | None = None) -> Design:
    """A paired design for comparing strategy a with b: seats alternate a, b, a, ... and the
    mirror lineup swaps them, so under "a is as good as b" a's expected share of wins is 1/2."""
    lineup = tuple(a if s % 2 == 0 else b for s in range(players))
    mirror = tuple(b if x == a else a for x in lineup)
    return Design(powers=tuple(powers), lineups=(lineup, mirror), sides=bound(sides))


def bound(sides: Mapping[str, str] | None) -> tuple[tuple[str, str], ...]:
    """A game's side-bound strategies (`games.sides`) as a design field."""
    return tuple(sorted((sides or {}).items()))


def rotation(powers: Sequence[str], players: int, strategies: Sequence[str], games: int,
             sides: Mapping[str, str] | None = None) -> list[Seating]:
    """The seatings of `empires play`: strategies cycle over the seats and shift by one seat every
    game, powers shift every `players` games, so over many games every strategy meets every seat
    and power about equally often. Unlike a `Design`, each game is its own stream key (no blocks),
    so game g is the same game whatever the number of games played. Side-bound strategies
    (`sides`) take their side (sim.core.seating.bind_sides)."""
    side_of = (sides or {}).get
    return [bind_sides(Seating(powers=tuple(powers[(s + g // players) % len(powers)] for s in range(players)),
                               strategies=tuple(strategies[(s + g) % len(strategies)] for s in range(players))), side_of)
            for g in range(games)]
