"""`account(head, events)`: a readable text of one logged Age of Discovery game for `empires
replay` -- setup, each round's placements grouped by box, the resolution, income, scorings and
the final result."""

from __future__ import annotations

from collections.abc import Iterable

from sim.core.replay import article, headline
from sim.discovery.components import UNIT_TYPES


def account(head: dict, events: Iterable[dict]) -> list[str]:
    powers = head["powers"]

    def who(p: int) -> str:
        return powers[p]

    def unit(u: int) -> str:
        return UNIT_TYPES[u]

    def units(counts) -> str:
        return ", ".join(f"{k} {unit(u)}" for u, k in enumerate(counts) if k) or "nothing"

    lines = [headline(head)]
    current = None
    for e in events:
        kind = e["event"]
        if e.get("round") != current:
            current = e.get("round")
            lines.append(f"round {current}:")
        text = None
        if kind == "setup":
            text = (f"setup: turn order {', '.join(who(p) for p in e['order'])}; money "
                    f"{', '.join(f'{who(p)} ${m}' for p, m in enumerate(e['money']))}; buildings "
                    f"{', '.join(e['buildings'])}; goods {', '.join(e['goods'])}")
        elif kind == "bid":
            text = f"{who(e['seat'])} " + ("passes" if e["amount"] is None else f"bids ${e['amount']}")
        elif kind == "auction":
            text = f"auction: order {', '.join(who(p) for p in e['order'])}, Caribbean token {e['token']}"
        elif kind == "place":
            where = e["box"] + (f" space {e['space']}" if e["space"] else "")
            text = f"{who(e['seat'])} places {article(unit(e['unit']))} on {where}"
        elif kind == "university":
            text = (f"{who(e['seat'])} keeps the University for later" if e["track"] is None
                    else f"{who(e['seat'])} uses the University: first on {e['track']}")
        elif kind == "initiative":
            text = f"{who(e['seat'])} takes ${e['money']} from Initiative space {e['space']}"
        elif kind == "arrive":
            extra = (f", +${e['money']}" if e["money"] else "") + (f", +{e['colonists']} colonists" if e["colonists"] else "")
            how = "lands" if e["dock"] else "enters"
            text = f"{who(e['seat'])}: {e['count']} {unit(e['unit'])} {how} in {e['region']}{extra}"
        elif kind == "region_good":
            text = f"{who(e['seat'])} is first to 3 in {e['region']} and takes its {e['good']}"
        elif kind == "take_good":
            text = f"{who(e['seat'])} takes {e['good']}"
        elif kind == "ship":
            text = f"{who(e['seat'])} wins the merchant ship (strength {e['strength']})"
        elif kind == "buy":
            text = (f"{who(e['seat'])} buys nothing" if e["building"] is None
                    else f"{who(e['seat'])} buys {e['building']} for ${e['cost']}")
        elif kind == "free_discovery":
            text = f"{who(e['seat'])} discovers {e['region']} for free ({e['item']})"
        elif kind == "expedition" and e["party"] is None:
            text = f"{who(e['seat'])} sends no expedition"
        elif kind == "expedition":
            result = f"success, +${e['money']}" if e["success"] else "failure"
            text = (f"{who(e['seat'])} explores {e['target']} with {units(e['party'])} (strength {e['strength']}) "
                    f"against {e['item']} ({e['natives']} natives): {result}")
        elif kind == "train" and e["unit"] is None:
            text = f"{who(e['seat'])} does not pay for training"
        elif kind == "train":
            text = f"{who(e['seat'])} trains {article(unit(e['unit']))}" + (f" for ${e['paid']}" if e["paid"] else "")
        elif kind == "conflict" and e["kind"] is None:
            text = f"{who(e['seat'])} declares no conflict"
        elif kind == "conflict":
            text = f"{who(e['seat'])} declares {e['kind']} on {who(e['opponent'])}: {', '.join(e['regions'])}"
        elif kind == "fight":
            text = (f"fight in {e['region']}: {who(e['attacker'])} loses {units(e['attacker_losses'])}, "
                    f"{who(e['defender'])} loses {units(e['defender_losses'])}")
        elif kind == "income":
            paid = "paid" if e["paid"] else "scored as economy VP"
            text = (f"income ({paid}): sets {', '.join(f'{who(p)} ${m}' for p, m in enumerate(e['sets']))}; "
                    f"building bonuses {e['bonus']}")
        elif kind == "piracy":
            text = f"{who(e['seat'])} pays {who(e['owner'])} ${e['money']} (Piracy)"
        elif kind == "east_india":
            text = f"{who(e['seat'])} draws {e['good']} (East India Company)"
        elif kind == "move" and e["units"] is None:
            text = f"{who(e['seat'])} makes no {e['building']} move"
        elif kind == "move":
            text = f"{who(e['seat'])} moves {units(e['units'])} from {e['source']} to {e['target']} ({e['building']})"
        elif kind == "colony_scoring":
            text = "colony scoring: " + ", ".join(f"{who(p)} {v} VP" for p, v in enumerate(e["vp"]))
        elif kind == "refresh":
            text = (f"refresh: buildings {', '.join(e['buildings']) or 'none'}; goods {', '.join(e['goods']) or 'none'}"
                    + ("; a merchant ship waits" if e["ship"] else "; no merchant ship"))
        elif kind == "turn_order":
            text = f"next turn order: {', '.join(who(p) for p in e['order'])}"
        elif kind == "final":
            parts = ", ".join(f"{who(p)} {v} VP (colonies {e['colonies'][p]}, buildings {e['buildings'][p]}, "
                              f"discoveries {e['discoveries'][p]}, economy {e['economy'][p]}, ${e['money'][p]})"
                              for p, v in enumerate(e["vp"]))
            text = f"final: {parts}; winner {', '.join(who(p) for p in e['winners'])}"
        lines.append("  " + (text or f"{kind}: {e}"))
    return lines
