"""The conformance suite can fail: engines broken on purpose are caught by the check meant for
them (a player reading hidden unrest, a game whose rows depend on its batch, a ban that leaks)."""

from __future__ import annotations

import types

import pytest

from sim.core import conformance
from sim.struggle import play as struggle
from sim.struggle.scripted import ScriptedPlayer
from tests.runner import toygame


def test_a_player_reading_other_seats_hidden_unrest_is_caught(monkeypatch):
    """SOE-2.3: a scripted player whose sense of its own unrest is bent by everyone's true unrest."""
    def peeking(self, q: int) -> int:
        others = int(self.e.s.unrest[self.g].sum())                      # not in the View: a leak
        return int(self.e.s.unrest[self.g, q]) + others % 5

    monkeypatch.setattr(ScriptedPlayer, "unrest_of", peeking)
    with pytest.raises(AssertionError, match="hidden fields of other seats"):
        conformance.check_hidden_information(struggle)


def test_rows_that_depend_on_the_batch_are_caught(monkeypatch):
    honest = toygame.play_games

    def batch_dependent(root_seed, game_indices, seatings, data=None, log=None):
        table = honest(root_seed, game_indices, seatings, data, log)
        return table.assign(vp=table.vp + len(game_indices))             # a game's score sees its batch

    module = types.SimpleNamespace(**{k: getattr(toygame, k) for k in dir(toygame) if not k.startswith("__")})
    module.__name__ = toygame.__name__
    module.play_games = batch_dependent
    with pytest.raises(AssertionError, match="alone differs"):
        conformance.check_determinism(module)


def test_a_ban_that_leaks_is_caught(monkeypatch):
    honest = struggle.play_games

    def leaky(root_seed, game_indices, seatings, data=None, log=None):
        table = honest(root_seed, game_indices, seatings, data, log)
        banned = table.strategy.str.contains("ban=war_office")
        table.loc[banned, "tiles"] = "war_office"
        return table

    monkeypatch.setattr(struggle, "play_games", leaky)
    monkeypatch.setattr(struggle, "asset_costs", lambda data=None: {"war_office": {"gold": 2}})
    with pytest.raises(AssertionError, match="ban war_office"):
        conformance.check_interventions(struggle, games=2)


def test_the_focal_seat_of_an_intervention_game_plays_the_power_that_can_acquire_the_asset():
    """`asset_power` hook (games whose assets belong to one side, e.g. AFAoS's Priest)."""
    assert conformance.focal_powers(("a", "b", "c"), 2, None) == ("a", "b")
    assert conformance.focal_powers(("a", "b", "c"), 2, "b") == ("b", "a")
    assert conformance.focal_powers(("a", "b", "c"), 2, "c") == ("c", "a")
    assert conformance.focal_powers(("a", "b"), 2, "unknown") == ("a", "b")
