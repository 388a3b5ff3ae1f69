"""SoE combat (SOE-12, SOE-20.3, SOE-20.18, SOE-20.20): worked examples, exact invariants, and
bulk kernels against the exact law (within 4 standard errors, fixed seeds)."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given, strategies as st

from sim.core.exact import is_pmf
from sim.core.montecarlo import run_blocks
from sim.core.stats import binomial_se
from sim.struggle.combat import ATT_WIN, DEF_WIN, NOT_FOUGHT, TIE, duel, resolve_attacks, settle_duels
from sim.struggle.combat_exact import PAIR_CLASSES, Attack, attack_odds, duel_law
from sim.struggle.components import CombatRules


class FixedDice:
    """A Generator stand-in that serves preset draws, for replaying a worked example.

    `resolve_attacks` draws one duel index per battle for the naval phase, then one for the land
    battle; a duel index is 36 * attacker pair + defender pair, a pair (d1-1) * 6 + (d2-1)."""

    def __init__(self, *draws):
        self.draws = list(draws)

    def integers(self, low, high, size, dtype):
        return np.array(self.draws.pop(0), dtype=dtype).reshape(size)


def close(estimate: float, p: float, n: int) -> bool:
    """Within 4 standard errors of the exact p (p clipped to [0, 1] against rounding)."""
    p = min(max(p, 0.0), 1.0)
    return abs(estimate - p) <= 4 * binomial_se(p, n) + 1e-12


def duel_index(att: tuple[int, int], dfn: tuple[int, int]) -> int:
    pair = lambda d: (d[0] - 1) * 6 + d[1] - 1  # noqa: E731
    return pair(att) * 36 + pair(dfn)


E1 = dict(att_fleets=2, def_armies=1, def_fleets=1, def_ally_armies=1, att_army_training=1, att_alliance_army=1,
          naval_phase=True, def_wants_naval=False)


def test_example_soe_e1_battle_in_north_america():
    # Spain 2 armies + 2 fleets, training superiority, Indians; GB 1 army + 1 fleet, Austria helps
    # with its army only; GB avoids the naval battle -> Spain has naval support.
    res = resolve_attacks(FixedDice([0], [duel_index((2, 5), (1, 6))]), 2, n=1, **E1)
    assert res.naval[0] == NOT_FOUGHT and res.support[0] == 1
    assert res.land[0] == ATT_WIN                       # 8 against 7
    assert res.att_armies_lost[0] == 1                  # Spain's 7
    assert res.def_armies_lost[0] == 1                  # GB loses its army
    assert res.def_ally_armies_lost[0] == 1             # GB's 7 falls on helping Austria
    assert res.att_fleets_lost[0] == res.def_fleets_lost[0] == 0
    assert res.control_change[0]


def test_example_soe_e1_totals_are_8_and_7():
    # Without the Indians tile Spain totals 7 against 7: a tie, so the totals were 8 and 7.
    res = resolve_attacks(FixedDice([0], [duel_index((2, 5), (1, 6))]), 2, n=1, **{**E1, "att_alliance_army": 0})
    assert res.land[0] == TIE and not res.control_change[0]


def test_example_soe_e10_tie_with_a_fort():
    res = resolve_attacks(FixedDice([0], [duel_index((4, 2), (5, 3))]), 2, n=1, def_forts=1, naval_phase=True)
    assert res.land[0] == TIE
    assert res.att_armies_lost[0] == 1
    assert res.def_forts_lost[0] == 0 and res.def_units_lost[0] == 0
    assert not res.control_change[0]
    odds = attack_odds(Attack(att_armies=2, def_forts=1, naval_phase=True))
    assert all(o.def_forts_lost == 0 for o, _ in odds.law if o.land == TIE)


E11 = dict(att_fleets=1, att_army_training=1, neutral=3, naval_phase=True)


def test_example_soe_e11_attacking_a_neutral():
    win = resolve_attacks(FixedDice([0], [duel_index((6, 2), (3, 3))]), 2, n=1, **E11)
    assert win.land[0] == ATT_WIN and win.control_change[0] and win.att_units_lost[0] == 0
    tie = resolve_attacks(FixedDice([0], [duel_index((3, 1), (6, 3))]), 2, n=1, **E11)
    assert tie.land[0] == TIE and not tie.control_change[0]
    assert tie.att_armies_lost[0] == 1 and tie.def_units_lost[0] == 0   # the neutral's 7 has no effect
    # The win case had 4 to spare: strength 2 + 1 training + 1 support = 4 against 3.
    odds = attack_odds(Attack(att_armies=2, **E11))
    assert odds.attacker_win == pytest.approx(sum(p for w, *_, p in duel_law(1) if w == ATT_WIN))


def test_example_soe_e9_two_dice_difference_and_seven():
    diff = {}
    for d, seven, count in PAIR_CLASSES:
        diff[d] = diff.get(d, 0) + Fraction(count, 36)
        assert not seven or d in (1, 3, 5)
    assert diff == {0: Fraction(6, 36), 1: Fraction(10, 36), 2: Fraction(8, 36), 3: Fraction(6, 36),
                    4: Fraction(4, 36), 5: Fraction(2, 36)}
    assert sum(Fraction(c, 36) for _, s, c in PAIR_CLASSES if s) == Fraction(1, 6)
    assert sum(d * p for d, p in diff.items()) == Fraction(70, 36)


def test_equal_strength_duel_is_symmetric():
    law = duel_law(0)
    p = {w: sum(q for x, *_, q in law if x == w) for w in (ATT_WIN, TIE, DEF_WIN)}
    assert p[ATT_WIN] == pytest.approx(p[DEF_WIN])
    assert sum(p.values()) == pytest.approx(1)


def test_zero_unit_defender_soe_12_13():
    odds = attack_odds(Attack(att_armies=1, def_armies=0))
    assert odds.defender_win > 0                       # dice alone can beat 1 army
    assert all(o.def_units_lost == 0 for o, _ in odds.law)
    assert odds.control_change == pytest.approx(odds.attacker_win)


def test_refuse_battle_cancels_defender_losses_soe_20_18():
    base = attack_odds(Attack(att_armies=4, def_armies=2))
    refused = attack_odds(Attack(att_armies=4, def_armies=2, def_refuse=True))
    assert all(o.def_units_lost == 0 for o, _ in refused.law)
    assert refused.control_change == pytest.approx(base.control_change)
    assert refused.losses("att") == pytest.approx(base.losses("att"))


def test_blockade_gives_plus_two_support_soe_20_20():
    plain = attack_odds(Attack(att_armies=2, att_fleets=1, def_armies=3, naval_phase=True, def_wants_naval=False))
    blockade = attack_odds(Attack(att_armies=2, att_fleets=1, def_armies=3, naval_phase=True,
                                  def_wants_naval=False, att_blockade=True))
    plus_two = attack_odds(Attack(att_armies=2, def_armies=3, att_bonus=2))
    assert blockade.attacker_win == pytest.approx(plus_two.attacker_win)
    assert blockade.attacker_win > plain.attacker_win


def test_naval_support_needs_own_fleet_soe_a9():
    # The attacker declines the naval battle; the defender has only allied fleets there.
    attack = Attack(att_armies=3, att_fleets=1, def_armies=3, def_ally_fleets=2, naval_phase=True,
                    att_wants_naval=False)
    strict = attack_odds(attack)
    loose = attack_odds(attack, CombatRules(naval_support_needs_own_fleet=False))
    assert strict.attacker_win == pytest.approx(attack_odds(Attack(att_armies=3, def_armies=3)).attacker_win)
    assert loose.attacker_win < strict.attacker_win


def test_naval_only_attack_destroys_fleets_only_soe_12_15():
    odds = attack_odds(Attack(att_armies=0, att_fleets=2, def_fleets=2, def_armies=3, naval_phase=True))
    assert odds.control_change == 0
    assert all(o.land == NOT_FOUGHT and o.def_armies_lost == 0 for o, _ in odds.law)
    avoid = attack_odds(Attack(att_armies=0, att_fleets=2, def_fleets=2, naval_phase=True, def_wants_naval=False),
                        CombatRules(naval_only_defender_must_fight=False))
    assert avoid.no_battle == pytest.approx(1)


def test_reserves_help_their_owner_and_never_policy_ignores_them():
    plain = attack_odds(Attack(att_armies=3, def_armies=3))
    att = attack_odds(Attack(att_armies=3, def_armies=3, att_reserves=2))
    dfn = attack_odds(Attack(att_armies=3, def_armies=3, def_reserves=2))
    assert att.attacker_win > plain.attacker_win
    assert dfn.attacker_win < plain.attacker_win
    never = attack_odds(Attack(att_armies=3, def_armies=3, att_reserves=2), CombatRules(reserves_policy="never"))
    assert never.law == plain.law


def test_forts_first_loss_order_option():
    odds = attack_odds(Attack(att_armies=6, def_armies=1, def_forts=1), CombatRules(land_loss_order="forts_first"))
    assert any(o.def_forts_lost == 1 and o.def_armies_lost == 0 for o, _ in odds.law if o.land == ATT_WIN)


GRID = [
    Attack(att_armies=3, def_armies=2),
    Attack(att_armies=2, def_armies=1, def_forts=1, att_army_training=1),
    Attack(att_armies=2, def_armies=1, def_ally_armies=2, att_ally_armies=1),
    Attack(att_armies=1, neutral=4, att_fleets=1, naval_phase=True),
    Attack(att_armies=3, att_fleets=2, def_armies=2, def_fleets=2, def_ally_fleets=1, naval_phase=True,
           att_naval_training=1, att_alliance_fleet=1),
    Attack(att_armies=2, att_fleets=1, def_armies=2, def_fleets=1, naval_phase=True, att_wants_naval=False,
           def_blockade=True),
    Attack(att_armies=3, def_armies=2, def_forts=1, att_reserves=2, def_reserves=1),
    Attack(att_armies=2, att_fleets=2, def_armies=2, def_fleets=1, naval_phase=True, att_reserves=1,
           def_reserves=2, def_refuse=True),
    Attack(att_armies=0, att_fleets=3, def_fleets=2, def_ally_fleets=1, naval_phase=True),
]


RULES = [CombatRules()] * len(GRID) + [
    CombatRules(reserves_policy="not_winning"), CombatRules(reserves_in_naval_battle=False),
    CombatRules(land_loss_order="forts_first", neutral_attacker_allies=False),
    CombatRules(naval_support_needs_own_fleet=False),
    CombatRules(reserves_for_any_change=False), CombatRules(reserves_policy="not_winning", reserves_for_any_change=False),
    CombatRules(tie_seven_from_ally=True), CombatRules(naval_support_on_decline="always")]
GRID += [
    Attack(att_armies=2, def_armies=2, att_reserves=2, def_reserves=2),
    Attack(att_armies=2, att_fleets=1, def_armies=1, def_fleets=1, naval_phase=True, att_reserves=1, def_reserves=1),
    Attack(att_armies=4, def_armies=1, def_forts=2, att_ally_armies=1),
    Attack(att_armies=2, att_fleets=1, def_armies=2, def_ally_fleets=1, naval_phase=True, att_wants_naval=False),
    Attack(att_armies=2, def_armies=3, att_reserves=2, def_reserves=1),
    Attack(att_armies=3, def_armies=2, att_reserves=1, def_reserves=2),
    Attack(att_armies=2, def_armies=2, def_ally_armies=1, att_ally_armies=1),
    Attack(att_armies=2, att_fleets=1, def_armies=1, naval_phase=True, att_wants_naval=False),
]


@pytest.mark.parametrize("index", range(len(GRID)))
def test_bulk_within_4_se_of_exact(index):
    attack, rules, n = GRID[index], RULES[index], 40_000
    exact = attack_odds(attack, rules)
    res = resolve_attacks(np.random.default_rng(100 + index), attack.att_armies, rules=rules, n=n,
                          **attack.inputs())
    checks = [(exact.attacker_win, (res.winner == ATT_WIN).mean()), (exact.tie, (res.winner == TIE).mean()),
              (exact.control_change, res.control_change.mean())]
    for side, lost in (("att", res.att_units_lost), ("def", res.def_units_lost)):
        law = exact.losses(side)
        checks += [(law.get(k, 0.0), (lost == k).mean()) for k in range(int(lost.max()) + 2)]
    for outcome in {o for o, _ in exact.law}:
        p = sum(q for o, q in exact.law if o == outcome)
        hits = np.ones(n, dtype=bool)
        for name, value in outcome._asdict().items():
            hits &= getattr(res, name) == value
        checks.append((p, hits.mean()))
    for p, estimate in checks:
        assert close(estimate, p, n)


@pytest.mark.parametrize("base", [-4, -1, 0, 2, 5])
def test_duel_kernel_within_4_se_of_exact(base):
    n = 100_000
    winner, att_seven, def_seven = duel(np.random.default_rng(base + 10), base, 0, n=n)
    for w, sa, sd, _, _, p in duel_law(base):
        estimate = ((winner == w) & (att_seven == sa) & (def_seven == sd)).mean()
        assert close(estimate, p, n)


def test_settle_duels_matches_duel_on_the_same_draws():
    att, dfn = np.array([3, 1, 4, 2] * 50), np.array([2, 2, 4, 6] * 50)
    winner, att_seven, def_seven = duel(np.random.default_rng(8), att, dfn)
    k = np.random.default_rng(8).integers(0, 1296, size=att.size, dtype=np.uint16)
    again = settle_duels(k, att, dfn)
    assert np.array_equal(winner, again[0]) and np.array_equal(att_seven, again[1])
    assert np.array_equal(def_seven, again[2])


def test_duel_accepts_per_battle_arrays():
    winner, _, _ = duel(np.random.default_rng(0), np.array([20, 0, 5]), np.array([0, 20, 5]))
    assert winner[:2].tolist() == [ATT_WIN, DEF_WIN]


def test_same_seed_same_numbers_whatever_the_chunking():
    attack = GRID[6]

    def kernel(rng, size):
        res = resolve_attacks(rng, attack.att_armies, n=size, **attack.inputs())
        return {"w": np.bincount(res.winner + 2, minlength=4), "a": np.bincount(res.att_units_lost)}

    whole = run_blocks(kernel, 10_000, seed=9, purpose="t", block=1000)
    parts = [run_blocks(kernel, 10_000, seed=9, purpose="t", block=1000, first=f, count=c)
             for f, c in ((0, 3), (3, 4), (7, 3))]
    for key in whole:
        total = parts[0][key].copy()
        for part in parts[1:]:
            total = total + np.pad(part[key], (0, len(total) - len(part[key]))) if len(total) >= len(part[key]) \
                else np.pad(total, (0, len(part[key]) - len(total))) + part[key]
        assert np.array_equal(total, whole[key])


def test_bulk_is_a_pure_function_of_rng_and_inputs():
    attack = GRID[4]
    a = resolve_attacks(np.random.default_rng(5), attack.att_armies, n=1000, **attack.inputs())
    b = resolve_attacks(np.random.default_rng(5), attack.att_armies, n=1000, **attack.inputs())
    assert all(np.array_equal(getattr(a, f), getattr(b, f)) for f in a.__dataclass_fields__)


attacks = st.builds(
    Attack, att_armies=st.integers(0, 4), def_armies=st.integers(0, 3), def_forts=st.integers(0, 2),
    att_fleets=st.integers(0, 2), def_fleets=st.integers(0, 2), att_ally_armies=st.integers(0, 2),
    def_ally_armies=st.integers(0, 2), att_ally_fleets=st.integers(0, 1), def_ally_fleets=st.integers(0, 1),
    att_army_training=st.integers(0, 2), def_army_training=st.integers(0, 2), naval_phase=st.booleans(),
    att_wants_naval=st.booleans(), def_wants_naval=st.booleans(), neutral=st.sampled_from([-1, -1, 1, 3, 5]),
    att_reserves=st.integers(0, 2), def_reserves=st.integers(0, 2), def_refuse=st.booleans(),
    att_bonus=st.integers(-2, 3), def_bonus=st.integers(-2, 3))


@given(attacks, st.sampled_from(["greedy", "not_winning", "never"]))
def test_exact_law_is_a_pmf_and_losses_are_consistent(attack, policy):
    if attack.att_armies == 0 and attack.att_fleets == 0:
        attack = attack._replace(att_armies=1)
    odds = attack_odds(attack, CombatRules(reserves_policy=policy))
    assert is_pmf(dict(odds.law))
    probs = (odds.attacker_win, odds.tie, odds.defender_win, odds.no_battle)
    assert all(0 <= p <= 1 + 1e-12 for p in probs) and sum(probs) == pytest.approx(1)
    assert is_pmf(odds.losses("att")) and is_pmf(odds.losses("def"))
    neutral = attack.neutral >= 0
    for o, _ in odds.law:
        assert o.att_armies_lost <= attack.att_armies and o.att_fleets_lost <= attack.att_fleets
        assert o.att_armies_lost + o.att_fleets_lost + o.att_ally_armies_lost + o.att_ally_fleets_lost <= 4
        assert o.def_forts_lost <= (0 if neutral else attack.def_forts)
        assert o.def_armies_lost <= (0 if neutral else attack.def_armies)
        assert o.def_fleets_lost <= (0 if neutral else attack.def_fleets)
        if o.land == TIE:
            assert o.def_forts_lost == 0
        assert not o.control_change or o.land == ATT_WIN
        if attack.def_refuse:
            assert o.def_units_lost == 0


@pytest.mark.parametrize("tie7", [False, True])
def test_one_loss_allocation_bulk_twin_agrees_on_every_small_case_soe_12_10(tie7):
    """`loss_order` (engine, exact odds) and its bulk twin `_allocate` give the same losses for
    every outcome, sevens, unit counts 0..3 and fort flags (SOE-12.9 .. 12.12, SOE-A11/A12)."""
    import itertools

    from sim.struggle.combat import _allocate, loss_counts
    cases = [c for c in itertools.product((False, True), (False, True), (False, True), range(4), range(4), range(4),
                                          (False, True), (False, True)) if c[0] or not c[1]]    # a tie is a loss
    lost, tie, seven, first, second, ally, ffort, sfort = (np.array(x) for x in zip(*cases))
    for ff, sf in itertools.product((False, True), repeat=2):
        pick = (ffort == ff) & (sfort == sf)
        bulk = _allocate(lost[pick], tie[pick], seven[pick], first[pick], second[pick], ally[pick], ff, sf, tie7)
        scalar = [loss_counts(bool(a), bool(b), bool(c), int(d), int(e), int(f), ff, sf, tie7)
                  for a, b, c, d, e, f in zip(lost[pick], tie[pick], seven[pick], first[pick], second[pick],
                                              ally[pick])]
        assert np.array_equal(np.stack(bulk, axis=1), np.array(scalar))


def test_a_tied_helped_side_loses_its_seven_unit_from_own_units_unless_the_option_says_ally():
    """SOE-12.10 / SOE-12.11: a tie is not a loss, so the 7 of a tied, helped side costs its own
    unit first (default); option `tie_seven_from_ally` counts the tied side as the loser."""
    from sim.struggle.combat import loss_order
    assert loss_order(True, True, True, 2, 0, 1) == (0, 0)
    assert loss_order(True, True, True, 2, 0, 1, tie_seven_from_ally=True) == (0, 2)
    assert loss_order(True, False, True, 2, 0, 1) == (0, 2)                 # lost outright: the ally
    assert loss_order(True, True, True, 1, 1, 0, second_is_fort=True) == (0,)   # no fort in a tie
    odds = {r: attack_odds(Attack(att_armies=2, def_armies=2, def_ally_armies=1), CombatRules(tie_seven_from_ally=r))
            for r in (False, True)}
    ally_loses = {r: odds[r].prob(lambda o: o.def_ally_armies_lost > 0) for r in odds}
    assert ally_loses[True] > ally_loses[False]           # ties with a 7 move the loss to the ally
    assert odds[True].losses("def") == pytest.approx(odds[False].losses("def"))   # the same units in all


def test_a_reserves_reroll_for_a_tie_is_taken_only_with_the_option_soe_a20():
    """SOE-20.3 / SOE-A20: an attacker losing by 5 whose best new roll can only tie re-rolls when
    any change of result counts (default), not when only a win is worth a Reserves tile."""
    from sim.struggle.combat import wants_reroll
    # base 0: attacker rolled difference 0, defender 5 -> losing; the best new roll (5) ties.
    assert bool(wants_reroll(0, 0, 5, "greedy")[0])
    assert not bool(wants_reroll(0, 0, 5, "greedy", for_any_change=False)[0])
    assert bool(wants_reroll(0, 0, 4, "greedy", for_any_change=False)[0])          # 5 beats 4: a win
    # the greedy defender re-rolls to save a tie either way; under not_winning only to win without the option
    assert bool(wants_reroll(0, 5, 0, "greedy", for_any_change=False)[1])
    assert not bool(wants_reroll(0, 5, 0, "not_winning", for_any_change=False)[1])
    assert bool(wants_reroll(0, 5, 0, "not_winning")[1])
