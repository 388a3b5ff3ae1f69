"""Statistics explained in place on the odds pages: every exact-vs-Monte-Carlo cross-check has a
pass/fail verdict at the Bonferroni-corrected critical value, and heatmap text is sized to stay
at least 9 pt at display size."""

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st
from scipy import stats

from analyses.odds import MIN_PT, PAGE_PX, font_pt, judged


def test_a_check_passes_below_the_bonferroni_critical_value():
    """Issue 13: z = 2.04 and 2.12 among four checks pass (critical value 2.50), z = 2.6 fails."""
    check = pd.DataFrame({"case": list("abcd"), "z": [2.04, 2.12, -0.3, 2.6]})
    out, text = judged(check)
    critical = stats.norm.ppf(1 - 0.05 / 8)
    column = f"pass (|z| < {critical:.2f})"
    assert list(out[column]) == ["pass", "pass", "pass", "FAIL"]
    assert "3 of 4 checks pass" in text and f"{critical:.2f}" in text and "Bonferroni" in text


def test_one_check_uses_the_plain_two_sided_value():
    out, _ = judged(pd.DataFrame({"z": [1.9]}))
    assert list(out.columns) == ["z", "pass (|z| < 1.96)"] and out.iloc[0, 1] == "pass"


@given(st.floats(3, 30), st.sampled_from([72, 100, 110, 150]))
def test_font_size_reaches_nine_points_at_display_size(width, dpi):
    """Text of font_pt points, shrunk with its image to the page column, is at least MIN_PT."""
    shown_px = font_pt(width, dpi) * dpi / 72 * min(1.0, PAGE_PX / (width * dpi))
    assert shown_px == pytest.approx(MIN_PT * 96 / 72)
