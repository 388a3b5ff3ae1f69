"""Which land units a legion leads and which it leaves behind (COE-11.1, COE-E15), for the
scripted players."""

from __future__ import annotations


def keep(units: tuple, n: int) -> tuple[int, int, int]:
    """The n units a legion leaves behind (`take` leads the others): infantry first."""
    out = [0, 0, 0]
    for k in (0, 1, 2):
        out[k] = min(units[k], n - sum(out))
    return tuple(out)  # type: ignore[return-value]


def take(ready: list[int], n: int) -> tuple[int, int, int]:
    """A mixed legion of n units: catapults and cavalry first (mixed formations hit more, COE-E15)."""
    out = [0, 0, 0]
    for k in (2, 1, 0):
        out[k] = min(ready[k], n - sum(out))
    return tuple(out)  # type: ignore[return-value]
