"""Yucata's readings as options (docs/acres_yucata.md, "Where Yucata differs"): each option is off
by default (the rules reference's reading) and changes what it should when on; the `yucata`
variant file turns them all on with the second edition."""

import pytest

from sim.acres import presets
from sim.acres.actions import GiveUp, HomeSupport, Pass
from sim.acres.choices import Choices
from sim.acres.play import load_data, rulebook_of
from sim.core.lockstep import RuleViolation
from tests.acres.engine_kit import FR, GB, Game


def opt(name: str, on: bool) -> Game:
    return Game([f"options.{name}={'true' if on else 'false'}"])


def siege(game: Game, att: int, key: str, p: int) -> None:
    """A running siege of `att` at `key` (held by the other side) with the marker at `p`."""
    game.control(key, 1 - att)
    game.s.siege_loc[0][att] = game.loc(key)
    game.s.siege_p[0][att] = p


def passing(game: Game, side: int, trace: list[str] | None = None) -> None:
    """The side's player passes every action decision (noting each ask in `trace`)."""
    def choose(choices: Choices) -> Pass:
        if trace is not None:
            trace.append("ask")
        return Pass()
    game.player(side).choose_action = choose


@pytest.mark.parametrize("bottom", [False, True])
def test_afs_13_7_home_support_draws_the_top_or_the_bottom_three(bottom):
    game = opt("home_support_from_bottom", bottom)
    (hs,) = game.hand(GB, "home_support", clear=False)
    pile = list(game.s.draw[0][GB])
    expected = pile[:3] if bottom else pile[-3:]
    game.act(GB, HomeSupport(hs))
    assert set(expected) <= set(game.s.hand[0][GB]) and hs in game.s.discard[0][GB]
    assert game.s.draw[0][GB] == (pile[3:] if bottom else pile[:-3])


@pytest.mark.parametrize("on", [False, True])
def test_afs_8_12_2_the_defender_may_give_a_siege_up(on):
    game = opt("defender_may_withdraw", on)
    siege(game, GB, "port_royal", 0)
    ri = game.card(GB, "regular_infantry")
    game.move(ri, game.s.siege_cards[0][GB][GB])
    assert bool(Choices(game.e, 0, FR, 0).free_kinds().count("give_up")) == on
    if not on:
        with pytest.raises(RuleViolation):
            game.act(FR, GiveUp(), left=0)
        return
    assert game.act(FR, GiveUp(), left=0) == 0                          # a free action
    s = game.s
    assert s.siege_loc[0][GB] == -1 and s.captured[0][GB] == [1, 0]     # AFS-8.9.1: the attacker's win
    assert ri in s.discard[0][GB]                                       # AFS-8.11: the winner's cards
    assert game.events("give_up") and game.player(GB).asked == ["occupy"]


@pytest.mark.parametrize("on", [False, True])
def test_afs_8_8_a_capital_siege_won_at_the_end_of_the_defenders_turn(on):
    game = opt("capital_siege_at_turn_end", on)
    siege(game, FR, "boston", 2)
    game.s.turn[0] = 4
    passing(game, GB)
    game.e.turn(0)
    s = game.s
    assert s.over[0] == on
    if on:
        assert s.winner[0] == FR and s.end_reason[0] == "capital taken"
    else:
        assert s.active[0] == FR and s.siege_loc[0][FR] == game.loc("boston")


@pytest.mark.parametrize("at_turn_end", [False, True])
def test_afs_15_2_end_test_after_or_before_the_siege_checks(at_turn_end):
    """The British are out of cubes and win their siege at the start of their turn: the reference
    (A22) ends the game after that siege check; Yucata's end test, made before it, found a siege
    in progress."""
    game = opt("end_test_at_turn_end", at_turn_end)
    siege(game, GB, "port_royal", 3)
    game.s.cubes[0][GB] = 0
    game.s.turn[0] = 4
    passing(game, GB)
    game.e.turn(0)
    assert game.s.siege_loc[0][GB] == -1
    assert game.s.over[0] != at_turn_end
    if not at_turn_end:
        assert game.s.end_reason[0] == "cubes out"


@pytest.mark.parametrize("on", [False, True])
def test_afs_5_4_1_free_actions_after_the_refill(on):
    game = opt("free_actions_after_refill", on)
    game.move(game.card(GB, "militia"), game.s.reserve[0][GB])          # a Retrieve is always free
    game.s.turn[0] = 4
    trace: list[str] = []
    passing(game, GB, trace)
    game.e.on_step = lambda e, g, where: trace.append(where) if where == "refill" else None
    game.e.turn(0)
    assert trace[-1] == ("ask" if on else "refill")


def test_the_yucata_preset_is_the_second_edition_with_every_reading():
    book = rulebook_of(load_data(variants=[str(presets.YUCATA)]))
    s = book.settings
    assert book.edition == "second" and book.discs == (12, 9)
    assert not s["immediate_shuffle"] and not s["home_support_reshuffles"]
    assert all(s[k] for k in ("home_support_from_bottom", "defender_withdraws", "capital_siege_at_turn_end",
                              "end_test_at_turn_end", "free_after_refill"))
    default = rulebook_of(None).settings
    assert not any(default[k] for k in ("home_support_from_bottom", "defender_withdraws",
                                        "capital_siege_at_turn_end", "end_test_at_turn_end", "free_after_refill"))


def test_the_checkers_readings_are_the_engines_options():
    """record_checks reads RULES and YUCATA from the engine's rules, so the two cannot drift."""
    from sim.acres import record_checks as rc
    from sim.acres.yucata import PIECES
    assert rc.Readings.of(rulebook_of(None)) == rc.RULES
    assert rc.YUCATA.pieces == (PIECES["british"], PIECES["french"])
    assert rc.YUCATA.home_support_from_bottom and rc.YUCATA.reshuffle == "on_draw"


def test_afs_15_2_yucatas_end_test_ends_the_game_at_the_end_of_the_turn_before():
    """Under `end_test_at_turn_end` the French being out of cubes ends the game as the British
    turn ends, before any French siege check."""
    game = opt("end_test_at_turn_end", True)
    game.s.cubes[0][FR] = 0
    game.s.turn[0] = 4
    passing(game, GB)
    game.e.turn(0)
    assert game.s.over[0] and game.s.end_reason[0] == "cubes out" and game.s.turn[0] == 5
