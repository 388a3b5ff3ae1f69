"""The AFAoS odds page builds its files (quick mode)."""

import pandas as pd

from analyses.odds import acres


def test_odds_page_writes_png_csv_and_html(tmp_path):
    page = acres.build(tmp_path, quick=True)
    assert page.title and page.summary
    for name in ("index.html", "sieges.csv", "turns.csv", "cross_check.csv", "success_starting.png",
                 "success_recruited.png", "turns.png"):
        assert (tmp_path / name).stat().st_size > 0
    table = pd.read_csv(tmp_path / "sieges.csv")
    assert ((table.attacker_low <= table.attacker_win) & (table.attacker_win <= table.attacker_high)).all()
    assert (abs(table.attacker_win + table.defender_win + table.unresolved - 1) < 1e-9).all()
    html = (tmp_path / "index.html").read_text()
    assert "Provenance" in html and "rules.model.max_turns" in html


def test_cross_check_has_a_pass_column(tmp_path):
    """Every cross-check row carries its verdict; the page explains it (Bonferroni)."""
    acres.build(tmp_path, quick=True)
    check = pd.read_csv(tmp_path / "cross_check.csv")
    column = next(c for c in check.columns if c.startswith("pass (|z| <"))
    assert set(check[column]) <= {"pass", "FAIL"} and len(check[column]) == len(check)
    assert "Bonferroni" in (tmp_path / "index.html").read_text()
