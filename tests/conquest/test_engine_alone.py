"""The engine alone (`benchmarks.conquest_ceilings`): the scripted players' answers, recorded and
given back in order, play the very same games, since the players draw from their own streams and
the engine from its own (sim.core.random): what the ceiling times is the engine's part of the
bench's games, not other games."""

from benchmarks import conquest_ceilings


def test_recorded_answers_replay_the_same_games_and_another_seed_does_not():
    answers: conquest_ceilings.Answers = {}
    _, scripted = conquest_ceilings.play(3, answers, record=True, games=2)
    assert sum(len(q) for q in answers.values()) > 100            # every decision of two whole games
    _, replayed = conquest_ceilings.play(3, answers, games=2)
    assert replayed == scripted
    _, other = conquest_ceilings.play(4, games=2)
    assert other != scripted                                      # the board tells games apart
