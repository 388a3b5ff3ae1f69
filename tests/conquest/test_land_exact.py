"""Exact land-battle odds: against a brute-force enumeration of dice, laws that sum to one, leader
capture (COE-E11, COE-E14), and the optimal retreat policy against fight and threshold policies."""

import functools
import itertools
import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.conquest.combat import Army, LandBattle, Tactics, resolve_round
from sim.conquest.components import default_components, load_components
from sim.conquest.land_exact import solve_land
from sim.conquest.policy import FIGHT, OPTIMAL, Objective, RetreatPolicy
from sim.core.errors import UserError
from sim.core.exact import monotone_layers

COMPS = default_components()
RULES = {"default": COMPS, "sequential": load_components(["options.simultaneous_hits=false",
                                                          "options.catapult_cap=\"formation_min1\""])}
FACES = ("infantry", "cavalry", "catapult", "galley", "blank")
P_FACE = {f: COMPS.die.faces.count(f) / len(COMPS.die.faces) for f in FACES}


@functools.lru_cache(maxsize=None)
def rolls(n: int) -> tuple:
    """Every multiset of n battle-die symbols with its probability (brute force)."""
    out = []
    for combo in itertools.combinations_with_replacement(FACES, n):
        counts = [combo.count(f) for f in FACES]
        coef = math.factorial(n) // math.prod(math.factorial(c) for c in counts)
        out.append((combo, coef * math.prod(P_FACE[f] ** c for f, c in zip(FACES, counts))))
    return tuple(out)


@functools.lru_cache(maxsize=None)
def brute(att: Army, dfn: Army, fortified: bool, rules: str = "default") -> dict:
    """Terminal law {(attacker units, defender units): p} of a fight to the end, by enumerating
    every roll of every round with `resolve_round` (geometric sum over rounds nobody loses)."""
    if att.total == 0 or dfn.total == 0:
        return {(att.units, dfn.units): 1.0}
    comps = RULES[rules]
    extra = comps.land.extra_dice(fortified, att.catapult > 0)
    n_att = comps.land.formation_size(att.total, att.leaders)
    n_def = comps.land.formation_size(dfn.total, dfn.leaders) + extra
    nxt: dict = {}
    for ra, pa in rolls(n_att):
        for n in range(n_def + 1):  # the defender rolls fewer dice when hit units do not roll
            for rd, pd in rolls(n):
                try:
                    r = resolve_round(att, dfn, ra, rd, comps, fortified)
                except UserError:
                    continue
                key = (r.attacker_after, r.defender_after)
                nxt[key] = nxt.get(key, 0.0) + pa * pd
    stay = nxt.pop((att, dfn), 0.0)
    out: dict = {}
    for (a2, d2), p in nxt.items():
        for k, q in brute(a2, d2, fortified, rules).items():
            out[k] = out.get(k, 0.0) + p * q / (1 - stay)
    return out


@pytest.mark.parametrize("att, dfn, fortified, rules", [
    (Army(2, 1, 0, 1), Army(2, 0, 0, 0), False, "default"),
    (Army(1, 1, 1, 0), Army(1, 2, 0, 1), True, "default"),
    (Army(0, 2, 1, 1), Army(3, 0, 0, 0), True, "default"),
    (Army(3, 0, 0, 0), Army(1, 1, 1, 2), False, "default"),
    (Army(1, 1, 1, 0), Army(1, 2, 0, 1), True, "sequential"),
    (Army(2, 1, 0, 1), Army(1, 1, 1, 0), True, "sequential"),
])
def test_exact_solver_matches_brute_force_enumeration(att, dfn, fortified, rules):
    """Also under the alternatives of COE-A1 (sequential hits) and COE-A3 (catapult cap)."""
    law = brute(att, dfn, fortified, rules)
    odds = solve_land(LandBattle(att, dfn, fortified), RULES[rules]).odds
    a_win = sum(p for (a, d), p in law.items() if sum(d) == 0 and sum(a) > 0)
    d_win = sum(p for (a, d), p in law.items() if sum(a) == 0 and sum(d) > 0)
    assert odds.attacker_win == pytest.approx(a_win, abs=1e-12)
    assert odds.defender_win == pytest.approx(d_win, abs=1e-12)
    assert odds.both_destroyed == pytest.approx(law.get(((0, 0, 0), (0, 0, 0)), 0.0), abs=1e-12)
    for count in range(att.total + 1):
        expected = sum(p for (a, _), p in law.items() if sum(a) == count)
        assert odds.attacker_survivors.get(count, 0.0) == pytest.approx(expected, abs=1e-12)


armies = st.builds(Army, st.integers(0, 4), st.integers(0, 3), st.integers(0, 2), st.integers(0, 3)).filter(
    lambda a: a.total > 0)
policies = st.one_of(st.just(FIGHT), st.just(OPTIMAL), st.builds(lambda k: RetreatPolicy("below", k), st.integers(1, 6)))
objectives = st.builds(Objective, st.sampled_from([0.0, 0.01, 0.05]), st.sampled_from([0.0, 0.3]))


@settings(max_examples=40)
@given(att=armies, dfn=armies, fortified=st.booleans(), a_pol=policies, d_pol=policies, obj=objectives,
       losses=st.sampled_from(["max_hits", "loss_order"]))
def test_outcome_laws_sum_to_one(att, dfn, fortified, a_pol, d_pol, obj, losses):
    sol = solve_land(LandBattle(att, dfn, fortified), COMPS, a_pol, d_pol, Tactics(losses=losses), obj)
    o = sol.odds
    assert o.attacker_win + o.defender_win + o.both_destroyed == pytest.approx(1.0, abs=1e-9)
    for law in (o.attacker_survivors, o.defender_survivors, o.attacker_leaders_captured,
                o.defender_leaders_captured):
        assert sum(law.values()) == pytest.approx(1.0, abs=1e-9)
        assert min(law.values()) >= -1e-12
    assert max(o.attacker_survivors) <= att.total and max(o.defender_survivors) <= dfn.total
    assert o.expected_rounds >= 1.0


@settings(max_examples=30)
@given(att=armies, dfn=armies, fortified=st.booleans())
def test_root_value_is_the_probability_of_taking_the_province(att, dfn, fortified):
    """With zero weights the payoff is the event 'the attacker takes the province'."""
    sol = solve_land(LandBattle(att, dfn, fortified), COMPS)
    assert sol.value == pytest.approx(sol.odds.attacker_win, abs=1e-12)


@settings(max_examples=30)
@given(att=armies, dfn=armies, fortified=st.booleans())
def test_optimal_is_fight_to_the_end_for_the_province_alone(att, dfn, fortified):
    """Retreating hands the province over (defender) or gives up the attack (attacker), so with
    zero weights neither side ever retreats under the optimal policy."""
    sol = solve_land(LandBattle(att, dfn, fortified), COMPS, OPTIMAL, OPTIMAL)
    assert not sol.attacker_retreats.any() and not sol.defender_retreats.any()
    assert sol.odds.attacker_win == pytest.approx(solve_land(LandBattle(att, dfn, fortified), COMPS).odds.attacker_win)


fixed = st.one_of(st.just(FIGHT), st.builds(lambda k: RetreatPolicy("below", k), st.integers(1, 7)))


@settings(max_examples=25)
@given(att=armies, dfn=armies, fortified=st.booleans(), other=fixed, obj=objectives)
def test_optimal_attacker_beats_fight_and_every_threshold(att, dfn, fortified, other, obj):
    """Against any fixed defender policy, the attacker's optimal policy has at least the payoff
    of fight-to-the-end and of every retreat-below=K policy."""
    battle = LandBattle(att, dfn, fortified)
    best = solve_land(battle, COMPS, OPTIMAL, other, objective=obj).value
    for k in range(0, att.total + 2):
        pol = FIGHT if k == 0 else RetreatPolicy("below", k)
        assert solve_land(battle, COMPS, pol, other, objective=obj).value <= best + 1e-9


@settings(max_examples=25)
@given(att=armies, dfn=armies, fortified=st.booleans(), other=fixed, obj=objectives)
def test_optimal_defender_beats_fight_and_every_threshold(att, dfn, fortified, other, obj):
    """The defender minimises the attacker's payoff: optimal <= fight and every threshold."""
    battle = LandBattle(att, dfn, fortified)
    best = solve_land(battle, COMPS, other, OPTIMAL, objective=obj).value
    for k in range(0, dfn.total + 2):
        pol = FIGHT if k == 0 else RetreatPolicy("below", k)
        assert solve_land(battle, COMPS, other, pol, objective=obj).value >= best - 1e-9


def test_optimal_policy_retreats_when_units_are_worth_something():
    """A hopeless defender who values his units retreats; the policy table lists where."""
    battle = LandBattle(Army(6, 2, 0, 1), Army(4, 0, 0, 0))
    sol = solve_land(battle, COMPS, OPTIMAL, OPTIMAL, objective=Objective(unit_weight=0.05))
    assert sol.odds.defender_retreated > 0.3
    rows = sol.policy_rows()
    assert rows and all(r["retreats"] in ("attacker", "defender") for r in rows)
    assert sum(r["reach"] for r in rows if r["retreats"] == "defender") == pytest.approx(
        sol.odds.defender_retreated)


def test_example_coe_e14_caesar_captured_when_his_units_die():
    """COE-E14 / COE-16.3: a leader whose land units are all destroyed in the rounds is captured;
    under fight-to-the-end that is every battle the attacker wins, plus mutual destruction."""
    odds = solve_land(LandBattle(Army(4, 1, 0, 1), Army(2, 0, 0, leaders=1)), COMPS).odds
    assert odds.defender_leaders_captured[1] == pytest.approx(odds.attacker_win + odds.both_destroyed)


def test_example_coe_e11_leaders_escape_pursuit_and_retreat_needs_a_province():
    """COE-E11: a retreating side's leaders are never captured (variant 1: escape even when the
    pursuit destroys every unit); variant 2: with no free province the side cannot retreat."""
    battle = LandBattle(Army(3, 2, 0, 1), Army(2, 0, 1, leaders=1))
    always = RetreatPolicy("below", 99)
    odds = solve_land(battle, COMPS, FIGHT, always).odds
    assert odds.defender_retreated > 0
    captured = odds.defender_leaders_captured.get(1, 0.0)
    assert captured == pytest.approx(1 - odds.defender_retreated - odds.defender_win)
    assert odds.defender_survivors[0] > captured  # survivors 0 includes pursuit wipe-outs (escape)
    trapped = LandBattle(battle.attacker, battle.defender, defender_can_retreat=False)
    assert solve_land(trapped, COMPS, FIGHT, always).odds.defender_retreated == 0


def test_example_coe_e11_variant_3_no_cavalry_no_pursuit():
    """Without cavalry the winner's pursuit destroys nothing: the retreating side keeps all."""
    battle = LandBattle(Army(6, 0, 0, 1), Army(2, 0, 0, 0))
    odds = solve_land(battle, COMPS, FIGHT, RetreatPolicy("below", 3)).odds
    # the defender retreats after round 1 unless wiped out; survivors are never reduced by pursuit
    assert odds.defender_survivors.get(2, 0) + odds.defender_survivors.get(1, 0) == pytest.approx(odds.defender_retreated)


def test_too_many_units_for_the_exact_solver_is_a_user_error():
    with pytest.raises(UserError, match="use --mc"):
        solve_land(LandBattle(Army(20, 20, 6, 2), Army(20, 20, 6, 2)), COMPS)


def test_monotone_layers_groups_by_level_lowest_first():
    level = np.array([3, 1, 2, 1, 0, 3])
    layers = monotone_layers(level, np.array([0, 1, 2, 3, 5]))
    assert [sorted(x.tolist()) for x in layers] == [[1, 3], [2], [0, 5]]
    assert monotone_layers(level, np.array([], dtype=int)) == []
