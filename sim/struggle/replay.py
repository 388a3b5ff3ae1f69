"""A readable account of Struggle of Empires games from a JSONL event log (`empires play struggle --log`).

`empires replay` reads the log (sim.core.replay.read_games: a `game` header line per game, then
its events, see `sim.struggle.engine.Engine.log`) and hands each game to `account`, which turns
it into text so a player can audit the engine: the auction, every action, battles with their
dice, scoring and the end.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from sim.core.replay import article, count, headline
from sim.struggle.state import UPPER

ROW_NAMES = {UPPER: "upper"}          # any other row is the lower one (SOE-6.1)


def account(head: dict, events: Iterable[dict]) -> list[str]:
    """The text lines of one game."""
    powers = head["powers"]
    name = lambda seat: powers[seat] if isinstance(seat, int) and 0 <= seat < len(powers) else str(seat)  # noqa: E731
    lines = [headline(head)]
    war = rnd = None
    allied: set[str] = set()                 # powers placed in a row by this war's auctions
    for e in events:
        kind = e["event"]
        if e.get("war") != war:
            war = e.get("war")
            allied = set()
            lines.append(f"== war {war}")
        if kind in ("move", "build", "attack", "buy", "colonise", "enslave", "pass", "raid") and e.get("round") != rnd:
            rnd = e.get("round")
            lines.append(f"-- round {rnd}")
        who = name(e.get("seat"))
        if kind == "setup":
            lines.append(f"setup: tokens on the map {', '.join(e['tokens_on_map'])}")
            lines += [f"  {p} markers " + ", ".join(f"{r} {n}" for r, n in m.items()) for p, m in e["markers"].items()]
        elif kind == "place":
            lines.append(f"  {who} places {article(e['unit'])} in {e['region']}")
        elif kind == "tokens":
            lines.append(f"new tokens: {', '.join(e['drawn'])}")
        elif kind == "bid":
            single = len(powers) - len(allied) == 1
            lines.append(f"  {who} bids {e['bid']} proposing {proposal(e['proposal'], single, name)}")
        elif kind == "auction_won":
            allied.update(e["rows"])
            rows = ", ".join(f"{p} -> {row_name(r)}" for p, r in e["rows"].items())
            lines.append(f"  {who} wins the auction for {e['bid']}: {rows}")
        elif kind == "move":
            roll = f" (sea roll: {e['sea']})" if e["rolled"] else ""
            lines.append(f"  {who} moves {article(e['unit'])} {e['src']} -> {e['dst']}{roll}")
        elif kind == "move_void":
            lines.append(f"  {who} cannot move the {e['unit']} {e['src']} -> {e['dst']} any more")
        elif kind == "build":
            lines.append(f"  {who} builds {article(e['unit'])}" + (f" with {e['tile']}" if e.get("tile") else "")
                         + (f" in {e['dst']}" if e.get("dst") else ""))
        elif kind == "destroy":
            lines.append(f"  {who} destroys {article(e['unit'])} in {e['region']} to rebuild it (+1 unrest)")
        elif kind == "buy":
            lines.append(f"  {who} takes {e['tile']}")
        elif kind in ("colonise", "enslave"):
            lines.append(f"  {who} {'colonises' if kind == 'colonise' else 'enslaves'} {e['token']}")
        elif kind == "pass":
            lines.append(f"  {who} passes")
        elif kind == "attack":
            extra = "".join([" (War Office)" if e["war_office"] else "", " (Surprise Attack)" if e["surprise"] else ""])
            lines.append(f"  {who} attacks {e['target']} in {e['region']}{extra}; allies' help "
                         f"{helping(e['helpers'])} vs {helping(e['def_helpers'])}")
        elif kind == "raid":
            lines.append(f"  {who}'s {e['tile']} raid {e['target']} in {e['region']}")
        elif kind in ("naval_battle", "battle"):
            what = "naval battle" if kind == "naval_battle" else f"{e.get('kind', 'land')} battle"
            result = {1: "attacker wins", 0: "tie", -1: "defender wins"}[e["winner"]]
            rer = f", re-rolls {e['rerolls']}" if e["rerolls"] else ""
            lines.append(f"    {what}: attacker {e['att_dice']} -> {e['att_total']}, defender {e['def_dice']} -> "
                         f"{e['def_total']}: {result}{rer}")
        elif kind == "loss":
            lines.append(f"    {who} loses {article(e['unit'])} in {e['region']} (+1 unrest)")
        elif kind == "refuse_battle":
            lines.append(f"    {who} plays Refuse Battle")
        elif kind == "diplomacy":
            lines.append(f"  {who} takes {e['tile']} with Diplomatic Service")
        elif kind in ("company", "agriculture", "blockade"):
            lines.append(f"  {who} uses {kind}" + (f": +{e['gold']} gold" if kind == "company" else ""))
        elif kind == "income":
            lines.append(f"income {e['income']}, upkeep {e['upkeep']}, loans {e['loans']}")
        elif kind == "score":
            lines.append("scoring: " + ", ".join(f"{p} +{v} = {t}" for p, v, t in zip(powers, e["vp"], e["total"])))
        elif kind == "end":
            lines.append("end: " + ", ".join(f"{p} {b} VP, unrest {u}{' REVOLUTION' if r else ''} -> {v}"
                                             for p, b, u, r, v in zip(powers, e["vp_before"], e["unrest"],
                                                                      e["revolution"], e["vp"])))
    return lines


def helping(helpers: dict[str, list[int]]) -> str:
    """SOE-12.5: each ally's committed armies and fleets, or "none"."""
    return ", ".join(f"{p} " + " and ".join(count(n, *names) for n, names in zip(c, (("army", "armies"), ("fleet", "fleets")))
                                            if n)
                     for p, c in helpers.items()) or "none"


def row_name(row: int) -> str:
    return ROW_NAMES.get(row, "lower")


def proposal(pair: list[int], single: bool, name: Callable[[int], str]) -> str:
    """A bid's proposal (SOE-6.4): two seats for the upper and lower rows, or -- with one
    player left outside the rows (SOE-A4) -- that seat and the row the bid puts it in."""
    if single:
        who, row = pair
        return f"{name(who)} -> {row_name(row)}"
    return f"{name(pair[0])} -> upper, {name(pair[1])} -> lower"
