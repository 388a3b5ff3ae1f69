"""What the players may know (SOE-2.3, SOE-A37): the batch state without the hidden unrest.

A `View` shows every field of the `BatchState` by reference (no copies: the players' array passes
read the live arrays) except `unrest`, which each player holds face down. A seat's own unrest is
asked for by `own_unrest`; another seat's by `unrest_of`, which gives what was seen taken
(`public_unrest`, option `unrest_memory` = "public") or nothing ("none"). Players read the game
only through the engine's view; the conformance suite scrambles the hidden unrest of the other
seats around every decision and checks that no decision changes.
"""

from __future__ import annotations

import dataclasses

from sim.struggle.state import BatchState

HIDDEN = ("unrest",)


SCALARS = ("war", "round")     # reassigned by the engine: read through the state
SHARED = tuple(f.name for f in dataclasses.fields(BatchState) if f.name not in (*HIDDEN, *SCALARS))


class View:
    """The public part of a `BatchState` (see the module docstring). Its arrays are the state's
    own (the engine changes them in place, never rebinds them: tested), so reading them costs
    what reading the state does."""

    __slots__ = ("_state", "_memory", *SHARED)

    def __init__(self, state: BatchState, unrest_memory: str) -> None:
        self._state, self._memory = state, unrest_memory
        for name in SHARED:
            setattr(self, name, getattr(state, name))

    @property
    def war(self) -> int:
        return self._state.war

    @property
    def round(self) -> int:
        return self._state.round

    def own_unrest(self, g, p):
        """The unrest of seat(s) `p` in game(s) `g`, as only its owner may know it (scalars or
        index arrays)."""
        return self._state.unrest[g, p]

    def unrest_of(self, g: int, viewer: int, q: int) -> int:
        """Seat q's unrest as seat `viewer` knows it: exactly its own; another's as seen taken
        (SOE-A37 option `unrest_memory`)."""
        if q == viewer:
            return int(self._state.unrest[g, q])
        if self._memory == "none":
            return 0
        return int(self._state.public_unrest[g, q])


for _name in ("seats", "captured", "captured_batch"):       # BatchState's read-only helpers
    setattr(View, _name, getattr(BatchState, _name))
