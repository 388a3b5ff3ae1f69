"""Running the command line in tests: the exit code whether argparse or a command refused the input."""

from __future__ import annotations

from collections.abc import Sequence

from sim.cli import main


def exit_code(argv: Sequence[str]) -> int:
    """`main(argv)`'s exit code; argparse's refusals (SystemExit) count the same."""
    try:
        return main(list(argv))
    except SystemExit as exc:
        return int(exc.code or 0)
