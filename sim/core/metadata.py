"""What travels with every result: seed, code version, rules edition, overrides, data hash and
the ASSUMED values the numbers depended on. Without these a balance figure cannot be trusted
or reproduced."""

from __future__ import annotations

import functools
import subprocess
from collections.abc import Iterable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import sim
from sim.core.data import GameData


@functools.cache
def code_version() -> str:
    """Package version plus the git commit (with `-dirty` for local changes) when available."""
    root = Path(sim.__file__).resolve().parent.parent
    try:
        commit = subprocess.run(["git", "describe", "--always", "--dirty"], cwd=root,
                                capture_output=True, text=True, timeout=5, check=True).stdout.strip()
    except (OSError, subprocess.SubprocessError):
        commit = ""
    return f"{sim.__version__}+{commit}" if commit else sim.__version__


def result_metadata(data: GameData, seed: int | None, assumed_prefixes: Iterable[str] = (),
                    **extra: Any) -> dict[str, Any]:
    """The provenance block of one result."""
    return {
        "game": data.game,
        "seed": seed,
        "code_version": code_version(),
        "rules_edition": data.rules_edition,
        "data_hash": data.hash,
        "overrides": dict(data.overrides),
        "assumed": data.assumed(assumed_prefixes),
        "created": datetime.now(timezone.utc).isoformat(timespec="seconds"),
        **extra,
    }
