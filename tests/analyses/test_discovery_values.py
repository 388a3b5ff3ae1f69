"""Building values grouped by age (analyses/discovery_values.py, AOD-4.1, AOD-14)."""

from __future__ import annotations

import pandas as pd
import pytest

from analyses.discovery_values import ages, by_age
from sim.core.stats import Z95


def row(tile: str, strategy: str, d_win: float, se: float, d_vp: float = 0.0) -> dict:
    return {"tile": tile, "strategy": strategy, "d_win": d_win, "d_win_low": d_win - Z95 * se,
            "d_win_high": d_win + Z95 * se, "d_vp": d_vp, "d_vp_low": d_vp - Z95, "d_vp_high": d_vp + Z95}


def test_values_are_grouped_by_age_and_skill_with_the_interval_of_the_mean_aod_14():
    assert ages()["settlers"] == 1 and ages()["taxation"] == 2 and ages()["factory"] == 3
    values = pd.DataFrame([row("settlers", "builder", 0.10, 0.03), row("mint", "builder", -0.02, 0.04),
                           row("factory", "builder", 0.05, 0.02), row("settlers", "random", 0.01, 0.01)])
    table = by_age(values).set_index(["strategy", "age"])
    one = table.loc[("builder", 1)]
    assert one["buildings"] == 2 and one["d_win"] == pytest.approx(0.04)
    assert one["d_win_high"] - one["d_win"] == pytest.approx(Z95 * (0.03 ** 2 + 0.04 ** 2) ** 0.5 / 2)
    assert table.loc[("builder", 3), "d_win"] == pytest.approx(0.05)
    assert table.loc[("random", 1), "d_win_low"] == pytest.approx(0.01 - Z95 * 0.01)
    assert len(table) == 3
