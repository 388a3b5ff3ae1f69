"""The scripted buyers (COE-32) once no land unit can be bought: with every unit of the colour's
supply on the board (COE-2.3) the treasury goes to a City, a Fortification and a road beyond
the table's shares (COE-20, COE-6), never to a galley the table does not sail; while the supply
lasts, land units come first as before."""

import pytest

from sim.conquest.actions import Buy
from sim.conquest.scripted import MIX
from tests.conquest.engine_setup import control, engine, seat_of, units
from tests.conquest.test_scripted_plans import scripted

SUPPLY = (20, 20, 6)              # COE-2.1: a colour's infantry, cavalry and catapults


def buying(on_board: tuple[int, int, int], strategy: str, talents: int, **changes) -> list[str]:
    """The items a table buys in Aegyptus' buying phase, holding Cyrenaica without a City."""
    e = engine(2)
    me = seat_of(e, "aegyptus")
    units(e, me, "aegyptus", on_board)
    control(e, me, "cyrenaica")
    e.players[0][me] = scripted(e, me, strategy, **changes)
    e.s.treasury[0, me] = talents
    e.active[0], e.phase[0] = me, 5
    return [b.item for b in e.buying_phase(0, me)]


@pytest.mark.parametrize("strategy", ["expansionist", "fortifier", "hunter", "siege_train"])
def test_coe_2_3_with_the_supply_on_the_board_the_treasury_buys_city_fortification_road(strategy):
    """60 talents: a City in Cyrenaica (30), its Fortification (20), the road to Aegyptus (10),
    whatever the table's shares of the budget (the hunter's and siege_train's allow no
    Fortification or road, COE-6.4, COE-6.5); no galley (the expansionist's ferry plan off)."""
    assert sorted(buying(SUPPLY, strategy, 60, galleys=0)) == ["city", "fortification", "road"]


def test_coe_20_while_the_supply_lasts_land_units_come_first():
    bought = buying((5, 0, 0), "hunter", 60)
    assert bought and set(bought) <= set(MIX)


def test_coe_22_3_a_galley_is_left_unbought_by_a_table_that_does_not_sail():
    """Only a galley is offered: the hunter (galleys = 0) keeps its talents."""
    e = engine(2)
    me = seat_of(e, "aegyptus")
    units(e, me, "aegyptus", SUPPLY)
    player = scripted(e, me, "hunter")
    assert player.buy([Buy("galley", e.t.index("aegyptus"))], []) is None
