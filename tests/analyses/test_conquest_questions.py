"""The Conquest of the Empire questions section (analyses.conquest_questions) on a few games."""

from analyses import conquest_questions as q


def test_equal_cost_duels_are_exact_probabilities_and_catapults_cut_the_fort_bonus():
    duels = q.equal_cost_duels()
    assert duels.attacker_win.between(0, 1).all()
    open_ = duels[~duels.fortified].set_index(["budget", "attacker"]).attacker_win
    fort = duels[duels.fortified].set_index(["budget", "attacker"]).attacker_win
    assert (fort <= open_ + 1e-12).all()            # COE-14.7: the fortified City only helps the defender


def test_report_section_returns_a_finding_fragments_and_csvs(tmp_path):
    finding, fragments = q.report_section(tmp_path, games=4, seed=5, jobs=1)
    assert finding.endswith(".") and "catapult" in finding and "inflation" in finding
    assert all(isinstance(f, str) for f in fragments) and any("<table>" in f for f in fragments)
    for name in ("conquest_catapult_duels.csv", "conquest_catapult_bans.csv", "conquest_inflation_leader.csv"):
        assert (tmp_path / name).stat().st_size > 0
