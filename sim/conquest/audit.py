"""What a logged Conquest of the Empire game shows of its players, for the player audit
(sim.core.audit): every scripted attack's exact forecast (the `p_win` of the step that starts a
land battle, COE-11.6) against the battle's result (COE-16), every item bought (COE-20: each
unit type and building), every kind of move made (COE-11, COE-12, COE-6.6), and the buying
phases (COE-20) that end with nothing bought while the treasury holds an infantry's price
(idle treasury: the audit's "pass").
"""

from __future__ import annotations

from sim.conquest.components import default_components
from sim.conquest.purchase import ASSETS
from sim.core.audit import AuditRecords, Forecast, base_strategy
from sim.core.data import GameData

MOVES = ("step", "road", "board", "sail", "land")                                  # the logged move kinds


def audit_records(head: dict, events: list[dict]) -> AuditRecords:
    """The audit records of one game from its log (its header and events)."""
    strategies = [base_strategy(s) for s in head["strategies"]]
    infantry = default_components().cost("infantry")
    rec = AuditRecords()
    multiplier = 1
    pending: dict[str, float] = {}             # space -> forecast of the active seat's attack there
    fought: str | None = None                  # the space of the forecast battle being fought
    active = -1
    treasury: int | None = None                # the active seat's talents after taxes (COE-18)
    bought = False
    for e in events:
        kind = e["event"]
        if kind in ("turn", "end"):
            _close_buying(rec, strategies, active, treasury, bought, infantry * multiplier)
            active, treasury, bought, pending, fought = e.get("seat", -1), None, False, {}, None
            multiplier = e.get("multiplier", multiplier)
        elif kind == "move":
            rec.chosen.append((strategies[active], active, f"move:{e['kind']}"))
            if "p_win" in e:
                pending.setdefault(e["dst"], e["p_win"])
        elif kind == "battle" and e["kind"] == "land" and e["attacker"] == active and e["space"] in pending:
            fought = e["space"]
        elif kind == "battle_end" and fought is not None and e["space"] == fought:
            rec.forecasts.append(Forecast(strategies[active], "attack", pending.pop(fought), e["winner"] == active))
            fought = None
        elif kind == "tax" and e["seat"] == active:
            treasury = e["treasury"]
        elif kind == "buy":
            bought = True
            rec.chosen.append((strategies[e["seat"]], e["seat"], f"buy:{e['item']}"))
    return rec


def _close_buying(rec: AuditRecords, strategies: list[str], seat: int, treasury: int | None, bought: bool,
                  cheapest: int) -> None:
    """A seat's buying phase (COE-20) as an action: "buy", or "pass" when it bought nothing
    though it held an infantry's price (at the turn's multiplier, COE-21)."""
    if seat < 0 or treasury is None:
        return
    kind = "buy" if bought or treasury < cheapest else "pass"
    rec.actions.append((strategies[seat], kind, False))


def audit_items(data: GameData | None = None) -> list[str]:
    """Every item a Conquest player could choose: each purchasable piece, each kind of move."""
    return [*(f"buy:{item}" for item in ASSETS), *(f"move:{kind}" for kind in MOVES)]
