"""SoE scoring: region VP (SOE-16) and end-game unrest (SOE-18), vectorised over a batch."""

import numpy as np
from hypothesis import given, strategies as st

from sim.struggle.scoring import final_vp, region_vp, regions_vp, unrest_penalties


def test_example_soe_e4_scoring_the_german_states():
    assert region_vp([3, 3, 2, 1], [8, 5, 3]).tolist() == [8, 8, 5, 3]
    assert region_vp([3, 3, 2, 2], [8, 5, 3]).tolist() == [8, 8, 5, 5]   # variant: Spain with 2


def test_example_soe_e6_attacking_a_co_leader():
    before, after = region_vp([[3, 3, 2], [4, 2, 2]], [8, 5, 3]).tolist()
    assert before == [8, 8, 5] and after == [8, 5, 5]


def test_example_soe_e14_ties_in_a_two_place_region():
    assert region_vp([2, 2, 2, 1], [3, 2]).tolist() == [3, 3, 3, 2]


def test_no_marker_and_beyond_last_place_score_nothing():
    assert region_vp([4, 3, 2, 1, 0], [8, 5, 3]).tolist() == [8, 5, 3, 0, 0]


def test_all_regions_at_once_matches_one_by_one():
    rng = np.random.default_rng(5)
    values = [[8, 5, 3], [3, 2], [6, 3, 1]]
    counts = rng.integers(0, 4, size=(50, 3, 5))
    every = regions_vp(counts, values)
    for r, v in enumerate(values):
        assert np.array_equal(every[:, r], region_vp(counts[:, r], v))


def test_example_soe_e13_end_game_unrest():
    vp = np.array([40, 35, 38, 30, 28])
    unrest = np.array([22, 15, 15, 9, 3])
    revolution, penalty = unrest_penalties(unrest)
    assert revolution.tolist() == [True, False, False, False, False]
    assert penalty.tolist() == [0, 7, 7, 4, 0]
    final = final_vp(vp, unrest)
    assert final.tolist() == [0, 28, 31, 26, 28]
    assert int(np.argmax(final)) == 2   # C wins


def test_unrest_penalty_at_zero_option_soe_a27():
    assert unrest_penalties([0, 0, 0])[1].tolist() == [7, 7, 7]
    assert unrest_penalties([0, 0, 0], penalty_at_zero=False)[1].tolist() == [0, 0, 0]
    assert unrest_penalties([3, 0, 0], penalty_at_zero=False)[1].tolist() == [7, 0, 0]


def test_unrest_batch_with_revolutions_excluded_from_ranking():
    unrest = np.array([[25, 20, 9, 4], [1, 2, 3, 4]])
    revolution, penalty = unrest_penalties(unrest)
    assert penalty.tolist() == [[0, 0, 7, 4], [0, 0, 4, 7]]
    assert revolution.tolist() == [[True, True, False, False], [False] * 4]


@given(st.lists(st.integers(0, 6), min_size=2, max_size=7), st.sampled_from([[8, 5, 3], [3, 2], [7, 4, 2]]))
def test_more_markers_never_score_less(counts, values):
    vp = region_vp(counts, values)
    for i in range(len(counts)):
        for j in range(len(counts)):
            if counts[i] > counts[j]:
                assert vp[i] >= vp[j]
            if counts[i] == counts[j]:
                assert vp[i] == vp[j]
    assert all(v == 0 for v, c in zip(vp, counts) if c == 0)
    assert max(vp) == (values[0] if max(counts) > 0 else 0)


@given(st.lists(st.integers(0, 30), min_size=2, max_size=7))
def test_penalties_are_7_4_or_0_and_revolution_is_threshold(unrest):
    revolution, penalty = unrest_penalties(unrest)
    assert set(penalty.tolist()) <= {0, 4, 7}
    assert revolution.tolist() == [u >= 20 for u in unrest]
    calm = [u for u in unrest if u < 20]
    if calm:
        assert all(p == 7 for u, p in zip(unrest, penalty) if u == max(calm))
