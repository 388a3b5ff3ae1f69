"""Which units a legion leads and leaves (COE-11.1, COE-E15): the greedy orders the scripted
players rely on."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from sim.conquest.legion import keep, take

UNITS = st.tuples(st.integers(0, 12), st.integers(0, 12), st.integers(0, 12))


@given(UNITS, st.integers(0, 40))
def test_coe_e15_take_leads_catapults_then_cavalry_then_infantry(units, n):
    out = take(list(units), n)
    assert sum(out) == min(n, sum(units))
    assert all(0 <= x <= u for x, u in zip(out, units))
    assert out[1] == 0 or out[2] == units[2]          # cavalry only once every catapult is taken
    assert out[0] == 0 or out[1:] == units[1:]        # infantry only once the rest is taken


@given(UNITS, st.integers(0, 40))
def test_coe_11_1_keep_leaves_infantry_first(units, n):
    out = keep(units, n)
    assert sum(out) == min(n, sum(units))
    assert all(0 <= x <= u for x, u in zip(out, units))
    assert out[1] == 0 or out[0] == units[0]
    assert out[2] == 0 or out[:2] == units[:2]
