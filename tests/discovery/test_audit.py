"""What the player audit reads from an Age of Discovery log (sim.discovery.audit), the forecasts
the scripted explorers log (AOD-8.3 exact odds) and `empires audit discovery`."""

from __future__ import annotations

import json
from fractions import Fraction

from sim.cli import main
from sim.core.design import rotation
from sim.discovery import play
from sim.discovery.audit import audit_items, audit_records
from sim.discovery.components import UNIT_TYPES
from sim.discovery.discovery import expedition_means, party_strength, token_pool

HEAD = {"event": "game", "game": "discovery", "game_index": 0, "seed": 1, "powers": ["yellow", "red"],
        "strategies": ["explorer+ban=mint", "random"]}


def ev(event: str, rnd: int = 1, **fields) -> dict:
    return {"event": event, "round": rnd, **fields}


def test_forecasts_choices_passes_and_idle_resources_aod_8_aod_21():
    events = [
        ev("place", seat=0, unit=1, box="discovery", space=0), ev("place", seat=1, unit=0, box="capital", space=1),
        ev("buy", seat=1, building="mint", cost=10), ev("buy", seat=0, building=None, cost=0),
        ev("train", seat=0, unit=1, paid=0), ev("train", seat=1, unit=4, paid=5), ev("train", seat=1, unit=None, paid=0),
        ev("expedition", seat=0, party=[0, 1, 0, 0, 0], target="peru", item="T03", strength=2, natives=2,
           success=True, money=1, p_win=0.625),
        ev("expedition", seat=1, party=[1, 0, 0, 0, 0], target="cards", item="C01", strength=1, natives=3,
           success=False, money=0),                                                        # no forecast logged
        ev("conflict", seat=1, kind="battle", opponent=0, regions=["peru"]),
        ev("expedition", 8, seat=0, party=None), ev("conflict", 8, seat=1, kind=None),
        ev("final", 8, vp=[40, 30], money=[2, 0], winners=[0])]
    rec = audit_records(HEAD, events)
    assert [(f.strategy, f.kind, f.predicted, f.happened) for f in rec.forecasts] == [("explorer", "expedition", 0.625, True)]
    assert {("explorer", 0, "box:discovery"), ("random", 1, "box:capital"), ("random", 1, "building:mint"),
            ("explorer", 0, "train:captain"), ("random", 1, "train:soldier"), ("explorer", 0, "expedition:token"),
            ("random", 1, "expedition:cards"), ("random", 1, "conflict:battle")} == set(rec.chosen)
    assert rec.actions == [("random", "buy", False), ("explorer", "pass", False), ("random", "train", False),
                           ("random", "pass", False), ("explorer", "expedition", False), ("random", "expedition", False),
                           ("random", "conflict", False), ("explorer", "pass", True), ("random", "pass", True)]
    assert rec.wasted == [("explorer", "discovery_units_left"), ("explorer", "dollars_left"), ("explorer", "dollars_left")]


def test_audit_items_name_every_building_box_and_specialist_aod_14():
    items = audit_items(list(play.asset_costs()))
    assert {f"building:{k}" for k in play.asset_costs()} <= set(items)
    assert {"box:discovery", "box:warfare", "train:captain", "conflict:war", "expedition:cards"} <= set(items)
    assert len(items) == len(set(items))


def test_scripted_forecasts_are_the_exact_odds_of_the_seats_view_aod_8_3():
    """Every logged forecast of a game's first expedition equals the discovery kernel's exact
    success probability over all 16 tokens (nothing is seen yet) for the logged party."""
    comp = play.components_of(None)
    seatings = rotation(play.INFO.powers, 4, ["explorer", "colonist", "merchant", "builder"], 6)
    engine = play.new_engine(comp, seatings, 4, list(range(6)), log=True)
    engine.play()
    checked = 0
    for _, events in engine.game_logs():
        launched = [e for e in events if e["event"] == "free_discovery" or e["event"] == "expedition" and e["party"]]
        first = launched[0] if launched and launched[0]["event"] == "expedition" else None
        if first is None or first["target"] == "cards" or "p_win" not in first:
            continue
        strength, soldiers = party_strength(dict(zip(UNIT_TYPES, first["party"])), comp.units)
        exact, _, _ = expedition_means(token_pool(comp), strength, soldiers)
        assert Fraction(first["p_win"]).limit_denominator(16) == exact
        checked += 1
    assert checked > 0


def test_audit_command_json_aod(capsys):
    assert main(["audit", "discovery", "--games", "8", "--seed", "2", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["games"] == 8 and result["provenance"]["engine_version"] >= 5
    assert set(result["coverage"]) == set(play.INFO.lineup)
    assert sum(b["n"] for b in result["calibration"]) > 0
