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
COE-5.2, COE-11.1), as a resource left unused; per turn, the units its land moves (steps
and road trips, COE-11) led straight back (`TurnMoves`; engine version 13 stopped most of them);
and each ransom offer for a captive General (COE-23) that the captor refused, of all offers made
(engine version 14: bids that rise after a refusal instead of one price a captor never accepts);
and every City razed (COE-19) as the item "raze". The chance a scripted seat weighed a City with
(the `city_risk` event) is not scored as a forecast: it is the chance the strongest neighbouring
force takes the City if it attacks, and whether an attack comes is the attacker's choice (of the
Cities weighed at 0.9 or more, 77 % were lost by the seat's next turn; of those attacked at under
0.1, 95 %: attackers come when they are ready), so neither rate is the forecast's event.
"""

from __future__ import annotations

from sim.conquest.purchase import ASSETS
from sim.core.audit import AuditRecords, Forecast, base_strategy
from sim.core.data import GameData

MOVES = ("step", "road", "board", "sail", "land")                                  # the logged move kinds
LAND_MOVES = ("step", "road")                                                      # a leader's moves on land
LED_BACK = "units led straight back"
LEFT_CAPTIVE = "Generals bid for, left captive"


class TurnMoves:
    """One turn's land moves of the active seat: the units they moved, and those led straight
    back, along a move made earlier that turn in the other direction (the units of both moves
    alike, type by type, whichever leader led them). Moves out of the seat's home are left out:
    there, units a General brought in and units waiting alike are led out (COE-11.1)."""

    def __init__(self, home: str | None = None) -> None:
        self.home, self.made, self.moved, self.back = home, [], 0, 0

    def add(self, move: dict) -> None:
        units = move["units"]
        self.moved += sum(units)
        if move["src"] != self.home:
            self.back += max((sum(map(min, units, m["units"])) for m in self.made
                              if m["src"] == move["dst"] and m["dst"] == move["src"]), default=0)
        self.made.append(move)


def audit_records(head: dict, events: list[dict]) -> AuditRecords:
    """The audit records of one game from its log (its header and events)."""
    strategies = [base_strategy(s) for s in head["strategies"]]
    rec = AuditRecords()
    pending: dict[str, float] = {}             # space -> forecast of the active seat's attack there
    fought: str | None = None                  # the space of the forecast battle being fought
    naval: float | None = None                 # the forecast of the naval battle being fought
    active = -1
    bought = False
    homes: list[str] = []
    moves = TurnMoves()
    for e in events:
        kind = e["event"]
        if kind == "setup":
            homes = e["homes"]
        elif kind in ("turn", "end"):
            if moves.moved:
                rec.unused.append((strategies[active], LED_BACK, moves.back, moves.moved))
            active, bought, pending, fought, naval = e.get("seat", -1), False, {}, None, None
            moves = TurnMoves(homes[active] if 0 <= active < len(homes) else None)
            if kind == "turn" and "unled" in e:
                rec.unused.append((strategies[active], "unled units", e["unled"], e["units"]))
        elif kind == "move":
            rec.chosen.append((strategies[active], active, f"move:{e['kind']}"))
            if "p_win" in e:
                pending.setdefault(e["dst"], e["p_win"])
            if e["kind"] in LAND_MOVES:
                moves.add(e)
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
        elif kind == "raze":
            rec.chosen.append((strategies[e["seat"]], e["seat"], "raze"))
        elif kind == "ransom":
            rec.unused.append((strategies[e["seat"]], LEFT_CAPTIVE, int(not e["accepted"]), 1))
    if moves.moved:                            # a log cut short after a turn's moves
        rec.unused.append((strategies[active], LED_BACK, moves.back, moves.moved))
    return rec


def audit_items(data: GameData | None = None) -> list[str]:
    """Every item a Conquest player could choose: each purchasable piece, each kind of move, razing
    a City (COE-19)."""
    return [*(f"buy:{item}" for item in ASSETS), *(f"move:{kind}" for kind in MOVES), "raze"]
