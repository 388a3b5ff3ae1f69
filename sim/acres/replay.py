"""A readable account of A Few Acres of Snow games from a JSONL event log (`empires play acres
--log`): each turn with the side to move and both sides' money, every action as a sentence with
its cards and locations by their printed names (AFS-6..14), siege
cards with the marker position, raids, ambushes and thefts with the reaction, every hand shown
as proof, siege results and the end with the scores (events of `sim.acres.engine.Engine.log`).
An imported record (`empires import acres`, docs/acres_yucata.md) shows its setup, each move's
text and what each move changed; events neither knows go to the generic account.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable

from sim.acres.components import SIDES, load
from sim.core import replay as core_replay
from sim.core.replay import headline

LONG = ("draw", "discard", "available_empire", "available_locations", "neutral_available")


def _who(side) -> str:
    return SIDES[side] if isinstance(side, int) and 0 <= side < len(SIDES) else str(side)


@functools.cache
def _printed() -> dict[str, str]:
    """Printed names of the cards and locations by id (the default data: names are not rules)."""
    acres = load()
    names = {lid: loc.name for lid, loc in acres.locations.items()}
    for cards in acres.cards.values():
        names.update({cid: card.name for cid, card in cards.items()})
    return names


def _name(key) -> str:
    return _printed().get(key, str(key)) if isinstance(key, str) else str(key)


def _names(keys) -> str:
    return " and ".join(map(_name, keys)) if keys else "nothing"


def _forecast(e: dict, before: str, after: str = "") -> str:
    """The player's logged win forecast (player audit), if any, between `before` and `after`."""
    return f"{before}forecast win chance {e['p_win']:.2f}{after}" if e.get("p_win") is not None else ""


# Each action kind of sim.acres.actions as a sentence (the side's name goes before it).
ACTION_TEXT: dict[str, Callable[[dict], str]] = {
    "Pass": lambda e: "passes",
    "Settle": lambda e: (f"settles {_name(e['target'])} (card {_name(e['via'])}, transport {_name(e['transport'])}"
                         + (f", settler {_name(e['settler'])})" if e.get("settler") else ")")),
    "Develop": lambda e: f"develops {_name(e['target'])} into a town (its card and {_name(e['settler'])})",
    "Fortify": lambda e: f"fortifies {_name(e['target'])} (its card and {_name(e['fortification'])})",
    "Besiege": lambda e: (f"besieges {_name(e['target'])} (card {_name(e['via'])}, transport "
                          f"{_name(e['transport'])}, military {_name(e['military'])}{_forecast(e, '; ')})"),
    "Reinforce": lambda e: f"reinforces the {_who(e['track'])} siege with {_name(e['card'])}",
    "PlayLeader": lambda e: f"plays {_name(e['card'])} into the {_who(e['track'])} siege (free)",
    "Withdraw": lambda e: "withdraws from the siege (free)",
    "GiveUp": lambda e: "gives up the defence of the siege (free)",
    "Raid": lambda e: f"raids {_name(e['target'])} with {_names(e['cards'])}{_forecast(e, ' (', ')')}",
    "Ambush": lambda e: f"ambushes with {_name(e['card'])}",
    "Steal": lambda e: f"sends {_name(e['card'])} to take a Native Americans card",
    "TakeMoney": lambda e: f"takes money with {_name(e['card'])}",
    "SeaTrade": lambda e: f"trades by sea: {_name(e['ship'])} with {_names(e['cards'])}",
    "FurTrade": lambda e: f"trades furs: {_name(e['trader'])} with {_names(e['furs'])}",
    "Piracy": lambda e: f"turns pirate: {_name(e['louisbourg'])} and {_name(e['ship'])}",
    "Recruit": lambda e: f"recruits {_name(e['card'])}",
    "Discard": lambda e: f"discards {_names(e['cards'])}" + (" (nothing else worth doing)" if e.get("idle") else ""),
    "Reserve": lambda e: f"puts {_name(e['card'])} in reserve",
    "Retrieve": lambda e: "takes the reserve back to hand (free)",
    "Governor": lambda e: f"plays {_name(e['governor'])}, returning {_names(e['cards'])}",
    "Intendant": lambda e: f"plays {_name(e['intendant'])}, taking {_name(e['target'])} back from the discard pile",
    "HomeSupport": lambda e: f"plays {_name(e['card'])}: draws 3 (free)",
    "FurCoin": lambda e: f"plays {_name(e['card'])} for 1 coin (free)",
    "DropLost": lambda e: f"returns {_name(e['card'])} of a lost location to the deck (free)",
}


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
            lines.append("setup: " + "; ".join(f"{side} money {m}, {c} cubes and {d} discs to place"
                                               for side, m, c, d in zip(SIDES, e["money"], e["cubes"], e["discs"]))
                         + (f"; forts at {', '.join(map(_name, e['forts']))}" if e["forts"] else ""))
        elif kind == "turn":
            money = ", ".join(f"{side} {m}" for side, m in zip(SIDES, e["money"]))
            lines.append(f"-- turn {e['turn']}: {who} to move (money: {money})")
        elif kind == "action" and e["action"] in ACTION_TEXT:
            lines.append(f"  {who} {ACTION_TEXT[e['action']](e)}")
        elif kind == "action":
            lines.append(f"  {who}: {e['action']} ({_fields(e, ('event', 'turn', 'side', 'action'))})")
        elif kind == "siege_card":
            lines.append(f"    {who} commits {_name(e['card'])} (+{e['value']}) to the {_who(e['track'])} siege: "
                         f"P = {e['p']}")
        elif kind == "raid":
            blocked = f", blocked with {_name(e['blocked'])}" if e["blocked"] else ", not blocked"
            lines.append(f"    raid on {_name(e['location'])} with {_names(e['cards'])}{blocked}")
        elif kind == "ambush":
            result = (f"blocked with {_name(e['blocked'])}" if e["blocked"] else
                      f"{_name(e['lost'])} lost" if e.get("lost") else "nothing to lose")
            lines.append(f"    ambush with {_name(e['card'])}: {result}")
        elif kind == "steal":
            lines.append(f"    {_name(e['card'])} takes {_name(e['taken']) if e['taken'] else 'nothing'}")
        elif kind == "reveal":
            lines.append(f"    {who} shows the hand ({e['why']}): {', '.join(map(_name, e['hand'])) or 'empty'}")
        elif kind == "siege_won":
            lines.append(f"  {who} wins the siege of {_name(e['location'])} as {e['role']} (P = {e['p']})")
        elif kind == "occupy":
            lines.append(f"    {who} {'places a cube on' if e['placed'] else 'leaves neutral'} {_name(e['location'])}")
        elif kind == "siege_over":
            lines.append(f"    siege over; the loser returns {_name(e['returned']) if e['returned'] else 'nothing'}")
        elif kind == "withdraw":
            lines.append(f"  {who} withdraws from {_name(e['location'])}")
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
