"""Each scripted strategy (data/strategies.toml) beats the random-legal baseline: seated with
three random players, its win rate's 95 % Wilson interval lies above the fair share 1/4."""

import pytest

from sim.core.seating import Seating
from sim.core.stats import wilson_interval
from sim.discovery import play

GAMES = 48
SCRIPTED = [s for s in play.INFO.strategies if s != "random"]


@pytest.mark.parametrize("strategy", SCRIPTED)
def test_scripted_strategy_beats_random(strategy):
    powers = play.INFO.powers[:4]
    seatings = [Seating(powers, tuple(strategy if q == g % 4 else "random" for q in range(4))) for g in range(GAMES)]
    table = play.play_games(16, list(range(GAMES)), seatings)
    mine = table[table.strategy == strategy]
    low, _ = wilson_interval(int(mine.winner.sum()), len(mine))
    assert low > 0.25, f"{strategy}: {int(mine.winner.sum())} wins in {len(mine)} games"


def test_every_strategy_table_is_assumed_with_bounds():
    data = play.load_data()
    assumed = data.assumed(["strategies"])
    for strategy in SCRIPTED:
        assert any(path.startswith(f"strategies.{strategy}.") for path in assumed)
    assert set(SCRIPTED) == set(data.strategies)
