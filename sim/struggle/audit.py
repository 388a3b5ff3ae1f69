"""What a logged Struggle of Empires game shows of its players, for the player audit
(sim.core.audit): every scripted attack's forecast against its battle's result (SOE-12), every
tile taken (SOE-8, SOE-20.12), every action kind (SOE-7.2) and free action (SOE-7.3) chosen,
actions in and outside the last round of a war, and rebuilds that put a unit straight back where
it stood (SOE-9.5).
"""

from __future__ import annotations

from sim.core.audit import AuditRecords, Forecast, base_strategy

ACTIONS = ("attack", "build", "buy", "colonise", "move", "pass")                  # SOE-7.2
FREE = ("agriculture", "blockade", "company", "diplomacy")                       # SOE-7.3 free actions


def audit_records(head: dict, events: list[dict]) -> AuditRecords:
    """The audit records of one game from its log (its header and events)."""
    strategies = [base_strategy(s) for s in head["strategies"]]
    seat_of = {power: seat for seat, power in enumerate(head["powers"])}
    last = {}                                                    # war -> its last round with actions
    for e in events:
        if e["event"] == "action":
            last[e["war"]] = max(last.get(e["war"], 0), e["round"])
    rec = AuditRecords()
    pending: tuple[int, float] | None = None                      # (attacker seat, forecast)
    for i, e in enumerate(events):
        kind = e["event"]
        seat = e.get("seat")
        if kind == "action":
            rec.chosen.append((strategies[seat], seat, f"action:{e['kind']}"))
            rec.actions.append((strategies[seat], e["kind"], e["round"] == last[e["war"]]))
        elif kind == "attack":
            pending = (seat, e["p_win"]) if "p_win" in e else None
        elif kind == "battle" and pending is not None and seat_of.get(e["attacker"]) == pending[0]:
            rec.forecasts.append(Forecast(strategies[pending[0]], "attack", pending[1], e["winner"] == 1))
            pending = None
        elif kind in ("buy", "diplomacy"):
            rec.chosen.append((strategies[seat], seat, f"tile:{e['tile']}"))
        if kind in FREE:
            rec.chosen.append((strategies[seat], seat, f"action:{kind}"))
        if kind == "destroy" and _rebuilt_in_place(events, i):
            rec.wasted.append((strategies[seat], "rebuild_in_place"))
    return rec


def _rebuilt_in_place(events: list[dict], i: int) -> bool:
    """SOE-9.5: the unit destroyed at events[i] was rebuilt and moved straight back there, or
    destroyed at home and rebuilt there without its free move."""
    destroyed = events[i]
    for e in events[i + 1: i + 4]:
        if e["event"] == "move" and e.get("seat") == destroyed["seat"]:
            return e["src"] == "home" and e["dst"] == destroyed["region"] and e["unit"] == destroyed["unit"]
        if e.get("seat") != destroyed["seat"] or e["event"] == "action":
            break
    return destroyed["region"] == "home"


def audit_items(asset_keys: list[str]) -> list[str]:
    """Every item a Struggle of Empires player could choose: each tile, each action kind."""
    return [*(f"tile:{k}" for k in sorted(asset_keys)), *(f"action:{k}" for k in (*ACTIONS, *FREE))]
