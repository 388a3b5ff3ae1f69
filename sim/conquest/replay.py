"""A readable account of Conquest of the Empire games from a JSONL event log (`empires play
conquest --log`): each turn with its moves, every battle round by round (formations, dice, hits,
losses), pursuit, captures, conquests, taxes, razing, purchases, inflation and the end."""

from __future__ import annotations

from collections.abc import Iterable

from sim.conquest.state import LEADERS
from sim.core.replay import article, count, headline

UNIT_NAMES = ("infantry", "cavalry", "catapult")
PLURALS = {"infantry": "infantry", "cavalry": "cavalry", "city": "cities"}   # the rest add an s


def pieces(n: int, item: str) -> str:
    """"1 catapult", "5 infantry", "2 cities"."""
    return count(n, item, PLURALS.get(item))


def units(counts) -> str:
    parts = [count(n, name, name if name in ("infantry", "cavalry") else None)   # the same in both numbers
             for n, name in zip(counts, UNIT_NAMES) if n]
    return ", ".join(parts) or "no units"


def dice(roll: dict) -> str:
    return " ".join(f"{k}x{v}" for k, v in sorted(roll.items())) or "-"


def leader(powers, ld: int) -> str:
    """A leader id (colour * 5 + index, index 0 the Caesar) in words."""
    colour, i = divmod(int(ld), LEADERS)
    who = powers[colour] if colour < len(powers) else f"colour {colour}"
    return f"{who} Caesar" if i == 0 else f"{who} General {i}"


def account(head: dict, events: Iterable[dict]) -> list[str]:
    """The text lines of one game."""
    powers = head["powers"]

    def name(seat) -> str:
        return powers[seat] if isinstance(seat, int) and 0 <= seat < len(powers) else "neutral"

    lines = [headline(head)]
    bought: tuple | None = None     # (seat, item, price, where, how many) of the last line, if a purchase
    for e in events:
        kind = e["event"]
        who = name(e.get("seat"))
        if kind == "buy" and bought is not None and bought[:4] == (e.get("seat"), e["item"], e["price"], e["where"]):
            bought = (*bought[:4], bought[4] + 1)        # the same purchase again: one line says how many
            lines[-1] = f"  {who} buys {pieces(bought[4], e['item'])} for {e['price'] * bought[4]} ({e['where']})"
            continue
        bought = (e.get("seat"), e["item"], e["price"], e["where"], 1) if kind == "buy" else None
        if kind == "setup":
            lines.append("setup: " + ", ".join(f"{p} in {h}" for p, h in zip(powers, e["homes"])))
        elif kind == "turn":
            lines.append(f"-- round {e['round']}: {who} (income {e['income']}, {e['talents']} talents, "
                         f"prices x{e['multiplier']})")
        elif kind == "move":
            lines.append("  " + move_line(e, powers))
        elif kind == "battle":
            if e["kind"] == "land":
                fort = " (fortified City)" if e["fortified"] else ""
                lines.append(f"  battle in {e['space']}{fort}: {name(e['attacker'])} {units(e['attacker_units'])} "
                             f"with {count(e['attacker_leaders'], 'leader')} vs {name(e['defender'])} "
                             f"{units(e['defender_units'])} with {count(e['defender_leaders'], 'leader')}")
            elif e["kind"] == "naval":
                lines.append(f"  naval battle in {e['space']}: {name(e['attacker'])} "
                             f"{count(e['attacker_galleys'], 'galley')} vs {name(e['defender'])} "
                             f"{count(e['defender_galleys'], 'galley')}")
            else:
                lines.append(f"  {name(e['attacker'])} finds {name(e['defender'])}'s leaders alone in {e['space']}")
        elif kind == "round":
            lines.append(f"    round {e['n']}: formations {units(e['attacker_formation'])} vs "
                         f"{units(e['defender_formation'])} (+{e['extra_dice']} fortification dice); "
                         f"rolls [{dice(e['attacker_roll'])}] vs [{dice(e['defender_roll'])}]; hits "
                         f"{e['attacker_hits']} / {e['defender_hits']}; lost {units(e['attacker_lost'])} / "
                         f"{units(e['defender_lost'])}")
        elif kind == "naval_round":
            lines.append(f"    round {e['n']}: hits {e['attacker_hits']} / {e['defender_hits']}")
        elif kind == "pursuit":
            lines.append(f"    pursuit by {who}: [{dice(e['roll'])}] {count(e['hits'], 'hit')}, "
                         f"destroys {units(e['destroyed'])}")
        elif kind == "retreat_split":
            lines.append(f"    {who} retreats in parts: " + "; ".join(
                f"{units(x['units'])} and {count(len(x['leaders']), 'leader')} to {x['to']}" for x in e["groups"]))
        elif kind == "battle_end":
            where = e.get("retreat")
            moved = f"; {name(where['seat'])} retreats to {where['to']}" if where else ""
            lines.append(f"    winner: {name(e['winner'])}{moved}")
        elif kind == "capture":
            fate = "captures" if e.get("caesar") else "holds" if e["held"] else "kills"
            lines.append(f"    {name(e['captor'])} {fate} {leader(powers, e['leader'])}")
        elif kind == "execution":
            lines.append(f"  {who} kills the captive {leader(powers, e['leader'])}")
        elif kind == "surrender":
            lines.append(f"  {who} surrenders to {name(e['to'])}")
        elif kind == "galleys_lost":
            lines.append(f"    galleys {e['galleys']} lost in {e['space']}")
        elif kind == "conquest":
            lines.append(f"  {who} takes {e['space']}" + (f" from {name(e['previous'])}" if e["previous"] >= 0 else ""))
        elif kind == "eliminated":
            heir = name(e["captor"]) if e["captor"] is not None else "nobody"
            lines.append(f"  {who} is eliminated; the empire passes to {heir}")
        elif kind == "tax":
            lines.append(f"  {who} collects {e['talents']} talents ({e['treasury']})")
        elif kind == "raze":
            lines.append(f"  {who} razes the City of {e['space']}")
        elif kind == "buy":
            lines.append(f"  {who} buys {article(e['item'])} for {e['price']} ({e['where']})")
        elif kind == "no_purchase":
            lines.append(f"  {who} buys nothing ({e['treasury']} talents; offered {', '.join(e['offered']) or 'nothing'})")
        elif kind == "place":
            lines.append(f"  {who} places {placed(e['pieces'])}")
        elif kind == "ransom":
            price = " and ".join([*([f"{e['talents']} talents"] if e["talents"] else []),
                                  *([leader(powers, e["swap"])] if "swap" in e else [])])
            lines.append(f"  {who} offers {price} to {name(e['captor'])} for {leader(powers, e['leader'])}: "
                         + ("accepted" if e["accepted"] else "refused"))
        elif kind == "inflation_triggered":
            lines.append(f"  {who} reaches {e['value']}: inflation {e['level']} triggered")
        elif kind == "inflation":
            lines.append(f"  prices are now x{e['multiplier']}")
        elif kind == "end":
            lines.append(f"end ({e['reason']}): survivors {', '.join(name(q) for q in e['alive']) or 'none'}; "
                         f"incomes {e['income']}")
    return lines


def placed(items: Iterable[tuple[str, str]]) -> str:
    """The pieces of a placement, counted by kind within each province, in the order placed:
    "5 infantry, 1 cavalry in macedonia; 1 galley in syria"."""
    where: dict[str, dict[str, int]] = {}
    for item, space in items:
        kinds = where.setdefault(space, {})
        kinds[item] = kinds.get(item, 0) + 1
    return "; ".join(", ".join(pieces(n, item) for item, n in kinds.items()) + f" in {space}"
                     for space, kinds in where.items())


def move_line(e: dict, powers) -> str:
    k = e["kind"]
    who = " and ".join(leader(powers, ld) for ld in e.get("leaders", [])) or "nobody"
    if k in ("step", "road"):
        how = "steps" if k == "step" else "rides the road"
        stop = " and stops" if e.get("stopped") else ""
        return f"{who} with {units(e['units'])} {how} {e['src']} -> {e['dst']}{stop}"
    if k == "board":
        boards = "board" if len(e.get("leaders", [])) > 1 else "boards"
        return f"{who} with {units(e['units'])} {boards} galley {e['galley']} in {e['src']}"
    if k == "sail":
        return f"galley {e['galley']} sails {e['src']} -> {e['dst']}"
    return f"galley {e['galley']} lands {who} with {units(e['units'])} in {e['dst']}"
