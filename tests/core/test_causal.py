"""Honest fair prices (sim.core.causal): a price only when its currency is clearly worth
something, the blocks that would settle it, sign changes between skill levels, break-evens."""

import math

import numpy as np
import pandas as pd
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from sim.core.causal import (MIN_BLOCKS, NOT_IDENTIFIABLE, Effect, blocks_to_settle, crossing, excludes_zero,
                             paired_effect, price_verdict, sign_changes)


def effect(estimate: float, half: float, blocks: int = 8) -> Effect:
    se = half / float(stats.t.ppf(0.975, blocks - 1))
    return Effect(estimate, (estimate - half, estimate + half), se, blocks, 0)


@given(st.floats(1e-3, 1.0), st.floats(1e-3, 1.0), st.integers(2, 200))
def test_blocks_to_settle_gives_a_half_width_below_the_estimate(estimate, se, blocks):
    n = blocks_to_settle(Effect(estimate, (estimate - 2 * se, estimate + 2 * se), se, blocks, 0))
    sd = se * math.sqrt(blocks)
    if n is None:                                   # beyond the search limit: a huge number indeed
        assert (1.96 * sd / estimate) ** 2 > 1e6
        return
    assert stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n) < estimate
    assert n >= (1.96 * sd / estimate) ** 2 - 1      # never fewer than the normal approximation asks


def test_blocks_that_agree_by_chance_give_no_interval_below_min_blocks():
    """Two blocks of four games whose force-minus-ban differences are both 0.5 are no evidence of
    a value known to within zero: no interval below MIN_BLOCKS, only the estimate and the spread."""
    few = pd.DataFrame({"force": [0.75, 0.5], "ban": [0.25, 0.0]})
    effect2 = paired_effect(few, "force", "ban")
    assert effect2.estimate == 0.5 and effect2.blocks == 2 and effect2.se == 0.0
    assert all(math.isnan(x) for x in effect2.ci95) and not excludes_zero(effect2.ci95)
    enough = pd.DataFrame({"force": [0.75, 0.5, 1.0, 0.5, 0.75], "ban": [0.25, 0.0, 0.25, 0.5, 0.25]})
    effect5 = paired_effect(enough, "force", "ban")
    assert effect5.blocks == MIN_BLOCKS and effect5.ci95[0] < effect5.estimate < effect5.ci95[1]


def test_no_price_from_too_few_blocks_and_never_fewer_than_min_blocks_to_settle():
    two = Effect(0.0125, (math.nan, math.nan), 0.0, 2, 0)
    judged = price_verdict("talents", two, (1.0, 2.0), 40.0, (35.0, 45.0))
    assert judged.verdict == NOT_IDENTIFIABLE and "2 blocks are too few for an interval" in judged.note
    assert blocks_to_settle(two) == MIN_BLOCKS and judged.settle_blocks == MIN_BLOCKS


def test_blocks_to_settle_is_none_without_an_estimate_or_a_spread():
    assert blocks_to_settle(Effect(0.0, (-0.1, 0.1), 0.05, 8, 0)) is None
    assert blocks_to_settle(Effect(0.1, (math.nan, math.nan), math.nan, 1, 0)) is None


def test_no_price_when_the_currency_is_not_clearly_worth_something():
    """Issue 13: one gold worth 0.0015 [-0.002, 0.005] gives no price and no verdict, only the
    blocks that would settle it."""
    gold = effect(0.0015, 0.0035)
    judged = price_verdict("gold", gold, (-150.0, -29.0), -108.0, (-150.0, -29.0))
    assert judged.verdict == NOT_IDENTIFIABLE and judged.settle_blocks > gold.blocks
    assert f"about {judged.settle_blocks} blocks" in judged.note
    negative = price_verdict("gold", effect(-0.01, 0.005), (1.0, 2.0), 3.0, (2.0, 4.0))
    assert negative.verdict == NOT_IDENTIFIABLE and "clearly negative" in negative.note


def test_the_verdict_uses_the_interval_of_the_price():
    gold = effect(0.02, 0.005)
    assert price_verdict("gold", gold, (0.5, 2.0), 4.0, (3.5, 5.0)).verdict == "under-priced"
    assert price_verdict("gold", gold, (-2.0, -0.5), 1.0, (0.5, 1.5)).verdict == "over-priced"
    assert price_verdict("gold", gold, (-0.5, 0.5), 3.0, (2.5, 3.5)).verdict == "fair"
    harmful = price_verdict("gold", gold, (-6.0, -4.0), -2.0, (-3.0, -1.0))
    assert harmful.verdict == "over-priced" and "paid about 2 gold" in harmful.note


def test_sign_changes_between_skill_levels():
    """SOE skill levels: both intervals clear of zero on opposite sides, or opposite point
    estimates with differing issued verdicts, make an asset skill-dependent."""
    clear = {"random": (0.1, (0.05, 0.15), NOT_IDENTIFIABLE), "mixed": (-0.1, (-0.15, -0.05), "over-priced")}
    assert sign_changes(clear) == [("random", "mixed")]
    verdicts = {"random": (0.02, (-0.01, 0.05), "fair"), "mixed": (-0.1, (-0.2, 0.01), "over-priced")}
    assert sign_changes(verdicts) == [("random", "mixed")]
    unknown = {"random": (0.02, (-0.01, 0.05), NOT_IDENTIFIABLE), "mixed": (-0.1, (-0.2, 0.01), "over-priced")}
    assert sign_changes(unknown) == []
    same = {"random": (0.1, (0.05, 0.15), "under-priced"), "mixed": (0.2, (0.1, 0.3), "under-priced")}
    assert sign_changes(same) == []


def test_no_break_even_when_no_sweep_point_differs_from_zero():
    """Issue 13: a 'break-even 4.67' with seven intervals spanning zero is noise."""
    values, estimates = list(range(7)), [0.03, 0.02, 0.01, 0.01, 0.005, -0.01, -0.02]
    wide = [(e - 0.05, e + 0.05) for e in estimates]
    assert math.isnan(crossing(values, estimates, wide))
    narrow = [(e - 0.004, e + 0.004) for e in estimates]
    assert 4 < crossing(values, estimates, narrow) < 5
    assert math.isnan(crossing(values, [0.1] * 7, [(0.05, 0.15)] * 7))


@given(st.floats(-1, 1), st.floats(0, 1))
def test_excludes_zero_means_one_side(centre, half):
    assert excludes_zero((centre - half, centre + half)) == (abs(centre) > half)
    assert not excludes_zero((np.nan, np.nan))


LEVEL = st.tuples(st.floats(-1, 1), st.floats(0, 0.5), st.sampled_from(["under-priced", "fair", "over-priced",
                                                                        NOT_IDENTIFIABLE]))


@given(LEVEL, LEVEL)
def test_sign_changes_are_symmetric_and_need_opposite_signs(a, b):
    """Swapping the levels finds the same change; two levels of one sign never change sign."""
    def level(t):
        estimate, half, verdict = t
        return estimate, (estimate - half, estimate + half), verdict

    forward = sign_changes({"x": level(a), "y": level(b)})
    backward = sign_changes({"y": level(b), "x": level(a)})
    assert bool(forward) == bool(backward)
    if np.sign(a[0]) * np.sign(b[0]) >= 0:        # signs, not the product: 1e-308 * -1e-16 underflows to 0
        assert not forward
    assert not sign_changes({"x": level(a), "y": level(a)})
