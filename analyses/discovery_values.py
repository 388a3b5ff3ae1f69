"""Age of Discovery: building values per age and skill level (issue 16 item 3, AOD-14).

`empires tile-value discovery` measures each capital building's causal value (force minus ban)
per skill level; this groups those values by the building's age (AOD-4.1: Ages I-III, priced
$10 / $14 / $20, AOD-6.5.1), so a designer sees whether one age's buildings are worth more than
their price at each skill level. Each age's row is the mean of its buildings' effects with the
interval of that mean from the buildings' own standard errors (independent experiments; each
standard error is recovered as half its interval's width over 1.96, conservative for the t
intervals of few blocks).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.core.stats import Z95
from sim.discovery import play

COLUMNS = ("d_win", "d_vp")


def ages() -> dict[str, int]:
    """Building id -> its age (data/buildings.toml)."""
    return {b.id: b.age for b in play.components_of(None).buildings}


def by_age(values: pd.DataFrame) -> pd.DataFrame:
    """One row per skill level and age: buildings measured, mean win-rate and VP effects with
    95 % intervals (the per-building intervals give each building's standard error)."""
    age_of = ages()
    table = values.assign(age=values["tile"].map(age_of))
    rows = []
    for (strategy, age), group in table.groupby(["strategy", "age"], sort=True):
        row = {"strategy": strategy, "age": int(age), "buildings": len(group)}
        for col in COLUMNS:
            se = (group[f"{col}_high"] - group[f"{col}_low"]) / (2 * Z95)
            mean, mean_se = group[col].mean(), float(np.sqrt((se ** 2).sum())) / len(group)
            row.update({col: mean, f"{col}_low": mean - Z95 * mean_se, f"{col}_high": mean + Z95 * mean_se})
        rows.append(row)
    return pd.DataFrame(rows)


def from_run(folder: str | Path) -> pd.DataFrame:
    """`by_age` of the `tile_values.csv` a `tile-value discovery --out FOLDER` run wrote."""
    return by_age(pd.read_csv(Path(folder) / "tile_values.csv"))
