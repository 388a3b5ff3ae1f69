"""The side tables (COE-14.1 - COE-14.4, COE-16.2) assembled from shared per-state rows equal
each state's own definition: its formation, hit law and losses (`_state_row`), the state each
number of losses leads to, the law of its pursuit hits and the value it keeps under pursuit."""

import math

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from sim.conquest.combat import Army, Tactics, _state_row, side_tables, symbol_probabilities
from sim.conquest.components import LAND_UNITS, default_components, load_components

COMPS = (default_components(), load_components(["options.simultaneous_hits=false", "options.pursuit_cap=uncapped",
                                                  "options.catapult_cap=formation_min1"]))


@settings(max_examples=60, deadline=None)
@given(units=st.tuples(st.integers(0, 5), st.integers(0, 3), st.integers(0, 2)).filter(lambda u: sum(u) > 0),
       leaders=st.integers(0, 2), fortified=st.booleans(), rules=st.sampled_from(COMPS))
def test_coe_14_side_tables_equal_each_states_own_rows(units, leaders, fortified, rules):
    army = Army(*units, leaders=leaders)
    levels = (0, 1, 2) if fortified else (0,)
    sequential = not rules.options.simultaneous_hits
    cap = rules.land.formation_base + rules.land.formation_per_leader * leaders
    width = min(sum(units), cap) + max(levels) + 1
    t = side_tables(army, rules, Tactics(), levels, width, sequential)
    p = symbol_probabilities(rules)
    costs = [rules.cost(u) for u in LAND_UNITS]
    for s, state in enumerate(t.comps.tolist()):
        m = int(t.size[s])
        for e in levels:
            row = _state_row(tuple(state), m, cap, e, p, rules.options.catapult_cap, Tactics(), sequential)
            assert tuple(t.formation[e, s]) == row.formation and t.kcap[e, s] == row.kcap
            assert np.array_equal(t.hits[e, s, : len(row.hits)], row.hits) and not t.hits[e, s, len(row.hits):].any()
            assert np.array_equal(t.removed[e, s, : m + 1], row.removed)
            for lost in range(width):
                left = [a - b for a, b in zip(state, row.removed[min(lost, m)])]
                assert t.succ[e, s, lost] == t.index(tuple(left))
            if sequential:
                assert np.array_equal(t.hits_after[e, s, : m + 1, : row.hits_after.shape[1]], row.hits_after)
        n = sum(state)
        limit = state[1] if rules.options.pursuit_cap == "winner_cavalry" else n
        law = np.zeros(t.pursuit.shape[1])
        for h in range(n + 1):
            law[min(h, limit)] += math.comb(n, h) * p[1] ** h * (1 - p[1]) ** (n - h)
        assert np.array_equal(t.pursuit[s], law)
        pieces = sorted((c for c, k in zip(costs, state) for _ in range(k)), reverse=True)
        kept = [sum(pieces[h:]) for h in range(n + 1)]
        assert t.kept[s, : n + 1].tolist() == kept and not t.kept[s, n + 1:].any()
