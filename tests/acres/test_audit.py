"""The AFAoS player audit hooks (sim/acres/audit.py): forecasts of sieges (AFS-8) and raids
(AFS-9) against their outcomes, coverage items, waste."""

from __future__ import annotations

import pytest

from sim.acres import audit, play
from sim.core import audit as core_audit
from sim.core.replay import read_games
from sim.core.seating import Seating

HEAD = {"powers": ["french", "british"], "strategies": ["raider", "hammer+ban:rangers"]}


def test_afs_8_9_siege_forecast_is_scored_by_whether_the_location_was_taken():
    events = [
        {"event": "action", "turn": 1, "side": 0, "action": "Besiege", "target": "louisbourg", "p_win": 0.7},
        {"event": "siege_won", "turn": 3, "side": 0, "role": "attacker", "location": "louisbourg"},
        {"event": "siege_over", "turn": 3, "track": 0, "winner": 0},
        {"event": "action", "turn": 5, "side": 0, "action": "Besiege", "target": "quebec", "p_win": 0.4},
        {"event": "siege_over", "turn": 6, "track": 0, "winner": 1},
        {"event": "action", "turn": 7, "side": 0, "action": "Besiege", "target": "quebec", "p_win": 0.5},
    ]
    rec = audit.audit_records(HEAD, events)
    # seat 1 is British (side 0); the last siege is still running at the end: no record
    assert [(f.strategy, f.kind, f.predicted, f.happened) for f in rec.forecasts] == [
        ("hammer", "siege", 0.7, True), ("hammer", "siege", 0.4, False)]
    assert ("hammer", 1, "action:Besiege") in rec.chosen


def test_afs_9_6_raid_forecast_blocked_raid_and_assets_chosen():
    events = [
        {"event": "action", "turn": 2, "side": 1, "action": "Raid", "target": "deerfield", "cards": ["coureurs_de_bois"],
         "p_win": 0.8},
        {"event": "raid", "turn": 2, "side": 1, "location": "deerfield", "cards": ["coureurs_de_bois"],
         "blocked": "rangers"},
        {"event": "action", "turn": 2, "side": 1, "action": "Recruit", "card": "priest"},
        {"event": "action", "turn": 3, "side": 0, "action": "Settle", "target": "halifax", "via": "boston"},
        {"event": "action", "turn": 3, "side": 0, "action": "Pass"},
    ]
    rec = audit.audit_records(HEAD, events)
    assert [(f.strategy, f.kind, f.happened) for f in rec.forecasts] == [("raider", "raid", False)]
    assert rec.wasted == [("raider", "raid_blocked")]
    assert ("raider", 0, "asset:priest") in rec.chosen and ("hammer", 1, "asset:halifax") in rec.chosen
    assert rec.actions == [("raider", "Raid", True), ("raider", "Recruit", True), ("hammer", "Settle", True),
                           ("hammer", "pass", True)]               # turns 2 and 3: the game's last two


def test_afs_13_2_a_discard_for_want_of_anything_better_is_idle_a_dead_card_thinned_is_not():
    events = [
        {"event": "action", "turn": 1, "side": 0, "action": "Discard", "cards": ["militia"], "idle": True},
        {"event": "action", "turn": 1, "side": 0, "action": "Discard", "cards": ["fort_halifax"]},
        {"event": "action", "turn": 2, "side": 1, "action": "Pass"},
    ]
    rec = audit.audit_records(HEAD, events)
    assert [kind for _, kind, _ in rec.actions] == [core_audit.CYCLE, "Discard", "pass"]
    assert ("hammer", 1, "action:Discard") in rec.chosen        # still a use of the Discard action


def test_scripted_players_mark_their_idle_cycles_and_the_audit_counts_them(logged):
    """Engine version 15: the scripted cycle of a side with nothing worth doing is logged `idle`
    and counted as idleness; their dead-card discards are not."""
    summary = core_audit.summarise([(head["strategies"], rec) for head, rec in logged], play.audit_items())
    shares = {name: v["cycle_share"] for name, v in summary["idle"].items()}
    assert all(0.0 < share < 1.0 for share in shares.values()), shares


def test_audit_items_are_every_asset_and_every_action_kind():
    items = play.audit_items()
    assert {f"asset:{k}" for k in play.asset_costs()} <= set(items)
    assert {"action:Besiege", "action:Raid", "action:Recruit", "action:Pass", "action:PlayLeader"} <= set(items)
    assert len(items) == len(set(items))


@pytest.fixture(scope="module")
def logged(tmp_path_factory):
    log = tmp_path_factory.mktemp("audit") / "games.jsonl"
    seatings = [Seating(("british", "french"), ("hammer", "raider"))] * 6
    play.play_games(5, list(range(6)), seatings, log=log)
    return [(head, play.audit_records(head, events)) for head, events in read_games(log)]


def test_scripted_sieges_and_raids_log_their_forecasts(logged):
    forecasts = [f for _, rec in logged for f in rec.forecasts]
    assert {f.kind for f in forecasts} == {"siege", "raid"}
    assert all(0.0 <= f.predicted <= 1.0 for f in forecasts)
    assert "hammer" in {f.strategy for f in forecasts if f.kind == "siege"}     # the raider besieges at good odds too
    summary = core_audit.summarise([(head["strategies"], rec) for head, rec in logged], play.audit_items())
    assert summary["games"] == 6 and set(summary["coverage"]) == {"hammer", "raider"}
    assert summary["coverage"]["hammer"]["action:Besiege"] > 0


def test_audit_item_powers_follow_the_cards_and_the_rules_in_force():
    """AFS-11.1, AFS-12.4, AFS-13.1, AFS-13.6: one-side cards and actions belong to their side;
    actions of a variant or option are open to nobody while it is off (AFS-18)."""
    powers = play.audit_item_powers()
    assert powers["asset:coureurs_de_bois"] == ("french",) and powers["asset:rangers"] == ("british",)
    assert powers["asset:native_americans"] == ("british", "french")              # a neutral card
    assert powers["action:Piracy"] == ("french",) and powers["action:Intendant"] == ("french",)
    assert powers["action:Steal"] == ("british", "french")          # Indian Leader / Priest
    assert powers["action:FurCoin"] == () and powers["action:GiveUp"] == ()
    on = play.audit_item_powers(play.load_data(overrides=("rules.variants.scen11=true",
                                                          "options.defender_may_withdraw=true")))
    assert on["action:FurCoin"] == ("british", "french") and on["action:GiveUp"] == ("british", "french")
    assert set(play.audit_items()) - set(powers) <= {f"action:{a}" for a in audit.ACTIONS}


def test_audit_of_side_bound_strategies_does_not_count_the_other_sides_cards(logged):
    summary = core_audit.summarise([(head["strategies"], rec) for head, rec in logged], play.audit_items(),
                                   play.audit_item_powers(), play.strategy_sides())
    assert "asset:coureurs_de_bois" in summary["not_applicable"]["hammer"]
    assert "asset:coureurs_de_bois" not in summary["never_chosen"]["hammer"]
    assert "asset:rangers" in summary["not_applicable"]["raider"]
    assert set(summary["unavailable"]) == {"action:FurCoin", "action:DropLost", "action:GiveUp"}
