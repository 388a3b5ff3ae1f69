"""Consistency of imported records without an engine (sim/acres/record_checks.py): every move of
the five games is explained under Yucata's readings; each reading where Yucata differs from the
rules reference shows at the documented moves; corrupted records are caught at the right move."""

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from sim.acres import record_checks as rc
from sim.acres.components import load
from tests.acres.yucata_pages import MORE, page, pages


@pytest.fixture(scope="module")
def games():
    return pages()


def _moves(game, readings):
    return [f.move for f in rc.check(game, readings=readings)]


def test_every_move_of_the_five_games_is_explained_under_yucatas_readings(games):
    for name, game in games.items():
        assert rc.check(game, readings=rc.YUCATA) == [], name
    assert sum(len(g.moves) for g in games.values()) == 795


def test_every_move_of_four_more_games_is_explained_under_yucatas_readings():
    for name, moves in MORE.items():
        assert len(page(name).moves) == moves
        assert rc.check(page(name), readings=rc.YUCATA) == [], name


def test_afs_18_a21_yucata_lets_free_actions_follow_the_refill():
    """Game 9547143 move 39: two reinforcements, a retrieve, then the Leader after the refill
    (the hand ends with 4 cards and a draw pile to refill from)."""
    game = page("more/ph_9547143.js")
    readings = dataclasses.replace(rc.YUCATA, free_actions_after_refill=False)
    assert [(f.move, f.field) for f in rc.check(game, readings=readings)] == [(39, "sides.french.hand")]
    assert game.moves[39].actions[-1].kind == "leader" and len(game.statuses[39].sides["french"].hand) == 4


def test_an_attacker_may_leave_a_given_up_location_neutral():
    """Game 9575653 moves 82-84: the British give Port Royal up, the French do not settle it
    (`W` without a card), and the British turn is recorded again."""
    game = page("more/ph_9575653.js")
    (settle,) = game.moves[83].actions
    assert (settle.kind, settle.detail, game.moves[83].side) == ("settle_after_siege", {"settled": False}, "french")
    assert game.statuses[83].board["port_royal"].owner is None
    assert game.moves[84].continues == 82 and game.moves[84].repeated == 3


def test_afs_13_7_yucata_home_support_draws_the_bottom_cards(games):
    readings = dataclasses.replace(rc.YUCATA, home_support_from_bottom=False)
    moves = _moves(games["game_10348395.js"], readings)
    assert moves[:3] == [17, 27, 41]
    assert all(any(a.kind == "home_support" for a in games["game_10348395.js"].moves[m].actions) for m in moves)


def test_afs_18_a7_yucata_home_support_does_not_reshuffle(games):
    readings = dataclasses.replace(rc.YUCATA, home_support_reshuffles=True)
    assert _moves(games["game_10348395.js"], readings) == [15, 49, 53, 111]
    assert _moves(games["game_8604012.js"], readings) == [48]


def test_afs_18_a6_yucata_reshuffles_only_when_a_card_must_be_drawn(games):
    """Move 0 of game 8604012: the British refill empties the draw pile; the rules reference's
    immediate reshuffle would leave a full draw pile, Yucata leaves it empty."""
    readings = dataclasses.replace(rc.YUCATA, reshuffle="immediate")
    finding = rc.explain(games["game_8604012.js"], 0, readings=readings)
    assert finding.field == "sides.british.draw" and finding.got == []
    assert rc.explain(games["game_8604012.js"], 0, readings=rc.YUCATA) is None


def test_afs_1_1_yucata_gives_the_french_9_discs(games):
    """Game 10506048 ends after move 174 because the French have no disc left: with the
    rulebook's 12 French discs (AFS-1.1) they would still have 3."""
    readings = dataclasses.replace(rc.YUCATA, pieces=rc.RULES.pieces)
    (finding,) = rc.check(games["game_10506048.js"], readings=readings)
    assert (finding.move, finding.field, finding.expected, finding.got) == (174, "end", None, "pieces")


def test_readings_where_yucata_agrees_with_the_rules_are_exercised(games):
    """AFS-9.7 (a raided town keeps a cube) and AFS-8.9.3 (settling a won siege plays a settler
    card): the other reading is caught where real games used the rule."""
    town = dataclasses.replace(rc.YUCATA, raid_town_keeps_cube=False)
    assert _moves(games["game_10400521.js"], town) == [54]
    settler = dataclasses.replace(rc.YUCATA, siege_won_settler_card=False)
    assert _moves(games["game_10400521.js"], settler) == [76, 94]


def test_afs_18_a16_yucata_lets_the_defender_give_a_siege_up(games):
    """Move 119 of game 10415909: the French defender withdraws from Port Royal; the British
    take the cube (AFS-8.9) and settle out of turn at move 120."""
    game = games["game_10415909.js"]
    (withdraw,) = game.moves[119].actions
    assert withdraw.kind == "withdraw" and withdraw.detail["attacker"] == "british" and game.moves[119].side == "french"
    assert game.statuses[119].sides["british"].captured_cubes == game.statuses[118].sides["british"].captured_cubes + 1
    assert game.moves[120].actions[0].kind == "settle_after_siege" and game.moves[120].side == "british"


def _with_money(game, move, side, delta):
    snap = game.statuses[move]
    sides = dict(snap.sides)
    sides[side] = dataclasses.replace(sides[side], money=sides[side].money + delta)
    statuses = list(game.statuses)
    statuses[move] = dataclasses.replace(snap, sides=sides)
    return dataclasses.replace(game, statuses=tuple(statuses))


@given(st.integers(0, 95), st.sampled_from(["british", "french"]), st.integers(-3, 3).filter(bool))
def test_a_changed_status_is_the_first_unexplained_move(move, side, delta):
    """AFS-12 / AFS-13: any change of a side's money in one status is reported at that move
    (the moves before it are the real ones, all explained)."""
    game = _with_money(page("game_10400521.js"), move, side, delta)
    finding = rc.explain(game, move, readings=rc.YUCATA)
    assert finding.move == move and finding.field == f"sides.{side}.money"


def test_a_changed_move_is_the_first_unexplained_move(games):
    """Move 4 of game 8604012 takes money with Boston (2); recorded as New Haven instead, the
    money no longer adds up there."""
    game = games["game_8604012.js"]
    move = game.moves[4]
    settle, take = move.actions
    changed = dataclasses.replace(move, actions=(settle, dataclasses.replace(take, cards=("new_haven",))))
    moves = list(game.moves)
    moves[4] = changed
    finding = rc.first_unexplained(dataclasses.replace(game, moves=tuple(moves)), readings=rc.YUCATA)
    assert (finding.move, finding.field, finding.expected, finding.got) == (4, "sides.british.money", 4, 5)


def test_afs_18_a34_the_french_starting_infantry_is_recruited_again_for_nothing(games):
    """Game 10400521 moves 41 and 63 recruit the starting Regular Infantry a siege returned;
    only a start-copy cost of 0 (the data's ASSUMED value) explains their money."""
    priced = load(["cards.french.regular_infantry.start_copy_cost=7"])
    assert _moves(games["game_10400521.js"], rc.YUCATA) == []
    assert [f.move for f in rc.check(games["game_10400521.js"], acres=priced, readings=rc.YUCATA)] == [41, 63]
