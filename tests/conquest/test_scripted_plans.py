"""The scripted players' plans on hand-built positions (COE-32): the Caesar's guard from the exact
odds (COE-25.2), attacks that take as many Generals as the odds need (COE-11.4), Generals
fetching the units waiting at home (COE-11.1, engine version 11: also the nearest one leading less
than a legion; version 13: the one called keeps walking for the turn), the hunter's goal, steps
towards a goal that get nearer to it (version 13), a province being taken keeping its taker
(version 13), the odds' size limits, and forecasts of the battle as it will be played (engine
version 12: armies as they stand, a side with nowhere to retreat, COE-16.4)."""

from hypothesis import given
from hypothesis import strategies as st

from sim.conquest.actions import Step
from sim.conquest.choices import Choices
from sim.conquest.combat import Army, LandBattle
from sim.conquest.land_exact import forecast_land, solve_land
from sim.conquest.policy import OPTIMAL, Objective
from sim.conquest.routes import distances
from sim.conquest.scripted import GUARDS, MAX_EXACT, MAX_PAIRS, ODDS, ScriptedPlayer, _clip, _keep, _pairs, _take
from tests.conquest.engine_setup import clear, control, engine, leader, seat_of, units


def scripted(e, seat: int, strategy: str, **changes) -> ScriptedPlayer:
    """A scripted player of a seat, its turn's movement points given (COE-11.2)."""
    e.refresh_mp(0, seat)
    params = dict(e.comp.data.get(f"strategies.{strategy}"))
    params.update(changes)
    return ScriptedPlayer(e, 0, seat, None, params)


def threatened_home():
    """Aegyptus with 20 infantry and its Caesar, two enemy Generals with 14 units next door."""
    e = engine(2)
    me, them = seat_of(e, "aegyptus"), seat_of(e, "hispania")
    units(e, me, "aegyptus", (20, 0, 0))
    control(e, them, "cyrenaica")
    units(e, them, "cyrenaica", (10, 4, 0))
    leader(e, them, 1, "cyrenaica")
    leader(e, them, 2, "cyrenaica")
    return e, me


def test_coe_25_2_guard_keeps_the_caesar_safe_by_the_exact_odds():
    e, me = threatened_home()
    player = scripted(e, me, "hunter")
    need = player.guard(e.t.index("aegyptus"))
    risk = player.k["caesar_risk"]

    def taken(kept: int) -> float:
        return ODDS.solve(e.comp, (10, 4, 0), 2, _keep((20, 0, 0), kept), 1, True, player.weights,
                          True).win

    assert need > player.k["home_guard"]
    assert taken(need) <= risk < taken(need - 1)


@given(st.integers(1, 3), st.booleans())
def test_coe_a7_a_caesar_alone_is_never_guard_enough_against_a_threat(threat, fortified):
    """A table may set `home_guard` 0 (its bounds allow it): against a threat the guard is the
    fewest units, at least one, whose exact odds keep the Caesar safe, as a lone Caesar is
    captured without a battle (COE-A7); the exact odds are never asked of a battle without
    defenders (a tuning found this: a land battle needs a unit per side)."""
    e, me = threatened_home()
    GUARDS.clear()
    player = scripted(e, me, "hunter", home_guard=0)
    need = player.guard_for((6, 0, 0), (threat, 0, 0), fortified)

    def safe(kept: int) -> bool:
        return ODDS.solve(e.comp, (threat, 0, 0), 1, (kept, 0, 0), 1, fortified, player.weights,
                          True).win <= player.k["caesar_risk"]

    assert need == next((k for k in range(1, 7) if safe(k)), 6)
    assert player.guard_for((6, 0, 0), (0, 0, 0), fortified) == 0       # no threat: nothing kept


def test_coe_25_2_no_threat_keeps_the_home_guard():
    e = engine(2)
    me = seat_of(e, "aegyptus")
    player = scripted(e, me, "expansionist")
    assert player.guard(e.t.index("aegyptus")) == player.k["home_guard"]


def test_coe_11_4_an_attack_takes_the_generals_its_odds_need():
    e = engine(2)
    me, them = seat_of(e, "aegyptus"), seat_of(e, "hispania")
    clear(e, me)
    control(e, me, "palaestina")
    units(e, me, "palaestina", (21, 0, 0))
    generals = [leader(e, me, i, "palaestina") for i in (1, 2, 3)]
    control(e, them, "syria")
    units(e, them, "syria", (9, 0, 0))
    leader(e, them, 1, "syria")
    player = scripted(e, me, "hunter", garrison=0, neutral_weight=0.0)
    steps = [a for a in player.march(Choices(e, 0, me)) if a.dst == e.t.index("syria")]
    assert len(steps) == 1
    step = steps[0]
    n = len(step.leaders)
    assert set(step.leaders) <= set(generals) and sum(step.units) <= 7 * n
    assert step.p_win >= player.k["press_win"] or n == 3
    if n > 1:                                    # one General fewer would not have been enough
        fewer = player.attack_odds(_take([21, 0, 0], 7 * (n - 1)), n - 1, e.t.index("syria"))
        assert fewer < player.k["press_win"]


def test_coe_11_1_a_general_with_nobody_to_lead_goes_home_for_the_units_waiting_there():
    e = engine(2)
    me = seat_of(e, "aegyptus")
    clear(e, me)
    units(e, me, "aegyptus", (15, 0, 0))
    control(e, me, "palaestina")
    general = leader(e, me, 1, "palaestina")
    player = scripted(e, me, "fortifier")
    steps = player.march(Choices(e, 0, me))
    assert Step((general,), (0, 0, 0), e.t.index("palaestina"), e.t.index("aegyptus")) in steps


def home_with_units_waiting(field: tuple, at_home: int = 0):
    """Aegyptus with 15 infantry and the Caesar, `at_home` Generals there, and a General in
    Palaestina with `field` units."""
    e = engine(2)
    me = seat_of(e, "aegyptus")
    clear(e, me)
    units(e, me, "aegyptus", (15, 0, 0))
    for k in range(at_home):
        leader(e, me, 2 + k, "aegyptus")
    control(e, me, "palaestina")
    units(e, me, "palaestina", field)
    return e, me, leader(e, me, 1, "palaestina")


def test_coe_11_1_a_general_leading_less_than_a_legion_goes_home_for_the_units_waiting_there():
    e, me, general = home_with_units_waiting((3, 0, 0))
    player = scripted(e, me, "fortifier")            # garrison 2: he leads 1 unit
    steps = player.march(Choices(e, 0, me))
    assert Step((general,), (1, 0, 0), e.t.index("palaestina"), e.t.index("aegyptus")) in steps


def test_coe_11_1_the_general_called_home_leaves_a_legion_that_arrived_this_turn_its_units():
    """Engine version 13: from a province another legion entered this turn he walks home alone,
    so he does not lead back the units that legion brought."""
    e, me, general = home_with_units_waiting((3, 0, 0))
    player = scripted(e, me, "fortifier")
    player.claimed_this_turn().add(e.t.index("palaestina"))
    steps = player.march(Choices(e, 0, me))
    assert Step((general,), (0, 0, 0), e.t.index("palaestina"), e.t.index("aegyptus")) in steps


def test_coe_11_1_a_general_leading_a_full_legion_is_not_called_home():
    e, me, general = home_with_units_waiting((9, 0, 0))
    player = scripted(e, me, "fortifier")            # garrison 2: he leads 7
    steps = player.march(Choices(e, 0, me))
    assert player.recalled(Choices(e, 0, me)) is None
    assert not any(general in a.leaders and a.dst == e.t.index("aegyptus") for a in steps if type(a) is Step)


def test_coe_11_1_no_general_is_called_home_when_those_there_lead_the_units_waiting():
    e, me, general = home_with_units_waiting((3, 0, 0), at_home=2)
    player = scripted(e, me, "fortifier")            # 15 - guard 4 - 2 x 7 led: 1 waits, fetch is 3
    assert not player.waiting_home()
    assert player.recalled(Choices(e, 0, me)) is None


def test_coe_11_1_the_general_called_home_keeps_walking_for_the_rest_of_the_turn():
    """Engine version 13: the General called home at the turn's first plan is still the one
    called at its later plans, though the board no longer calls anybody; a new turn chooses anew."""
    e, me, general = home_with_units_waiting((3, 0, 0))
    player = scripted(e, me, "fortifier")
    assert player.recalled(Choices(e, 0, me)) == general
    units(e, me, "aegyptus", (0, 0, 0))                 # nobody waits at home any more
    assert not player.waiting_home() and player.recall(Choices(e, 0, me)) is None
    assert player.recalled(Choices(e, 0, me)) == general
    e.s.turn[0] += 1
    assert player.recalled(Choices(e, 0, me)) is None


def army_beside(player_home: str, src: str, enemy_at: str):
    """Every province held by the seat of `player_home` but `enemy_at`, where the other seat
    stands with all its pieces: 20 infantry, its Caesar and a General; a General of the first
    seat with 2 infantry in src."""
    e = engine(2)
    me, them = seat_of(e, player_home), seat_of(e, "hispania")
    clear(e, me)
    clear(e, them)
    leader(e, them, 0, enemy_at)
    control(e, me, *e.t.names[:e.t.n_prov])
    control(e, them, enemy_at)
    units(e, them, enemy_at, (20, 0, 0))
    leader(e, them, 1, enemy_at)
    units(e, me, src, (2, 0, 0))
    leader(e, me, 1, src)
    return e, me


def test_coe_11_a_force_does_not_walk_round_an_enemy_army_beside_it():
    """Engine version 13: a province with another seat's army is no goal of a step towards the
    provinces not held, so a force next to one it will not attack stays (before, it stepped round
    the army through a neighbour no nearer to it, and back the next time)."""
    e, me = army_beside("aegyptus", "palaestina", "syria")
    player = scripted(e, me, "expansionist")
    assert e.t.index("syria") in e.t.steps[e.t.index("palaestina")]
    assert player.first_step(e.t.index("palaestina"), None) is None


def test_coe_11_a_step_towards_the_provinces_not_held_gets_nearer_to_a_free_one():
    e, me = army_beside("aegyptus", "palaestina", "syria")
    far = e.t.index("africa")                           # west, away from the army in Syria
    e.s.control[0, far] = -1                            # neutral and empty
    player = scripted(e, me, "expansionist")
    src = e.t.index("palaestina")
    step = player.first_step(src, None)
    dist = distances(e.t)
    assert distances(e.t)[src][far] >= 3
    assert step in e.t.steps[src] and step != e.t.index("syria")
    assert dist[step][far] == dist[src][far] - 1


def test_coe_11_a_step_towards_the_hunted_caesar_always_gets_nearer_to_him():
    """With goals (the hunted Caesar behind his guard) the way may pass armies, but the first
    step must bring the force nearer: none where the goal is beside it behind its own army."""
    e, me = army_beside("aegyptus", "palaestina", "syria")
    player = scripted(e, me, "hunter")
    src, goal = e.t.index("palaestina"), e.t.index("syria")
    assert player.first_step(src, {goal}) is None
    dist = distances(e.t)
    for start in range(e.t.n_prov):
        step = player.first_step(start, {goal})
        assert step is None or dist[step][goal] < dist[start][goal]


def test_coe_17_a_province_entered_to_be_taken_keeps_a_unit_when_its_general_marches_on():
    """Engine version 13: a legion that entered a province not held this turn leaves a unit there
    to take it (COE-17: provinces are taken after the movement) when its General marches on."""
    e = engine(2)
    me = seat_of(e, "aegyptus")
    clear(e, me)
    cyrenaica = e.t.index("cyrenaica")
    assert e.s.control[0, cyrenaica] != me
    units(e, me, "cyrenaica", (3, 0, 0))
    leader(e, me, 1, "cyrenaica")
    player = scripted(e, me, "expansionist", garrison=0)
    player.claimed_this_turn().add(cyrenaica)
    moves = [a for a in player.march(Choices(e, 0, me)) if type(a) is Step and a.src == cyrenaica]
    assert moves and sum(sum(a.units) for a in moves) == 2


def test_hunter_goes_for_the_least_guarded_caesar_for_his_distance():
    e = engine(3)
    me = seat_of(e, "macedonia")
    far, near = seat_of(e, "hispania"), seat_of(e, "aegyptus")
    units(e, near, "aegyptus", (20, 0, 0))
    units(e, far, "hispania", (1, 0, 0))
    player = scripted(e, me, "hunter", hunt_leader=0.0)
    dist = distances(e.t)[e.t.index("macedonia")]
    cost = {q: sum(e.units_at(0, q, int(e.s.home[0, q]))) + 3 * dist[int(e.s.home[0, q])] for q in (far, near)}
    assert player.hunted() == {int(e.s.home[0, min(cost, key=cost.get)])}


def test_coe_24_the_hunter_goes_for_the_richer_rival_first():
    """Engine version 18 (`hunt_leader`): each talent of a rival's income takes `hunt_leader`
    off his Caesar's score (guards + 3 per step), so a rich rival behind a strong guard is hunted
    before a poor one behind a weak guard; with 0 the weak guard decides, as before."""
    e = engine(3)
    me = seat_of(e, "macedonia")
    rich, poor = seat_of(e, "aegyptus"), seat_of(e, "hispania")
    units(e, rich, "aegyptus", (12, 0, 0))
    units(e, poor, "hispania", (1, 0, 0))
    for name in ("cyrenaica", "arabia_petraea", "palaestina", "syria"):
        control(e, rich, name)
    assert e.income(0, rich) > e.income(0, poor)
    rich_home, poor_home = int(e.s.home[0, rich]), int(e.s.home[0, poor])
    assert scripted(e, me, "hunter", hunt_leader=0.0).hunted() == {poor_home}
    hunter = scripted(e, me, "hunter")
    assert hunter.k["hunt_leader"] == 2.0
    dist = distances(e.t)[e.t.index("macedonia")]
    score = {q: sum(e.units_at(0, q, int(e.s.home[0, q]))) + 3 * dist[int(e.s.home[0, q])] - 2.0 * e.income(0, q)
             for q in (rich, poor)}
    assert score[rich] < score[poor]
    assert hunter.hunted() == {rich_home}


def test_distances_are_symmetric_and_one_step_apart_for_neighbours():
    t = engine(2).t
    dist = distances(t)
    for q in range(t.n_prov):
        assert dist[q][q] == 0
        for r in t.steps[q]:
            assert dist[q][r] == 1
        for r in range(t.n_prov):
            assert dist[q][r] == dist[r][q]


@given(st.tuples(*[st.integers(0, 20)] * 3), st.tuples(*[st.integers(0, 20)] * 3))
def test_odds_size_limit_scales_both_armies_by_one_factor(att, dfn):
    small_att, small_dfn = _clip(att, dfn)
    assert max(sum(small_att), sum(small_dfn)) <= MAX_EXACT
    if max(sum(att), sum(dfn)) <= MAX_EXACT:
        assert (small_att, small_dfn) == (att, dfn)
    elif sum(att) and sum(dfn):
        ratio = sum(att) / sum(dfn)
        assert abs(sum(small_att) / sum(small_dfn) - ratio) <= ratio * 0.5 + 0.5
        assert sum(small_att) >= 1 and sum(small_dfn) >= 1


@given(st.tuples(*[st.integers(0, 25)] * 3), st.tuples(*[st.integers(0, 25)] * 3))
def test_forecast_size_limit_keeps_armies_that_fit_and_scales_the_rest_to_the_largest_fit(att, dfn):
    small_att, small_dfn = _clip(att, dfn, MAX_PAIRS)
    assert _pairs(small_att, small_dfn) <= MAX_PAIRS
    if _pairs(att, dfn) <= MAX_PAIRS:
        assert (small_att, small_dfn) == (att, dfn)
    else:
        assert sum(small_att) <= sum(att) and sum(small_dfn) <= sum(dfn)
        assert bool(sum(small_att)) == bool(sum(att)) and bool(sum(small_dfn)) == bool(sum(dfn))
        assert max(sum(small_att), sum(small_dfn)) < max(sum(att), sum(dfn))


def test_coe_16_4_the_logged_forecast_of_a_large_attack_is_the_battle_as_it_stands():
    """21 infantry with three Generals against 9 in Syria: the forecast the step carries is the
    exact solve of the legion and the defenders as they are (more than 10 units a side), with
    each side's retreat as the board allows it."""
    e = engine(2)
    me, them = seat_of(e, "aegyptus"), seat_of(e, "hispania")
    clear(e, me)
    control(e, me, "palaestina")
    units(e, me, "palaestina", (21, 0, 0))
    for i in (1, 2, 3):
        leader(e, me, i, "palaestina")
    control(e, them, "syria")
    units(e, them, "syria", (12, 0, 0))
    leader(e, them, 1, "syria")
    player = scripted(e, me, "hunter", garrison=0, neutral_weight=0.0, press_win=1.0)
    (step,) = [a for a in player.march(Choices(e, 0, me)) if a.dst == e.t.index("syria")]
    syria = e.t.index("syria")
    battle = LandBattle(Army(*step.units, leaders=len(step.leaders)), Army(12, 0, 0, leaders=1), False,
                        bool(e.retreat_options(0, me, syria)), bool(e.retreat_options(0, them, syria)))
    assert sum(step.units) > MAX_EXACT
    assert step.p_win == forecast_land(battle, e.comp, OPTIMAL, Objective(*player.weights))[0]


def test_coe_16_4_a_defender_with_nowhere_to_retreat_is_forecast_to_fight_on():
    """One cavalry and a General on Creta (no land neighbour, COE-16.4) against an infantry and a
    catapult: the forecast is the chain in which he cannot retreat (about 0.98), not the one in
    which he would retreat after the first round and count as beaten (1.0)."""
    e = engine(2)
    me, them = seat_of(e, "aegyptus"), seat_of(e, "hispania")
    control(e, them, "creta")
    units(e, them, "creta", (0, 1, 0))
    leader(e, them, 1, "creta")
    player = scripted(e, me, "hunter")
    creta = e.t.index("creta")
    assert not e.retreat_options(0, them, creta)
    got = player.attack_odds((1, 0, 1), 1, creta)
    stuck = LandBattle(Army(1, 0, 1, leaders=1), Army(0, 1, 0, leaders=1), False, True, False)
    free = LandBattle(Army(1, 0, 1, leaders=1), Army(0, 1, 0, leaders=1), False)
    objective = Objective(*player.weights)
    assert got == forecast_land(stuck, e.comp, OPTIMAL, objective)[0] < forecast_land(free, e.comp, OPTIMAL,
                                                                                      objective)[0]


@given(st.tuples(*[st.integers(0, 9)] * 3), st.integers(0, 27))
def test_a_legion_and_what_it_leaves_make_the_whole(ready, n):
    n = min(n, sum(ready))
    left = _keep(ready, n)
    taken = _take(list(ready), sum(ready) - n)
    assert tuple(a + b for a, b in zip(left, taken)) == ready


def test_coe_14_5_cached_forecast_is_the_exact_solve_at_the_start_state():
    e = engine(2)
    att, dfn = (3, 2, 1), (4, 1, 0)
    battle = LandBattle(Army(*att, leaders=2), Army(*dfn, leaders=1), True)
    sol = solve_land(battle, e.comp, OPTIMAL, OPTIMAL, objective=Objective(0.02, 0.5))
    got = ODDS.solve(e.comp, att, 2, dfn, 1, True, (0.02, 0.5), True)
    root = sol.attacker.index(att), sol.defender.index(dfn)
    assert got.win == sol.odds.attacker_win
    assert (got.attacker_retreats, got.defender_retreats) == (sol.attacker_retreats[root], sol.defender_retreats[root])
    assert ODDS.solve(e.comp, att, 2, dfn, 1, True, (0.02, 0.5), True) is got


def test_coe_25_2_guard_is_shared_by_players_facing_the_same_threat():
    e, me = threatened_home()
    q = e.t.index("aegyptus")
    first = scripted(e, me, "hunter")
    need = first.guard(q)
    GUARDS.clear()
    fresh = scripted(e, me, "hunter").guard(q)
    again = scripted(e, me, "hunter")
    assert fresh == need and again.guard(q) == need
    fortified = bool(e.s.fort[0, q]) and int(e.s.control[0, q]) == me
    assert again.guard_for((20, 0, 0), first.threat(q), fortified) == need


def hunted_between_two_legions(defenders: int):
    """Hispania's Caesar behind `defenders` infantry in his Fortified City, hunted by two legions
    of 6 infantry and 2 cavalry, each with a General, in Aquitania and Narbonensis; every other
    province held, so neither legion has anything else in reach."""
    e = engine(2)
    me, them = seat_of(e, "aegyptus"), seat_of(e, "hispania")
    e.s.round[0] = 5
    home = e.t.index("hispania")
    for q in range(e.t.n_prov):
        if q != home and e.s.control[0, q] < 0:
            control(e, me, e.t.names[q])
    for general, q in ((1, "aquitania"), (2, "narbonensis")):
        units(e, me, q, (6, 2, 0))
        leader(e, me, general, q)
    units(e, them, "hispania", (defenders, 0, 0))
    return e, me, home


def attacks_on(e, me: int, q: int, **changes) -> list[Step]:
    player = scripted(e, me, "hunter", **changes)
    return [a for a in player.march(Choices(e, 0, me)) if type(a) is Step and a.dst == q]


def test_coe_14_1_legions_next_to_the_hunted_caesar_attack_him_together():
    """Engine version 17 (`converge`): two legions that each wait for odds they cannot reach alone
    (below `min_win`) attack together where the joint force's exact odds reach it; every step
    carries the forecast of the battle as it will be played, both legions in it."""
    e, me, home = hunted_between_two_legions(8)
    player = scripted(e, me, "hunter")
    assert player.k["converge"] == 1
    assert attacks_on(e, me, home, converge=0) == []
    joint = attacks_on(e, me, home)
    assert sorted(e.t.names[a.src] for a in joint) == ["aquitania", "narbonensis"]
    force = tuple(map(sum, zip(*(a.units for a in joint))))
    alone = max(player.attack_odds(a.units, len(a.leaders), home) for a in joint)
    p_win = player.attack_odds(force, 2, home, MAX_PAIRS)
    assert alone < player.k["min_win"] <= p_win
    assert [a.p_win for a in joint] == [p_win, p_win]


def test_coe_14_1_a_legion_that_reaches_press_win_alone_attacks_alone():
    """No joint attack where one province's force already reaches `press_win`: the attack takes
    the fewest Generals the odds need (`enough`), as without `converge`."""
    e, me, home = hunted_between_two_legions(5)
    alone = attacks_on(e, me, home)
    assert len(alone) == 1 and alone == attacks_on(e, me, home, converge=0)
    assert alone[0].p_win >= scripted(e, me, "hunter").k["press_win"]
