"""What a seat may know in A Few Acres of Snow (AFS-18 A42): the board, money, captures, sieges
and every face-up zone (reserves, location and empire decks, neutral supply, discard piles, siege
areas); of the hidden zones only its own hand, and of draw piles only their sizes (the order is
unknown to both players). The conformance suite scrambles the other side's hand and draw pile
around every decision and checks that nothing changes.
"""

from __future__ import annotations

from sim.acres.state import BatchState

PUBLIC = ("control", "town", "fort", "cubes", "discs", "forts_left", "money", "captured", "siege_loc",
          "siege_p", "siege_cards", "discard", "reserve", "loc_deck", "emp_deck", "neutral", "removed", "turn",
          "active", "sieges_started", "shuffled")


class View:
    """The public part of a `BatchState` by reference, plus the viewer's own hand."""

    __slots__ = ("_state", *PUBLIC)

    def __init__(self, state: BatchState) -> None:
        self._state = state
        for name in PUBLIC:
            setattr(self, name, getattr(state, name))

    def own_hand(self, g: int, side: int) -> list[int]:
        """The hand of `side`, for its own player only."""
        return self._state.hand[g][side]

    def hand_size(self, g: int, side: int) -> int:
        return len(self._state.hand[g][side])

    def draw_size(self, g: int, side: int) -> int:
        return len(self._state.draw[g][side])

    def unseen(self, g: int, side: int) -> list[int]:
        """The cards of a side's draw pile and hand together, sorted: what either player can
        count from the face-up zones (every card not in them is in one of these two), without
        the order of the pile or which of them are in the hand."""
        s = self._state
        return sorted(s.draw[g][side] + s.hand[g][side])
