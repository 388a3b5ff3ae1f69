"""The engine's position as the canonical snapshot of sim/acres/record.py, so that a replay can
compare it with an imported game's recorded statuses field by field (docs/acres_yucata.md)."""

from __future__ import annotations

from typing import Any

from sim.acres.components import SIDES
from sim.acres.record import NEUTRAL_PREFIX, PIECES, End, Place, SideState, Siege, Snapshot
from sim.acres.scoring import captured_points
from sim.acres.state import NEUTRAL_OWNER, TOWN, VILLAGE

# The engine's end reasons (AFS-15) as a record names them.
REASONS = {"capital taken": "capital", "capital settled": "capital", "fort duquesne town": "capital",
           "cubes out": "pieces", "discs out": "pieces", "captures": "captures", "resignation": "resignation"}
# Fields compared as multisets (docs/acres_yucata.md, "Comparing snapshots"); the draw pile is an order.
MULTISETS = ("hand", "reserve", "discard", "siege_cards", "available_empire", "available_locations",
             "neutral_available", "attacker_cards", "defender_cards")


def card_name(engine, c: int) -> str:
    """A physical card as a record names it: its kind, `neutral.<kind>` for a green card."""
    kind = engine.t.kind[c]
    return NEUTRAL_PREFIX + kind.key if kind.owner == NEUTRAL_OWNER else kind.key


def snapshot(engine, g: int, active: int | None, seats: tuple[int, int], variants: tuple[int, ...] = ()) -> dict[str, Any]:
    """Game g of `engine` as a plain snapshot dict; `seats[side]` is the side's seat. The final
    points are the AFS-15.3 totals of an ended game not resigned, as a record holds them."""
    s, t = engine.s, engine.t
    recorded_points = s.over[g] and s.end_reason[g] != "resignation"

    def names(cards) -> tuple[str, ...]:
        return tuple(card_name(engine, c) for c in cards)

    besieged = {loc for loc in s.siege_loc[g] if loc >= 0}
    board = {}
    for i, lid in enumerate(t.locs):
        owner = s.control[g][i]
        board[lid] = Place(owner=SIDES[owner - 1] if owner else None,
                           piece=(PIECES[TOWN] if s.town[g][i] else PIECES[VILLAGE]) if owner else None,
                           fort=bool(s.fort[g][i]), besieged=i in besieged)
    sides = {}
    totals = getattr(engine, "totals", {}).get(g)
    for q, side in enumerate(SIDES):
        captured = s.captured[g][q]
        sides[side] = SideState(
            seat=seats[q], money=s.money[g][q], hand=names(s.hand[g][q]), reserve=names(s.reserve[g][q]),
            draw=names(reversed(s.draw[g][q])), discard=names(s.discard[g][q]),
            siege_cards=names(c for track in (0, 1) for c in s.siege_cards[g][track][q]),
            captured_cubes=captured[VILLAGE], captured_discs=captured[TOWN], cubes_left=s.cubes[g][q],
            discs_left=s.discs[g][q], available_empire=names(s.emp_deck[g][q]),
            available_locations=names(s.loc_deck[g][q]), vp_locations=engine.location_vp(g, q),
            vp_captures=int(captured_points(captured, engine.acres.rules.scoring)),
            recorded_points=totals[q] if recorded_points and totals is not None else None)
    sieges = tuple(Siege(attacker=SIDES[att], location=t.locs[s.siege_loc[g][att]], marker=s.siege_p[g][att],
                         attacker_cards=names(s.siege_cards[g][att][att]),
                         defender_cards=names(s.siege_cards[g][att][1 - att]))
                   for att in (0, 1) if s.siege_loc[g][att] >= 0)
    end = End(over=bool(s.over[g]), winner=SIDES[s.winner[g]] if s.over[g] else None,
              reason=REASONS.get(s.end_reason[g], s.end_reason[g]) if s.over[g] else None)
    return Snapshot(active=None if active is None else SIDES[active], board=board, sides=sides, sieges=sieges,
                    neutral_available=names(s.neutral[g]), forts_left=s.forts_left[g], end=end,
                    variants=tuple(variants)).as_dict()


def _canonical(node: Any, key: str = "") -> Any:
    if isinstance(node, dict):
        return {k: _canonical(v, k) for k, v in node.items()}
    if isinstance(node, (list, tuple)):
        items = [_canonical(v) for v in node]
        return sorted(items, key=repr) if key in MULTISETS else items
    return node


def first_difference(expected: dict[str, Any], got: dict[str, Any],
                     skip: tuple[str, ...] = ()) -> tuple[str, Any, Any] | None:
    """The first field (dotted path, in the expected snapshot's order) where two snapshots differ,
    multisets compared as such; None if they agree. Fields under a `skip` prefix are not compared."""
    a, b = _canonical(expected), _canonical(got)
    return _walk(a, b, "", skip)


def _walk(a: Any, b: Any, path: str, skip: tuple[str, ...]) -> tuple[str, Any, Any] | None:
    if path and path.startswith(skip):
        return None
    if isinstance(a, dict) and isinstance(b, dict):
        for k in [*a, *(k for k in b if k not in a)]:
            found = _walk(a.get(k), b.get(k), f"{path}.{k}" if path else k, skip)
            if found:
                return found
        return None
    if path.startswith("sieges") and isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for i, (x, y) in enumerate(zip(a, b)):
            found = _walk(x, y, f"{path}.{i}", skip)
            if found:
                return found
        return None
    return None if a == b else (path, a, b)
