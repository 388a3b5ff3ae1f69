"""What each Conquest of the Empire Home Province is worth (analyses.conquest_homes): its value over
the average province from the seats design, and its worth in starting talents (COE-8.2, COE-A29)."""

import itertools

import numpy as np
import pandas as pd
import pytest

from analyses import conquest_homes as ch
from analyses import conquest_seats as cs
from sim.conquest.play import INFO
from sim.core.causal import NOT_IDENTIFIABLE

HOMES = ("a", "b", "c", "d")


def _design(blocks: int, strong: float, granted_wins: float, seed: int = 0) -> tuple[pd.DataFrame, pd.DataFrame]:
    """A 4-seat seats design: in rotation r seat k holds HOMES[(k + r) % 4]; home "a" wins a game
    with probability `strong`, else a seat drawn at random. The grant arm replays it with the focal
    seat winning with probability `granted_wins` on top."""
    rng = np.random.default_rng(seed)
    base, granted = [], []
    for block, rotation in itertools.product(range(blocks), range(4)):
        focal = cs.focal_seat(block, 4, ("x",))
        homes = [HOMES[(k + rotation) % 4] for k in range(4)]
        winner = homes.index("a") if rng.random() < strong else int(rng.integers(4))
        boosted = focal if rng.random() < granted_wins else winner
        for seat in range(4):
            row = {"block": block, "rotation": rotation, "players": 4, "seat": seat, "home": homes[seat], "focal": seat == focal}
            base.append({**row, "winner": seat == winner})
            granted.append({**row, "winner": seat == boosted})
    return pd.DataFrame(base), pd.DataFrame(granted)


def test_a_province_that_wins_more_has_a_positive_value_and_the_values_average_zero():
    base, granted = _design(blocks=40, strong=0.5, granted_wins=0.3)
    values = ch.home_values(base, granted, grant=100, seed=1, skill="scripted").set_index("home")
    assert values.loc["a", "value_low"] > 0 and (values.drop("a").value_high < 0).all()
    assert values.value.sum() == pytest.approx(0.0, abs=1e-12)       # one winner a game: 1/4 on average
    assert (values.seat_games == 40 * 4).all() and (values.blocks == 40).all()


def test_the_worth_in_talents_is_the_value_over_one_talents_value_with_a_bootstrap_interval():
    base, granted = _design(blocks=40, strong=0.5, granted_wins=0.4)
    values = ch.home_values(base, granted, grant=100, seed=1, skill="scripted").set_index("home")
    talent = ch.talent_value(ch.block_table(base, granted), 100)
    assert talent.ci95[0] > 0
    for home, row in values.iterrows():
        assert row.worth_talents == pytest.approx(row.value / talent.estimate)
        assert row.worth_low <= row.worth_talents <= row.worth_high
        assert row.extrapolated == (abs(row.worth_talents) > 100)
    assert values.loc["a", "worth_low"] > 0 and ", A adds +" in ch.finding_of(values.reset_index(), 4)


def test_no_worth_when_one_talent_is_not_clearly_worth_something():
    base, _ = _design(blocks=20, strong=0.5, granted_wins=0.0)
    values = ch.home_values(base, base, grant=100, seed=1, skill="random")     # the grant changed nothing
    assert values.worth_talents.isna().all() and values.worth_low.isna().all()
    assert values.note.str.contains("not distinguishable from zero").all()
    assert "no worth in talents is given" in ch.finding_of(values, 4, "random")


def test_without_a_grant_arm_the_values_stand_and_the_note_says_why_no_worth():
    base, _ = _design(blocks=20, strong=0.5, granted_wins=0.0)
    values = ch.home_values(base, None, grant=150, seed=1, skill="random")
    assert values.value.notna().all() and values.worth_talents.isna().all() and (values.grant == 0).all()
    assert (values.note == ch.NOT_PLAYED.note).all() and ch.NOT_PLAYED.verdict == NOT_IDENTIFIABLE


def _row(worth: float, low: float, high: float, value_high: float = -0.1) -> pd.Series:
    return pd.Series({"home": "hispania", "grant": 150, "value_high": value_high, "worth_talents": worth,
                      "worth_low": low, "worth_high": high, "extrapolated": abs(worth) > 150})


def test_the_handicap_is_said_only_as_firmly_as_the_dose_and_the_interval_allow():
    assert ch.handicap(_row(-80, -120, -40)) == "a handicap of 80 starting talents would even Hispania out"
    assert ch.handicap(_row(-288, -800, -165)).startswith("evening Hispania out would take more than the 150")
    assert "on a linear rate, beyond the 150 measured" in ch.handicap(_row(-288, -800, -60))
    assert "no handicap is called for" in ch.handicap(_row(-288, -800, -60, value_high=0.02))


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_focal_seat_plays_every_strategy_in_every_position(players):
    lineup = INFO.lineup
    games = players * len(lineup)
    pairs = {(cs.focal_seat(g, players), cs.seatings(games, players)[g][1].strategies[cs.focal_seat(g, players)])
             for g in range(games)}
    assert pairs == set(itertools.product(range(players), lineup))


def test_the_grant_goes_to_the_focal_seat_alone_and_the_games_are_shared():
    base = cs.play_count(2, 8, seed=4, jobs=1)
    granted = cs.play_count(2, 8, seed=4, jobs=1, grant=150)
    assert (base.seed.to_numpy() == granted.seed.to_numpy()).all()              # common random numbers
    focal = granted[granted.focal]
    assert focal.strategy.str.endswith("+grant_talents=150").all()
    assert not granted[~granted.focal].strategy.str.contains("grant").any()
    assert (focal.groupby("block").seat.nunique() == 1).all()                  # one focal seat a game
