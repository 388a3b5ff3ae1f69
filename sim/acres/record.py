"""The canonical snapshot of an A Few Acres of Snow position, as a game record stores it.

An imported Yucata game (sim/acres/yucata.py) stores one snapshot after setup and one after
every move; the engine will produce the same snapshot for the verified replay, so the two can
be compared field by field. Everything is named with the ids of `sim/acres/data` (locations,
card kinds); neutral (green) cards are `neutral.<kind>` so that they stay apart from a side's
own card of the same kind (a Priest may take only neutral Native Americans, AFS-11.4). The
schema is documented in docs/acres_yucata.md.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Any

NEUTRAL_PREFIX = "neutral."
PIECES = ("village", "town")


@dataclass(frozen=True)
class Place:
    """AFS-3.1: who controls a location (None = neutral), with a cube or disc, a fort, a siege."""

    owner: str | None
    piece: str | None
    fort: bool
    besieged: bool


@dataclass(frozen=True)
class Siege:
    """AFS-8: one running siege; `marker` is the signed track position of AFS-0.4 (attacker > 0)."""

    attacker: str
    location: str
    marker: int
    attacker_cards: tuple[str, ...]
    defender_cards: tuple[str, ...]


@dataclass(frozen=True)
class SideState:
    """AFS-2.6: one side's zones (draw pile top first, discard pile bottom first), money,
    pieces and what it may still recruit or regain."""

    seat: int
    money: int
    hand: tuple[str, ...]
    reserve: tuple[str, ...]
    draw: tuple[str, ...]
    discard: tuple[str, ...]
    siege_cards: tuple[str, ...]
    captured_cubes: int
    captured_discs: int
    cubes_left: int
    discs_left: int
    available_empire: tuple[str, ...]
    available_locations: tuple[str, ...]
    vp_locations: int
    vp_captures: int
    recorded_points: int | None = None


@dataclass(frozen=True)
class End:
    """AFS-15: whether the game is over, who won and why (None while it runs)."""

    over: bool
    winner: str | None = None
    reason: str | None = None


@dataclass(frozen=True)
class Snapshot:
    """The whole position: board, both sides, sieges, neutral supply, fort supply, end state."""

    active: str | None
    board: dict[str, Place]
    sides: dict[str, SideState]
    sieges: tuple[Siege, ...]
    neutral_available: tuple[str, ...]
    forts_left: int
    end: End
    variants: tuple[int, ...] = field(default=())

    def as_dict(self) -> dict[str, Any]:
        """Plain JSON-ready form (tuples as lists)."""
        return asdict(self)


def is_neutral(card: str) -> bool:
    return card.startswith(NEUTRAL_PREFIX)


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """`{"a": {"b": 1}}` -> `{"a.b": 1}`; lists and scalars are leaves."""
    flat: dict[str, Any] = {}
    for key, value in tree.items():
        path = f"{prefix}{key}"
        if isinstance(value, dict) and value:
            flat.update(flatten(value, path + "."))
        else:
            flat[path] = value
    return flat


def unflatten(flat: dict[str, Any]) -> dict[str, Any]:
    """The inverse of `flatten`."""
    tree: dict[str, Any] = {}
    for path, value in flat.items():
        node = tree
        *parents, leaf = path.split(".")
        for key in parents:
            node = node.setdefault(key, {})
        node[leaf] = value
    return tree


def changes(before: dict[str, Any], after: dict[str, Any]) -> dict[str, Any]:
    """The leaves of `after` that differ from `before` (both plain snapshot dicts); a record
    stores the setup snapshot whole and each later one as these changes."""
    old, new = flatten(before), flatten(after)
    if set(old) != set(new):
        raise ValueError("snapshots of different shapes")
    return {k: v for k, v in new.items() if old[k] != v}


def snapshots(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The whole snapshots of a record's events: the setup one, then one per `status` event."""
    flat: dict[str, Any] | None = None
    out = []
    for e in events:
        if e["event"] == "setup":
            flat = flatten(e["snapshot"])
        elif e["event"] == "status":
            if flat is None:
                raise ValueError("a status event before the setup event")
            flat = {**flat, **e["changed"]}
        else:
            continue
        out.append(unflatten(flat))
    return out
