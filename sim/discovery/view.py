"""What a seat may know (AOD-4.4 / AOD-4.5): everything but the hidden components.

Hidden: the face-down discovery tokens (until shown, AOD-8.4), the 8 tokens out of play, the
order of the discovery deck, the building stacks and the trade-good pool. A player reads the game
only through `View.game(g)` (every public field of the GameState; a hidden one raises) and the
helpers below, which give what a seat has seen or can count (AOD-19.6: the unseen tokens are
the 16 less those shown).
"""

from __future__ import annotations

import dataclasses
import operator

from sim.discovery.state import BatchState, GameState

HIDDEN = frozenset({"token_at", "out_tokens", "deck", "stacks", "goods_pool", "seen"})


class PublicGame:
    """The public fields of one game, as read-only properties (a hidden one is not there)."""

    __slots__ = ("_s",)

    def __init__(self, s: GameState) -> None:
        self._s = s


for _name in (f.name for f in dataclasses.fields(GameState)):
    if _name not in HIDDEN:
        setattr(PublicGame, _name, property(operator.attrgetter(f"_s.{_name}")))


class View:
    """A seat's window on the batch."""

    def __init__(self, state: BatchState, tokens: int, cards: int) -> None:
        self._state, self._tokens, self._cards = state, tokens, cards
        self._public: list[PublicGame] = []

    def game(self, g: int) -> PublicGame:
        if len(self._public) < len(self._state.games):
            self._public = [PublicGame(s) for s in self._state.games]
        return self._public[g]

    def known_token(self, g: int, seat: int, region: int) -> int:
        """The token under a face-down region if this seat has seen it (AOD-8.4), else -1."""
        s = self._state.games[g]
        t = s.token_at[region]
        return t if t >= 0 and (s.shown[t] or t in s.seen[seat]) else -1

    def unseen_tokens(self, g: int, seat: int) -> list[int]:
        """AOD-19.6: the tokens this seat has never seen (one of them lies under each face-down
        region whose token it has not seen)."""
        s = self._state.games[g]
        return [t for t in range(self._tokens) if not s.shown[t] and t not in s.seen[seat]]

    def deck_cards(self, g: int) -> list[int]:
        """AOD-8.7: the cards still in the deck, in index order (their order is hidden)."""
        return sorted(self._state.games[g].deck)

    def stack_sizes(self, g: int) -> list[int]:
        """How many building tiles are left in each age's stack (their identities are hidden)."""
        return [len(x) for x in self._state.games[g].stacks]
