"""The shared side tables (COE-14): built once per side and setting, equal to a fresh build, and
never shared between components with different rules."""

import numpy as np

from sim.conquest.combat import Army, Tactics, shared_side_tables, side_tables
from sim.conquest.components import default_components, load_components


def test_coe_14_shared_side_tables_equal_a_fresh_build_and_are_reused():
    comp = default_components()
    army = Army(4, 2, 1, leaders=1)
    first = shared_side_tables(army, comp, Tactics(), (0, 1), 9)
    fresh = side_tables(army, comp, Tactics(), (0, 1), 9)
    assert shared_side_tables(army, comp, Tactics(), (0, 1), 9) is first
    for name in ("total", "value", "size", "formation", "succ", "hits", "kcap", "pursuit", "kept", "removed"):
        assert np.array_equal(getattr(first, name), getattr(fresh, name)), name


def test_coe_14_components_with_other_rules_get_their_own_tables():
    army = Army(3, 2, 0, leaders=1)
    base = shared_side_tables(army, default_components(), Tactics(), (0,), 8)
    other_comp = load_components(["battle.land.formation_base=3"])
    other = shared_side_tables(army, other_comp, Tactics(), (0,), 8)
    assert np.array_equal(other.size, side_tables(army, other_comp, Tactics(), (0,), 8).size)
    assert not np.array_equal(base.size, other.size)


def test_coe_14_narrower_shared_tables_equal_a_fresh_build_at_that_width():
    comp = default_components()
    army = Army(3, 1, 2, leaders=2)
    wide = shared_side_tables(army, comp, Tactics(), (0, 1, 2), 12, sequential=True)
    narrow = shared_side_tables(army, comp, Tactics(), (0, 1, 2), 9, sequential=True)
    fresh = side_tables(army, comp, Tactics(), (0, 1, 2), 9, sequential=True)
    assert wide.hits.shape[2] == 12 and shared_side_tables(army, comp, Tactics(), (0, 1, 2), 9, sequential=True) is narrow
    for name in ("total", "value", "size", "formation", "succ", "hits", "kcap", "pursuit", "kept", "removed",
                 "hits_after"):
        got, want = getattr(narrow, name), getattr(fresh, name)
        assert got.shape == want.shape and np.array_equal(got, want), name
