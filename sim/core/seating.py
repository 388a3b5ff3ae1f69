"""Seatings and strategy specs: who sits where in a game, and with which interventions.

The game contract that uses them is `sim.core.contract`; the columns every results table has
are `RESULT_COLUMNS` below. Because a game's randomness depends only on (root_seed, game index),
the same game gives the same row whether it is played alone, in a batch of 1,000 or on another
worker. The same index may come several times in one call (arms of an experiment share their
games' random numbers).

A strategy in a seating may carry *interventions*, written `name+key=value[+key=value...]`:
`colonial+force=war_office` takes the War Office tile at its first legal opportunity,
`colonial+ban=war_office` never takes it, `colonial+grant_gold=3` starts with 3 more gold.
They are how causal experiments (tile value, fair prices) change one seat and nothing else.
An engine lists the keys it understands in `INTERVENTIONS` and rejects the others.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from sim.core.errors import UserError

RESULT_COLUMNS = (
    "game_index",  # int: index of the game within the run
    "seed",        # int: root seed of the run
    "players",     # int: number of players in the game
    "seat",        # int: 0 = first player in the initial turn order
    "power",       # str: nation / side played from this seat
    "strategy",    # str: scripted strategy name
    "vp",          # final score (after end-game penalties)
    "rank",        # int: 1 = best; tied players share a rank
    "winner",      # bool: True for every player sharing first place after tie-breaks
)


@dataclass(frozen=True)
class Seating:
    """Who sits where in one game: seat i plays `powers[i]` with strategy `strategies[i]`."""

    powers: tuple[str, ...]
    strategies: tuple[str, ...]

    def __post_init__(self) -> None:
        if len(self.powers) != len(self.strategies):
            raise ValueError("a seating needs one power and one strategy per seat")
        if len(set(self.powers)) != len(self.powers):
            raise ValueError(f"a power may sit only once: {self.powers}")

    @property
    def players(self) -> int:
        return len(self.powers)


def rotated(powers: Sequence[str], lineup: Sequence[str], game: int) -> Seating:
    """Game `game` of a lineup rotated one seat per game (strategies cycled when the seats
    outnumber them), so over `len(lineup)` games each strategy sits in every seat equally often."""
    return Seating(tuple(powers), tuple(lineup[(game + q) % len(lineup)] for q in range(len(powers))))


def bind_sides(seating: Seating, side_of: Callable[[str], str | None]) -> Seating:
    """The seating with side-bound strategies on their sides (AFAoS: `hammer` plays British
    whatever its seat). `side_of(name)` names the power a strategy plays, or None for either.
    Seats are served in order: a bound seat takes its power while that power is in the game and
    still free; every other seat takes the remaining powers in the seating's order. So
    `hammer,raider` plays British hammer against French raider in either seat order, and two
    strategies bound to one side leave the second on the other side."""
    powers = list(seating.powers)
    chosen: list[str | None] = [None] * seating.players
    for seat, spec in enumerate(seating.strategies):
        side = side_of(spec.split("+", 1)[0])
        if side in powers and side not in chosen:
            chosen[seat] = side
    rest = iter(p for p in powers if p not in chosen)
    return Seating(tuple(p if p is not None else next(rest) for p in chosen), seating.strategies)


@dataclass(frozen=True)
class StrategySpec:
    """A strategy name plus its interventions (`colonial+force=war_office`)."""

    name: str
    interventions: Mapping[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return "+".join([self.name, *(f"{k}={v}" for k, v in self.interventions.items())])


def parse_strategy(spec: str, known: Sequence[str] | None = None,
                   interventions: Sequence[str] | None = None) -> StrategySpec:
    """Split `name+key=value...`; with `known` / `interventions`, check the names against them."""
    name, *parts = spec.split("+")
    if known is not None and name not in known:
        raise UserError(f"strategy {name!r} is unknown; allowed: {', '.join(known)}")
    found: dict[str, str] = {}
    for part in parts:
        key, sep, value = part.partition("=")
        if not sep or not key or not value:
            raise UserError(f"strategy {spec!r}: intervention {part!r} is malformed; use name+key=value")
        if interventions is not None and key not in interventions:
            allowed = ", ".join(interventions) or "none"
            raise UserError(f"strategy {spec!r}: intervention {key!r} is unknown; allowed: {allowed}")
        found[key] = value
    return StrategySpec(name, found)
