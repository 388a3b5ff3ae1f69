"""A readable account of A Few Acres of Snow games from a JSONL event log (`empires play acres
--log`): each turn with the side to move and its money, every action with its cards, siege
cards with the marker position, raids, ambushes and thefts with the reaction, every hand shown
as proof, siege results and the end with the scores (events of `sim.acres.engine.Engine.log`).
An imported record (`empires import acres`, docs/acres_yucata.md) shows its setup, each move's
text and what each move changed; events neither knows go to the generic account.
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.acres.components import SIDES
from sim.core import replay as core_replay
from sim.core.replay import headline

LONG = ("draw", "discard", "available_empire", "available_locations", "neutral_available")


def _who(side) -> str:
    return SIDES[side] if isinstance(side, int) and 0 <= side < len(SIDES) else str(side)


def _fields(e: dict, skip: tuple[str, ...]) -> str:
    parts = []
    for k, v in e.items():
        if k in skip or v is None:
            continue
        parts.append(f"{k} {', '.join(map(str, v)) if isinstance(v, list) else v}")
    return "; ".join(parts)


def _imported_setup(snap: dict) -> str:
    sides = snap["sides"]
    held = {side: [lid for lid, place in snap["board"].items() if place["owner"] == side] for side in SIDES}
    return ("setup (recorded): " + "; ".join(
        f"{side} money {sides[side]['money']}, {len(held[side])} locations, hand {', '.join(sides[side]['hand'])}"
        for side in SIDES) + (f"; variants {', '.join(map(str, snap['variants']))}" if snap.get("variants") else ""))


def _changed(changed: dict) -> str:
    """A status event's changes, long piles by their size."""
    parts = []
    for path, v in changed.items():
        if path.rsplit(".", 1)[-1] in LONG and isinstance(v, list):
            parts.append(f"{path} ({len(v)} cards)")
        else:
            parts.append(f"{path} {', '.join(map(str, v)) if isinstance(v, list) else v}")
    return "; ".join(parts)


def _imported(e: dict) -> str | None:
    """The line of an imported record's event, None for an engine log's."""
    kind = e["event"]
    if kind == "setup" and "snapshot" in e:
        return _imported_setup(e["snapshot"])
    if kind == "move" and "text" in e:
        after = f" (the turn of move {e['continues']} again)" if e.get("continues") is not None else ""
        return f"  move {e['move']} {e['side']}: {e['text'] or 'resigns'}{after}"
    if kind == "status" and "changed" in e:
        return f"    changed: {_changed(e['changed'])}"
    return None


def account(head: dict, events: Iterable[dict]) -> list[str]:
    """The text lines of one game (an engine log or an imported record)."""
    lines = [headline(head)]
    for e in events:
        kind, who = e["event"], _who(e.get("side"))
        imported = _imported(e)
        if imported is not None:
            lines.append(imported)
        elif kind == "setup" and "money" in e:
            lines.append(f"setup: money {e['money']}, cubes {e['cubes']}, discs {e['discs']}"
                         + (f", forts {', '.join(e['forts'])}" if e["forts"] else ""))
        elif kind == "turn":
            lines.append(f"-- turn {e['turn']}: {who} to move (money {e['money'][0]} / {e['money'][1]})")
        elif kind == "action":
            lines.append(f"  {who}: {e['action']} ({_fields(e, ('event', 'turn', 'side', 'action'))})")
        elif kind == "siege_card":
            lines.append(f"    {who} commits {e['card']} (+{e['value']}) to the {_who(e['track'])} siege: P = {e['p']}")
        elif kind == "raid":
            blocked = f", blocked with {e['blocked']}" if e["blocked"] else ", not blocked"
            lines.append(f"    raid on {e['location']} with {', '.join(e['cards'])}{blocked}")
        elif kind == "ambush":
            result = (f"blocked with {e['blocked']}" if e["blocked"] else
                      f"{e.get('lost')} lost" if e.get("lost") else "nothing to lose")
            lines.append(f"    ambush with {e['card']}: {result}")
        elif kind == "steal":
            lines.append(f"    {e['card']} takes {e['taken'] or 'nothing'}")
        elif kind == "reveal":
            lines.append(f"    {who} shows the hand ({e['why']}): {', '.join(e['hand']) or 'empty'}")
        elif kind == "siege_won":
            lines.append(f"  {who} wins the siege of {e['location']} as {e['role']} (P = {e['p']})")
        elif kind == "occupy":
            lines.append(f"    {who} {'places a cube on' if e['placed'] else 'leaves neutral'} {e['location']}")
        elif kind == "siege_over":
            lines.append(f"    siege over; the loser returns {e['returned'] or 'nothing'}")
        elif kind == "withdraw":
            lines.append(f"  {who} withdraws from {e['location']}")
        elif kind == "reshuffle":
            lines.append(f"    {who} reshuffles ({e['cards']} cards)")
        elif kind == "end":
            lines.append(f"end ({e['reason']}): {e['winner']} wins; scores british {e['scores'][0]}, "
                         f"french {e['scores'][1]}")
        elif kind in ("setup", "move", "status"):
            lines.extend(core_replay.account(head, [e])[1:])
        else:
            lines.append(f"  {kind}: {_fields(e, ('event',))}")
    return lines
