"""The compiled exact land solver against the previous numpy solver (COE-14, COE-16): the win
chance, every outcome probability and both retreat maps (COE-14.5) agree on hypothesis-drawn
battles, rules, policies and objectives, so the players' decisions do not change."""

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.conquest import land_kernel
from sim.conquest.combat import Army, LandBattle, battle_tables
from sim.conquest.components import default_components, load_components
from sim.conquest.land_exact import TACTICS, _side, solve_land
from sim.conquest.policy import FIGHT, OPTIMAL, Objective, RetreatPolicy
from tests.conquest.land_reference import solve_reference

RULES = (default_components(),
         load_components(["options.simultaneous_hits=false", "options.catapult_cap=\"formation_min1\""]),
         load_components(["options.mutual_annihilation=\"defender_holds_no_capture\"", "options.pursuit_cap=\"uncapped\""]))
TOLERANCE = 1e-12

armies = st.builds(Army, st.integers(0, 7), st.integers(0, 2), st.integers(0, 2), st.integers(0, 3)).filter(
    lambda a: a.total > 0)
policies = st.sampled_from((FIGHT, OPTIMAL, RetreatPolicy("below", 2), RetreatPolicy("below", 4)))
objectives = st.builds(Objective, st.sampled_from((0.0, 0.002, 0.01, 0.05)), st.sampled_from((0.0, 0.1, 0.5, 2.0)))


@settings(max_examples=300, deadline=None)
@given(att=armies, dfn=armies, fortified=st.booleans(), rules=st.integers(0, len(RULES) - 1),
       a_pol=policies, d_pol=policies, obj=objectives)
def test_coe14_kernel_equals_the_numpy_chain(att, dfn, fortified, rules, a_pol, d_pol, obj):
    battle = LandBattle(att, dfn, fortified)
    new = solve_land(battle, RULES[rules], a_pol, d_pol, objective=obj)
    odds, value, a_ret, d_ret, reach = solve_reference(battle, RULES[rules], a_pol, d_pol, objective=obj)
    mine, theirs = new.odds.probabilities(), odds.probabilities()
    assert mine.keys() == theirs.keys()
    for key, p in theirs.items():
        assert abs(mine[key] - p) <= TOLERANCE, key
    assert abs(new.odds.attacker_win - odds.attacker_win) <= TOLERANCE
    assert abs(new.value - value) <= TOLERANCE
    assert abs(new.odds.expected_rounds - odds.expected_rounds) <= TOLERANCE * odds.expected_rounds
    assert np.array_equal(new.attacker_retreats, a_ret) and np.array_equal(new.defender_retreats, d_ret)
    assert np.abs(new.reach - reach).max() <= TOLERANCE



@settings(max_examples=150, deadline=None)
@given(att=armies, dfn=armies, fortified=st.booleans(), rules=st.integers(0, len(RULES) - 1))
def test_coe_a2_the_round_law_is_zero_beyond_the_bounds_the_passes_read(att, dfn, fortified, rules):
    """COE-A2: a side loses at most its formation, so the weights of a round's law beyond the
    bounds `_round_law` returns are exactly 0, and within them it writes the full law: the passes
    that skip the rest add the same terms in the same order (decisions and figures unchanged)."""
    comps = RULES[rules]
    a_tables, d_tables, ext, width = battle_tables(LandBattle(att, dfn, fortified), comps, TACTICS)
    A, D = _side(a_tables), _side(d_tables)
    sequential = D.after is not None
    after = D.after if sequential else np.zeros((1, 1, 1, 1))
    p_att, p_def, cond = np.empty(width), np.empty(width), np.empty(width)
    for ia in range(len(A.total)):
        for id_ in range(len(D.total)):
            weights, succ = np.full((width, width), np.nan), np.full((width, width), -1)
            la_end, ld_end = land_kernel._round_law(ia, id_, len(D.total), ext, A.hits, A.succ, A.size, D.hits,
                                                    D.succ, D.size, after, sequential, weights, succ, p_att,
                                                    p_def, cond)
            full = _full_round_law(A, D, ext[ia], ia, id_, after, sequential, width)
            assert np.array_equal(weights[:la_end, :ld_end], full[:la_end, :ld_end])
            assert not full[la_end:].any() and not full[:, ld_end:].any()
            assert (succ[:la_end, :ld_end] == A.succ[0, ia, :la_end, None] * len(D.total)
                    + D.succ[ext[ia], id_, None, :ld_end]).all()


def _full_round_law(A, D, e: int, ia: int, id_: int, after: np.ndarray, sequential: bool, width: int) -> np.ndarray:
    """The round law over the whole common width: each side's hits capped by the other's
    formation (COE-A2), the attacker's losses by row, the defender's by column."""
    p_def, p_att = np.empty(width), np.empty(width)
    land_kernel._capped(A.hits[0, ia], D.size[id_], p_def)
    if not sequential:
        land_kernel._capped(D.hits[e, id_], A.size[ia], p_att)
        return p_att[:, None] * p_def[None, :]
    out = np.empty((width, width))
    for ld in range(width):
        land_kernel._capped(after[e, id_, ld], A.size[ia], p_att)
        out[:, ld] = p_att * p_def[ld]
    return out
