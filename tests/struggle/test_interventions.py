"""Interventions for causal experiments (sim.struggle.interventions): force, ban, grants."""

import pytest

from sim.core.errors import UserError
from sim.core.seating import Seating
from sim.struggle.play import new_engine
from sim.struggle.play import INFO, asset_costs, components_of, play_games

GAMES = range(12)


def focal_rows(spec: str, others: str = "mixed"):
    seatings = [Seating(INFO.powers[:4], (spec, others, others, others))] * len(GAMES)
    table = play_games(5, GAMES, seatings)
    return table[table["seat"] == 0], table[table["seat"] != 0]


def test_force_takes_the_tile_and_ban_never_does():
    """SOE-8: forcing takes the (single) War Office in every game; banning leaves it to others."""
    forced, others = focal_rows("mixed+force=war_office")
    assert forced["tiles"].str.contains("war_office").all()
    assert not others["tiles"].str.contains("war_office").any()
    banned, _ = focal_rows("random+ban=war_office", others="random")
    assert not banned["tiles"].str.contains("war_office").any()


def test_force_works_for_alliance_and_company_tiles():
    for tile in ("indians", "hudsons_bay_company"):
        if tile in asset_costs():
            forced, _ = focal_rows(f"mixed+force={tile}")
            assert forced["tiles"].str.contains(tile).all()


def test_grants_change_start_resources_only_for_the_focal_seat():
    """SOE-3 start values plus the grant; population capped by the track (SOE-2.4)."""
    comp = components_of(None)
    seatings = [Seating(INFO.powers[:3], ("mixed+grant_gold=3+grant_population=9+grant_unrest=2", "mixed", "mixed"))]
    engine = new_engine(comp, seatings, 1, [0])
    engine.setup()
    s = engine.s
    # Setup placement spends nothing, so start values plus grants are still in hand.
    assert s.gold[0, 0] == s.gold[0, 1] + 3
    assert s.population[0, 0] == comp.rule("economy.population_max")
    assert s.unrest[0, 0] == s.unrest[0, 1] + 2


def test_arms_share_their_dice():
    """Common random numbers: an intervention that changes nothing (banning a tile nobody
    would take in that game) replays the identical game."""
    base, others = focal_rows("mixed")
    taken = set(",".join(base["tiles"].tolist() + others["tiles"].tolist()).split(","))
    never_taken = [t for t in asset_costs() if t not in taken]
    assert never_taken
    banned, _ = focal_rows(f"mixed+ban={never_taken[0]}")
    assert banned["vp"].tolist() == base["vp"].tolist()


@pytest.mark.parametrize("spec, message", [
    ("mixed+force=gold_mine", "asset 'gold_mine' is unknown"),
    ("mixed+steal=war_office", "intervention 'steal' is unknown"),
    ("mixed+grant_gold=lots", "whole number"),
    ("clever+force=war_office", "strategy 'clever' is unknown"),
])
def test_bad_specs_are_user_errors(spec, message):
    with pytest.raises(UserError, match=message):
        play_games(1, [0], [Seating(INFO.powers[:2], (spec, "mixed"))])


def test_diplomatic_service_takes_only_allowed_alliance_tiles_and_counts_them_soe_20_12():
    """SOE-20.12: Diplomatic Service takes an alliance tile on the display as a free action; a
    banned tile is not among its choices (sim.core.interventions) and a taken one is acquired."""
    from sim.core.lockstep import RuleViolation
    from sim.struggle.actions import UseDiplomacy
    from sim.struggle.choices import Choices
    from sim.struggle.play import acquired_names, new_engine

    e = new_engine(components_of(None), [Seating(INFO.powers[:2], ("mixed+ban=indians", "mixed"))], 1, [0])
    e.setup()
    indians = e.t.alliance.index("indians")
    for p in (0, 1):
        e.s.dev_owned[0, p, e.k["diplomatic_service"]] = 1
    assert indians not in Choices(e, 0, 0).diplomacy and indians in Choices(e, 0, 1).diplomacy
    with pytest.raises(RuleViolation):
        e.apply(0, 0, UseDiplomacy(indians))
    e.apply(0, 1, UseDiplomacy(indians))
    assert e.s.alliance_owner[0, indians] == 1 and "indians" in acquired_names(e)[0][1].split(",")
    assert Choices(e, 0, 1).diplomacy == []                       # once per war (SOE-19.3)
