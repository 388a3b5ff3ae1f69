"""Named rule sets shipped as variant files (sim/acres/data/variants/): `yucata`, the rules as
Yucata plays them (docs/acres_yucata.md), for imported games and their verified replay."""

from __future__ import annotations

from pathlib import Path

VARIANTS = Path(__file__).resolve().parent / "data" / "variants"
YUCATA = VARIANTS / "yucata.toml"
