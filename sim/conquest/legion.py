"""Which land units a legion leads and which it leaves behind (COE-11.1, COE-E15), for the
scripted players."""

from __future__ import annotations


def keep(units: tuple, n: int) -> tuple[int, int, int]:
    """The n units a legion leaves behind (`take` leads the others): infantry first."""
    infantry = min(units[0], n)
    cavalry = min(units[1], n - infantry)
    return infantry, cavalry, min(units[2], n - infantry - cavalry)


def take(ready: list[int], n: int) -> tuple[int, int, int]:
    """A mixed legion of n units: catapults and cavalry first (mixed formations hit more, COE-E15)."""
    catapults = min(ready[2], n)
    cavalry = min(ready[1], n - catapults)
    return min(ready[0], n - catapults - cavalry), cavalry, catapults
