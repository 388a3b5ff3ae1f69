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


def scripted_seat(strategy: str = "colonist"):
    """A set-up two-seat game (scripted seat 0 against random) in round 7, the New World empty."""
    engine = play.new_engine(play.components_of(None), [Seating(play.INFO.powers[:2], (strategy, "random"))], 3, [0])
    engine.setup()
    s = engine.s.games[0]
    s.round = 7
    for here in s.world:
        for units in here:
            units[:] = [0] * len(units)
    return engine, s, engine.players[0][0]


def test_militia_is_valued_by_the_regions_where_the_seat_may_be_attacked_aod_9_6():
    """The Militia (AOD-9.6) is worth militia_weight per threatened region per round left:
    nothing without enemy soldiers beside own units, more with each such region."""
    from sim.discovery.state import COLONIST, SOLDIER
    engine, s, player = scripted_seat()
    assert player._building_value("militia") == 0.0
    s.world[0][0][COLONIST] = 3
    s.world[0][1][SOLDIER] = 1
    one = player._building_value("militia")
    s.world[1][0][COLONIST] = 1
    s.world[1][1][SOLDIER] = 2
    two = player._building_value("militia")
    left = engine.rules["game"]["rounds"] - s.round + 1
    assert one == pytest.approx(player.k["militia_weight"] * left) and two == pytest.approx(2 * one)


def test_migration_is_valued_by_its_best_move_aod_14_3():
    """Migration (AOD-14.3 / AOD-18.22) is worth migration_weight x the colony VP its best move
    of up to 2 own units would gain now: moving 2 units to where they make a majority."""
    from sim.discovery.state import COLONIST
    _, s, player = scripted_seat()
    s.discovered[:] = [True] * len(s.discovered)
    s.region_good[:] = [False] * len(s.region_good)
    assert player._building_value("migration") == 0.0
    s.world[0][0][COLONIST] = 2              # two colonists where nobody scores
    s.world[1][0][COLONIST] = 1
    s.world[1][1][COLONIST] = 2              # one short of a majority next door
    gain = player.region_gain(1, 2) - player.region_gain(0, -2)
    assert gain > 0
    assert player.best_migration() >= gain
    assert player._building_value("migration") == pytest.approx(player.k["migration_weight"] * player.best_migration())
