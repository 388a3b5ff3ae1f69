"""User-facing errors.

Bad input (an unknown name, a malformed option, an impossible setup) is the user's to fix, so
it gets one line naming the bad value and what is allowed, and exit code 2 -- never a
traceback. Library code raises `UserError`; the CLI turns it into that line.
"""

from __future__ import annotations

from collections.abc import Iterable

EXIT_USER_ERROR = 2


class UserError(ValueError):
    """An input the user can fix. The message is one line: what was bad and what is allowed."""

    def __init__(self, message: str) -> None:
        super().__init__(" ".join(message.split()))


def one_of(name: str, value: object, allowed: Iterable[object]) -> UserError:
    """Error for a value outside a fixed set, listing the allowed values."""
    choices = ", ".join(str(a) for a in allowed)
    return UserError(f"{name}: {value!r} is not allowed; choose one of: {choices}")


def require(condition: bool, message: str) -> None:
    """Raise `UserError(message)` unless `condition` holds."""
    if not condition:
        raise UserError(message)


def check_int_range(name: str, value: int, low: int | None = None, high: int | None = None) -> int:
    """Validate an integer against inclusive bounds; return it."""
    if isinstance(value, bool) or not isinstance(value, (int,)) and not hasattr(value, "__index__"):
        raise UserError(f"{name}: {value!r} is not an integer")
    value = int(value)
    if (low is not None and value < low) or (high is not None and value > high):
        lo = "-inf" if low is None else str(low)
        hi = "inf" if high is None else str(high)
        raise UserError(f"{name}: {value} is out of range; allowed {lo}..{hi}")
    return value
