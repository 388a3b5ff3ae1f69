"""The worked examples COE-E4 .. COE-E14 played through the engine, with the dice the examples fix,
and COE-E15 by Monte Carlo through the engine's own dice."""

import math
from collections import deque

import pytest

from sim.conquest.actions import Buy, Sail, Step
from sim.conquest.combat import expected_hits, score, symbol_probabilities
from sim.conquest.components import LAND_UNITS, default_components
from sim.conquest.state import CAPTIVE, FREE, LEADERS, NEUTRAL
from sim.core.lockstep import RuleViolation

from tests.conquest.engine_setup import clear, control, dice, engine, events, leader, seat_of, units

INF, CAV, CAT, GAL, BLANK = "infantry", "cavalry", "catapult", "galley", "blank"


def battle(e, a, d, where):
    e.active[0], e.phase[0] = a, 2
    e.land_battle(0, a, e.t.index(where), d)


def test_example_coe_e4_jacks_hit_count_through_the_engine():
    """COE-E4: Jack (1 General; 3 INF, 1 CAV, 1 CAT) rolls [INF, CAV, CAV, CAT, BLANK]: 3 hits."""
    e = engine(2)
    jack, other = 0, 1
    clear(e, jack), clear(e, other)
    units(e, jack, "lusitania", (3, 1, 1))
    leader(e, jack, 1, "lusitania")
    units(e, other, "lusitania", (3, 0, 0))
    dice(e, INF, CAV, CAV, CAT, BLANK, *[BLANK] * 3)
    battle(e, jack, other, "lusitania")
    first = events(e, "round")[0]
    assert first["attacker_formation"] == [3, 1, 1] and first["attacker_hits"] == 3
    assert first["defender_lost"] == [3, 0, 0]


def fred_and_alice():
    """COE-E5 inputs in an open, neutral province: Fred (seat 0) attacks Alice (seat 1)."""
    e = engine(2, {0: {"formations": [(5, 2, 0)], "casualties": [(4, 1, 0)]},
                   1: {"casualties": [(3, 2, 0)]}})
    clear(e, 0), clear(e, 1)
    units(e, 0, "lusitania", (5, 2, 1))
    fred = [leader(e, 0, 1, "lusitania"), leader(e, 0, 2, "lusitania")]
    units(e, 1, "lusitania", (4, 2, 0))
    alice = leader(e, 1, 1, "lusitania")
    control(e, 1, "lusitania")
    return e, fred, alice


def test_example_coe_e5_fred_attacks_alice_through_the_engine():
    """COE-E5: round 1 5 hits each way (Fred's reserve catapult scores, Alice rolls with hit
    units); round 2 Fred scores 2 on a 1-unit formation, Alice 1; Alice's General is captured,
    Fred takes the province with 1 CAV + 1 CAT."""
    e, fred, alice = fred_and_alice()
    dice(e, INF, INF, INF, CAV, CAT, GAL, BLANK, INF, INF, INF, INF, CAV, GAL,
         INF, CAT, BLANK, INF)
    battle(e, 0, 1, "lusitania")
    r1, r2 = events(e, "round")
    assert r1["attacker_formation"] == [5, 2, 0] and r1["defender_formation"] == [4, 2, 0]
    assert (r1["attacker_hits"], r1["defender_hits"]) == (5, 5)
    assert r1["defender_lost"] == [3, 2, 0] and r1["attacker_lost"] == [4, 1, 0]
    assert r2["attacker_formation"] == [1, 1, 1] and r2["defender_formation"] == [1, 0, 0]
    assert (r2["attacker_hits"], r2["defender_hits"]) == (2, 1)
    q = e.t.index("lusitania")
    assert e.units_at(0, 0, q) == [0, 1, 1] and e.units_at(0, 1, q) == [0, 0, 0]
    c, i = divmod(alice, LEADERS)
    assert e.s.ldr_state[0, c, i] == CAPTIVE and e.s.ldr_holder[0, c, i] == 0
    assert e.s.control[0, q] == 0
    assert e.income(0, 1) == 15 and e.income(0, 0) == 15 + 5


def test_example_coe_e5_retreat_is_offered_after_each_round_defender_first():
    """COE-E5 / COE-14.5: after round 1 Alice (defender) declares before Fred."""
    e, fred, alice = fred_and_alice()
    journal = []
    for player in e.players[0]:
        player.journal = journal
    dice(e, INF, INF, INF, CAV, CAT, GAL, BLANK, INF, INF, INF, INF, CAV, GAL, INF, CAT, BLANK, INF)
    battle(e, 0, 1, "lusitania")
    assert [seat for seat, kind, _ in journal if kind == "retreat"] == [1, 0]


def italy_turn():
    """COE-E6 inputs: Italy (Italia fortified City, Neapolis City, road) with Caesar, 2 Generals,
    5 INF, 3 CAV, 2 CAT at home; Hispania's General + 2 INF in Narbonensis (Hispania's);
    Macedonia's General + 4 INF, 2 CAV, 1 CAT in Dalmatia (Macedonia's)."""
    e = engine(5)
    italy, hispania, macedonia = seat_of(e, "italia"), seat_of(e, "hispania"), seat_of(e, "macedonia")
    for seat in (italy, hispania, macedonia):
        clear(e, seat)
    units(e, italy, "italia", (5, 3, 2))
    g1, g2 = leader(e, italy, 1, "italia"), leader(e, italy, 2, "italia")
    control(e, italy, "neapolis", city=True)
    e.s.road[0, e.t.edge_of[tuple(sorted((e.t.index("italia"), e.t.index("neapolis"))))]] = True
    units(e, hispania, "narbonensis", (2, 0, 0))
    leader(e, hispania, 1, "narbonensis")
    control(e, hispania, "narbonensis")
    units(e, macedonia, "dalmatia", (4, 2, 1))
    leader(e, macedonia, 1, "dalmatia")
    control(e, macedonia, "dalmatia")
    it = e.t.index
    plan = {"moves": [Step((g1,), (2, 1, 0), it("italia"), it("narbonensis")),
                      Step((g2,), (3, 2, 2), it("italia"), it("dalmatia"))],
            "battles": ["narbonensis", "dalmatia"], "razes": ["neapolis"],
            "buys": [Buy("infantry", it("italia"))] * 4}
    e.players[0][italy].plan.update({k: deque(v) for k, v in plan.items()})
    return e, italy, hispania, macedonia


def test_example_coe_e6_a_full_turn_of_italy():
    """COE-E6: Italy wins Narbonensis (+10 -> 40), fails at Dalmatia, collects 40, razes
    Neapolis' City and the road (-> 35), buys 4 INF for 40 and places them in Italia."""
    e, italy, hispania, macedonia = italy_turn()
    assert e.income(0, italy) == 30
    e.s.treasury[0, italy] = 12
    dice(e, INF, INF, CAV, BLANK, BLANK,                        # Narbonensis: 3 vs 2 dice
         *[BLANK] * 6, INF, INF, INF, INF, CAV, CAV,            # Dalmatia round 1: 6 vs 6
         BLANK, INF, *[BLANK] * 5)                              # round 2: 1 vs 6
    e.pos[0] = italy
    e.play_turn(0)
    names = e.t.index
    assert e.s.control[0, names("narbonensis")] == italy and e.s.control[0, names("dalmatia")] == macedonia
    assert events(e, "tax")[0]["talents"] == 40
    assert not e.s.city[0, names("neapolis")] and e.s.control[0, names("neapolis")] == italy
    assert not e.s.road[0].any()
    assert [b["item"] for b in events(e, "buy")] == ["infantry"] * 4 and e.s.treasury[0, italy] == 12
    assert e.income(0, italy) == 35 and e.income(0, hispania) == 15
    assert e.units_at(0, italy, names("italia"))[0] == 4
    assert e.units_at(0, italy, names("dalmatia")) == [0, 0, 0]


def test_example_coe_e7_naval_battle_egypt_against_galatia():
    """COE-E7: Egypt's loaded galley (General, 3 INF, 1 CAT) meets Galatia's empty one in
    mare_alexandria; Egypt rolls no galley symbol, Galatia one: Egypt's galley sinks, its units
    are destroyed and the General is captured by Galatia."""
    e = engine(6)
    egypt, galatia = seat_of(e, "aegyptus"), seat_of(e, "galatia")
    z = e.t.index("mare_alexandria")
    s = e.s
    s.gal_loc[0, egypt, 0], s.gal_cargo[0, egypt, 0] = z, (3, 0, 1)
    s.land[0, egypt, e.t.index("aegyptus")] = 0
    gen = egypt * LEADERS + 1
    s.ldr_loc[0, egypt, 1], s.ldr_ship[0, egypt, 1] = z, egypt * 8
    s.gal_loc[0, galatia, 0] = z
    dice(e, INF, BLANK, GAL, CAV)
    e.active[0], e.phase[0] = egypt, 2
    e.battle_phase(0, egypt)
    (r,) = events(e, "naval_round")
    assert (r["attacker_hits"], r["defender_hits"]) == (0, 1)
    assert s.gal_loc[0, egypt, 0] == -1 and s.gal_cargo[0, egypt].sum() == 0
    assert s.ldr_state[0, egypt, 1] == CAPTIVE and s.ldr_holder[0, egypt, 1] == galatia
    assert s.gal_loc[0, galatia, 0] == z
    assert gen == egypt * LEADERS + 1


@pytest.mark.parametrize(("leaders", "land", "formation"),
                         [(0, 3, 3), (0, 8, 5), (1, 5, 5), (1, 6, 6), (2, 8, 7), (3, 2, 2), (5, 14, 10)])
def test_example_coe_e8_formation_sizes_in_engine_battles(leaders, land, formation):
    """COE-E8: the formation a side is asked for is min(land units, 5 + leaders)."""
    e = engine(2)
    clear(e, 0), clear(e, 1)
    units(e, 0, "lusitania", (land, 0, 0))
    for i in range(leaders):
        leader(e, 0, i, "lusitania")
    units(e, 1, "lusitania", (1, 0, 0))
    dice(e, *[BLANK] * formation, INF)
    e.players[0][1].plan["retreats"] = None
    battle(e, 1, 0, "lusitania")
    assert events(e, "round")[0]["defender_formation"] == [formation, 0, 0]


def test_example_coe_e9_fortified_city_dice():
    """COE-E9: a defender (1 General, 6 INF) in his fortified City rolls 6 + 1 dice while the
    attacker has a catapult, 6 + 2 once it is gone; a plain City gives none."""
    e = engine(2, {0: {"loss_order": (2, 0, 1)}})
    clear(e, 0), clear(e, 1)
    units(e, 0, "lusitania", (5, 0, 1))
    leader(e, 0, 1, "lusitania")
    units(e, 1, "lusitania", (6, 0, 0))
    leader(e, 1, 1, "lusitania")
    control(e, 1, "lusitania", city=True, fort=True)
    dice(e, *[BLANK] * 6, INF, *[BLANK] * 6,          # round 1: 6 vs 7 dice, the CAT is hit
         *[BLANK] * 5, *[BLANK] * 8,                  # round 2: 5 vs 8 dice
         *[BLANK] * 6)                                # the attacker retreats: pursuit by 6 INF
    e.players[0][1].plan["retreats"] = deque([None, None])
    e.players[0][0].plan["retreats"] = deque([None, "baetica"])
    battle(e, 0, 1, "lusitania")
    rounds = events(e, "round")
    assert [r["extra_dice"] for r in rounds[:2]] == [1, 2]
    assert sum(rounds[0]["defender_roll"].values()) == 7 and sum(rounds[1]["defender_roll"].values()) == 8
    plain = engine(2)
    clear(plain, 0), clear(plain, 1)
    units(plain, 0, "lusitania", (5, 0, 1))
    units(plain, 1, "lusitania", (6, 0, 0))
    leader(plain, 1, 1, "lusitania")
    control(plain, 1, "lusitania", city=True)
    dice(plain, *[INF] * 5, CAT, *[BLANK] * 6, *[INF] * 5)
    battle(plain, 0, 1, "lusitania")
    assert events(plain, "round")[0]["extra_dice"] == 0
    assert sum(events(plain, "round")[0]["defender_roll"].values()) == 6


RICH = ("africa", "cyrenaica", "syria", "asia", "achaia", "narbonensis", "britannia", "neapolis", "palaestina")


def test_example_coe_e10_inflation_takes_effect_at_the_trigger_players_next_turn():
    """COE-E10: Egypt goes 100 -> 110 in its turn of round 5: that turn, Hispania's and
    Macedonia's next turns buy at x1; from Egypt's next turn everybody pays x2."""
    e = engine(3)
    mac, egypt, hisp = seat_of(e, "macedonia"), seat_of(e, "aegyptus"), seat_of(e, "hispania")
    assert (mac, egypt, hisp) == (0, 1, 2)
    control(e, egypt, *RICH)
    assert e.income(0, egypt) == 100
    it = e.t.index
    units(e, egypt, "africa", (1, 0, 0))
    leader(e, egypt, 1, "africa")
    e.players[0][egypt].plan["moves"] = deque([Step((egypt * LEADERS + 1,), (1, 0, 0), it("africa"), it("numidia"))])
    e.s.round[0] = 4
    for _ in range(7):
        e.play_turn(0)
    assert e.income(0, egypt) == 110
    turns = [(t["round"], t["seat"], t["multiplier"]) for t in events(e, "turn")]
    assert turns == [(5, mac, 1), (5, egypt, 1), (5, hisp, 1), (6, mac, 1), (6, egypt, 2), (6, hisp, 2), (7, mac, 2)]
    assert events(e, "inflation_triggered")[0]["seat"] == egypt


def test_example_coe_e10_variant_a_city_placed_in_phase_6():
    """COE-E10 variant: reaching 105 with a City placed in phase 6 leaves the trigger player no
    turn at old prices; the others still buy once at x1."""
    e = engine(3)
    mac, egypt, hisp = 0, 1, 2
    control(e, egypt, *RICH)
    assert e.income(0, egypt) == 100
    e.players[0][egypt].plan["buys"] = deque([Buy("city", e.t.index("africa"))])
    e.pos[0] = egypt
    for _ in range(4):
        e.play_turn(0)
    assert e.income(0, egypt) == 105
    turns = [(t["seat"], t["multiplier"]) for t in events(e, "turn")]
    assert turns == [(egypt, 1), (hisp, 1), (mac, 1), (egypt, 2)]


def _income_to(e, seat, target):
    """Give a seat neutral provinces until its income is exactly `target` (smallest taxes last)."""
    s = e.s
    for q in sorted(range(e.t.n_prov), key=lambda r: -e.t.tax[r]):
        if s.control[0, q] == NEUTRAL and e.income(0, seat) + e.t.tax[q] <= target:
            s.control[0, q] = seat
    assert e.income(0, seat) == target


def test_example_coe_e10_second_inflation_and_no_second_trigger_of_105():
    """COE-E10: after Egypt's first inflation its income falls to 95, prices stay x2 and 105 never
    triggers again; Macedonia's City placed in its phase 6 lifts it 200 -> 205: the second
    inflation, triggered by Macedonia; Egypt and Hispania still buy at x2, and from Macedonia's
    next turn on every price is x3 of base (infantry 30)."""
    e = engine(3)
    mac, egypt, hisp = 0, 1, 2
    control(e, egypt, *RICH)
    e.players[0][egypt].plan["buys"] = deque([Buy("city", e.t.index("africa"))])
    e.pos[0] = egypt
    for _ in range(3):                                   # Egypt x1 (trigger), Hispania, Macedonia
        e.play_turn(0)
    e.s.control[0, e.t.index("britannia")] = NEUTRAL      # Egypt's income falls below 105
    assert e.income(0, egypt) < 105
    _income_to(e, egypt, 95)
    _income_to(e, mac, 200)
    site = next(q for q in range(e.t.n_prov) if e.s.control[0, q] == mac and not e.s.city[0, q])
    e.s.treasury[0, mac] = 500
    e.players[0][mac].plan["buys"] = deque([Buy("city", site)])
    for _ in range(5):                                   # Egypt, Hispania, Macedonia (trigger), Egypt, Hispania
        e.play_turn(0)
    assert [t["seat"] for t in events(e, "inflation_triggered")] == [egypt, mac]
    assert e.income(0, mac) == 205
    e.play_turn(0)                                       # Macedonia's next turn
    turns = [(t["seat"], t["multiplier"]) for t in events(e, "turn")]
    assert turns == [(egypt, 1), (hisp, 1), (mac, 1), (egypt, 2), (hisp, 2), (mac, 2), (egypt, 2), (hisp, 2),
                     (mac, 3)]
    assert e.prices(0)["infantry"] == 30 and e.prices(0)["catapult"] == 90 and e.prices(0)["road"] == 30


def e11(fleeing, attacker_units, victims=None, pursuit=(CAV, CAV, CAV, INF, BLANK)):
    e = engine(2, {0: {"victims": [victims]} if victims else {}})
    clear(e, 0), clear(e, 1)
    units(e, 0, "lusitania", attacker_units)
    leader(e, 0, 1, "lusitania")
    units(e, 1, "lusitania", fleeing)
    d_gen = leader(e, 1, 1, "lusitania")
    control(e, 1, "lusitania")
    n_a, n_d = sum(attacker_units), sum(fleeing)
    dice(e, *[BLANK] * n_a, *[BLANK] * n_d, *pursuit[:n_a])
    e.players[0][1].plan["retreats"] = deque(["baetica"])
    battle(e, 0, 1, "lusitania")
    return e, d_gen


def test_example_coe_e11_pursuit_and_retreat():
    """COE-E11: three cavalry symbols capped by A's 2 cavalry: A destroys D's CAT and 1 INF; D's
    last INF and General retreat; A controls the province."""
    e, d_gen = e11((2, 0, 1), (3, 2, 0), victims=(1, 0, 1))
    (p,) = events(e, "pursuit")
    assert p["hits"] == 2 and p["destroyed"] == [1, 0, 1]
    assert e.units_at(0, 1, e.t.index("baetica")) == [1, 0, 0]
    assert e.s.ldr_loc[0, 1, 1] == e.t.index("baetica") and e.s.ldr_state[0, 1, 1] == FREE
    assert e.s.control[0, e.t.index("lusitania")] == 0


def test_example_coe_e11_variant_1_leaders_escape_when_pursuit_destroys_every_unit():
    e, d_gen = e11((2, 0, 0), (3, 2, 0))
    assert e.units_at(0, 1, e.t.index("baetica")) == [0, 0, 0]
    assert e.s.ldr_loc[0, 1, 1] == e.t.index("baetica") and e.s.ldr_state[0, 1, 1] == FREE


def test_example_coe_e11_variant_2_no_open_province_no_retreat():
    """COE-E11 variant 2 / COE-16.4: with no open neighbour the defender cannot retreat."""
    e = engine(2)
    clear(e, 0), clear(e, 1)
    units(e, 0, "lusitania", (3, 2, 0))
    for q in ("baetica", "hispania"):
        units(e, 0, q, (1, 0, 0))
    units(e, 1, "lusitania", (2, 0, 1))
    leader(e, 1, 1, "lusitania")
    dice(e, *[INF] * 5, *[BLANK] * 3)
    battle(e, 0, 1, "lusitania")
    assert not [x for x in e.players[0][1].journal if x[1] == "retreat"]
    assert e.s.ldr_state[0, 1, 1] == CAPTIVE


def test_example_coe_e11_variant_3_no_cavalry_no_pursuit_hits():
    e, d_gen = e11((2, 0, 1), (5, 0, 0), pursuit=(CAV,) * 5)
    assert events(e, "pursuit")[0]["hits"] == 0
    assert e.units_at(0, 1, e.t.index("baetica")) == [2, 0, 1]


def test_example_coe_e12_income_bookkeeping():
    """COE-E12: Italia (fortified City) + Narbonensis + Corsica = 30; taking Sicilia with a City
    from Q: 40 (Q -10); razing Italia's City: 35, its roads gone."""
    e = engine(5)
    p, q = seat_of(e, "italia"), seat_of(e, "hispania")
    control(e, p, "narbonensis", "corsica")
    control(e, q, "sicilia", city=True)
    e.s.road[0, e.t.edge_of[tuple(sorted((e.t.index("italia"), e.t.index("narbonensis"))))]] = True
    before_q = e.income(0, q)
    assert e.income(0, p) == 30
    e.active[0], e.phase[0] = p, 2
    e.take_province(0, p, e.t.index("sicilia"), battle=True)
    assert e.income(0, p) == 40 and e.income(0, q) == before_q - 10
    e.raze(0, p, e.t.index("italia"))
    assert e.income(0, p) == 35 and not e.s.fort[0, e.t.index("italia")] and not e.s.road[0].any()


def galley_engine(overrides=()):
    e = engine(6, overrides=overrides)
    e.active[0], e.phase[0] = 0, 1
    e.refresh_mp(0, 0)
    return e


def sail_path(e, start: str, *path: str):
    s = e.s
    s.gal_loc[0, 0, 0], s.gal_mp[0, 0, 0] = e.t.index(start), 2
    for dst in path:
        e.apply(0, 0, Sail(0, e.t.index(dst)))


@pytest.mark.parametrize(("start", "path", "legal"), [
    ("italia", ("mare_tyrrhenum", "sicilia"), True),
    ("italia", ("neapolis",), False),
    ("neapolis", ("sicilia",), False),
    ("mare_narbo", ("mare_tyrrhenum", "mare_epirus"), True),
    ("mare_cantabricum", ("hispania", "mare_narbo"), True),
    ("galatia", ("mare_rhodus", "mare_alexandria"), True),
])
def test_example_coe_e13_galley_moves(start, path, legal):
    """COE-E13: coast -> sea -> coast and sea -> sea are legal, coast -> coast never (not even
    across a strait); enemy galleys are passed without stopping."""
    e = galley_engine()
    e.s.gal_loc[0, 1, 0] = e.t.index("mare_tyrrhenum")             # an enemy galley on the way
    for name in ("sicilia", "neapolis"):
        e.s.control[0, e.t.index(name)] = -1
    if legal:
        sail_path(e, start, *path)
        assert e.s.gal_loc[0, 0, 0] == e.t.index(path[-1])
    else:
        with pytest.raises(RuleViolation):
            sail_path(e, start, *path)


def test_example_coe_e13_entering_a_coast_ends_the_move_with_the_option():
    e = galley_engine(["options.galley_entering_coast_ends_move=true"])
    with pytest.raises(RuleViolation):
        sail_path(e, "mare_cantabricum", "hispania", "mare_narbo")


def test_example_coe_e13_mesopotamia_builds_galleys_in_syria_or_armenia():
    """COE-E13 / COE-22.3: the Mesopotamia player's new galleys go to Syria or Armenia, only
    where he controls them; never to Mesopotamia."""
    e = engine(4)
    m = seat_of(e, "mesopotamia")
    e.s.treasury[0, m] = 100
    assert not [b for b in e.buy_options(0, m, []) if b.item == "galley"]
    control(e, m, "syria")
    assert [e.t.names[b.where] for b in e.buy_options(0, m, []) if b.item == "galley"] == ["syria"]
    control(e, m, "armenia")
    assert sorted(e.t.names[b.where] for b in e.buy_options(0, m, []) if b.item == "galley") == ["armenia", "syria"]


def test_example_coe_e14_capture_of_a_caesar():
    """COE-E14: B's attack destroys both INF guarding A's Caesar: A is out at once; B gets A's 45
    talents, provinces, Cities and pieces; B's income 60 + 50 = 110 triggers the first inflation."""
    e = engine(3)
    a, b = seat_of(e, "hispania"), seat_of(e, "macedonia")
    clear(e, a)
    units(e, a, "hispania", (2, 0, 0))
    units(e, a, "lusitania", (1, 0, 0))
    control(e, a, "lusitania", "baetica", "aquitania", "tingitana")
    control(e, a, "narbonensis", city=True)
    assert e.income(0, a) == 50
    e.s.treasury[0, a] = 45
    control(e, b, "achaia", "thracia", "moesia", "dalmatia", "dacia", "pannonia", "asia")
    assert e.income(0, b) == 60
    units(e, b, "hispania", (3, 0, 0))
    leader(e, b, 1, "hispania")
    treasury_b = int(e.s.treasury[0, b])
    dice(e, INF, INF, BLANK, *[BLANK] * 4)             # 3 dice vs 2 + 2 fortification dice
    e.turn_seats[0].append(str(b))
    battle(e, b, a, "hispania")
    assert not e.s.alive[0, a] and e.s.ldr_state[0, a, 0] == CAPTIVE
    assert e.s.treasury[0, b] == treasury_b + 45 and e.s.treasury[0, a] == 0
    assert e.income(0, b) == 110
    assert e.s.owner[0, a] == b and e.units_at(0, b, e.t.index("lusitania")) == [1, 0, 0]
    assert not (e.s.control[0] == a).any()
    assert events(e, "inflation_triggered")[0]["seat"] == b


def test_example_coe_e14_free_generals_pass_to_the_captor_and_the_seat_is_skipped():
    """COE-E14: B receives A's free Generals (the default, COE-A27) with his colour, and A's turn
    slot is skipped from now on."""
    e = engine(3)
    a, b = seat_of(e, "hispania"), seat_of(e, "macedonia")
    clear(e, a)
    units(e, a, "hispania", (2, 0, 0))
    general = leader(e, a, 1, "baetica")
    units(e, b, "hispania", (3, 0, 0))
    leader(e, b, 1, "hispania")
    dice(e, INF, INF, BLANK, *[BLANK] * 4)
    e.turn_seats[0].append(str(b))
    battle(e, b, a, "hispania")
    c, i = divmod(general, LEADERS)
    assert e.s.ldr_state[0, c, i] == FREE and e.s.owner[0, c] == b and c in e.colours_of[0][b]
    assert general in e.leaders_at(0, b, e.t.index("baetica"))
    e.pos[0] = a
    assert e.next_seat(0) != a and not e.s.over[0]


@pytest.mark.parametrize(("formation", "reserve_cats", "extra", "exact"), [
    ((5, 0, 0), 0, 0, 1.6667), ((3, 1, 1), 0, 0, 2.8135), ((5, 0, 0), 1, 0, 2.2648),
    ((4, 2, 0), 0, 0, 2.9091), ((5, 2, 0), 1, 0, 4.0981), ((6, 0, 0), 0, 0, 2.0),
    ((6, 0, 0), 0, 1, 2.3329), ((6, 0, 0), 0, 2, 2.6639), ((2, 2, 2), 0, 0, 3.4177), ((1, 0, 0), 0, 0, 0.3333)])
def test_example_coe_e15_mean_hits_of_the_engine_dice_converge(formation, reserve_cats, extra, exact):
    """COE-E15: the engine's dice and matching average the exact expected hits (within 4
    standard errors of the exact law)."""
    comp = default_components()
    p = symbol_probabilities(comp)
    n_dice = sum(formation) + extra
    caps = (formation[0], formation[1], formation[2] + reserve_cats)
    mean = expected_hits(n_dice, caps, p)
    assert mean == pytest.approx(exact, abs=1e-4)
    e = engine(2, log=False)
    n = 4000
    total = total2 = 0
    for _ in range(n):
        h = score(e.roll(0, n_dice), dict(zip(LAND_UNITS, formation)), formation[2] + reserve_cats)
        total += h
        total2 += h * h
    var = total2 / n - (total / n) ** 2
    assert abs(total / n - mean) <= 4 * math.sqrt(var / n) + 1e-9


def test_example_coe_e15_naval_hit_chance():
    """COE-E15: one galley's two dice score at least one hit with chance 11/36."""
    e = engine(2, log=False)
    n = 6000
    hits = sum(1 for _ in range(n) if e.roll(0, 2).get(GAL, 0) >= 1)
    p = 11 / 36
    assert abs(hits / n - p) <= 4 * math.sqrt(p * (1 - p) / n)
