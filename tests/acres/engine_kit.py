"""Helpers for the engine's worked-example tests: one game set up by the engine, then the exact
state of an example (hands, control, money) arranged, and reactions answered by a stub player."""

from __future__ import annotations

from sim.acres.play import new_engine, rulebook_of
from sim.acres.players import Roster
from sim.core.seating import Seating

GB, FR = 0, 1


class Stub:
    """A player whose reactions are set by the test (`answers[decision]`: a value or a function
    of the options); an action decision it was not told about is a test error."""

    def __init__(self, strategy, engine, g, side, rng):
        self.e, self.g, self.side = engine, g, side
        self.answers: dict = {}
        self.asked: list[str] = []

    def _answer(self, name, options, default):
        self.asked.append(name)
        got = self.answers.get(name, default)
        return got(options) if callable(got) else got

    def choose_action(self, choices):
        raise AssertionError("the test plays the actions itself")

    def block_raid(self, location, options):
        return self._answer("block_raid", options, None)

    def block_ambush(self, options):
        return self._answer("block_ambush", options, None)

    def give_up_ambush(self, options):
        return self._answer("give_up_ambush", options, options[0])

    def give_up_native(self, options):
        return self._answer("give_up_native", options, options[0])

    def siege_loss_card(self, options):
        return self._answer("siege_loss_card", options, options[0])

    def occupy(self, location, options):
        return self._answer("occupy", options, options[0])

    def start_card(self, options):
        return self._answer("start_card", options, options[0])

    def shed(self, options):
        return self._answer("shed", options, options[0])

    def cycle_after_siege(self):
        return self._answer("cycle_after_siege", None, True)


class Game:
    """One game after setup, with helpers to arrange an example's state (game 0 of the batch)."""

    def __init__(self, overrides=(), seed: int = 7):
        from sim.acres.play import load_data
        data = load_data(overrides) if overrides else None
        self.book = rulebook_of(data)
        self.e = new_engine(self.book, [Seating(("british", "french"), ("random", "random"))], seed, [0],
                            log=True, roster=Roster(make=Stub))
        self.e.setup()
        self.s, self.t = self.e.s, self.e.t

    def loc(self, key: str) -> int:
        return self.t.index[key]

    def player(self, side: int) -> Stub:
        return self.e.players[0][side]

    def zones(self, side: int):
        s = self.s
        return [s.draw[0][side], s.hand[0][side], s.discard[0][side], s.reserve[0][side], s.loc_deck[0][side],
                s.emp_deck[0][side], s.neutral[0], s.removed[0]]

    def card(self, side: int, key: str, nth: int = 0, start: bool | None = None) -> int:
        """A physical card of `side`'s kind `key` (the neutral kind if the side has none)."""
        found = [c for c in range(self.t.n_cards) if self.t.kind[c].key == key
                 and self.t.start_side[c] in (side, 2) and (start is None or (self.t.start_zone[c] == "draw") == start)]
        own = [c for c in found if self.t.start_side[c] == side] or found
        return own[nth]

    def move(self, c: int, zone: list) -> None:
        for z in self.s.zones(0):
            if c in z:
                z.remove(c)
        zone.append(c)

    def hand(self, side: int, *keys: str, clear: bool = True) -> list[int]:
        """Put exactly these cards (by kind, distinct copies) in the side's hand; the old hand goes
        to the bottom of the draw pile."""
        if clear:
            old = list(self.s.hand[0][side])
            self.s.hand[0][side].clear()
            self.s.draw[0][side][:0] = old
        cards, used = [], {}
        for key in keys:
            n = used.get(key, 0)
            used[key] = n + 1
            c = self.card(side, key, n)
            self.move(c, self.s.hand[0][side])
            cards.append(c)
        return cards

    def control(self, key: str, side: int | None, town: bool = False) -> None:
        """Set a location's piece (None: neutral), keeping cubes and discs conserved."""
        s, i = self.s, self.loc(key)
        old = s.control[0][i]
        if old:
            (s.discs if s.town[0][i] else s.cubes)[0][old - 1] += 1
        s.control[0][i] = 0 if side is None else side + 1
        s.town[0][i] = town and side is not None
        if side is not None:
            (s.discs if town else s.cubes)[0][side] -= 1
        s.version[0] += 1

    def act(self, side: int, action, left: int = 2) -> int:
        return self.e.apply(0, side, action, left)

    def events(self, name: str) -> list[dict]:
        return [e for e in self.e.logs[0] if e["event"] == name]
