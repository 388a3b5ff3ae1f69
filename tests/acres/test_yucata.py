"""Decoding Yucata history pages (sim/acres/yucata.py): the five shared games, the id tables
against our data (AFS-16, AFS-19), the setup (AFS-4) and the scoring (AFS-15.3)."""

from collections import Counter

import pytest

from sim.acres import yucata
from sim.acres.components import SIDES, load
from sim.acres.record import NEUTRAL_PREFIX
from tests.acres.yucata_pages import MOVES, pages


@pytest.fixture(scope="module")
def games():
    return pages()


def test_all_five_games_decode_with_every_move(games):
    assert {name: len(g.moves) for name, g in games.items()} == MOVES
    for g in games.values():
        assert len(g.statuses) == len(g.moves)
        assert all(m.actions for m in g.moves)
        assert g.statuses[-1].end.over and not any(s.end.over for s in g.statuses[:-1])


def test_variants_and_edition_are_read(games):
    assert games["game_10348395.js"].variants == (1, 2, 7)
    assert games["game_10400521.js"].variants == (18,)
    assert games["game_8604012.js"].variants == ()
    assert {g.edition for g in games.values()} == {"second"}


def test_afs_19_id_tables_name_our_cards_and_locations():
    """Every Yucata id decodes to a card of our data, and the copies per kind (own and neutral)
    equal our box (AFS-16), the French Bateaux included (the edition decides where it starts)."""
    acres = load()
    assert set(yucata.LOCATIONS) == set(acres.locations)
    for side in SIDES:
        cards = acres.cards[side]
        assert {c for c in cards if cards[c].kind == "location"} == set(yucata.LOCATION_CARDS[side])
        copies = Counter(yucata.EMPIRE_CARDS[side]) + Counter(yucata.NEUTRAL_CARDS.values())
        assert dict(copies) == {c.id: c.start + c.supply for c in cards.values() if c.kind != "location"}


def test_afs_4_setup_matches_the_rules(games):
    """AFS-4.5 money, AFS-4.6 pieces, AFS-4.8 five-card hands, AFS-4.9 starting decks (second
    edition: the French start without Bateaux)."""
    acres = load()
    for g in games.values():
        start = g.start
        assert start.sides["british"].money == 12 and start.sides["french"].money == 5
        for loc, place in start.board.items():
            expected = acres.locations[loc].start
            got = "neutral" if place.owner is None else f"{place.owner[:2].replace('br', 'gb')}_{place.piece}"
            if not (loc in ("louisbourg", "quebec") and place.fort):
                assert got == expected, loc
        for side in SIDES:
            st = start.sides[side]
            deck = Counter(st.hand + st.draw)
            ours = Counter(acres.starting_deck(side).as_dict())
            if side == "french" and 22 not in g.variants:      # second edition (scenario 22: first)
                ours -= Counter(["bateaux"])
            if side == "british" and 7 in g.variants:          # scenario 7: British Bateaux
                ours += Counter(["bateaux"])
            assert deck == ours, (side, deck)
            assert len(st.hand) == 5


def test_afs_19_13_fort_variants_put_forts_at_setup(games):
    """Scenario 1 puts a fort in Louisbourg at setup (scenario 10 would in Quebec)."""
    g = games["game_10348395.js"]
    assert g.start.board["louisbourg"].fort and not g.start.board["quebec"].fort
    assert g.start.forts_left == 11
    assert not any(p.fort for p in games["game_8604012.js"].start.board.values())


def test_afs_15_3_our_scoring_equals_yucatas_recorded_points(games):
    """Where the page records the final points, our VP (locations doubled for towns, captures
    2 per cube and 4 per disc) equals them, for both sides."""
    checked = 0
    for g in games.values():
        for st in g.statuses[-1].sides.values():
            if st.recorded_points is not None:
                assert st.vp_locations + st.vp_captures == st.recorded_points
                checked += 1
    assert checked == 8


def test_afs_15_end_reasons_and_winners(games):
    ends = {name: (g.statuses[-1].end.winner, g.statuses[-1].end.reason) for name, g in games.items()}
    assert ends["game_10348395.js"] == ("french", "capital")
    assert ends["game_8604012.js"][1] == "resignation"
    for name in ("game_10400521.js", "game_10415909.js", "game_10506048.js"):
        sides = games[name].statuses[-1].sides
        totals = {s: st.vp_locations + st.vp_captures for s, st in sides.items()}
        assert ends[name][0] == max(SIDES, key=lambda s: (totals[s], s == "french"))
        assert ends[name][1] in ("pieces", "captures")


def test_moves_alternate_and_actors_match_the_status(games):
    """AFS-5.1: the players alternate; the only exception is Yucata's out-of-turn settle after a
    defender gives a siege up, and the interrupted turn is then recorded again whole."""
    for g in games.values():
        assert g.moves[0].side == "british"
        for a, b in zip(g.moves, g.moves[1:]):
            if b.raw.startswith("W") or a.raw.startswith("W"):
                continue
            assert a.side != b.side, (g.path, b.index)
        for m in g.moves:
            if m.continues is not None:
                assert g.moves[m.continues].actions == m.actions[:m.repeated]


def test_move_kinds_are_the_afs_5_7_catalogue(games):
    kinds = Counter(a.kind for g in games.values() for m in g.moves for a in m.actions)
    catalogue = {"settle", "develop", "fortify", "besiege", "reinforce", "leader", "raid", "ambush", "priest",
                 "take_money", "sea_trade", "trader", "piracy", "recruit", "discard", "reserve", "retrieve",
                 "governor", "intendant", "home_support", "withdraw", "pass"}
    assert catalogue <= set(kinds)
    assert set(kinds) - catalogue <= {"siege_won", "settle_after_siege", "resign", "fur"}


def test_first_move_decodes_to_our_names(games):
    """game 8604012, move 0: the British settle Fort Halifax with Pemaquid and St. Mary's."""
    move = games["game_8604012.js"].moves[0]
    (action,) = move.actions
    assert (move.side, action.kind, action.locations, action.cards) == \
        ("british", "settle", ("fort_halifax",), ("pemaquid", "st_marys"))
    after = games["game_8604012.js"].statuses[0]
    assert after.board["fort_halifax"].owner == "british"
    assert "fort_halifax" in after.sides["british"].discard


def test_neutral_cards_keep_their_prefix(games):
    held = {c for g in games.values() for s in g.statuses for st in s.sides.values() for c in st.discard}
    assert NEUTRAL_PREFIX + "native_americans" in held and "native_americans" in held
