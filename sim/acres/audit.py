"""What a logged A Few Acres of Snow game shows of its players, for the player audit
(sim.core.audit): each scripted siege's forecast (`p_win` of the Besiege action, the siege odds
of `siege.py` the player acted on) against whether the siege took the location (AFS-8.9), each
scripted raid's forecast that it goes unblocked against the raid's outcome (AFS-9.6), every
action kind, recruited card (AFS-13.1) and neutral location settled (AFS-7) chosen, actions in
and outside a side's last two turns, and the moves the log shows were wasted: a raid or ambush
blocked (its cards and fee spent for nothing, AFS-9.6, AFS-10.2) and a siege withdrawn (AFS-8.12).

A siege still running when the game ends has no outcome and no forecast record. An ambush's
forecast (`p_win` of the Ambush action, engine version 10: not blocked and a card taken) is logged
but not audited yet: its vulnerable-card part reads the opponent's unseen cards as equally likely
in hand, and the scripted British play their vulnerable cards soon after drawing them, so it is
optimistic (docs/acres_engine.md, "Ambush forecasts"); pooled with the others it would fail the
conformance check for a known cause.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, get_args

from sim.acres.actions import Action
from sim.acres.components import SIDES
from sim.acres.state import NEUTRAL_OWNER
from sim.core.audit import CYCLE, AuditRecords, Forecast, base_strategy

if TYPE_CHECKING:
    from sim.acres.rulebook import Rulebook

ACTIONS = tuple(kind.__name__ for kind in get_args(Action))          # AFS-5.7, the logged action names
LATE_TURNS = 2                                  # a game's last two turns: one of each side
# The actions that need a card with its own action (AFS-11.1, AFS-12.3, AFS-13.5-13.7): a side
# without such a card in play cannot choose them.
CARD_ACTIONS = {"Governor": ("governor",), "Intendant": ("intendant",), "HomeSupport": ("home_support",),
                "FurTrade": ("trader",), "Steal": ("priest", "indian_leader")}


def _idle_kind(e: dict) -> str:
    """An action's kind for the audit's idleness: a pass, a discard that only cycles the deck for
    want of anything worth doing (`idle`, engine version 15; AFS-13.2), else its name."""
    return "pass" if e["action"] == "Pass" else CYCLE if e.get("idle") else e["action"]


def audit_records(head: dict, events: list[dict]) -> AuditRecords:
    """The audit records of one game from its log (its header and events)."""
    strategies = [base_strategy(s) for s in head["strategies"]]
    seat_of_side = [head["powers"].index(side) for side in SIDES]
    last_turn = max((e["turn"] for e in events if "turn" in e), default=0)
    rec = AuditRecords()
    for i, e in enumerate(events):
        if e["event"] == "action":
            seat = seat_of_side[e["side"]]
            name = strategies[seat]
            rec.chosen.append((name, seat, f"action:{e['action']}"))
            rec.actions.append((name, _idle_kind(e), e["turn"] > last_turn - LATE_TURNS))
            if e["action"] in ("Recruit", "Settle"):          # only neutral locations are assets
                rec.chosen.append((name, seat, f"asset:{e['card'] if e['action'] == 'Recruit' else e['target']}"))
            if e["action"] == "Besiege" and "p_win" in e:
                took = _siege_taken(events, i, e["side"])
                if took is not None:
                    rec.forecasts.append(Forecast(name, "siege", e["p_win"], took))
            if e["action"] == "Raid" and "p_win" in e:
                rec.forecasts.append(Forecast(name, "raid", e["p_win"], _next(events, i, "raid")["blocked"] is None))
            if e["action"] == "Withdraw":
                rec.wasted.append((name, "siege_withdrawn"))
        elif e["event"] in ("raid", "ambush") and e.get("blocked") is not None:
            rec.wasted.append((strategies[seat_of_side[e["side"]]], f"{e['event']}_blocked"))
    return rec


def _next(events: list[dict], i: int, kind: str) -> dict:
    return next(e for e in events[i + 1:] if e["event"] == kind)


def _siege_taken(events: list[dict], i: int, side: int) -> bool | None:
    """Whether the siege begun at events[i] by `side` took its location (None: still running)."""
    for e in events[i + 1:]:
        if e["event"] == "siege_won" and e["side"] == side and e["role"] == "attacker":
            return True
        if e["event"] == "siege_over" and e["track"] == side:
            return False
    return None


def audit_items(asset_keys: list[str]) -> list[str]:
    """Every item an AFAoS player could choose: each recruitable card and neutral location (the
    asset interface), each action and free action kind."""
    return [*(f"asset:{k}" for k in sorted(asset_keys)), *(f"action:{k}" for k in ACTIONS)]


def audit_item_powers(book: Rulebook) -> dict[str, tuple[str, ...]]:
    """The sides that can choose each item under these rules (sim.core.audit): a card, the sides
    that can recruit it (its owner; a neutral card, both, AFS-13.1); a neutral location, the sides
    with a location card for it (AFS-7.1); an action of a special card, the sides that hold one;
    Piracy, the French (AFS-12.4); FurCoin and DropLost only under Scen11 / Scen17, GiveUp only
    under `options.defender_may_withdraw`. Cards a variant removes count for no one."""
    t = book.tables
    holds: dict[str, set[int]] = defaultdict(set)          # card key -> sides that may hold it
    recruits: dict[str, set[int]] = defaultdict(set)       # card key -> sides that may recruit it
    for c, kind in enumerate(t.kind):
        if book.zone[c] == "removed":
            continue
        sides = set(range(len(SIDES))) if kind.owner == NEUTRAL_OWNER else {kind.owner}
        holds[kind.special or kind.key] |= sides
        if book.zone[c] in ("empire", "neutral"):
            recruits[kind.key] |= sides
    steal = {0} & holds["indian_leader"] | {1} & holds["priest"]     # AFS-11.1
    sides: dict[str, set[int]] = {f"asset:{k}": v for k, v in recruits.items()}
    for i, loc in enumerate(t.locations):
        if loc.start == "neutral":
            sides[f"asset:{t.locs[i]}"] = {s for s in range(len(SIDES)) if i in t.loc_card[s]}
    everyone = set(range(len(SIDES)))
    sides |= {f"action:{a}": set().union(*(holds[k] for k in keys)) for a, keys in CARD_ACTIONS.items()}
    sides |= {"action:Steal": steal, "action:Piracy": {1},
              "action:FurCoin": everyone if book.variants[11] else set(),
              "action:DropLost": everyone if book.variants[17] else set(),
              "action:GiveUp": everyone if book.settings["defender_withdraws"] else set()}
    return {item: tuple(SIDES[s] for s in sorted(v)) for item, v in sides.items()}
