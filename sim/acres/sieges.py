"""AFS-8: besiege, reinforce, Leader, withdraw, the start-of-turn siege checks, captures and card
disposal, as a part of the `Engine` class. The track arithmetic, card values, opening test, win
tests and the disposal rule are those of `sim.acres.siege` (the one implementation).

Track `t` is the siege the side `t` started (0 British, 1 French; AFS-3.4.1). Its marker `P` is
signed, positive on the attacker's side (AFS-0.4). The cards committed to it are kept per side
(`BatchState.siege_cards[g][t][side]`) in the siege area of the side that started it (AFS-8.1.6).
"""

from __future__ import annotations

from dataclasses import dataclass

from sim.acres import siege
from sim.acres.actions import Besiege, GiveUp, LeaveNeutral, Occupy, PlayLeader, Reinforce, Withdraw
from sim.acres.state import TOWN, VILLAGE


@dataclass(eq=False)
class _Committed:
    """A physical card as `siege.dispose` sees it (identity equality: copies stay apart)."""

    c: int
    kind: str
    cost: int
    military: int


class Sieges:
    """The siege rules (mixed into `Engine`)."""

    def value(self, g: int, c: int, loc: int, role: str) -> int:
        """AFS-8.4 through `siege.card_value` (Scen15 gives Native Americans 1, `Tables`)."""
        return siege.card_value(self.t.kind[c].card, self.t.locations[loc], role)

    def artillery_ok(self, g: int, side: int, c: int) -> bool:
        """AFS-8.5.1: Siege Artillery only with the money to pay for it."""
        return not self.t.kind[c].card.siege_cost or self.s.money[g][side] >= self.artillery_cost

    def may_besiege(self, g: int, side: int) -> bool:
        """AFS-8.1.1 / AFS-8.3.1: one attack per side at a time; Scen16 holds the British back until
        the French have besieged or Britain has 25 VP."""
        s = self.s
        if s.siege_loc[g][side] >= 0:
            return False
        if self.variant(16) and side == 0 and not s.sieges_started[g][1]:
            return self.location_vp(g, 0) >= self.scen16_vp
        return True

    def besiege_ok(self, g: int, side: int, a: Besiege) -> bool:
        """AFS-8.1.1-8.1.5: an enemy location not under siege, a playable connection card listing
        it, the link's transport card and an opening card (`siege.can_open`), artillery paid."""
        s, kind = self.s, self.t.kind
        if not self.may_besiege(g, side) or s.control[g][a.target] != 2 - side or self.besieged(g, a.target):
            return False
        if not kind[a.via].is_location:
            return False
        transports = self.link_transport(a.via, a.target)
        if not transports or not any(getattr(kind[a.transport], tr) for tr in transports):
            return False
        if not siege.can_open(kind[a.military].card, self.t.locations[a.target], self.ship_opens_siege):
            return False
        return self.artillery_ok(g, side, a.military) and self.usable(g, side, [a.via, a.transport, a.military])

    def do_besiege(self, g: int, side: int, a: Besiege) -> None:
        """AFS-8.1.6-8.1.8 / AFS-8.2: connection and transport cards to the discard pile, the
        military card to the own siege area, the marker at `siege.start_position` plus its value."""
        self.require(self.besiege_ok(g, side, a), "besiege", a)
        s = self.s
        self.play_cards(g, side, [a.via, a.transport])
        self.take_from_hand(g, side, [a.military])
        loc = self.t.locations[a.target]
        s.siege_loc[g][side] = a.target
        s.siege_p[g][side] = siege.start_position(loc, s.fort[g][a.target], self.siege_rules)
        s.sieges_started[g][side] += 1
        s.version[g] += 1
        self.commit(g, side, side, a.military, "attacker")

    def commit(self, g: int, track: int, side: int, c: int, role: str) -> None:
        """AFS-8.6.3: the card to the siege area of the siege's starter; the marker moves toward
        the side by its value (within the track bounds, AFS-18 A1); artillery paid (AFS-8.5)."""
        s = self.s
        if self.t.kind[c].card.siege_cost:
            s.money[g][side] -= self.artillery_cost
        v = self.value(g, c, s.siege_loc[g][track], role)
        p = s.siege_p[g][track] + (v if role == "attacker" else -v)
        lo, hi = siege.track_bounds(self.siege_rules)
        s.siege_p[g][track] = p if lo is None else min(max(p, lo), hi)
        s.siege_cards[g][track][side].append(c)
        self.log(g, "siege_card", side=side, track=track, card=self.t.kind[c].key, value=v, p=s.siege_p[g][track])

    def role(self, side: int, track: int) -> str:
        return "attacker" if side == track else "defender"

    def reinforce_ok(self, g: int, side: int, track: int, c: int, leader: bool) -> bool:
        """AFS-8.6.1-8.6.4 / AFS-8.7: a siege in progress, supplied from the capital (no transport
        card; a Leader too unless option `leader_needs_supply` is off), a playable card worth
        something to the side's role; the Leader only as the free action (AFS-18 A19)."""
        s = self.s
        loc = s.siege_loc[g][track]
        kind = self.t.kind[c]
        if loc < 0 or (kind.special == "leader") != leader:
            return False
        if self.value(g, c, loc, self.role(side, track)) <= 0 or not self.artillery_ok(g, side, c):
            return False
        return self.feeds(g, side, loc, leader) and self.usable(g, side, [c])

    def feeds(self, g: int, side: int, loc: int, leader: bool) -> bool:
        """AFS-8.6.4 / AFS-18 A19: whether `side` may add a card (a Leader: `leader`) to the siege
        at `loc`: supplied from the capital, or a Leader with option `leader_needs_supply` off."""
        return (leader and not self.leader_needs_supply) or self.supplied(g, side, loc)

    def do_reinforce(self, g: int, side: int, a: Reinforce | PlayLeader) -> None:
        leader = isinstance(a, PlayLeader)
        self.require(a.track in (0, 1) and self.reinforce_ok(g, side, a.track, a.card, leader), "reinforce", a)
        self.take_from_hand(g, side, [a.card])
        self.commit(g, a.track, side, a.card, self.role(side, a.track))

    def do_withdraw(self, g: int, side: int, a: Withdraw) -> None:
        """AFS-8.12 / AFS-18 A16: only the attacker withdraws; it is a lost siege, no piece moves."""
        self.require(self.s.siege_loc[g][side] >= 0, "withdraw", a)
        self.log(g, "withdraw", side=side, location=self.t.locs[self.s.siege_loc[g][side]])
        self.end_siege(g, side, winner=1 - side)

    def do_give_up(self, g: int, side: int, a: GiveUp) -> None:
        """AFS-8.12.2 alternative (`options.defender_may_withdraw`): the defender of the opponent's
        siege gives it up; the attacker wins it (capture, occupy, disposal: `attacker_won`)."""
        att = 1 - side
        self.require(self.defender_withdraws and self.s.siege_loc[g][att] >= 0, "give up", a)
        self.log(g, "give_up", side=side, location=self.t.locs[self.s.siege_loc[g][att]])
        self.attacker_won(g, att)

    def siege_checks(self, g: int, side: int) -> None:
        """AFS-8.8: at the start of a turn, the attacker wins at P >= +2 and the defender at
        P <= -1 (`siege.attacker_wins` / `defender_wins`); both sieges are checked (A23)."""
        s = self.s
        for track in (0, 1):
            if s.over[g] or s.siege_loc[g][track] < 0:
                continue
            p = s.siege_p[g][track]
            if track == side and bool(siege.attacker_wins(p, self.siege_rules)):
                self.attacker_won(g, track)
            elif track != side and bool(siege.defender_wins(p, self.siege_rules)):
                self.log(g, "siege_won", side=side, role="defender", location=self.t.locs[s.siege_loc[g][track]], p=p)
                self.end_siege(g, track, winner=side)

    def attacker_won(self, g: int, att: int, capture: bool = True) -> None:
        """AFS-8.9: the defender's piece is captured, a fort goes back to the supply, a capital
        target ends the game, else the attacker may occupy; then the cards are disposed of.
        Without `capture` the defender has given the location up already (Scen14, `send_home`)."""
        s = self.s
        loc = s.siege_loc[g][att]
        piece = TOWN if s.town[g][loc] else VILLAGE
        if capture:
            s.captured[g][att][piece] += 1
        s.control[g][loc] = 0
        s.town[g][loc] = False
        if s.fort[g][loc]:
            s.fort[g][loc] = False
            s.forts_left[g] += 1
        s.version[g] += 1
        self.log(g, "siege_won", side=att, role="attacker", location=self.t.locs[loc], p=s.siege_p[g][att],
                 captured=None if not capture else "disc" if piece == TOWN else "cube")
        if loc in self.t.win_targets[att]:
            self.end_siege(g, att, winner=att)
            self.finish(g, att, "capital taken")
            return
        options = self.occupy_options(g, att, loc)
        choice = self.ask(g, att, "occupy", loc, options) if len(options) > 1 else options[0]
        self.require(choice in options, "occupy", choice)
        if isinstance(choice, Occupy):
            if choice.settler is not None:
                self.play_cards(g, att, [choice.settler])
            self.place_cube(g, att, loc)
        self.log(g, "occupy", side=att, location=self.t.locs[loc], placed=isinstance(choice, Occupy))
        self.end_siege(g, att, winner=att)

    def occupy_options(self, g: int, side: int, loc: int) -> list[Occupy | LeaveNeutral]:
        """AFS-8.9.3 / AFS-18 A24: a cube from supply, with a settler card from hand where the
        location has the settler symbol; or leave it neutral (banned locations: only that)."""
        out: list[Occupy | LeaveNeutral] = [LeaveNeutral()]
        if self.s.cubes[g][side] <= 0 or self.banned(g, side, self.t.locs[loc]):
            return out
        if not self.t.locations[loc].settler:
            return [Occupy(), *out]
        hand = self.s.hand[g][side]
        return [Occupy(c) for c in hand if self.t.kind[c].settler and self.playable(g, side, c)] + out

    def end_siege(self, g: int, track: int, winner: int) -> None:
        """AFS-8.11 through `siege.dispose`: the winner discards all his cards; the loser returns one
        non-location card of his choice to its supply and discards the rest; the marker comes off."""
        s = self.s
        loser = 1 - winner
        cards = s.siege_cards[g][track]
        wrap = [[_Committed(c, "location" if self.t.kind[c].is_location else "empire", self.t.card_cost[c],
                            self.t.kind[c].military) for c in cards[q]] for q in (0, 1)]

        def choose(candidates: list[_Committed]) -> _Committed:
            options = [w.c for w in candidates]
            pick = self.ask(g, loser, "siege_loss_card", options) if len(options) > 1 else options[0]
            self.require(pick in options, "siege_loss_card", pick)
            return candidates[options.index(pick)]

        kept, returned, rest = siege.dispose(wrap[winner], wrap[loser], choose)
        s.discard[g][winner].extend(w.c for w in kept)
        s.discard[g][loser].extend(w.c for w in rest)
        if returned is not None:
            self.send_home(g, loser, returned.c)
        self.log(g, "siege_over", track=track, winner=winner,
                 returned=None if returned is None else self.t.kind[returned.c].key)
        cards[0], cards[1] = [], []
        s.siege_loc[g][track] = -1
        s.siege_p[g][track] = 0
        s.version[g] += 1
        if self.variant(5) and s.hand[g][1] and self.ask(g, 1, "cycle_after_siege"):
            self.shed(g, 1)                                   # Scen5: the French cycle a card
            self.draw(g, 1, 1)
