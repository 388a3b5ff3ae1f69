"""One odds page per game; each module has `build(out_dir, quick) -> OddsPage`.

Shared by the pages: the verdict of an exact-vs-Monte-Carlo cross-check, and the smallest font a
figure needs to stay readable on the page."""

from __future__ import annotations

import pandas as pd
from scipy import stats

from analyses import html

ALPHA = 0.05
PAGE_PX = 1120     # the widest an image is shown (the pages' 72rem column less its padding)
MIN_PT = 9         # the smallest text a reader should meet, at display size


def judged(check: pd.DataFrame, z: str = "z") -> tuple[pd.DataFrame, str]:
    """A cross-check table with a pass/fail column, and the sentence that explains it.

    Each row's z = (Monte Carlo - exact) / standard error. With m rows checked at once, a row
    passes when |z| is below the Bonferroni-corrected two-sided critical value z_(1 - ALPHA/(2m)):
    then all rows pass together with probability at least 1 - ALPHA when the simulation is right.
    """
    m = len(check)
    critical = float(stats.norm.ppf(1 - ALPHA / (2 * m))) if m else float("nan")
    out = check.assign(**{f"pass (|z| < {critical:.2f})": ["pass" if abs(v) < critical else "FAIL" for v in check[z]]})
    passed = int((check[z].abs() < critical).sum())
    text = (f"<p>{passed} of {m} checks pass. A check passes when |z| (the Monte Carlo estimate's distance from "
            f"the exact value in standard errors) is below {critical:.2f}, the two-sided critical value at "
            f"{ALPHA:.0%} corrected for {m} checks at once (Bonferroni: {ALPHA:.0%} / {m} per check), so a correct "
            "simulation passes every row 95 % of the time or more.</p>")
    return out, text


def font_pt(width_in: float, dpi: float) -> float:
    """The font size (pt) a figure `width_in` inches wide saved at `dpi` needs so that its text
    is at least MIN_PT at display size (images wider than PAGE_PX are shrunk to fit)."""
    shrink = min(1.0, PAGE_PX / (width_in * dpi))
    return MIN_PT * 96 / dpi / shrink


def shown(frame: pd.DataFrame) -> pd.DataFrame:
    """A table for the page: float columns (rates, means) with 3 significant digits. The
    cross-checks keep their full digits: there the small difference is the point."""
    return frame.assign(**{c: [html.sig(v) for v in frame[c]] for c in frame.columns
                           if pd.api.types.is_float_dtype(frame[c])})
