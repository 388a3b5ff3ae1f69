"""`runner.play_logged`: games played with their event logs in slices on workers, each slice
read where it was played, the slices in game order and the same for any number of workers."""

from __future__ import annotations

from analyses.acres_humans import _logged, scripted_seatings
from sim.core import runner


def test_slices_come_back_in_game_order_and_the_same_for_any_jobs():
    listed = scripted_seatings(7)
    one = runner.play_logged("sim.acres.play", 3, listed, None, 1, _logged)
    two = runner.play_logged("sim.acres.play", 3, listed, None, 2, _logged)
    assert len(one) == 1 and len(two) == 4           # two slices a worker: 2 + 2 + 2 + 1 games
    flat = [record for part in two for record in part]
    assert [head["game_index"] for head, _ in flat] == list(range(7))
    assert flat == one[0] and all(events for _, events in flat)


def test_no_games_read_nothing():
    assert runner.play_logged("sim.acres.play", 3, [], None, 2, _logged) == []
