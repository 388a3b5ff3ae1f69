"""AFS-12 (take money, sea trade, Trader, piracy) and AFS-13 (recruit, discard, reserve,
retrieve, Governor, Intendant, Home Support), as a part of the `Engine` class."""

from __future__ import annotations

from sim.acres.actions import (
    Discard,
    FurCoin,
    FurTrade,
    Governor,
    HomeSupport,
    Intendant,
    Piracy,
    Recruit,
    Reserve,
    Retrieve,
    SeaTrade,
    TakeMoney,
)


class Economy:
    """The economic and card-management actions (mixed into `Engine`)."""

    def take_money_ok(self, g: int, side: int, a: TakeMoney) -> bool:
        """AFS-12.1: one playable location card."""
        return self.t.kind[a.card].is_location and self.usable(g, side, [a.card])

    def do_take_money(self, g: int, side: int, a: TakeMoney) -> None:
        self.require(self.take_money_ok(g, side, a), "take money", a)
        self.play_cards(g, side, [a.card])
        self.s.money[g][side] += self.t.kind[a.card].money

    def sea_trade_ok(self, g: int, side: int, a: SeaTrade) -> bool:
        """AFS-12.2 / AFS-18 A35: a ship card plus one or two other cards with coins."""
        kind = self.t.kind
        return (kind[a.ship].ship > 0 and 1 <= len(a.cards) <= 2 and all(kind[c].money > 0 for c in a.cards)
                and self.usable(g, side, [a.ship, *a.cards]))

    def do_sea_trade(self, g: int, side: int, a: SeaTrade) -> None:
        self.require(self.sea_trade_ok(g, side, a), "sea trade", a)
        self.play_cards(g, side, [a.ship, *a.cards])
        self.s.money[g][side] += sum(self.t.kind[c].money for c in a.cards)

    def fur_trade_ok(self, g: int, side: int, a: FurTrade) -> bool:
        """AFS-12.3: the Trader plus one or more playable fur location cards."""
        kind = self.t.kind
        return (kind[a.trader].special == "trader" and len(a.furs) >= 1
                and all(kind[c].is_location and kind[c].fur for c in a.furs)
                and self.usable(g, side, [a.trader, *a.furs]))

    def do_fur_trade(self, g: int, side: int, a: FurTrade) -> None:
        self.require(self.fur_trade_ok(g, side, a), "fur trade", a)
        self.play_cards(g, side, [a.trader, *a.furs])
        self.s.money[g][side] += self.fur_trade_gain * len(a.furs)

    def piracy_ok(self, g: int, side: int, a: Piracy) -> bool:
        """AFS-12.4: French only, the French Louisbourg card (playable) and another ship card."""
        kind = self.t.kind
        lb = self.t.index.get("louisbourg")
        return (side == 1 and kind[a.louisbourg].loc == lb and kind[a.louisbourg].owner == 1
                and kind[a.ship].ship > 0 and self.usable(g, side, [a.louisbourg, a.ship]))

    def do_piracy(self, g: int, side: int, a: Piracy) -> None:
        """The British pay 2, the bank what they cannot: the French gain exactly 2 (Example E12)."""
        self.require(self.piracy_ok(g, side, a), "piracy", a)
        self.play_cards(g, side, [a.louisbourg, a.ship])
        s = self.s
        paid = min(self.piracy_gain, s.money[g][0])
        s.money[g][0] -= paid
        s.money[g][1] += self.piracy_gain

    def recruit_ok(self, g: int, side: int, a: Recruit) -> bool:
        """AFS-13.1: a card of the own empire deck or the neutral supply, its cost paid; never a
        location card, never the opponent's (the zones hold none); not a banned asset."""
        s = self.s
        if a.card not in s.emp_deck[g][side] and a.card not in s.neutral[g]:
            return False
        return s.money[g][side] >= self.t.card_cost[a.card] and not self.banned(g, side, self.t.kind[a.card].key)

    def do_recruit(self, g: int, side: int, a: Recruit) -> None:
        self.require(self.recruit_ok(g, side, a), "recruit", a)
        s = self.s
        (s.emp_deck[g][side] if a.card in s.emp_deck[g][side] else s.neutral[g]).remove(a.card)
        s.money[g][side] -= self.t.card_cost[a.card]
        s.discard[g][side].append(a.card)
        self.acquire(g, side, self.t.kind[a.card].key)

    def discard_cost(self, g: int, n: int) -> int:
        """AFS-13.2 / AFS-18 A36: the first card of each discard action free, then 1 each (Scen12: free);
        with option `free_discard` = once_per_turn the first card is free in a turn's first discard only."""
        if self.variant(12):
            return 0
        free = 0 if self.free_discard_once_per_turn and self.s.discarded[g] else 1
        return max(0, n - free)

    def discard_ok(self, g: int, side: int, a: Discard) -> bool:
        return (len(a.cards) >= 1 and self.s.money[g][side] >= self.discard_cost(g, len(a.cards))
                and self.in_hand(g, side, list(a.cards)))

    def do_discard(self, g: int, side: int, a: Discard) -> None:
        self.require(self.discard_ok(g, side, a), "discard", a)
        self.s.money[g][side] -= self.discard_cost(g, len(a.cards))
        self.s.discarded[g] = True
        self.take_from_hand(g, side, list(a.cards))
        self.s.discard[g][side].extend(a.cards)

    def reserve_ok(self, g: int, side: int, a: Reserve) -> bool:
        """AFS-13.3: one card from hand into a reserve of fewer than 5 (A31); location cards per
        option `location_cards_in_reserve` (A32; Scen6 allows them, Scen20 lost ones)."""
        kind = self.t.kind[a.card]
        if len(self.s.reserve[g][side]) >= self.reserve_limit or not self.in_hand(g, side, [a.card]):
            return False
        if kind.is_location and not (self.location_reserve or self.variant(6)):
            return self.variant(20) and self.s.control[g][kind.loc] != side + 1
        return True

    def do_reserve(self, g: int, side: int, a: Reserve) -> None:
        self.require(self.reserve_ok(g, side, a), "reserve", a)
        self.take_from_hand(g, side, [a.card])
        self.s.reserve[g][side].append(a.card)

    def retrieve_ok(self, g: int, side: int) -> bool:
        """AFS-13.4: the whole reserve, 1 money per card, only if all can be paid."""
        n = len(self.s.reserve[g][side])
        return n > 0 and self.s.money[g][side] >= n

    def do_retrieve(self, g: int, side: int, a: Retrieve) -> None:
        self.require(self.retrieve_ok(g, side), "retrieve", a)
        s = self.s
        s.money[g][side] -= len(s.reserve[g][side])
        s.hand[g][side].extend(s.reserve[g][side])
        s.reserve[g][side].clear()

    def governor_ok(self, g: int, side: int, a: Governor) -> bool:
        """AFS-13.5 / AFS-18 A3, A33: the Governor plus one or two other cards from hand (exactly
        two with option `governor_cards = "two"`; Scen18: not starting locations still held;
        Scen14 with `scen14_besieged_card = "forbidden"`: not the card of a location the opponent
        besieges)."""
        kind = self.t.kind
        sized = len(a.cards) == 2 if self.governor_two else len(a.cards) in (1, 2)
        if kind[a.governor].special != "governor" or not sized:
            return False
        if self.variant(18) and any(kind[c].is_location and self.t.start_zone[c] == "draw"
                                    and self.s.control[g][kind[c].loc] == side + 1 for c in a.cards):
            return False
        if (self.variant(14) and not self.scen14_siege_won
                and any(kind[c].is_location and kind[c].loc == self.s.siege_loc[g][1 - side] for c in a.cards)):
            return False
        return self.in_hand(g, side, [a.governor, *a.cards]) and self.playable(g, side, a.governor)

    def do_governor(self, g: int, side: int, a: Governor) -> None:
        self.require(self.governor_ok(g, side, a), "governor", a)
        self.take_from_hand(g, side, [a.governor, *a.cards])
        self.s.discard[g][side].append(a.governor)
        for c in a.cards:
            self.send_home(g, side, c)

    def intendant_ok(self, g: int, side: int, a: Intendant) -> bool:
        """AFS-13.6 / AFS-18 A4, A30: French, 2 money, one card of the discard pile (never itself)."""
        return (side == 1 and self.t.kind[a.intendant].special == "intendant"
                and self.s.money[g][side] >= self.intendant_cost and a.target in self.s.discard[g][side]
                and self.in_hand(g, side, [a.intendant]))

    def do_intendant(self, g: int, side: int, a: Intendant) -> None:
        self.require(self.intendant_ok(g, side, a), "intendant", a)
        s = self.s
        s.money[g][side] -= self.intendant_cost
        self.take_from_hand(g, side, [a.intendant])
        s.discard[g][side].remove(a.target)
        s.hand[g][side].append(a.target)
        s.discard[g][side].append(a.intendant)

    def do_home_support(self, g: int, side: int, a: HomeSupport) -> None:
        """AFS-13.7 / AFS-18 A7: draw 3 (reshuffling per option; from the bottom of the pile under
        `options.home_support_from_bottom`), then discard the card."""
        self.require(self.t.kind[a.card].special == "home_support" and self.in_hand(g, side, [a.card]),
                     "home support", a)
        self.take_from_hand(g, side, [a.card])
        self.draw(g, side, self.home_support_draw, reshuffle=self.home_support_reshuffles,
                  bottom=self.home_support_from_bottom)
        self.s.discard[g][side].append(a.card)

    def fur_coin_ok(self, g: int, side: int, a: FurCoin) -> bool:
        """Scen11: a card with a fur symbol, as a free action, for 1 coin."""
        return self.variant(11) and self.t.kind[a.card].fur > 0 and self.usable(g, side, [a.card])

    def do_fur_coin(self, g: int, side: int, a: FurCoin) -> None:
        self.require(self.fur_coin_ok(g, side, a), "fur coin", a)
        self.play_cards(g, side, [a.card])
        self.s.money[g][side] += 1
