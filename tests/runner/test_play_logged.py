"""`runner.play_logged`: games played with their event logs in slices on workers, each slice
read where it was played, the slices in game order and the same for any number of workers."""

from __future__ import annotations

from analyses.acres_humans import _logged, scripted_seatings
from sim.core import runner


def test_slices_come_back_in_game_order_and_the_same_for_any_jobs():
    listed = scripted_seatings(7)
    one = runner.play_logged("sim.acres.play", 3, listed, None, 1, _logged)
    two = runner.play_logged("sim.acres.play", 3, listed, None, 2, _logged)
    assert [len(part) for part in one] == [4, 3]            # two slices a worker (or for one process)
    assert [len(part) for part in two] == [2, 2, 2, 1]
    flat = [record for part in two for record in part]
    assert [head["game_index"] for head, _ in flat] == list(range(7))
    assert flat == [record for part in one for record in part] and all(events for _, events in flat)


def test_slices_are_capped_so_that_progress_shows(monkeypatch, capsys):
    monkeypatch.setattr(runner, "LOGGED_SLICE_GAMES", 2)
    parts = runner.play_logged("sim.acres.play", 3, scripted_seatings(5), None, 1, _logged, quiet=False)
    assert [len(part) for part in parts] == [2, 2, 1]
    assert "100% (5/5 games)" in capsys.readouterr().err


def test_no_games_read_nothing():
    assert runner.play_logged("sim.acres.play", 3, [], None, 2, _logged) == []
