"""Worked examples AFS-E1, E2, E3 and E23 through the engine (AFS-7 settle and develop)."""

import pytest

from sim.acres.actions import Develop, Settle
from sim.acres.choices import Choices
from sim.core.lockstep import RuleViolation
from tests.acres.engine_kit import FR, GB, Game


def test_example_afs_e1_settle_deerfield():
    """AFS-E1: New Haven (lists Deerfield by boat) + St. Mary's (boat) + Boston (settler)."""
    game = Game()
    nh, sm, bo, *_ = game.hand(GB, "new_haven", "st_marys", "boston", "norfolk", "pemaquid")
    deerfield = game.loc("deerfield")
    cubes = game.s.cubes[0][GB]
    game.act(GB, Settle(deerfield, nh, sm, bo))
    assert game.s.control[0][deerfield] == GB + 1 and game.s.cubes[0][GB] == cubes - 1
    assert {nh, sm, bo} <= set(game.s.discard[0][GB])
    assert game.t.kind[game.s.discard[0][GB][-1]].key == "deerfield"          # on top of the discards
    assert len(game.s.hand[0][GB]) == 2


@pytest.mark.parametrize("broken", ["no settler", "transport without boat", "not neutral", "no cube"])
def test_example_afs_e1_illegal_settles(broken):
    game = Game()
    nh, sm, bo, nf, _ = game.hand(GB, "new_haven", "st_marys", "boston", "norfolk", "pemaquid")
    deerfield = game.loc("deerfield")
    action = Settle(deerfield, nh, sm, bo)
    if broken == "no settler":
        action = Settle(deerfield, nh, sm)
    elif broken == "transport without boat":
        action = Settle(deerfield, nh, nf, bo)                                 # Norfolk: ship, no boat
    elif broken == "not neutral":
        game.control("deerfield", FR)
    else:
        game.s.cubes[0][GB] = 0
    with pytest.raises(RuleViolation):
        game.act(GB, action)


def test_example_afs_e2_settle_fort_niagara_without_settler():
    """AFS-E2: Fort Frontenac (connected by river to Quebec) + Bateaux; Fort Niagara needs no settler."""
    game = Game()
    game.control("fort_frontenac", FR)
    ff, bt = game.hand(FR, "fort_frontenac", "bateaux")
    niagara = game.loc("fort_niagara")
    cubes = game.s.cubes[0][FR]
    game.act(FR, Settle(niagara, ff, bt))
    assert game.s.control[0][niagara] == FR + 1 and game.s.cubes[0][FR] == cubes - 1
    assert game.t.kind[game.s.discard[0][FR][-1]].key == "fort_niagara"
    assert {ff, bt} <= set(game.s.discard[0][FR])


def test_example_afs_e3_develop_albany_oswego_but_not_fort_stanwix():
    """AFS-E3: Albany's own card + St. Mary's (settler): the cube back, a disc on Albany."""
    game = Game()
    game.control("albany", GB)
    al, sm = game.hand(GB, "albany", "st_marys")
    albany = game.loc("albany")
    cubes, discs = game.s.cubes[0][GB], game.s.discs[0][GB]
    game.act(GB, Develop(albany, al, sm))
    assert game.s.town[0][albany] and game.s.cubes[0][GB] == cubes + 1 and game.s.discs[0][GB] == discs - 1
    assert game.e.location_vp(0, GB) == 17 + 8          # AFS-E21's starting 17 (Boston, New York towns), Albany 4 x 2
    for key, legal in (("oswego", True), ("fort_stanwix", False)):
        game.control("albany", GB)
        game.control("fort_stanwix", GB)
        game.control(key, GB)
        card, settler = game.hand(GB, key, "new_york")
        ok = game.e.develop_ok(0, GB, Develop(game.loc(key), card, settler))
        assert ok == legal, key


def test_example_afs_e23_regaining_a_raided_village():
    """AFS-E23: raided Pemaquid is neutral, its card stays in the cycle unplayable; settling it
    again (Boston lists it by ship, a ship card, a settler card) gives no second card."""
    game = Game()
    pemaquid = game.loc("pemaquid")
    game.control("pemaquid", None)
    game.s.captured[0][FR][0] += 1
    pm = game.card(GB, "pemaquid")
    assert not game.e.playable(0, GB, pm)
    bo, nh, ph = game.hand(GB, "boston", "new_haven", "philadelphia")
    game.act(GB, Settle(pemaquid, bo, nh, ph))
    assert game.s.control[0][pemaquid] == GB + 1
    assert [c for c in range(game.t.n_cards) if game.t.kind[c].key == "pemaquid" and game.t.start_side[c] == GB] == [pm]
    assert game.s.discard[0][GB][-3:] == [bo, nh, ph]                          # no card added
    assert game.e.playable(0, GB, pm)


@pytest.mark.parametrize("card", ["trader", "regular_infantry"])
def test_afs_7_2_2_an_empire_card_develops_no_village(card):
    """AFS-7.2.2: a village is developed with its own location card. An empire card has no
    location (index -1) and never stands for the last location, Michillimackinac, nor is a
    target of -1 a location."""
    game = Game()
    game.control("michillimackinac", FR)
    empire, quebec = game.hand(FR, card, "quebec")
    target = game.loc("michillimackinac")
    assert Choices(game.e, 0, FR, 2).list("develop") == []
    for action in (Develop(target, empire, quebec), Develop(-1, empire, quebec)):
        with pytest.raises(RuleViolation):
            game.act(FR, action)
    assert not game.s.town[0][target]

