import numpy as np
from hypothesis import given, strategies as st

from sim.core.scoring import award_by_place, competition_places, dense_places


def test_example_soe_e4_dense_places():
    """Example SOE-E4 (German States 8/5/3): markers 3, 3, 2, 1 -> 8, 8, 5, 3."""
    counts = np.array([[3, 3, 2, 1]])
    assert award_by_place(dense_places(counts), [8, 5, 3]).tolist() == [[8, 8, 5, 3]]


def test_ineligible_players_get_nothing():
    counts = np.array([[0, 2, 0]])
    places = dense_places(counts, counts > 0)
    assert places.tolist() == [[-1, 0, -1]]
    assert award_by_place(places, [4, 2]).tolist() == [[0, 4, 0]]


@given(st.lists(st.integers(0, 9), min_size=1, max_size=7))
def test_dense_and_competition_places_agree_with_definitions(values):
    counts = np.array([values])
    dense = dense_places(counts)[0]
    comp = competition_places(counts)[0]
    for i, v in enumerate(values):
        assert dense[i] == len({w for w in values if w > v})
        assert comp[i] == sum(w > v for w in values)
