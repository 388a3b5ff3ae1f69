"""What a logged Conquest of the Empire game shows of its players, for the player audit
(sim.core.audit): every scripted attack's exact forecast (the `p_win` of the step that starts a
land battle, COE-11.6) against the battle's result (COE-16), kind "attack"; every naval battle a
scripted mover started on its exact forecast (the `p_win` of the naval `battle` event, COE-13.4)
against its result (won: his galleys alone left, COE-15), kind "naval"; every item bought (COE-20: each
unit type and building), every kind of move made (COE-11, COE-12, COE-6.6), and every buying
phase (COE-20) as an action: "buy", "pass" when it ends with nothing bought though some purchase
was legal and affordable (idle treasury), "none" when nothing could be bought (the log's
`no_purchase` event offered nothing: no unit of the colour's supply left, COE-2.3, or none
placeable, COE-22.8, and nothing else within the treasury); and, at the start of every turn, the
seat's land units that no leader of its could lead (beyond 7 per free leader standing with them,
COE-5.2, COE-11.1), as a resource left unused.
"""

from __future__ import annotations

from sim.conquest.purchase import ASSETS
from sim.core.audit import AuditRecords, Forecast, base_strategy
from sim.core.data import GameData

MOVES = ("step", "road", "board", "sail", "land")                                  # the logged move kinds


def audit_records(head: dict, events: list[dict]) -> AuditRecords:
    """The audit records of one game from its log (its header and events)."""
    strategies = [base_strategy(s) for s in head["strategies"]]
    rec = AuditRecords()
    pending: dict[str, float] = {}             # space -> forecast of the active seat's attack there
    fought: str | None = None                  # the space of the forecast battle being fought
    naval: float | None = None                 # the forecast of the naval battle being fought
    active = -1
    bought = False
    for e in events:
        kind = e["event"]
        if kind in ("turn", "end"):
            active, bought, pending, fought, naval = e.get("seat", -1), False, {}, None, None
            if kind == "turn" and "unled" in e:
                rec.unused.append((strategies[active], "unled units", e["unled"], e["units"]))
        elif kind == "move":
            rec.chosen.append((strategies[active], active, f"move:{e['kind']}"))
            if "p_win" in e:
                pending.setdefault(e["dst"], e["p_win"])
        elif kind == "battle" and e["kind"] == "land" and e["attacker"] == active and e["space"] in pending:
            fought = e["space"]
        elif kind == "battle" and e["kind"] == "naval" and "p_win" in e:
            fought, naval = e["space"], e["p_win"]
        elif kind == "battle_end" and fought is not None and e["space"] == fought:
            if naval is None:
                rec.forecasts.append(Forecast(strategies[active], "attack", pending.pop(fought), e["winner"] == active))
            else:
                rec.forecasts.append(Forecast(strategies[active], "naval", naval, e["winner"] == active))
            fought, naval = None, None
        elif kind == "buy":
            if not bought:                     # a buying phase with purchases (COE-20)
                rec.actions.append((strategies[e["seat"]], "buy", False))
            bought = True
            rec.chosen.append((strategies[e["seat"]], e["seat"], f"buy:{e['item']}"))
        elif kind == "no_purchase":
            rec.actions.append((strategies[e["seat"]], "pass" if e["offered"] else "none", False))
    return rec


def audit_items(data: GameData | None = None) -> list[str]:
    """Every item a Conquest player could choose: each purchasable piece, each kind of move."""
    return [*(f"buy:{item}" for item in ASSETS), *(f"move:{kind}" for kind in MOVES)]
