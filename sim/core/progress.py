"""Progress of long steps on stderr: a tqdm bar for a person at a terminal; in a log (stderr not a
terminal) one line every few percent with the elapsed time and an ETA, so a 5-minute step never
looks hung; nothing when quiet."""

from __future__ import annotations

import sys
import time
from typing import Any

LOG_STEP = 5          # percent between two log lines


def progress(total: int, quiet: bool, unit: str = "game", initial: int = 0, **bar: Any) -> Any:
    """A context manager with `update(n)`: a tqdm bar, log lines, or nothing (`quiet`)."""
    from tqdm import tqdm
    if not quiet and sys.stderr.isatty():
        return tqdm(total=total, initial=initial, unit=unit, dynamic_ncols=True, **bar)
    return LogProgress(total, unit, initial, enabled=not quiet)


def duration(seconds: float) -> str:
    """`42s`, `3m05s`, `1h02m`: short enough for a log line."""
    s = int(round(seconds))
    if s < 60:
        return f"{s}s"
    if s < 3600:
        return f"{s // 60}m{s % 60:02d}s"
    return f"{s // 3600}h{s % 3600 // 60:02d}m"


class LogProgress:
    """One stderr line each time another LOG_STEP percent is done, with elapsed time and ETA."""

    def __init__(self, total: int, unit: str, initial: int = 0, enabled: bool = True) -> None:
        self.total, self.unit, self.done, self.enabled = max(total, 0), unit, initial, enabled
        self.start_done, self.start = initial, time.monotonic()
        self.shown = self._step()

    def _step(self) -> int:
        return 100 * self.done // self.total // LOG_STEP if self.total else 0

    def update(self, n: int = 1) -> None:
        self.done += n
        step = self._step()
        if not self.enabled or step <= self.shown:
            return
        self.shown = step
        elapsed = time.monotonic() - self.start
        rate = (self.done - self.start_done) / elapsed if elapsed > 0 else 0.0
        eta = duration((self.total - self.done) / rate) if rate > 0 else "?"
        sys.stderr.write(f"  {100 * self.done // self.total:3d}% ({self.done}/{self.total} {self.unit}s), "
                         f"{duration(elapsed)} elapsed, ETA {eta}\n")
        sys.stderr.flush()

    def __enter__(self) -> LogProgress:
        return self

    def __exit__(self, *exc: object) -> None:
        return None
