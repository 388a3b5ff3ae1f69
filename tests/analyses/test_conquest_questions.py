"""The Conquest of the Empire questions section (analyses.conquest_questions) on a few games."""

import pandas as pd
import pytest

from analyses import conquest_questions as q
from sim.conquest.play import load_data


def test_equal_cost_duels_are_exact_probabilities_and_catapults_cut_the_fort_bonus():
    duels = q.equal_cost_duels()
    assert duels.attacker_win.between(0, 1).all()
    open_ = duels[~duels.fortified].set_index(["budget", "attacker"]).attacker_win
    fort = duels[duels.fortified].set_index(["budget", "attacker"]).attacker_win
    assert (fort <= open_ + 1e-12).all()            # COE-14.7: the fortified City only helps the defender


def test_report_section_returns_a_finding_fragments_and_csvs(tmp_path):
    finding, fragments = q.report_section(tmp_path, games=4, seed=5, jobs=1, sweep_games=2)
    assert finding.endswith(".") and "catapult" in finding and "inflation" in finding
    assert all(isinstance(f, str) for f in fragments) and any("<table>" in f for f in fragments)
    for title in ("Sweep: inflation thresholds", "Sweep: catapult price"):
        at = next(i for i, f in enumerate(fragments) if title in f)
        assert "<table>" in fragments[at + 1] and fragments[at + 2].startswith("<p>") and fragments[at + 2].endswith(".</p>")
    for name in ("conquest_catapult_duels.csv", "conquest_catapult_bans.csv", "conquest_inflation_leader.csv",
                 "conquest_inflation_sweep.csv", "conquest_catapult_price_sweep.csv"):
        assert (tmp_path / name).stat().st_size > 0


def test_report_section_writes_both_sweeps_with_a_row_per_arm(tmp_path):
    q.report_section(tmp_path, games=4, seed=5, jobs=1, inflation=("off", "1"), prices=(30, 1000))
    inflation = pd.read_csv(tmp_path / "conquest_inflation_sweep.csv")
    prices = pd.read_csv(tmp_path / "conquest_catapult_price_sweep.csv")
    assert list(inflation.inflation) == ["off", "1"] and list(prices.catapult_price) == [30, 1000]
    assert (inflation.games == 4).all() and inflation.inflated.iloc[0] == 0


def test_the_catapult_price_sweep_reads_the_overridden_price():
    """COE-20.2 price overridden: more catapults bought when free, fewer at 1000 talents."""
    data = load_data()
    free, printed, dear = (q.logged_games(4, 3, q.price_overrides(p, data)).catapults.sum() for p in (0, 30, 1000))
    assert free > printed > dear
    assert q.price_overrides(30, data) == ()                       # the printed price plays the data as it is


def test_the_inflation_sweep_reads_the_overridden_thresholds():
    """COE-21: off never inflates; `first` keeps the first threshold only; a factor scales both."""
    data = load_data()
    assert load_data(q.inflation_overrides("0.5", data)).get(q.THRESHOLDS) == [52, 102]
    first = load_data(q.inflation_overrides("first", data))
    assert first.get(q.THRESHOLDS) == [105] and first.get(q.MULTIPLIERS) == [2]
    assert q.inflation_overrides("1", data) == ()
    off, printed = (q.cell_measures(q.logged_games(4, 3, q.inflation_overrides(a, data))) for a in ("off", "1"))
    assert off["inflated"] == 0 < printed["inflated"]


@pytest.mark.parametrize(("flag", "value", "named"), [
    ("--inflation", "off,later", "'later'"), ("--inflation", "-1", "'-1'"), ("--inflation", "0.001", "strictly"),
    ("--catapult-prices", "10,x", "'10,x'"), ("--catapult-prices", "-5", "out of range"),
])
def test_bad_sweep_values_exit_2_with_one_line_before_any_game(capsys, tmp_path, flag, value, named):
    assert q.main([flag, value, "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and flag in err and named in err
    assert not (tmp_path / "out").exists()
