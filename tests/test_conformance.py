"""The conformance suite (sim.core.conformance) over every registered game: Struggle of Empires
and the test games (the toy dice race and the synthetic tile game)."""

from __future__ import annotations

import pytest

from sim import games
from sim.core import conformance

GAMES = games.names()


def test_every_real_engine_and_the_test_games_are_checked():
    assert {"struggle", "conquest", "acres", "discovery", "toy", "tilegame"} <= set(GAMES)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("check", [conformance.check_contract, conformance.check_bad_input,
                                   conformance.check_results, conformance.check_determinism],
                         ids=lambda c: c.__name__)
def test_conformance(game, check):
    check(games.load(game))


FUZZ = [(g, n, shard) for g in GAMES for n in range(games.info(g).min_players, games.info(g).max_players + 1)
        for shard in range(conformance.fuzz_shards(games.info(g)))]


@pytest.mark.parametrize(("game", "players", "shard"), FUZZ)
def test_random_legal_fuzz_500_games_per_player_count_and_shard(game, players, shard):
    assert conformance.check_fuzz(games.load(game), player_counts=range(players, players + 1), shard=shard) == 500


@pytest.mark.parametrize("game", GAMES)
def test_random_legal_fuzz_plays_at_least_2000_games_per_game(game):
    """AFS-20, COE-31 (and every game): invariants after every step of at least 2,000 random-legal games."""
    assert sum(conformance.FUZZ_GAMES for g, *_ in FUZZ if g == game) >= 2_000


@pytest.mark.parametrize("game", GAMES)
def test_scripted_strategies_play_with_their_numbers_anywhere_within_their_bounds(game):
    """What `--set` and a tuning may ask of a table: its ends and between, every step checked."""
    assert conformance.check_strategy_bounds(games.load(game)) == 12


@pytest.mark.parametrize("game", GAMES)
def test_playing_makes_no_reference_cycles_so_the_collector_pause_leaks_nothing(game):
    checked = conformance.check_no_reference_cycles(games.load(game))
    assert checked == (game in ("struggle", "acres", "discovery", "conquest"))   # the test games pause nothing


@pytest.mark.parametrize("game", GAMES)
def test_hidden_information_is_never_read(game):
    checked = conformance.check_hidden_information(games.load(game))
    assert checked == (game in ("struggle", "acres", "discovery"))   # the test games have no hidden information


@pytest.mark.parametrize("game", GAMES)
def test_interventions_ban_force_and_grants(game):
    checked = conformance.check_interventions(games.load(game))
    assert checked == (game in ("struggle", "tilegame", "conquest", "acres", "discovery"))


@pytest.mark.parametrize("game", GAMES)
def test_logs_are_json_and_replay_renders_them(game):
    assert conformance.check_logs(games.load(game)) == 3


@pytest.mark.parametrize("game", GAMES)
def test_players_act_on_calibrated_forecasts(game):
    """A small player audit: no forecast bin of the players' attacks is off beyond chance."""
    assert conformance.check_calibration(games.load(game)) == (game in ("struggle", "discovery", "conquest", "acres"))
