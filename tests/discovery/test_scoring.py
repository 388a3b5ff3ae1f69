"""AOD-12 colony scoring (Example AOD-E19, every tie rule, both threshold readings) and AOD-13
final scoring (Example AOD-E24)."""

import numpy as np
import pytest
from hypothesis import given, strategies as st

from sim.core.errors import UserError
from sim.discovery.components import load_components
from sim.discovery.scoring import building_vp, colony_vp, final_vp, winners

C = load_components()
RULES = C.colonies

E19 = [
    ("a5_b3", [5, 3], [6, 2], [6, 2]),
    ("a5_b1", [5, 1], [6, 2], [6, 0]),
    ("a4_b4_c2_two_tied_first", [4, 4, 2], [2, 2, 0], [2, 2, 0]),
    ("a3_b3_c3_three_tied_first", [3, 3, 3], [0, 0, 0], [0, 0, 0]),
    ("a3_b3_c3_d1", [3, 3, 3, 1], [0, 0, 0, 0], [0, 0, 0, 0]),
    ("a6_b2_c2_tied_second", [6, 2, 2], [6, 0, 0], [6, 0, 0]),
    ("a3_b2_c1", [3, 2, 1], [6, 2, 0], [6, 0, 0]),
    ("a2_b2_not_eligible", [2, 2], [0, 0], [0, 0]),
    ("a4_alone", [4], [6], [6]),
]


@pytest.mark.parametrize("name, counts, region, per_player", E19, ids=[e[0] for e in E19])
def test_example_aod_e19_colony_scoring_cases(name, counts, region, per_player):
    assert colony_vp([counts], RULES).tolist() == [region]
    assert colony_vp([counts], RULES, "per_player").tolist() == [per_player]


def test_example_aod_e19_per_player_reading_through_data_option():
    rules = load_components(["rules.colonies.threshold_reading=per_player"]).colonies
    assert colony_vp([[5, 1]], rules).tolist() == [[6, 0]]


def test_absent_players_take_no_place():
    """A lone player with 3+ units gets 6 and nobody the 2 (AOD-12.3), zeros are not second."""
    assert colony_vp([[0, 5, 0, 0, 0]], RULES).tolist() == [[0, 6, 0, 0, 0]]


def test_batch_over_games_and_regions():
    counts = np.array([[[5, 3, 0], [1, 1, 4]], [[3, 3, 3], [0, 2, 6]]])
    vp = colony_vp(counts, RULES)
    assert vp.shape == (2, 2, 3)
    assert vp.tolist() == [[[6, 2, 0], [0, 0, 6]], [[0, 0, 0], [0, 2, 6]]]


@given(st.lists(st.integers(0, 8), min_size=2, max_size=5), st.sampled_from(["region", "per_player"]))
def test_colony_invariants(counts, reading):
    vp = colony_vp([counts], RULES, reading)[0]
    perm = np.random.default_rng(sum(counts)).permutation(len(counts))
    assert colony_vp([np.array(counts)[perm]], RULES, reading)[0].tolist() == vp[perm].tolist()
    assert vp.sum() <= RULES.first_vp + RULES.second_vp
    assert all(v == 0 for v, c in zip(vp, counts) if c == 0)
    top = max(counts)
    if top < RULES.threshold or counts.count(top) >= 3:
        assert vp.sum() == 0
    if counts.count(top) == 1 and top >= RULES.threshold:
        assert vp[counts.index(top)] == RULES.first_vp
    for i, j in np.ndindex(len(counts), len(counts)):   # more units never score less
        assert counts[i] <= counts[j] or vp[i] >= vp[j]


def test_negative_counts_and_bad_reading_are_user_errors():
    with pytest.raises(UserError, match="negative"):
        colony_vp([[3, -1]], RULES)
    with pytest.raises(UserError, match="region, per_player"):
        colony_vp([[3, 1]], RULES, "majority")


def _building_index(name):
    return [b.id for b in C.buildings].index(name)


def test_example_aod_e24_final_scoring():
    """Discoveries T03 + T12 = 10, buildings Taxation 2 + Factory 5 + Glory 4 regions x 2 = 15,
    economy 7, colonies 6 + 8 + 8 = 22 -> 54 VP; Q also 54 but 6 colony VP in round 8 -> P wins."""
    owned = np.zeros((1, 2, len(C.buildings)), dtype=int)
    for name in ("taxation", "factory", "glory"):
        owned[0, 0, _building_index(name)] = 1
    basis = {"goods": np.array([[7, 0]]), "units": np.array([[10, 0]]), "ships": np.array([[1, 0]]),
             "soldiers": np.array([[0, 0]]), "regions": np.array([[4, 0]]), "money": np.array([[12, 0]])}
    buildings = building_vp(C.buildings, owned, C.final, basis)
    assert buildings.tolist() == [[15, 0]]
    discoveries = np.array([[C.discovery("T03").vp + C.discovery("T12").vp, 0]])
    total = final_vp(np.array([[22, 0]]), buildings, discoveries, np.array([[7, 0]]))
    assert total.tolist() == [[54, 0]]
    tied = np.array([[54, 54]])
    ties = {"last_colony_vp": np.array([[8, 6]]), "money": np.array([[0, 9]]), "goods": np.array([[0, 9]])}
    assert winners(tied, ties, C.final).tolist() == [[True, False]]
    ties["last_colony_vp"] = np.array([[8, 8]])
    assert winners(tied, ties, C.final).tolist() == [[False, True]]
    ties["money"] = np.array([[9, 9]])
    ties["goods"] = np.array([[9, 9]])
    assert winners(tied, ties, C.final).tolist() == [[True, True]]   # shared victory (ASSUMED)


def test_conditional_building_vp():
    """AOD-14.3: Commerce 1/good, Population 1 per 2 units, Navy 4/ship (3 as option), Power
    2/soldier, Prosperity 2/building (itself included), Wealth 1 per $5."""
    names = ("commerce", "population", "navy", "power", "prosperity", "wealth")
    owned = np.zeros((1, len(C.buildings)), dtype=int)
    for name in names:
        owned[0, _building_index(name)] = 1
    basis = {"goods": np.array([5]), "units": np.array([9]), "ships": np.array([2]),
             "soldiers": np.array([3]), "regions": np.array([0]), "money": np.array([23])}
    expected = 5 + 4 + 2 * 4 + 3 * 2 + 2 * len(names) + 4
    assert building_vp(C.buildings, owned, C.final, basis).tolist() == [expected]
    navy3 = load_components(["rules.final.navy_vp_per_ship=3"]).final
    assert building_vp(C.buildings, owned, navy3, basis).tolist() == [expected - 2]
