"""What a logged Age of Discovery game shows of its players, for the player audit
(sim.core.audit): every scripted expedition's exact forecast of success (AOD-8.3, the odds of
sim.discovery.discovery) against its result, every building bought (AOD-14), box used (AOD-5),
specialist trained (AOD-6.7) and conflict fought (AOD-9); the passes of the decisions that may
pass (buy, expedition, training ground, conflict; AOD-21); and the resources left idle: units
left in the Discovery box by a pass in the last round (AOD-8.6) and dollars left at the end.
"""

from __future__ import annotations

from sim.core.audit import AuditRecords, Forecast, base_strategy
from sim.discovery.components import UNIT_TYPES
from sim.discovery.state import BOXES

CONFLICTS = ("battle", "war")                                                    # AOD-9.2, AOD-9.3
PASSABLE = {"buy": "building", "expedition": "party", "conflict": "kind"}        # field None = a pass


def audit_records(head: dict, events: list[dict]) -> AuditRecords:
    """The audit records of one game from its log (its header and events)."""
    strategies = [base_strategy(s) for s in head["strategies"]]
    last = max((e["round"] for e in events), default=0)
    rec = AuditRecords()
    for e in events:
        kind, seat = e["event"], e.get("seat")
        if seat is None:
            if kind == "final":
                rec.wasted += [(strategies[p], "dollars_left") for p, m in enumerate(e["money"]) for _ in range(m)]
            continue
        name = strategies[seat]
        late = e["round"] == last
        if kind == "place":
            rec.chosen.append((name, seat, f"box:{e['box']}"))
        elif kind == "train":
            if e["unit"] is not None:
                rec.chosen.append((name, seat, f"train:{UNIT_TYPES[e['unit']]}"))
            if e["paid"] or e["unit"] is None:                                  # the training ground's choice
                rec.actions.append((name, "pass" if e["unit"] is None else "train", late))
        elif kind in PASSABLE:
            passed = e[PASSABLE[kind]] is None
            rec.actions.append((name, "pass" if passed else kind, late))
            if kind == "buy" and not passed:
                rec.chosen.append((name, seat, f"building:{e['building']}"))
            elif kind == "conflict" and not passed:
                rec.chosen.append((name, seat, f"conflict:{e['kind']}"))
            elif kind == "expedition" and passed and late:
                rec.wasted.append((name, "discovery_units_left"))
            elif kind == "expedition" and not passed:
                rec.chosen.append((name, seat, "expedition:cards" if e["target"] == "cards" else "expedition:token"))
                if "p_win" in e:
                    rec.forecasts.append(Forecast(name, "expedition", e["p_win"], e["success"]))
    return rec


def audit_items(building_keys: list[str]) -> list[str]:
    """Every item an Age of Discovery player could choose: each building, box, specialist,
    conflict kind and expedition target kind."""
    return [*(f"building:{k}" for k in sorted(building_keys)), *(f"box:{b}" for b in BOXES),
            *(f"train:{u}" for u in UNIT_TYPES[1:]), *(f"conflict:{k}" for k in CONFLICTS),
            "expedition:token", "expedition:cards"]
