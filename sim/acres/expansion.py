"""AFS-7: settle, develop and fortify, as a part of the `Engine` class. Each handler checks the
action against the rules (`Engine.require`) before changing anything."""

from __future__ import annotations

from sim.acres.actions import Develop, Fortify, Settle


class Expansion:
    """The expansion actions (mixed into `Engine`)."""

    def link_transport(self, via: int, target: int) -> tuple[str, ...]:
        """AFS-3.3.1: the transports by which the card `via` lists `target`."""
        return tuple(tr for tr, dests in self.t.kind[via].links.items() if target in dests)

    def settle_ok(self, g: int, side: int, a: Settle) -> bool:
        """AFS-7.1.1-7.1.5: a neutral target listed on a playable connection card, a distinct
        transport card with that link's symbol, a settler card where needed, a cube in supply."""
        t, s = self.t, self.s
        if s.control[g][a.target] != 0 or s.cubes[g][side] <= 0:
            return False
        kind = t.kind
        if not kind[a.via].is_location:
            return False
        transports = self.link_transport(a.via, a.target)
        if not transports or not any(getattr(kind[a.transport], tr) for tr in transports):
            return False
        cards = [a.via, a.transport]
        if t.locations[a.target].settler:
            if a.settler is None or not kind[a.settler].settler:
                return False
            cards.append(a.settler)
        elif a.settler is not None:
            return False
        return self.usable(g, side, cards)

    def do_settle(self, g: int, side: int, a: Settle) -> None:
        """AFS-7.1.6: a cube on the target; the played cards, then the side's card for the target
        (if it is in the location deck, AFS-7.1.7) on top of the discard pile."""
        self.require(self.settle_ok(g, side, a), "settle", a)
        self.play_cards(g, side, [c for c in (a.via, a.transport, a.settler) if c is not None])
        self.place_cube(g, side, a.target)
        if self.settle_capital_wins and a.target in self.t.win_targets[side]:
            self.finish(g, side, "capital settled")

    def place_cube(self, g: int, side: int, loc: int) -> None:
        """A cube from supply on `loc` and the side's card for it from the location deck."""
        s = self.s
        s.cubes[g][side] -= 1
        s.control[g][loc] = side + 1
        s.town[g][loc] = False
        s.version[g] += 1
        card = self.t.loc_card[side].get(loc)
        if card is not None and card in s.loc_deck[g][side]:
            s.loc_deck[g][side].remove(card)
            s.discard[g][side].append(card)
        if self.t.locations[loc].start == "neutral":
            self.acquire(g, side, self.t.locs[loc])

    def develop_ok(self, g: int, side: int, a: Develop) -> bool:
        """AFS-7.2.1-7.2.3: an own village with VP > 0, its own card and a settler card, a disc."""
        s, kind = self.s, self.t.kind
        if not kind[a.card].is_location:          # the location's own card: never an empire card
            return False
        if s.control[g][a.target] != side + 1 or s.town[g][a.target] or self.t.locations[a.target].vp <= 0:
            return False
        if s.discs[g][side] <= 0 or kind[a.card].loc != a.target or kind[a.card].owner != side:
            return False
        return bool(kind[a.settler].settler) and self.usable(g, side, [a.card, a.settler])

    def do_develop(self, g: int, side: int, a: Develop) -> None:
        """AFS-7.2.4: the cube back to supply, a disc on the location (a fort stays); Scen2: a
        French town in Fort Duquesne wins at once."""
        self.require(self.develop_ok(g, side, a), "develop", a)
        self.play_cards(g, side, [a.card, a.settler])
        s = self.s
        s.cubes[g][side] += 1
        s.discs[g][side] -= 1
        s.town[g][a.target] = True
        s.version[g] += 1
        if self.variant(2) and side == 1 and self.t.locs[a.target] == "fort_duquesne":
            self.finish(g, side, "fort duquesne town")

    def fortify_ok(self, g: int, side: int, a: Fortify) -> bool:
        """AFS-7.3.1-7.3.3: an own unfortified location not under siege, its own card, a
        Fortification card, 3 money and a fort disc left."""
        s, kind = self.s, self.t.kind
        if s.control[g][a.target] != side + 1 or s.fort[g][a.target] or self.besieged(g, a.target):
            return False
        if s.forts_left[g] <= 0 or s.money[g][side] < self.fortify_cost:
            return False
        if (kind[a.card].loc != a.target or kind[a.card].owner != side
                or kind[a.fortification].special != "fortification"):
            return False
        return self.usable(g, side, [a.card, a.fortification])

    def do_fortify(self, g: int, side: int, a: Fortify) -> None:
        """AFS-7.3.4: a fort disc under the piece."""
        self.require(self.fortify_ok(g, side, a), "fortify", a)
        self.play_cards(g, side, [a.card, a.fortification])
        s = self.s
        s.money[g][side] -= self.fortify_cost
        s.forts_left[g] -= 1
        s.fort[g][a.target] = True
        s.version[g] += 1
