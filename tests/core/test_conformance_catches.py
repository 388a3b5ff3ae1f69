"""The conformance suite can fail: engines broken on purpose are caught by the check meant for
them (a player reading hidden unrest, a game whose rows depend on its batch, a ban that leaks, a
player that breaks at one end of a parameter's bounds, a player that makes reference cycles)."""

from __future__ import annotations

import types

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.conquest import play as conquest
from sim.conquest.scripted import ScriptedPlayer as Caesar
from sim.core import conformance
from sim.core.errors import UserError
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


def test_a_player_that_makes_reference_cycles_is_caught(monkeypatch):
    """What the collector pause rests on: a player keeping a cycle per decision would leak while
    the engine plays with the collector paused."""
    honest = ScriptedPlayer.unrest_of

    def cyclic(self, q: int) -> int:
        loop: list = []
        loop.append(loop)                                                  # freed only by the collector
        return honest(self, q)

    monkeypatch.setattr(ScriptedPlayer, "unrest_of", cyclic)
    with pytest.raises(AssertionError, match="reference cycles"):
        conformance.check_no_reference_cycles(struggle, games=2)


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


def test_a_player_that_breaks_at_one_end_of_its_bounds_is_caught(monkeypatch):
    """COE-A7: the CotE guard of before, which asked the exact odds of a battle without defenders
    when a table kept no guard (`home_guard` 0, its low end), broke only under such a table."""
    honest = Caesar.guard_for

    def breaks_without_guard(self, here, threat, fortified):
        if self.k["home_guard"] == 0 and sum(threat):
            raise UserError("defender: a land battle needs at least one land unit per side")
        return honest(self, here, threat, fortified)

    monkeypatch.setattr(Caesar, "guard_for", breaks_without_guard)
    with pytest.raises(AssertionError, match="home_guard=0.*a land battle needs"):
        conformance.check_strategy_bounds(conquest, draws=6, games=2)


@settings(max_examples=20, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_drawn_tables_stay_within_their_bounds_and_load(seed):
    data = conquest.load_data()
    overrides = conformance.drawn_overrides(data, np.random.default_rng(seed))
    assert overrides and all(o.startswith("strategies.") for o in overrides)
    drawn = conquest.load_data(overrides)                 # validated as any --set
    for item in overrides:
        path = item.split("=")[0]
        leaf, value = data.leaves[path], drawn.get(path)
        assert leaf.low <= value <= leaf.high and type(value) is type(data.get(path))
