"""The player audit hooks of Conquest of the Empire (sim.conquest.audit, docs/player_audit.md):
each scripted attack's logged forecast (COE-11.6) is paired with the battle it starts (COE-16),
every purchasable piece (COE-20) and move kind is an audit item, and idle buying phases count."""

from __future__ import annotations

import tempfile
from pathlib import Path

from sim.conquest.audit import audit_items, audit_records
from sim.conquest.play import INFO, load_data, play_games
from sim.conquest.purchase import ASSETS
from sim.core.replay import read_games
from sim.core.seating import Seating

GAMES = 8


def logged_games(lineup: tuple[str, ...]) -> list[tuple[dict, list[dict]]]:
    seatings = [Seating(INFO.powers[:len(lineup)], lineup[i % len(lineup):] + lineup[:i % len(lineup)])
                for i in range(GAMES)]
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "games.jsonl"
        play_games(5, list(range(GAMES)), seatings, log=log)
        return list(read_games(log))


def test_coe_11_6_every_forecast_pairs_a_scripted_step_with_its_land_battle():
    games = logged_games(INFO.lineup)
    data = load_data()
    n_forecasts = 0
    for head, events in games:
        rec = audit_records(head, events)
        battles = sum(e["event"] == "battle" and e["kind"] == "land" for e in events)
        assert len(rec.forecasts) <= battles
        for f in rec.forecasts:
            assert f.strategy in INFO.lineup and f.kind == "attack"
            assert data.get(f"strategies.{f.strategy}.min_win") <= f.predicted <= 1.0   # attacks at the threshold
        n_forecasts += len(rec.forecasts)
    assert n_forecasts > 0


def test_coe_20_random_players_forecast_nothing_and_every_choice_is_an_item():
    items = set(audit_items(load_data()))
    assert {f"buy:{a}" for a in ASSETS} <= items
    for head, events in logged_games(("random", "random", "random")):
        rec = audit_records(head, events)
        assert not rec.forecasts
        assert {item for _, _, item in rec.chosen} <= items
        turns = sum(e["event"] == "turn" for e in events)
        assert {kind for _, kind, _ in rec.actions} <= {"buy", "pass"} and len(rec.actions) <= turns
