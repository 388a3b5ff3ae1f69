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


def allowed_range(low: float | None, high: float | None) -> str:
    """`allowed 0..14`, `must be >= 1` or `must be finite`: the real limit, never 'inf'."""
    def show(x: float) -> str:
        return str(x) if isinstance(x, int) else f"{x:g}"

    if low is not None and high is not None:
        return f"allowed {show(low)}..{show(high)}"
    if low is not None:
        return f"must be >= {show(low)}"
    if high is not None:
        return f"must be <= {show(high)}"
    return "must be finite"

