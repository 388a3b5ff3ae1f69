"""Worked examples AFS-E20 and E21 through the engine (AFS-15 end and scoring)."""

from sim.acres.actions import Besiege
from tests.acres.engine_kit import FR, GB, Game


def test_example_afs_e20_game_end_by_captures_waits_for_no_siege():
    game = Game()
    game.s.captured[0][GB] = [4, 1]                                        # 4 cubes + 1 disc = 12 points
    game.control("halifax", GB)
    hx, ships, ri = game.hand(GB, "halifax", "ships", "regular_infantry")
    game.act(GB, Besiege(game.loc("louisbourg"), hx, ships, ri))
    assert not game.e.end_check(0, GB) and not game.s.over[0]              # a siege runs: play on
    game.s.siege_loc[0][GB] = -1
    game.s.siege_cards[0][GB][GB].clear()
    game.s.discard[0][GB].append(ri)
    assert game.e.end_check(0, GB) and game.s.over[0] and game.s.end_reason[0] == "captures"


def test_example_afs_e21_final_scoring_and_the_tie_rule():
    """GB 27 + 8 = 35, FR 33 + 2 = 35: the French win the tie."""
    game = Game()
    for key in ("albany", "halifax"):
        game.control(key, GB, town=key == "albany")
    game.control("quebec", FR, town=True)
    for key in ("fort_niagara", "fort_frontenac"):
        game.control(key, FR)
    game.s.captured[0][GB] = [2, 1]
    game.s.captured[0][FR] = [1, 0]
    game.e.score(0)
    assert game.e.totals[0] == [35, 35] and game.s.winner[0] == FR
