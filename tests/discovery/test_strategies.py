"""Each scripted strategy (data/strategies.toml) beats the random-legal baseline: seated with
three random players, its win rate's 95 % Wilson interval lies above the fair share 1/4."""

import pytest

from sim.core.design import rotation
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


def test_general_fights_only_in_scoring_rounds_aod_22_7():
    """The general sends soldiers from the dock and fights in the rounds before the age
    scorings (AOD-22.7), never in the others."""
    seatings = rotation(play.INFO.powers, 4, ["general", "colonist", "merchant", "builder"], 8)
    engine = play.new_engine(play.components_of(None), seatings, 5, list(range(8)), log=True)
    engine.play()
    scorings = set(engine.rules["game"]["scoring_rounds"])
    fights = [e["round"] for head, events in engine.game_logs() for e in events
              if e["event"] == "conflict" and e["kind"] and head["strategies"][e["seat"]] == "general"]
    assert fights and set(fights) <= scorings
