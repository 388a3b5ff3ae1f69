"""The actions a player may return, one frozen dataclass per kind; each cites its rule.

A decision that can be declined takes `None` (pass). The engine checks every action against the
legal choices it computed (sim.discovery.choices) and raises `RuleViolation` otherwise.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Place:
    """AOD-5.1 / AOD-5.5: put one unit of the pool (a unit type) into an event box; ordered boxes
    take their next free space."""

    unit: int
    box: int


@dataclass(frozen=True, slots=True)
class UseUniversity:
    """AOD-14.2 (II-6) / AOD-18.24: move an own unit to the first position of a track: `track` is
    "initiative", "dock", "capital" (index = its space) or "turn_order" (index unused)."""

    track: str
    index: int


@dataclass(frozen=True, slots=True)
class Expedition:
    """AOD-8.1: the party (count per unit type) from the Discovery box and its target: a region
    index, or CARDS (-1) for the top discovery card once the map is discovered (AOD-8.7).
    `p_win`: the player's own forecast that it succeeds, logged for the player audit (the rules
    ignore it)."""

    party: tuple[int, ...]
    target: int
    p_win: float | None = None


@dataclass(frozen=True, slots=True)
class Battle:
    """AOD-9.2: a free fight against one opponent in one region."""

    opponent: int
    region: int


@dataclass(frozen=True, slots=True)
class War:
    """AOD-9.3: pay the war cost and fight one opponent in every qualifying region."""

    opponent: int


@dataclass(frozen=True, slots=True)
class Move:
    """AOD-14.2 Stables / AOD-14.3 Migration at step D: own units (count per type) from one region
    to another."""

    source: int
    target: int
    units: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Bid:
    """AOD-16.2: a bid in the starting-order auction (None passes, for good)."""

    amount: int
