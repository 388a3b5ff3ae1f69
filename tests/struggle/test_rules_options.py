"""Rules readings of the original text as options (options.toml): each alternative changes a
hand-built position the way its reading says, and the default keeps the recommended reading."""

from __future__ import annotations

import pytest

from sim.core.lockstep import RuleViolation
from sim.struggle.actions import Buy, DeclareAttack, Pass, UseAgriculture
from sim.struggle.choices import Choices
from sim.struggle.combat_exact import Attack, attack_odds
from sim.struggle.components import CombatRules, default_components, load_components
from sim.struggle.players import Player
from sim.struggle.state import ARMY, FLEET, FORT, HOME, LOWER, ON_MAP, UPPER
from tests.struggle.test_engine_helpers import Fixed, blank, duel, give_tile, region


def engine(powers, option: str | None = None, **kw):
    """A hand-built position (`blank`) with one option changed, or the default data."""
    return blank(powers, comp=load_components([option]) if option else default_components(), **kw)


def colonial_battle(option: str, attacker: tuple[int, int], defender: tuple[int, int]):
    """GB with (armies, fleets) facing France with (armies, fleets) and a marker in North
    America, allies of different rows; returns the engine and the region."""
    e = engine(["great_britain", "france"], option, rows=[UPPER, LOWER])
    na = region(e, "north_america")
    for seat, (armies, fleets) in enumerate((attacker, defender)):
        e.s.units[0, seat, na, ARMY], e.s.units[0, seat, na, FLEET] = armies, fleets
    e.s.markers[0, 1, na] = 1
    return e, na


@pytest.mark.parametrize("reading", ["fleet", "always"])
def test_naval_support_on_decline_soe_12_7_3_and_a9(reading):
    """SOE-12.7.3 / SOE-A9: GB (2 armies, a fleet) declines the naval battle against France (1
    army, no fleet) in North America. Recommended: France, without a fleet, gets no support and
    loses 3 to 2; literally ("Ha nem, úgy a védekező fél élvezi a tengeri támogatást") France
    gets +1 and ties 3 to 3, keeping his marker."""
    e, na = colonial_battle(f"options.naval_support_on_decline={reading}", (2, 1), (1, 0))
    s = e.s
    e.players[0][0].naval = False
    e.battle_dice[0] = Fixed([duel((1, 2), (1, 2))])
    a = e.declare_attack(0, 0, na, ("player", 1))
    literal = reading == "always"
    assert a.naval is None and a.support == (-1 if literal else 0)
    e.resolve([a])
    assert (s.markers[0, 0, na], s.markers[0, 1, na]) == ((0, 1) if literal else (1, 0))


def test_naval_support_on_decline_in_the_exact_odds_soe_12_7_3():
    """SOE-12.7.3: in the exact law the literal reading gives the fleetless defender the support
    a defender with a fleet gets under the recommended reading."""
    declined = {"att_armies": 2, "att_fleets": 1, "def_armies": 1, "naval_phase": True, "att_wants_naval": False}
    default = attack_odds(Attack(**declined), CombatRules())
    literal = attack_odds(Attack(**declined), CombatRules(naval_support_on_decline="always"))
    with_fleet = attack_odds(Attack(**declined, def_fleets=1), CombatRules())
    assert literal.attacker_win == pytest.approx(with_fleet.attacker_win) and literal.attacker_win < default.attacker_win
    assert literal.control_change == pytest.approx(with_fleet.control_change)
    assert literal.control_change < default.control_change


@pytest.mark.parametrize("scope", ["declined_naval", "any_support"])
def test_blockade_b_after_a_naval_battle_won_soe_20_20(scope):
    """SOE-20.20 (b), SOE-12.7.5: GB (2 fleets, 2 armies, Blockade declared) wins the naval
    battle in North America 3-2 against France (1 fleet, 2 armies), then rolls 0 against 1 on
    land. Only with Blockade (b) in every battle with support does the support count 2: GB wins
    4-3 and takes the marker, the tile back on the display; else 3-3, a tie."""
    e, na = colonial_battle(f"options.blockade_b_scope={scope}", (2, 2), (2, 1))
    s = e.s
    give_tile(e, 0, "blockade")
    e.battle_dice[0] = Fixed([duel((1, 2), (1, 2)), duel((1, 1), (1, 2))])
    a = e.declare_attack(0, 0, na, ("player", 1), blockade=True)
    assert a.naval is not None and a.blockade_b == ()
    e.resolve([a])
    anywhere = scope == "any_support"
    assert a.blockade_b == ((0,) if anywhere else ())
    assert e.owns(0, 0, "blockade") == (0 if anywhere else 1)
    assert (s.markers[0, 0, na], s.markers[0, 1, na]) == ((1, 0) if anywhere else (0, 1))


@pytest.mark.parametrize("scope", ["declined_naval", "any_support"])
def test_blockade_b_on_defence_and_against_a_neutral_soe_20_20(scope):
    """SOE-20.20 (b) "usable on defence", SOE-12.14: France wins the naval battle and is asked
    for Blockade (b) before the land dice only when every battle with support allows it; GB's
    fleet supports his attack on a neutral, +2 with Blockade only then."""
    e, na = colonial_battle(f"options.blockade_b_scope={scope}", (1, 1), (1, 2))
    give_tile(e, 1, "blockade")
    e.players[0][1].blockade = True
    e.battle_dice[0] = Fixed([duel((1, 2), (1, 2)), duel((1, 2), (1, 3))])       # France wins at sea 3-2
    a = e.declare_attack(0, 0, na, ("player", 1))
    e.resolve([a])
    anywhere = scope == "any_support"
    assert a.support == -1 and a.blockade_b == ((1,) if anywhere else ())
    assert a.land_def.bonus == (2 if anywhere else 1)
    e, na = colonial_battle(f"options.blockade_b_scope={scope}", (1, 1), (0, 0))
    token = e.neutral_tokens[na][0]
    e.s.token_state[0, token] = ON_MAP
    give_tile(e, 0, "blockade")
    n = e.declare_attack(0, 0, na, ("neutral", token), blockade=True)
    assert n.land.bonus == (2 if anywhere else 1) and n.blockade_b == ((0,) if anywhere else ())


@pytest.mark.parametrize("reading", ["never_in_vp_region", "after_failed_roll"])
def test_fort_moves_later_soe_9_4(reading):
    """SOE-9.4, SOE-11.1: a fort built and left at home may move later only under the
    reference's reading; literally ("Ezzel az erőddel ... még mozoghat a játékos") only a fort a
    failed sea roll sent back home may, once it has arrived it is a fort like the others."""
    e = engine(["prussia", "russia"], f"options.fort_moves_later={reading}")
    s = e.s
    gs, india = region(e, "german_states"), region(e, "india")
    s.units[0, 0, india, FLEET] = 1
    literal = reading == "after_failed_roll"
    e.build(0, 0, FORT)                                        # left at home
    assert e.may_move(0, 0, FORT, HOME, gs) is not literal
    assert ((FORT, HOME, gs) in Choices(e, 0, 0).moves) is not literal
    e.sea_dice[0] = Fixed([1 - 1, 3 - 1, 2 - 1])              # 1 then 3: back home; later a 2
    e.build(0, 0, FORT, None, india)
    assert s.units[0, 0, HOME, FORT] == 2 and e.may_move(0, 0, FORT, HOME, gs)
    both = [(FORT, HOME, gs)] * 2
    assert Choices(e, 0, 0).legal_prefix(both) == both[: 1 if literal else 2]
    e.move(0, 0, [(FORT, HOME, india)])                        # the returned fort arrives
    assert s.units[0, 0, india, FORT] == 1 and s.units[0, 0, HOME, FORT] == 1
    assert e.may_move(0, 0, FORT, HOME, gs) is not literal     # the one left at home
    if literal:
        with pytest.raises(RuleViolation):
            e.move(0, 0, [(FORT, HOME, gs)])


@pytest.mark.parametrize(("reading", "symbol", "fleets_left"), [("fixed", FLEET, 0), ("owner", ARMY, 0),
                                                               ("owner", FLEET, 1)])
def test_owner_chooses_two_symbol_alliance_tile_soe_12_6(reading, symbol, fleets_left):
    """SOE-12.6 ("a játékosnak el kell döntenie, melyik típusú harci erejét növeli meg"): Russia,
    owning Turkey (army and fleet), attacks Austria in the Mediterranean, one fleet and one army
    each, the naval dice level. The fixed rule puts the +1 on the army: the naval battle ties and
    both lose their fleet. Only when the owner chooses, and chooses the fleet, does Russia win at
    sea and keep his fleet."""
    e = engine(["russia", "austria"], f"options.two_symbol_alliance={reading}")
    s = e.s
    med = region(e, "mediterranean")
    s.alliance_owner[0, e.t.alliance.index("turkey")] = 0
    for seat in (0, 1):
        s.units[0, seat, med, ARMY], s.units[0, seat, med, FLEET] = 1, 1
    s.markers[0, 1, med] = 1
    e.players[0][0].symbol = symbol
    e.battle_dice[0] = Fixed([duel((1, 2), (1, 2)), duel((1, 2), (1, 2))])
    a = e.declare_attack(0, 0, med, ("player", 1))
    at_sea = reading == "owner" and symbol == FLEET
    assert (a.naval.bonus, a.land.bonus) == ((1, 0) if at_sea else (0, 1))
    e.resolve([a])
    assert s.units[0, 0, med, FLEET] == fleets_left and s.units[0, 1, med, FLEET] == 0


def test_players_default_alliance_symbol_is_the_fixed_rule_soe_12_6():
    """SOE-12.6: the players' default choice backs the army in an attack with a land battle,
    the fleet in a naval-only one (scripted players inherit it); a symbol that is neither is
    refused."""
    e = engine(["russia", "austria"], "options.two_symbol_alliance=owner")
    player = Player(e, 0, 0, None)
    assert (player.alliance_symbol(None, True), player.alliance_symbol(None, False)) == (ARMY, FLEET)
    med = region(e, "mediterranean")
    e.s.alliance_owner[0, e.t.alliance.index("turkey")] = 0
    e.s.units[0, 0, med, FLEET] = e.s.units[0, 1, med, FLEET] = 1
    with pytest.raises(RuleViolation):                    # the stub's answer is None
        e.declare_attack(0, 0, med, ("player", 1))


class TileBuyer(Player):
    """Takes the tile `wanted` with its first action and passes otherwise; uses Improved
    Agriculture and War Office whenever it is asked and can."""

    wanted = "improved_agriculture"

    def __init__(self, name, engine, g, seat, rng) -> None:
        super().__init__(engine, g, seat, rng)

    def free_actions(self, choices):
        if self.e.can_use(self.g, self.p, "improved_agriculture"):
            yield UseAgriculture()

    def war_office_attack(self, choices):
        if self.e.can_use(self.g, self.p, "war_office") and choices.attacks:
            return DeclareAttack(*choices.attacks[0], war_office=True)
        return None

    def choose_action(self, slot, choices):
        tile = ("dev", self.e.k[self.wanted])
        return Buy(*tile) if slot == 0 and tile in choices.tiles else Pass()

    def help(self, ally, opp, region, armies, fleets, attacker_side):
        return armies, fleets


@pytest.mark.parametrize("when", ["turn_start", "any_time"])
@pytest.mark.parametrize("tile", ["improved_agriculture", "war_office"])
def test_free_actions_at_any_point_of_the_own_turn_soe_7_3(when, tile):
    """SOE-7.3 ("Lapka használata szabad cselekedet ... Egy forduló során a játékos bárhány
    lapkáját használhatja"), SOE-20.4: in a one-round war Russia takes Improved Agriculture (or
    War Office, with an army facing Austria's marker) with his first action. Only when tiles are
    usable at any point of the own turn does he use it in that turn: +1 population, or a free
    War Office attack on Austria."""
    class Buyer(TileBuyer):
        wanted = tile
    e = engine(["russia", "austria"], f"options.free_actions_when={when}", player=Buyer)
    s = e.s
    gs = region(e, "german_states")
    s.units[0, 0, gs, ARMY], s.markers[0, 1, gs] = 3, 1
    e.n_rounds = [1]
    e.rounds()
    used = when == "any_time"
    events = [ev["event"] for ev in e.logs[0] if ev.get("seat") == 0]
    assert events[:2] == ["action", "buy"]
    if tile == "improved_agriculture":
        assert s.population[0, 0] == (6 if used else 5) and ("agriculture" in events) is used
    else:
        attacks = [ev for ev in e.logs[0] if ev["event"] == "attack"]
        assert [ev["war_office"] for ev in attacks] == ([True] if used else [])
        assert s.gold[0, 0] == 10 - e.t.dev_gold[e.k["war_office"]]       # no attack fee
