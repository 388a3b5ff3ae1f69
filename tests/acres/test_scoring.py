"""AFS-15 final scoring and the normal end (Examples AFS-E20, AFS-E21)."""

import dataclasses

import numpy as np
from hypothesis import given
from hypothesis import strategies as st

from sim.acres import scoring
from sim.acres.components import load

ACRES = load()
RULES = ACRES.rules.scoring
E21 = {"british": {"boston": "town", "new_york": "town", "new_haven": "village", "norfolk": "village",
                   "pemaquid": "village", "philadelphia": "village", "st_marys": "village", "albany": "town",
                   "halifax": "village"},
       "french": {"quebec": "town", "montreal": "village", "trois_rivieres": "village", "gaspe": "village",
                  "tadoussac": "village", "port_royal": "village", "louisbourg": "village",
                  "fort_niagara": "village", "fort_frontenac": "village"}}


def test_example_afs_e21_final_scoring_and_the_tie_rule():
    control, town = scoring.position(ACRES, E21)
    captured = np.array([[[2, 1], [1, 0]]])
    r = scoring.final_scores(scoring.location_vp(ACRES), control[None], town[None], captured, RULES)
    assert r["location"].tolist() == [[27, 33]]
    assert r["captures"].tolist() == [[8, 2]]
    assert r["total"].tolist() == [[35, 35]]
    assert r["winner"].tolist() == [1]                      # tie -> the French
    british_tie = dataclasses.replace(RULES, tie_winner="british")
    assert scoring.final_scores(scoring.location_vp(ACRES), control[None], town[None], captured,
                                british_tie)["winner"].tolist() == [0]


def test_example_afs_e20_game_end_by_captures():
    """12 points of captures end the game at the start of the captor's next turn, but only
    with no siege in progress (checked again every later turn)."""
    captured = np.array([[4, 1], [4, 1], [4, 0]])           # 12, 12, 8 points
    siege_running = np.array([False, True, False])
    ends = scoring.normal_end(np.array([5, 5, 5]), np.array([3, 3, 3]), captured, siege_running, RULES)
    assert ends.tolist() == [True, False, False]


def test_afs_15_2_1_either_kind_running_out_ends_the_game():
    """AFS-18 A5: no cubes OR no discs (recommended); the alternative needs both."""
    cubes, discs = np.array([0, 3, 0]), np.array([2, 0, 0])
    none = np.zeros((3, 2), int)
    idle = np.zeros(3, bool)
    assert scoring.normal_end(cubes, discs, none, idle, RULES).tolist() == [True, True, True]
    both = dataclasses.replace(RULES, end_when="both")
    assert scoring.normal_end(cubes, discs, none, idle, both).tolist() == [False, False, True]


@given(st.lists(st.tuples(st.integers(0, 2), st.booleans()), min_size=36, max_size=36),
       st.lists(st.integers(0, 6), min_size=4, max_size=4))
def test_scores_match_a_plain_count_and_ties_go_french(cells, caps):
    """Batch scoring equals a direct sum over locations (AFS-15.3.1-2); the higher total wins,
    a tie goes to the French (AFS-15.3.3)."""
    vp = scoring.location_vp(ACRES)
    control = np.array([c for c, _ in cells])
    town = np.array([t for _, t in cells])
    captured = np.array(caps).reshape(1, 2, 2)
    r = scoring.final_scores(vp, control[None], town[None], captured, RULES)
    for s in range(2):
        plain = sum(v * (2 if t else 1) for v, (c, t) in zip(vp, cells) if c == s + 1)
        plain += 2 * caps[2 * s] + 4 * caps[2 * s + 1]
        assert r["total"][0, s] == plain
    gb, fr = r["total"][0]
    assert r["winner"][0] == (0 if gb > fr else 1)


def test_batch_equals_rows_one_by_one():
    rng = np.random.default_rng(4)
    control = rng.integers(0, 3, (50, 36))
    town = rng.random((50, 36)) < 0.3
    captured = rng.integers(0, 5, (50, 2, 2))
    vp = scoring.location_vp(ACRES)
    batch = scoring.final_scores(vp, control, town, captured, RULES)
    for i in range(50):
        one = scoring.final_scores(vp, control[i:i + 1], town[i:i + 1], captured[i:i + 1], RULES)
        assert one["total"][0].tolist() == batch["total"][i].tolist()
        assert one["winner"][0] == batch["winner"][i]
