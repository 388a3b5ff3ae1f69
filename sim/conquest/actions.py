"""The actions a Conquest of the Empire player answers with: one frozen, slotted dataclass per
kind, each citing its rule. `Engine.apply` validates them (an illegal one raises RuleViolation).

Leaders are named by id = colour * 5 + index (index 0 = the colour's Caesar); land units by
counts (infantry, cavalry, catapult); galleys by id = colour * 8 + slot.
"""

from __future__ import annotations

from dataclasses import dataclass

Units = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Step:
    """COE-11.1-11.5: leaders (each with MP left) lead at most 7 land units each into an
    adjacent province (land border or strait, COE-11.7); 1 MP for every piece. `p_win`: the
    attacker's forecast of winning the battle the step starts (logged for the player audit)."""

    leaders: tuple[int, ...]
    units: Units
    src: int
    dst: int
    p_win: float | None = None


@dataclass(frozen=True, slots=True)
class RoadTrip:
    """COE-6.6 / COE-A32: for 1 MP the legion travels along connected roads from a City to any
    City of the network, leaving `drops` (province, units) at Cities on its way (COE-E2)."""

    leaders: tuple[int, ...]
    units: Units
    src: int
    dst: int
    drops: tuple[tuple[int, Units], ...] = ()


@dataclass(frozen=True, slots=True)
class Board:
    """COE-12.5 / COE-12.6 / COE-A14: leaders and land units board a galley in its province."""

    galley: int
    leaders: tuple[int, ...]
    units: Units


@dataclass(frozen=True, slots=True)
class Sail:
    """COE-12.1-12.3: a galley moves one space (1 MP); with `land` its cargo disembarks on
    arrival in a coastal province (COE-12.6)."""

    galley: int
    dst: int
    land: bool = False


@dataclass(frozen=True, slots=True)
class Disembark:
    """COE-12.6: the cargo of a galley standing in a province goes ashore there."""

    galley: int


@dataclass(frozen=True, slots=True)
class EndMovement:
    """COE-10.1: the movement phase is over."""


@dataclass(frozen=True, slots=True)
class Buy:
    """COE-20 / COE-22: buy one item at the price in force and name where it will be placed in
    phase 6 (COE-A39: everything bought is placed this turn). `item` is infantry, cavalry,
    catapult, galley, city, fortification or road; `where` a province (a road: an edge index)."""

    item: str
    where: int


@dataclass(frozen=True, slots=True)
class Ransom:
    """COE-23 / COE-A26: the active player offers the captor of one of his Generals talents, a
    General of the captor's that he holds himself (`swap`, -1: none), or both."""

    leader: int
    talents: int
    swap: int = -1


MoveAction = Step | RoadTrip | Board | Sail | Disembark | EndMovement
