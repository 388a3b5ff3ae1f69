"""analyses.discovery_seats: the seat-fairness section (AOD-3.3, AOD-16) on a small run."""

import pandas as pd

from analyses import discovery_seats


def test_report_section_writes_every_arm(tmp_path):
    finding, fragments = discovery_seats.report_section(tmp_path, games=16, seed=3, jobs=1)
    seats = pd.read_csv(tmp_path / "discovery_seats.csv")
    assert set(seats.arm) == {"sweep", "auction"}
    assert sorted(seats[seats.arm == "sweep"].turn_order_money.unique()) == list(discovery_seats.SWEEP)
    for _, rows in seats.groupby(["arm", "turn_order_money"], dropna=False):
        assert sorted(rows.start_position) == [1, 2, 3, 4] and rows.n.sum() == 16 * 4
        assert (rows.ci_low <= rows.win_rate).all() and (rows.win_rate <= rows.ci_high).all()
    assert finding.endswith(".") and "\n" not in finding and len(fragments) == 3
