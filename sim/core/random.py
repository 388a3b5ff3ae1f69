"""Seeded random streams.

Every random number in the toolkit comes from `stream(root_seed, game_index, purpose)`: a
`numpy.random.Generator` whose seed is derived with `SeedSequence` from the root seed, the index
of the game (or Monte Carlo block) and a purpose name ("setup", "dice", "deck", "players", ...).
A result therefore never depends on batch size, chunking, worker count or backend, and two arms
of a paired experiment that share `(root_seed, game_index, purpose)` share their dice (common
random numbers). There is no global RNG.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterable

import numpy as np

from sim.core.errors import UserError

MAX_SEED = 2**63 - 1


def check_seed(seed: object) -> int:
    """A root seed is a non-negative integer below 2**63."""
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= int(seed) <= MAX_SEED:
        raise UserError(f"seed: {seed!r} is not allowed; use an integer 0..{MAX_SEED}")
    return int(seed)


@functools.cache
def purpose_key(purpose: str) -> int:
    """A stable 32-bit number for a purpose name (Python's hash() is salted per process)."""
    return int.from_bytes(hashlib.sha256(purpose.encode("utf-8")).digest()[:4], "little")


def seed_sequence(root_seed: int, game_index: int, purpose: str) -> np.random.SeedSequence:
    """The SeedSequence behind `stream`; exposed for generators other than PCG64."""
    if isinstance(game_index, bool) or int(game_index) < 0:
        raise UserError(f"game index: {game_index!r} is not allowed; use an integer >= 0")
    return np.random.SeedSequence(entropy=check_seed(root_seed),
                                  spawn_key=(int(game_index), purpose_key(purpose)))


def stream(root_seed: int, game_index: int, purpose: str) -> np.random.Generator:
    """The independent stream for one game (or Monte Carlo block) and one purpose."""
    return np.random.Generator(np.random.PCG64(seed_sequence(root_seed, game_index, purpose)))


def streams(root_seed: int, game_indices: Iterable[int], purpose: str) -> list[np.random.Generator]:
    """One stream per game index, all for the same purpose."""
    return [stream(root_seed, i, purpose) for i in game_indices]
