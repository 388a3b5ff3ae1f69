"""AFS-9 raids, AFS-10 ambushes and AFS-11 Priest / Indian Leader, as a part of the `Engine`
class, with the non-active player's reactions (block, which card to give up: AFS-21 items
20-23) asked of his player, and every hand shown as proof logged (AFS-20 item 17)."""

from __future__ import annotations

from sim.acres.actions import Ambush, Raid, Steal
from sim.acres.state import TOWN, VILLAGE

NATIVE = "native_americans"


class Raids:
    """The raid family of actions (mixed into `Engine`)."""

    def fee(self, cards) -> int:
        """AFS-9.3 / AFS-18 A9: 1 money per Native Americans card played to raid or ambush."""
        kind = self.t.kind
        return sum([kind[c].special == NATIVE for c in cards])

    def ambush_fee(self, card: int) -> int:
        """AFS-10 / AFS-18 A9: an ambush pays its card's fee as a raid would (option
        `ambush_pays_fee`; off: no fee)."""
        return self.fee([card]) if self.ambush_pays_fee else 0

    def raid_ok(self, g: int, side: int, a: Raid) -> bool:
        """AFS-9.1-9.5: raid-capable cards (Priests / Indian Leaders only add range), the target an
        enemy location within range (AFS-18 A8; one step more in the second edition, `Rulebook`)
        with no fort and not under siege, the fee paid."""
        kind = self.t.kind
        if not a.cards or not any(kind[c].raid == "yes" for c in a.cards):
            return False
        if not all(kind[c].raid in ("yes", "range") for c in a.cards):
            return False
        d = self.raid_distances(g, side).get(a.target)
        reach = len(a.cards) + self.raid_bonus
        if d is None or d > reach or (self.raid_exact and d != reach):
            return False
        return self.s.money[g][side] >= self.fee(a.cards) and self.usable(g, side, list(a.cards))

    def do_raid(self, g: int, side: int, a: Raid) -> int:
        """AFS-9.6-9.9: the defender may block from hand (a raid-blocker, or his playable card for
        the target); unblocked, the piece is captured: a town becomes a village (neutral without a
        cube, A12), a village becomes neutral. Returns the actions used (Scen9, A13)."""
        self.require(self.raid_ok(g, side, a), "raid", a)
        s = self.s
        s.money[g][side] -= self.fee(a.cards)
        self.play_cards(g, side, list(a.cards))
        foe = 1 - side
        blockers = self.raid_blockers(g, foe, a.target)
        block = self.ask(g, foe, "block_raid", a.target, blockers) if blockers else None
        self.require(block is None or block in blockers, "block_raid", block)
        self.log(g, "raid", side=side, location=self.t.locs[a.target], cards=[self.t.kind[c].key for c in a.cards],
                 blocked=None if block is None else self.t.kind[block].key)
        if block is not None:
            self.play_cards(g, foe, [block])
            return 0 if self.variant(9) or not self.blocked_uses_action else 1
        loc = a.target
        if s.town[g][loc]:
            s.captured[g][side][TOWN] += 1
            s.town[g][loc] = False
            if s.cubes[g][foe] > 0:
                s.cubes[g][foe] -= 1
            else:
                s.control[g][loc] = 0
        else:
            s.captured[g][side][VILLAGE] += 1
            s.control[g][loc] = 0
        s.version[g] += 1
        return 1

    def raid_blockers(self, g: int, side: int, loc: int) -> list[int]:
        """AFS-9.6 / AFS-18 A20: cards in hand that block raids, and the side's own playable card
        for the raided location."""
        own = self.t.loc_card[side].get(loc)
        return [c for c in self.s.hand[g][side] if self.blocks_raids(c) or (c == own and self.playable(g, side, c))]

    def blocks_raids(self, c: int) -> bool:
        """AFS-9.6 / AFS-18 A20: a card that blocks any raid."""
        kind = self.t.kind[c]
        return kind.block_raid and (self.fortification_blocks or kind.special != "fortification")

    def ambush_ok(self, g: int, side: int, a: Ambush) -> bool:
        """AFS-10.1: one ambush card, its fee paid."""
        return (self.t.kind[a.card].ambush and self.s.money[g][side] >= self.ambush_fee(a.card)
                and self.usable(g, side, [a.card]))

    def do_ambush(self, g: int, side: int, a: Ambush) -> int:
        """AFS-10.2-10.6: the victim may block with one ambush-blocker from hand; unblocked he
        returns one vulnerable card of his choice from hand or reserve (A14; Scen3 also from a
        siege) to his empire deck, or shows his hand. Returns the actions used (Scen8, A13)."""
        self.require(self.ambush_ok(g, side, a), "ambush", a)
        s = self.s
        s.money[g][side] -= self.ambush_fee(a.card)
        self.play_cards(g, side, [a.card])
        foe = 1 - side
        blockers = [c for c in s.hand[g][foe] if self.t.kind[c].block_ambush]
        block = self.ask(g, foe, "block_ambush", blockers) if blockers else None
        self.require(block is None or block in blockers, "block_ambush", block)
        if block is not None:
            self.play_cards(g, foe, [block])
            self.log(g, "ambush", side=side, card=self.t.kind[a.card].key, blocked=self.t.kind[block].key)
            return 0 if self.variant(8) or not self.blocked_uses_action else 1
        options = self.vulnerable(g, foe)
        lost = self.ask(g, foe, "give_up_ambush", options) if len(options) > 1 else (options[0] if options else None)
        self.require(lost is None or lost in options, "give_up_ambush", lost)
        if lost is None:
            self.reveal(g, foe, "ambush")
        else:
            self.remove_anywhere(g, foe, lost)
            self.send_home(g, foe, lost)
        self.log(g, "ambush", side=side, card=self.t.kind[a.card].key, blocked=None,
                 lost=None if lost is None else self.t.kind[lost].key)
        return 1

    def vulnerable(self, g: int, side: int) -> list[int]:
        """AFS-10.3 / AFS-18 A14: the side's vulnerable cards in hand and reserve (Scen3: and in
        its siege cards)."""
        s, kind = self.s, self.t.kind
        zones = [s.hand[g][side], s.reserve[g][side]]
        if self.variant(3):
            zones += [s.siege_cards[g][track][side] for track in (0, 1)]
        return [c for zone in zones for c in zone if kind[c].vulnerable]

    def steal_ok(self, g: int, side: int, a: Steal) -> bool:
        """AFS-11.1: a Priest (French) or an Indian Leader (British)."""
        want = "priest" if side == 1 else "indian_leader"
        return self.t.kind[a.card].special == want and self.usable(g, side, [a.card])

    def do_steal(self, g: int, side: int, a: Steal) -> int:
        """AFS-11.1-11.4: the victim hands over one neutral Native Americans card of his choice from
        hand or reserve onto the taker's discard pile, or shows his hand; no block (AFS-11.3)."""
        self.require(self.steal_ok(g, side, a), "steal", a)
        self.play_cards(g, side, [a.card])
        foe = 1 - side
        s, kind = self.s, self.t.kind
        options = [c for zone in (s.hand[g][foe], s.reserve[g][foe]) for c in zone
                   if kind[c].special == NATIVE and kind[c].home == "neutral"]
        taken = self.ask(g, foe, "give_up_native", options) if len(options) > 1 else (options[0] if options else None)
        self.require(taken is None or taken in options, "give_up_native", taken)
        if taken is None:
            self.reveal(g, foe, "steal")
        else:
            self.remove_anywhere(g, foe, taken)
            s.discard[g][side].append(taken)
        self.log(g, "steal", side=side, card=kind[a.card].key, taken=None if taken is None else kind[taken].key)
        return 1
