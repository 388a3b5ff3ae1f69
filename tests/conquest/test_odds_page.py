"""The Conquest odds page builds (quick mode) with its figures, CSVs and provenance box."""

import pandas as pd

from analyses.odds import conquest


def test_quick_page_builds(tmp_path):
    page = conquest.build(tmp_path, quick=True)
    assert page.title and "%" in page.summary
    for name in ("index.html", "attacker_win.png", "battles.csv", "optimal_retreat.png", "optimal_retreat.csv",
                 "retreat_thresholds.csv", "naval.csv", "cross_check.csv"):
        assert (tmp_path / name).is_file(), name
    html = (tmp_path / "index.html").read_text()
    assert "Provenance" in html and "options.catapult_cap" in html
    grid = pd.read_csv(tmp_path / "battles.csv")
    # more attackers never lower the odds, all else equal (fight to the end)
    for _, sub in grid.groupby(["panel", "defender_units"]):
        assert (sub.sort_values("attacker_units").attacker_win.diff().dropna() >= -1e-12).all()
    check = pd.read_csv(tmp_path / "cross_check.csv")
    assert (check.z.abs() < 4).all()
