"""The scripted strategies of data/strategies.toml (COE-32): each beats the random-legal
baseline, seated once against three random players with seats rotating (Wilson 95 % interval
of its win rate above the 1/4 of an equal player), and their parameters are ASSUMED and bounded."""

import pytest

from sim.conquest.play import INFO, load_data, play_games
from sim.conquest.players import strategies
from sim.core.seating import Seating
from sim.core.stats import wilson_interval

GAMES = 32


@pytest.mark.parametrize("strategy", ["expansionist", "fortifier", "hunter", "siege_train"])
def test_each_scripted_strategy_beats_random(strategy):
    seatings = []
    for i in range(GAMES):
        lineup = ["random"] * 4
        lineup[i % 4] = strategy
        seatings.append(Seating(INFO.powers[:4], tuple(lineup)))
    table = play_games(11, list(range(GAMES)), seatings)
    mine = table[table.strategy == strategy]
    low, _ = wilson_interval(int(mine.winner.sum()), GAMES)
    assert low > 0.25, f"{strategy}: {mine.winner.mean():.2f} of {GAMES} games"


def test_the_four_strategies_of_the_issue_are_shipped():
    assert {"expansionist", "fortifier", "hunter", "siege_train"} <= set(strategies())


def test_every_strategy_parameter_is_assumed_with_bounds():
    data = load_data()
    for name in strategies():
        keys = [k for k in data.leaves if k.startswith(f"strategies.{name}.")]
        assert len(keys) == len(data.get(f"strategies.{name}"))
        for key in keys:
            leaf = data.leaves[key]
            assert leaf.status == "ASSUMED" and leaf.low is not None and leaf.high is not None, key
