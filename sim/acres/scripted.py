"""Scripted strategies of A Few Acres of Snow: one `ScriptedPlayer`, parameters from a table of
data/strategies.toml (hammer, settler, raider, fortress, balanced; docs/acres_engine.md).

Each action decision scores every legal action of `Choices` (AFS-21 items 1-19) and takes the
best one scoring above 0, else passes. Sieges are scored with their odds from `siege.simulate`
(AFS-8, the one siege model) from the position the besiege action leaves, as the side can count
it (its own hand and piles; the opponent's unseen cards and discards, `View.unseen`); raids with
the chance that the opponent holds no blocker (he keeps his blockers, `p_unblocked`), ambushes
with the hypergeometric chance over his unseen cards. A card that stops a siege from being
decided against the side at the opponent's next turn scores what the siege is worth (`rescue`).
Free actions come first: a Leader where it moves a siege to its win line, Home Support, a
hopeless siege withdrawn, the reserve retrieved (to feed a siege or open one). Reactions (items
20-24) block whenever they can, with the cheapest card, and give up the cheapest card. The
player reads only `engine.view`, its own hand and the rules' tests of its own cards.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import cache
from itertools import chain
from math import comb
from typing import Any, NamedTuple

from sim.acres import siege
from sim.acres.actions import (
    Action,
    Ambush,
    Besiege,
    Develop,
    Discard,
    Fortify,
    FurTrade,
    Governor,
    Intendant,
    LeaveNeutral,
    Occupy,
    Pass,
    Piracy,
    Raid,
    Recruit,
    Reinforce,
    Reserve,
    SeaTrade,
    Settle,
    Steal,
    TakeMoney,
)
from sim.acres.choices import Choices
from sim.acres.components import SIDES, Deck
from sim.acres.players import Player
from sim.core.errors import UserError

SCORED = ("besiege", "reinforce", "settle", "develop", "fortify", "raid", "ambush", "steal", "take_money",
          "sea_trade", "fur_trade", "piracy", "recruit", "intendant", "reserve")
_RANK = {kind: i for i, kind in enumerate(SCORED)}      # a tie goes to the earlier kind
_ODDS: dict[tuple, float] = {}     # estimates by (rules, samples, odds_key): pure, so sharing is safe
_SETUPS: dict[tuple, Any] = {}     # siege setups by their arguments (`_setup`)


class _Siege(NamedTuple):
    """A scripted siege setup with what its estimates share: each side's class of a card id
    (`siege.class_index`) and the part of `odds_key` the position does not change."""

    setup: siege.SiegeSetup
    index: tuple[Mapping[str, int], Mapping[str, int]]
    static: tuple
    priced: tuple[bool, bool]


def _setup(e, target: str, me: str, decks: tuple[Deck, Deck], fort: bool, turns: int, margin: int,
           cycles: tuple[int, int], money: tuple[int, int], foe_ambush: float = 0.0,
           foe_margin: int = -1) -> _Siege | None:
    """`siege.make_setup` of a scripted siege estimate (None: no card can open it), kept by its
    arguments: it is a pure function of them and the rules, and positions repeat. The defender
    commits whenever he can (`foe_margin` -1) or while short of his line plus `foe_margin`, and
    ambushes with his dead ambush cards with chance `foe_ambush` (`siege.ReinforcementPolicy.ambush`)."""
    key = (e.book.key, target, me, decks, fort, turns, margin, cycles, money, foe_ambush, foe_margin)
    if key in _SETUPS:
        return _SETUPS[key]
    them = SIDES[1 - SIDES.index(me)]
    try:
        setup = siege.make_setup(e.acres, target, me, dict(zip(SIDES, decks)),
                                 policy=siege.cycling(siege.parse_policy(f"sufficient={margin}"), cycles[0]),
                                 defender_policy=siege.cycling(siege.parse_policy(
                                     ("greedy" if foe_margin < 0 else f"sufficient={foe_margin}")
                                     + (f"+ambush={foe_ambush:g}" if foe_ambush > 0 else "")), cycles[1]),
                                 fort=fort, max_turns=turns,
                                 money={me: money[0], them: money[1]})
    except UserError:
        hit = None
    else:
        hit = _Siege(setup, tuple(siege.class_index(sc) for sc in setup.sides),
                     (setup.max_turns, setup.start, *(pol.name for pol in setup.policies),
                      *((sc.value, sc.free, sc.cost, sc.opener, sc.counts, sc.ambush, sc.vulnerable, sc.blocks)
                        for sc in setup.sides)),
                     tuple(any(sc.cost) for sc in setup.sides))
    if len(_SETUPS) > 100_000:
        _SETUPS.clear()
    _SETUPS[key] = hit
    return hit


def odds_key(at: _Siege, money: tuple[int, int], pos: tuple) -> tuple:
    """Exactly what `siege.simulate` reads of a setup at position `pos` (the fields of
    `siege.Position` in order), canonicalised so equal sieges share one estimate: the location
    enters only through the card values, and a side's money only where one of its classes costs
    money (Siege Artillery, AFS-8.5)."""
    return (*at.static, *(m if priced else 0 for m, priced in zip(money, at.priced)), *pos)


# per card bit of `_enables`, the kinds none of whose actions is legal without a hand card with it
# (a kind under two bits needs a card of each)
_NEEDS_CARD = (("raid",), ("fortify",), ("ambush",), ("steal",), ("sea_trade",), ("fur_trade",),
               ("intendant",), ("take_money",), ("piracy",), ("develop", "fortify"), ("besiege",), ("develop",),
               ("sea_trade",), ("fur_trade",))


@cache
def _disabled(mask: int) -> tuple[str, ...]:
    """The kinds a hand with the `_NEEDS_CARD` bits `mask` (`_enables`) does not enable, per mask
    met (a table of every mask would cost some 40 ms an import)."""
    return tuple(kind for i, kinds in enumerate(_NEEDS_CARD) if not mask >> i & 1 for kind in kinds)


def _enables(kind, side: int, louisbourg: int | None) -> int:
    """The bits of `_NEEDS_CARD` (bit i: the i-th) a card kind has for `side`: no action of their
    kinds is listed without one such card in hand (a raider, AFS-9.1; a Fortification card, AFS-7.3; an ambush
    card, AFS-10.1; the Priest or Indian Leader, AFS-11.1; a ship, AFS-12.2; the Trader, AFS-12.3;
    the Intendant, AFS-13.6; a location card with a coin, AFS-12.1; the French Louisbourg card,
    AFS-12.4; an own location card, AFS-7.2 and AFS-7.3; a card that can open a siege somewhere,
    AFS-8.1.4: `siege.can_open` at some location; a settler card, the development's second card,
    AFS-7.2; a card with a coin, AFS-12.2; a location card with a fur, AFS-12.3)."""
    steal = "priest" if side == 1 else "indian_leader"
    oks = (kind.raid == "yes", kind.special == "fortification", kind.ambush, kind.special == steal,
           bool(kind.ship), kind.special == "trader", kind.special == "intendant",
           kind.is_location and kind.money > 0, side == 1 and kind.owner == 1 and kind.loc == louisbourg,
           kind.is_location and kind.owner == side,
           not kind.card.defender_only and not kind.card.free_action and (kind.card.military > 0 or bool(kind.card.ship)),
           bool(kind.settler), kind.money > 0, kind.is_location and kind.fur > 0)
    return sum(1 << i for i, ok in enumerate(oks) if ok)


class _DataTerms(NamedTuple):
    """Per data set: what no card or location exceeds (the score ceilings, `ceilings`) and each
    card's `keep` weight."""

    kinds: tuple            # one card kind per copy key
    military: int
    value: int              # a card's siege value (AFS-8.4)
    money: int
    vp: int
    enables: tuple[tuple[int, ...], tuple[int, ...]]    # `_enables` per card, per side
    keep: tuple[float, ...]                             # per card


_DATA_TERMS: dict[int, tuple[Any, _DataTerms]] = {}      # by the id of the Tables (kept with them)


def _data_terms(t) -> _DataTerms:
    hit = _DATA_TERMS.get(id(t))
    if hit is None or hit[0] is not t:
        kinds = tuple({key: k for key, k in zip(t.copy_key, t.kind)}.values())
        found = _DataTerms(kinds, max(k.military for k in kinds), max(max(k.card.military for k in kinds), 1),
                        max(k.money for k in kinds), max(where.vp for where in t.locations),
                        tuple(tuple(_enables(k, side, t.index.get("louisbourg")) for k in t.kind) for side in (0, 1)),
                        tuple(0.3 * k.military + 0.1 * k.money + 0.2 * bool(k.block_raid) for k in t.kind))
        hit = _DATA_TERMS[id(t)] = (t, found)
    return hit[1]


def _neutral_native(kind) -> bool:
    """AFS-11.4: only the green Native Americans can be taken."""
    return kind.special == "native_americans" and kind.home == "neutral"


def _draws(kind) -> bool:
    """Home Support (AFS-13.7): a free action that draws three cards."""
    return kind.special == "home_support"


def card_class(kind) -> str:
    """The recruit class of a card kind (the `recruit_*` parameters)."""
    if kind.raid in ("yes", "range"):
        return "raider"
    if kind.special == "fortification":
        return "fortification"
    if kind.settler:
        return "settler"
    if kind.military or kind.ship:
        return "military"
    return "economy"


class ScriptedPlayer(Player):
    """A strategy table played as scores over the legal actions (see the module docstring)."""

    def __init__(self, engine, g: int, side: int, rng, params: Mapping[str, Any]) -> None:
        super().__init__(engine, g, side, rng)
        self.p = dict(params)
        self.foe = 1 - side
        self.t = engine.t
        self._odds_now: dict[Besiege, float] = {}      # this decision's siege estimates
        self.left = 0                                    # actions left in this decision's turn
        # the scored kinds in the order they are scored (sieges last: their estimates are the
        # dearest scores), with their ranks, scorers, the kind's ceiling from this decision's
        # chances where one bounds every action's score, and where a score is dear, action ceilings
        chanced = {"raid": self.raid_ceiling, "ambush": self.ambush_ceiling, "steal": self.steal_ceiling}
        self._plan = [(kind, _RANK[kind], getattr(self, "s_" + kind), chanced.get(kind),
                       self.besiege_ceiling if kind == "besiege" else None) for kind in (*SCORED[1:], SCORED[0])]
        self.most = _data_terms(self.t)
        self._recruit_max = max(self.recruit_worth(k) for k in self.most.kinds)
        self._draw_max = max((self.recruit_worth(k) for k in self.most.kinds if _draws(k)), default=0.0)
        self._worth = tuple(self.recruit_worth(k) for k in self.t.kind)      # `recruit_worth` per card
        self._keys = tuple(k.key for k in self.t.kind)                      # the card kind's id per card
        self._class = tuple(card_class(k) for k in self.t.kind)             # the recruit class per card
        self._fixed = self._fixed_terms()
        self._passes: dict[str, tuple[bool, ...]] = {}          # `_chance`'s tests per card
        self._lines = siege.win_thresholds(engine.siege_rules)
        self._unbounded = siege.track_bounds(engine.siege_rules)[0] is None

    # ------------------------------------------------------------------ what the side can count
    def p_holds(self, passes: Sequence[bool]) -> float:
        """The chance the opponent's hand holds a card passing a test (`passes`, per card), read
        from his last shuffle (`_shuffle_reading`): sure where one is kept since before it, else
        the chance that not all of those of the shuffle are in the draw pile."""
        pool, d, kept = self._shuffle_reading()
        if any(passes[c] for c in kept):
            return 1.0
        return 1.0 - self._all_in_pile(pool, d, sum(passes[c] for c in pool))

    def _shuffle_reading(self) -> tuple[set[int], int, list[int]]:
        """(the opponent's unseen cards of his last shuffle, his draw pile's size, his unseen
        cards kept in hand since before it), once per decision. His draw pile holds only cards
        of his last shuffle (AFS-5.6.1: the discards shuffled are face-up), so an unseen card
        the shuffle did not hold is in his hand; an unseen card of the shuffle is in the pile or
        was drawn and is still in hand (those drawn and played since are face-up): of the u
        unseen cards of the shuffle, d are the pile, any d of them alike (engine version 10;
        before, every unseen card was in hand with the same chance)."""
        hit = self._memo.get("shuffle")
        if hit is None:
            v, g, foe = self.view, self.g, self.foe
            unseen = self._foe_unseen()
            shuffled = set(v.shuffled[g][foe])
            pool = {c for c in unseen if c in shuffled}
            hit = self._memo["shuffle"] = (pool, len(unseen) - v.hand_size(g, foe), [c for c in unseen if c not in shuffled])
        return hit

    def _foe_unseen(self) -> list[int]:
        """The opponent's unseen cards (View.unseen), once per decision: the chances of holding
        a card, the raid blockers and the siege counts all read them. Callers only read it."""
        hit = self._memo.get("foe unseen")
        if hit is None:
            hit = self._memo["foe unseen"] = self.view.unseen(self.g, self.foe)
        return hit

    def odds(self, a: Besiege, left: int) -> float:
        """P(the side wins the siege `a` starts): 0 where it is `lost_at_once`, else `estimate`."""
        return 0.0 if self.lost_at_once(a, left) else self.estimate(a, left)

    def lost_at_once(self, a: Besiege, left: int) -> bool:
        """Whether the defender wins the siege `a` starts at his first check (AFS-8.8.2) whatever
        is drawn, so that every siege `estimate` simulates is his and the estimate is 0 without
        one. Until that check only the attacker moves the marker: from the start (AFS-8.2) by
        the besieging card, then by at most one card an action with the `left - 1` actions left
        and every free-action card (Leader, AFS-8.7) in hand, each worth at most what
        `Engine.value` gives it (the siege's classes value a card so, or 0). Only on an
        unbounded track (AFS-18 A1: a bound lifts a marker pushed below it)."""
        if not self._unbounded:
            return False
        e, g, target, kind = self.e, self.g, a.target, self.t.kind
        p = (siege.start_position(self.t.locations[target], bool(self.view.fort[g][target]), e.siege_rules)
             + e.value(g, a.military, target, "attacker"))
        actions = []
        for c in self.view.own_hand(g, self.side):
            if c != a.via and c != a.transport and c != a.military:
                v = e.value(g, c, target, "attacker")
                if kind[c].card.free_action:
                    p += v
                else:
                    actions.append(v)
        actions.sort(reverse=True)
        return p + sum(actions[:left - 1]) <= self._lines[1]

    def estimate(self, a: Besiege, left: int) -> float:
        """P(the side wins the siege `a` starts), by `siege.simulate` from the position the action
        leaves: the marker after its besieging card (AFS-8.2), the side's hand, piles and the
        actions left in its turn, the opponent's unseen cards and discards (View.unseen). The
        attacker commits while short of its win line plus `margin` (as `s_reinforce` does), the
        defender whenever he can (as `foe_margin` and `foe_ambush` say); by an action that commits nothing the side discards
        `odds_cycle` dead cards and the opponent `foe_cycle` (engine version 11: balanced and
        raider keep their hands for other uses; before, each side cycled one). The position is
        counted by class straight from this decision's class counts of the target's setup
        (`_siege_at`), and a setup at it is built only for an estimate not kept yet."""
        e, g, t = self.e, self.g, self.t
        base = self._siege_at(a.target)
        if base is None:                      # no card of the deck can open this siege
            return 0.0
        at, hand, draw, discard, foe_unseen, foe_discard = base
        index, kind = at.index[0], t.kind
        hand, discard = list(hand), list(discard)
        for c in (a.via, a.transport):        # played from the hand to the discards
            i = index[kind[c].key]
            hand[i] -= 1
            discard[i] += 1
        hand[index[kind[a.military].key]] -= 1    # into the siege area
        setup = at.setup
        paid = e.artillery_cost if kind[a.military].card.siege_cost else 0
        money = (max(setup.money[0] - paid, 0), setup.money[1])
        pos = (setup.start + e.value(g, a.military, a.target, "attacker"), left - 1, tuple(hand), draw,
               tuple(discard), foe_unseen, foe_discard, self.view.hand_size(g, self.foe))
        samples = self.p["odds_samples"]
        key = (e.book.key, samples, *odds_key(at, money, pos))
        hit = _ODDS.get(key)
        if hit is None:
            setup = replace(setup, money=money, position=siege.Position(*pos))
            hit = float(siege.siege_counts(setup, samples, 1)["attacker"].sum() / samples)
            if len(_ODDS) > 100_000:
                _ODDS.clear()
            _ODDS[key] = hit
        return hit

    def _siege_at(self, target: int) -> tuple | None:
        """Per decision and target: the scripted setup (`_setup`; None if no card can open the
        siege) and, by its classes, the side's hand, draw pile and discards and the opponent's
        unseen cards and discards."""
        key = ("siege", target)
        if key in self._memo:
            return self._memo[key]
        v, g = self.view, self.g
        hand, draw, discard, foe, decks = self._counted()
        at = _setup(self.e, self.t.locs[target], SIDES[self.side], decks, bool(v.fort[g][target]),
                    self.p["odds_turns"], self.p["margin"], (self.p["odds_cycle"], self.p["foe_cycle"]),
                    (min(v.money[g][self.side], 12), min(v.money[g][self.foe], 12)), float(self.p["foe_ambush"]),
                    int(self.p["foe_margin"]))
        hit = None
        if at is not None:
            own, them = at.index
            n_own, n_them = len(at.setup.sides[0].counts), len(at.setup.sides[1].counts)
            hit = (at, *(siege.class_counts(own, n_own, z) for z in (hand, draw, discard)),
                   *(siege.class_counts(them, n_them, z) for z in foe))
        self._memo[key] = hit
        return hit

    def _counted(self) -> tuple[Counter, Counter, Counter, tuple[Counter, Counter], tuple[Deck, Deck]]:
        """This decision's counts by card kind, as the side can count them (View.unseen): its
        hand, draw pile and discards, the opponent's unseen cards and discards, and both decks
        (British, French) as a siege sees them (a besiege action only moves cards between the
        side's zones and its siege area)."""
        hit = self._memo.get("counted")
        if hit is None:
            g, v, key = self.g, self.view, self._keys.__getitem__
            hand = v.own_hand(g, self.side)
            held = set(hand)                  # each card is one physical card: the rest unseen is drawn
            zones = {self.side: (hand, [c for c in v.unseen(g, self.side) if c not in held], v.discard[g][self.side]),
                     self.foe: (self._foe_unseen(), v.discard[g][self.foe])}
            own, foe = (tuple(Counter(map(key, zone)) for zone in zones[s]) for s in (self.side, self.foe))
            decks = tuple(Deck(name, tuple(sorted(Counter(map(key, chain.from_iterable(zones[s]))).items())))
                          for s, name in enumerate(SIDES))
            hit = self._memo["counted"] = (*own, foe, decks)
        return hit

    def worth(self, loc: int, side: int) -> int:
        """Points a side holds at a location (AFS-15.3.1), plus the piece a capture takes."""
        v, g = self.view, self.g
        town = bool(v.town[g][loc])
        return self.t.locations[loc].vp * (2 if town else 1) + (4 if town else 2)

    def keep(self, cards) -> float:
        """What playing these cards gives up (prefer cheap cards as transport, money, blockers:
        `_DataTerms.keep`)."""
        weight = self.most.keep
        return sum([weight[c] for c in cards if c is not None])

    def dead(self, c: int) -> bool:
        """A location card the side cannot play for want of the location or its connection."""
        kind = self.t.kind[c]
        return (kind.is_location and not self.e.playable(self.g, self.side, c)
                and kind.loc not in self.view.siege_loc[self.g])

    def dead_in_hand(self, choices: Choices) -> list[int]:
        """The hand's `dead` cards in hand order, read off the decision's playable cards
        (`Choices.live`, AFS-6.1): a hand card not among them is a location card not playable."""
        live, sieges, kind = choices.live, self.view.siege_loc[self.g], self.t.kind
        return [c for c in self.view.own_hand(self.g, self.side) if c not in live and kind[c].loc not in sieges]

    # ------------------------------------------------------------------ scores
    def _prepare(self) -> None:
        """What every score of one decision shares."""
        v, g = self.view, self.g
        money, target = v.money[g][self.side], self.p["money_target"]
        self.need = 2.0 if money < target else 1.0 if money < 3 * target else 0.1   # money beyond use
        e = self.e
        mine, theirs = e.location_vp(g, self.side), e.location_vp(g, self.foe)
        self.ahead = mine > theirs         # AFS-22: ahead, build the towns that end the game
        self.deck_size = v.draw_size(g, self.side) + v.hand_size(g, self.side) + len(v.discard[g][self.side])
        self._memo: dict = {}

    def _chance(self, name: str, pred) -> float:
        """`p_holds` of the card kinds passing `pred`, once per decision."""
        hit = self._memo.get(name)
        if hit is None:
            hit = self._memo[name] = self.p_holds(self._tests(name, pred))
        return hit

    def _tests(self, name: str, pred) -> tuple[bool, ...]:
        """Whether each card passes `pred` (a test of its kind), once per game."""
        passes = self._passes.get(name)
        if passes is None:
            passes = self._passes[name] = tuple(bool(pred(k)) for k in self.t.kind)
        return passes

    def s_settle(self, a: Settle) -> float:
        t, v, g, foe = self.t, self.view, self.g, self.foe
        own = t.loc_card[self.side].get(a.target)
        front = own is not None and any(v.control[g][d] == foe + 1 for ds in t.kind[own].links.values() for d in ds)
        return (self.p["settle"] * (t.locations[a.target].vp + 1) + self.p["frontier"] * front
                - self.keep((a.via, a.transport, a.settler)))

    def s_develop(self, a: Develop) -> float:
        return self.p["develop"] * (1 + self.ahead) * self.t.locations[a.target].vp - self.keep((a.settler,))

    def s_fortify(self, a: Fortify) -> float:
        exposed = a.target in self.e.raid_distances(self.g, self.foe) or a.target in self.t.win_targets[self.foe]
        threat = 1.0 if exposed else 0.3
        return self.p["fortify"] * threat * self.worth(a.target, self.side) - 3 * self.p["money"] / self.need

    def besiege_terms(self, a: Besiege) -> tuple[float, float]:
        """(prize, cards given up) of a siege: its score is `besiege * odds * prize - given up`."""
        return self.prize(a.target), self.keep((a.via, a.transport))

    def prize(self, target: int) -> float:
        """What taking an enemy location is worth: its points and piece, more for a win target."""
        capital = self.p["capital"] if target in self.t.win_targets[self.side] else 0.0
        return self.worth(target, self.foe) + capital

    def s_besiege(self, a: Besiege) -> float:
        chance = self._odds_now.get(a)
        if chance is None:
            chance = self._odds_now[a] = self.odds(a, self.left)
        if chance < self.p["min_odds"]:
            return 0.0
        prize, given = self.besiege_terms(a)
        return self.p["besiege"] * chance * prize - given

    def besiege_ceiling(self, a: Besiege) -> float:
        """A siege's score at odds 1, before its odds are estimated (the score rises with them)."""
        prize, given = self.besiege_terms(a)
        return self.p["besiege"] * prize - given

    def p_unblocked(self, a: Raid) -> float:
        """The chance the raid is not blocked (AFS-9.6), as the side can estimate it (logged as
        its forecast). The opponent always blocks and keeps his raid-blockers for it (a scripted
        defender plays them for nothing else, `keep`); none is kept in hand since before his
        last shuffle, and the k of that shuffle are all in the draw pile, with chance C(d, k) /
        C(u, k) (`_shuffle_reading`). His card for the target blocks too, if playable: it is
        then a blocker like the others (engine version 9; before, every card of the shuffle
        counted in u and the target's card was in hand with the chance of any unseen card)."""
        g, foe, e = self.g, self.foe, self.e
        hit = self._memo.get(("raid", a.target))
        if hit is not None:
            return hit
        pool, d, blockers = self._blockers_unseen()
        own = self.t.loc_card[foe].get(a.target)
        if own in pool and e.playable(g, foe, own) and not e.blocks_raids(own):
            blockers += 1
        elif own in self._shuffle_reading()[2] and e.playable(g, foe, own):
            blockers = d + 1                   # kept in hand since before the shuffle: a sure block
        free = self._memo[("raid", a.target)] = self._all_in_pile(pool, d, blockers)
        return free

    def _blockers_unseen(self) -> tuple[set[int], int, int]:
        """(`_shuffle_reading`'s unseen cards of the opponent's last shuffle and draw pile size,
        his unseen raid-blockers: d + 1 when one is kept in hand since before that shuffle), once
        per decision (`p_unblocked`): they do not depend on the target."""
        hit = self._memo.get("blockers")
        if hit is None:
            pool, d, kept = self._shuffle_reading()
            blocks = self.e.blocks_raids
            hit = self._memo["blockers"] = (pool, d, d + 1 if any(map(blocks, kept)) else sum(map(blocks, pool)))
        return hit

    @staticmethod
    def _all_in_pile(pool: set[int], d: int, k: int) -> float:
        """The chance that k given cards of the `pool` of unseen shuffled cards are all among
        the d of them in the draw pile (0 where k > d)."""
        return comb(d, k) / comb(max(len(pool), d), k) if k <= d else 0.0

    def s_raid(self, a: Raid) -> float:
        return (self.p["raid"] * self.p_unblocked(a) * self.worth(a.target, self.foe)
                - self.e.fee(a.cards) * self.p["money"] * self.need)

    def raid_ceiling(self) -> float:
        """The best a raid can score now (`s_raid` with `p_unblocked` at its bound, the chance no
        raid-blocker is in the opponent's hand, at the best location and no fee): 0 while he
        surely keeps one."""
        pool, d, blockers = self._blockers_unseen()
        return self.p["raid"] * self._all_in_pile(pool, d, blockers) * (2 * self.most.vp + 4)

    def ambush_ceiling(self) -> float:
        """`s_ambush` before its fee: every ambush's chance is the decision's (`ambush_odds`)."""
        return self.p["ambush"] * self.ambush_odds() * 3

    def ambush_odds(self) -> float:
        """The chance an ambush now is not blocked and takes a card (AFS-10.2-10.3; logged as its
        forecast), from the opponent's last shuffle (`_shuffle_reading`): no ambush-blocker in
        his hand (a card that is both blocks), and a vulnerable card in his reserve or hand. Of
        the unseen cards of the shuffle, both events together: every blocker in the pile, less
        every blocker and every vulnerable card there (engine version 10; before, the two
        chances were multiplied as if independent, each as if any unseen card were in hand)."""
        hit = self._memo.get("ambush")
        if hit is None:
            block = self._tests("block_ambush", lambda k: k.block_ambush)
            vulnerable = self._tests("vulnerable", lambda k: k.vulnerable)
            pool, d, kept = self._shuffle_reading()
            if any(block[c] for c in kept):
                hit = 0.0
            else:
                b = sum(block[c] for c in pool)
                free = self._all_in_pile(pool, d, b)
                if any(vulnerable[c] for c in chain(self.view.reserve[self.g][self.foe], kept)):
                    hit = free
                else:
                    hit = free - self._all_in_pile(pool, d, b + sum(vulnerable[c] and not block[c] for c in pool))
            self._memo["ambush"] = hit
        return hit

    def s_ambush(self, a: Ambush) -> float:
        return self.ambush_ceiling() - self.e.ambush_fee(a.card) * self.p["money"] * self.need

    def steal_ceiling(self) -> float:
        """`s_steal`, the same for every steal: the chance a green Native Americans card is in the
        opponent's reserve or hand."""
        t, reserve = self.t, self.view.reserve[self.g][self.foe]
        hits = 1.0 if any(_neutral_native(t.kind[c]) for c in reserve) else self._chance("native", _neutral_native)
        return self.p["steal"] * hits * 2

    def s_steal(self, a: Steal) -> float:
        return self.steal_ceiling()

    def s_take_money(self, a: TakeMoney) -> float:
        return self.p["money"] * self.need * self.t.kind[a.card].money - 0.5

    def s_sea_trade(self, a: SeaTrade) -> float:
        return self.p["money"] * self.need * sum(self.t.kind[c].money for c in a.cards) - 0.5

    def s_fur_trade(self, a: FurTrade) -> float:
        return self.p["money"] * self.need * self.e.fur_trade_gain * len(a.furs) - 0.5

    def s_piracy(self, a: Piracy) -> float:
        return self.p["money"] * self.need * self.e.piracy_gain - 0.3

    def s_intendant(self, a: Intendant) -> float:
        kind = self.t.kind[a.target]
        bonus = 3 if kind.special == "home_support" else 0
        return self.p["money"] * (kind.military + bonus) - 2 * self.p["money"] * self.need

    def s_reinforce(self, a: Reinforce) -> float:
        p, g, v = self.p, self.g, self.view
        pos, short, weight = self.track_terms(a.track)
        if short <= 0:
            return 0.0
        value = self.e.value(g, a.card, v.siege_loc[g][a.track], self.e.role(self.side, a.track))
        cost = self.e.artillery_cost * p["money"] if self.t.kind[a.card].card.siege_cost else 0.0
        return max(weight * min(value, short), self.rescue(a.track, pos, value)) - cost

    def track_terms(self, track: int) -> tuple[int, int, float]:
        """(marker, spaces short of the side's line plus `margin`, weight per space) of a siege
        track: the attacker's win line on its own track, the defender's on the other."""
        p = self.p
        win_a, win_d = siege.win_thresholds(self.e.siege_rules)
        pos = self.view.siege_p[self.g][track]
        if track == self.side:
            return pos, win_a + p["margin"] - pos, p["reinforce_attack"]
        return pos, pos - (win_d - p["margin"]), p["reinforce_defend"]

    def rescue(self, track: int, pos: int, value: int) -> float:
        """What a card saves that keeps a siege from being decided against the side at the
        opponent's next turn (AFS-8.8: the checks come at the start of a turn): the whole siege,
        as its start was scored (`besiege` times the prize), or the own location defended."""
        win_a, win_d = siege.win_thresholds(self.e.siege_rules)
        loc = self.view.siege_loc[self.g][track]
        if track == self.side:
            return self.p["besiege"] * self.prize(loc) if win_d >= pos > win_d - value else 0.0
        return self.p["reinforce_defend"] * self.worth(loc, self.side) if win_a <= pos < win_a + value else 0.0

    def s_reserve(self, a: Reserve) -> float:
        """AFS-13.3 / AFS-21 item 16: military cards stored for the next siege while none runs,
        up to `reserve_size`; `free_action` retrieves them to feed a siege, or to open one once
        the reserve is full."""
        v, g = self.view, self.g
        if v.siege_loc[g][self.side] >= 0 or len(v.reserve[g][self.side]) >= self.p["reserve_size"]:
            return 0.0
        return self.p["reserve"] * self.t.kind[a.card].military

    def s_recruit(self, a: Recruit) -> float:
        """A recruit's worth less its price, the price weighed as money is needed (`need`, at most
        1: money beyond three times `money_target` costs a tenth, so a side that cannot use its
        money recruits with it). At `max_deck` only Home Support: played as a free action it draws
        three cards and then lies in the discard pile (AFS-13.7), so it makes the cycle no slower."""
        p, g, v, t = self.p, self.g, self.view, self.t
        cost = t.card_cost[a.card]
        if v.money[g][self.side] - cost < p["recruit_floor"] or (self.deck_size >= p["max_deck"]
                                                                   and not _draws(t.kind[a.card])):
            return 0.0
        worth = self._worth[a.card]
        if p["recruit_decay"] < 1.0:
            worth *= p["recruit_decay"] ** self._in_cycle()[self._class[a.card]]
        return worth - 0.15 * cost * min(self.need, 1.0)

    def _in_cycle(self) -> Counter:
        """The side's cards in its cycle (draw pile, hand, discards: what it can count, View.unseen)
        by recruit class, once per decision: `recruit_decay` weighs a recruit by how many of its
        class the deck already holds, so a deck is not filled with cards it cannot use."""
        hit = self._memo.get("in cycle")
        if hit is None:
            v, g, cls = self.view, self.g, self._class
            hit = self._memo["in cycle"] = Counter(cls[c] for c in chain(v.unseen(g, self.side), v.discard[g][self.side]))
        return hit

    def recruit_worth(self, kind) -> float:
        """A recruit's score before its cost: the weight of its class, more for its strength
        (Home Support's three cards drawn count 3, AFS-13.7)."""
        strength = kind.military + kind.ship + kind.settler + (kind.raid == "yes") + 3 * _draws(kind)
        return self.p["recruit_" + card_class(kind)] * (1 + 0.3 * strength)

    # ------------------------------------------------------------------ decisions
    def choose_action(self, choices: Choices) -> Action:
        free = self.free_action(choices)
        if free is not None:
            return free
        if choices.left <= 0:
            return Pass()
        self._odds_now.clear()
        self.left = choices.left
        self._prepare()
        hand = self.view.own_hand(self.g, self.side)
        dead = self.dead_in_hand(choices)
        best, _ = self.pruned(*self.thin_out(*self.best_scored(choices), dead), choices)
        if isinstance(best, Besiege):
            return replace(best, p_win=self._odds_now[best])
        if isinstance(best, Raid):
            return replace(best, p_win=self.p_unblocked(best))
        if isinstance(best, Ambush):
            return replace(best, p_win=self.ambush_odds())
        if isinstance(best, Pass) and hand:   # nothing worth doing: cycle the least useful cards (if affordable, A36)
            cycle = self.cycled(sorted(hand, key=lambda c: (c not in dead, self.keep((c,)), c)), idle=True)
            return cycle if self.e.discard_ok(self.g, self.side, cycle) else best
        return best

    def best_scored(self, choices: Choices) -> tuple[Action, float]:
        """The listed action with the highest score above 0 (a tie goes to the first in `SCORED`
        order, then in list order), else Pass, with its score: what scoring every listed action
        gives, without listing a kind whose ceiling (`ceilings`) cannot beat the best found so
        far, nor estimating a siege whose score at odds 1 cannot. An action beats the best when
        its score is higher, or equal from an earlier kind."""
        ceilings = self.ceilings()
        best, top, rank = Pass(), 0.0, -1          # rank -1: a tie with Pass is no gain
        for kind, r, scorer, chanced, ceiling in self._plan:
            bound = ceilings[kind]
            if bound < top or (bound == top and r >= rank):
                continue
            if chanced is not None:               # the decision's chances, asked only now
                bound = chanced()
                if bound < top or (bound == top and r >= rank):
                    continue
            for a in choices.list(kind):
                if ceiling is not None:
                    bound = ceiling(a)
                    if bound < top or (bound == top and r >= rank):
                        continue
                sc = scorer(a)
                if sc > top or (sc == top and r < rank):
                    best, top, rank = a, sc, r
        return best, top

    def ceilings(self) -> dict[str, float]:
        """Per scored kind, a score none of its actions exceeds now, from this decision's shared
        terms and what no card or location exceeds (`_data_terms`), the weights being >= 0
        (data/strategies.toml) with every chance at 1 and every cost (`keep`, fees, a recruit's
        price) at 0. 0 where every action scores 0: a kind whose card is not in hand
        (`_NEEDS_CARD`), settles without cubes, developments without discs, sieges while the
        side's own runs (AFS-8.1.1), recruits below `recruit_floor` (at `max_deck` Home Support alone), reserves
        while a siege runs or the reserve is full, forts without their money or a fort disc left
        (AFS-7.3.3), the Intendant without his money or a discarded card (AFS-13.6)."""
        p, v, g, e, side, most, fixed = self.p, self.view, self.g, self.e, self.side, self.most, self._fixed
        need, wallet = self.need, p["money"] * self.need
        in_siege = v.siege_loc[g][side] >= 0
        hand, money = v.own_hand(g, side), v.money[g][side]
        recruits = money >= p["recruit_floor"]
        reserves = not in_siege and len(v.reserve[g][side]) < p["reserve_size"]
        forts = money >= e.fortify_cost and v.forts_left[g] > 0                  # fortify_ok's money and disc
        intendants = money >= e.intendant_cost and len(v.discard[g][side]) > 0   # intendant_ok's money and card
        out = {
            "reinforce": self.reinforce_ceiling(),
            "settle": fixed["settle"] if v.cubes[g][side] > 0 else 0.0,
            "develop": p["develop"] * (1 + self.ahead) * most.vp if v.discs[g][side] > 0 else 0.0,
            "fortify": fixed["fortify"] - 3 * p["money"] / need if forts else 0.0,
            "raid": fixed["raid"],
            "ambush": fixed["ambush"],
            "steal": fixed["steal"],
            "take_money": wallet * most.money - 0.5,
            "sea_trade": wallet * 2 * most.money - 0.5,
            "fur_trade": wallet * e.fur_trade_gain * len(hand) - 0.5,
            "piracy": wallet * e.piracy_gain - 0.3,
            "recruit": (self._recruit_max if self.deck_size < p["max_deck"] else self._draw_max) if recruits else 0.0,
            "intendant": fixed["intendant"] - 2 * p["money"] * need if intendants else 0.0,
            "reserve": fixed["reserve"] if reserves else 0.0,
            "besiege": 0.0 if in_siege else fixed["besiege"],
        }
        enables, enabled = most.enables[side], 0
        for c in hand:
            enabled |= enables[c]
        for kind in _disabled(enabled):
            out[kind] = 0.0
        return out

    def _fixed_terms(self) -> dict[str, float]:
        """The terms of `ceilings` that only the weights and the data set decide, once per
        player (a town's points and piece, `worth`, at the best location)."""
        p, most = self.p, self.most
        worth = 2 * most.vp + 4
        return {"settle": p["settle"] * (most.vp + 1) + p["frontier"], "fortify": p["fortify"] * worth,
                "raid": p["raid"] * worth, "ambush": p["ambush"] * 3, "steal": p["steal"] * 2,
                "intendant": p["money"] * (most.military + 3), "reserve": p["reserve"] * most.military,
                "besiege": p["besiege"] * (worth + p["capital"])}

    def reinforce_ceiling(self) -> float:
        """The best a reinforcement can score now (`s_reinforce` at the largest card value,
        with nothing to pay): 0 on a track that needs no more cards, or with no siege."""
        top = 0.0
        for track in (0, 1):
            if self.view.siege_loc[self.g][track] < 0:
                continue
            pos, short, weight = self.track_terms(track)
            if short > 0:
                top = max(top, weight * short, self.rescue(track, pos, self.most.value))
        return top

    def thin_out(self, best: Action, top: float, dead: list[int]) -> tuple[Action, float]:
        """Dead location cards (`dead`, in hand order) out of the deck (AFS-6.3.1): the Governor
        gives back up to two, a discard cycles one for free (AFS-13.2)."""
        e, g, side, t = self.e, self.g, self.side, self.t
        hand = self.view.own_hand(g, side)
        if not dead:
            return best, top
        govs = [c for c in hand if t.kind[c].special == "governor"]
        if govs:
            a = Governor(govs[0], tuple(dead[:2]))
            sc = self.p["governor"] * len(a.cards)
            if sc > top and e.governor_ok(g, side, a):
                best, top = a, sc
        a = self.cycled(dead)
        sc = self.p["discard_dead"] * len(a.cards)
        if sc > top and e.discard_ok(g, side, a):
            best, top = a, sc
        return best, top

    def pruned(self, best: Action, top: float, choices: Choices) -> tuple[Action, float]:
        """AFS-13.5 ("this thins your deck"): with the cycle at `max_deck`, where no recruit but
        Home Support scores, the Governor gives back the one or two hand cards the table wants
        least, at `prune` a card, where that beats the best action: empire and neutral cards only
        (they can be recruited again; a location card given back is lost while the location is
        held), and only those worth less to the table (`wanted`, as the copy it holds) than the
        best recruit on offer, so that the freed place is not bought back with the same card
        (engine version 18: fortress and balanced; docs/acres_engine.md, "Thinning a full
        deck with the Governor")."""
        p, g, side, t = self.p, self.g, self.side, self.t
        if p["prune"] <= 0 or self.deck_size < p["max_deck"] or top >= 2 * p["prune"]:
            return best, top
        hand = self.view.own_hand(g, side)
        govs = [c for c in hand if t.kind[c].special == "governor"]
        if not govs or not (offer := choices.list("recruit")):
            return best, top
        instead = max(self.wanted(a.card) for a in offer)
        worth = {c: self.wanted(c, held=True) for c in hand if c != govs[0] and not t.kind[c].is_location}
        spare = sorted((c for c, w in worth.items() if w < instead), key=lambda c: (worth[c], c))[:2]
        a = Governor(govs[0], tuple(spare))
        sc = p["prune"] * len(spare)
        if spare and sc > top and self.e.governor_ok(g, side, a):
            return a, sc
        return best, top

    def wanted(self, c: int, held: bool = False) -> float:
        """What the table would score a card as a recruit now, before its price (`recruit_worth`
        after `recruit_decay` for the cards of its class in the cycle); `held`: a card of the
        cycle, as the last copy of its class bought."""
        return self._worth[c] * self.p["recruit_decay"] ** (self._in_cycle()[self._class[c]] - held)

    def cycled(self, order: list[int], idle: bool = False) -> Discard:
        """One discard action of the first cards of `order` (AFS-13.2): the first card is free
        (A36), each further one costs 1 money, paid only from money beyond `money_target`, up to
        `cycle_max` cards (people cycle two or three cards in a quarter of their discards).
        `idle`: nothing else was worth doing (logged for the audit's idleness)."""
        spare = self.view.money[self.g][self.side] - self.p["money_target"]
        n = max(1, min(int(self.p["cycle_max"]), len(order), 1 + max(0, int(spare))))
        return Discard(tuple(order[:n]), idle)

    def free_action(self, choices: Choices) -> Action | None:
        p, g, v = self.p, self.g, self.view
        sieges = v.siege_loc[g]
        if (sieges[0] >= 0 or sieges[1] >= 0) and (leaders := choices.list("leader")):     # a siege to join
            win_a, win_d = siege.win_thresholds(self.e.siege_rules)
            for a in leaders:
                pos = v.siege_p[g][a.track]
                if (a.track == self.side and pos < win_a) or (a.track != self.side and pos > win_d):
                    return a
        if choices.left > 0 and choices.list("home_support"):
            return choices.list("home_support")[0]
        # the board's tests before the lists (a list is built when first asked for)
        if sieges[self.side] >= 0 and v.siege_p[g][self.side] <= p["withdraw_at"] and choices.list("withdraw"):
            return choices.list("withdraw")[0]
        reserve = len(v.reserve[g][self.side])
        if choices.left <= 0 or v.money[g][self.side] < reserve + p["recruit_floor"]:
            return None
        # the stored siege hand comes back to feed a siege, or to open one the hand allows now
        ready = v.siege_loc[g][self.side] >= 0 or (reserve >= p["reserve_size"]
                                                   and (p["reserve_size"] == 0 or choices.list("besiege")))
        return choices.list("retrieve")[0] if ready and choices.list("retrieve") else None

    def cheapest(self, options: list[int]) -> int:
        t = self.t
        return min(options, key=lambda c: (t.card_cost[c], t.kind[c].military, t.kind[c].key))

    def block_raid(self, location: int, options: list[int]) -> int | None:
        return self.cheapest(options)

    def block_ambush(self, options: list[int]) -> int | None:
        return self.cheapest(options)

    def give_up_ambush(self, options: list[int]) -> int:
        return self.cheapest(options)

    def give_up_native(self, options: list[int]) -> int:
        return options[0]

    def siege_loss_card(self, options: list[int]) -> int:
        return self.cheapest(options)

    def occupy(self, location: int, options: list) -> Occupy | LeaveNeutral:
        return options[0]

    def start_card(self, options: list[int]) -> int:
        self._prepare()
        return max(options, key=lambda c: (self.s_recruit(Recruit(c)), -c))

    def shed(self, options: list[int]) -> int:
        dead = [c for c in options if self.dead(c)]
        return (dead or [self.cheapest(options)])[0]

    def cycle_after_siege(self) -> bool:
        return any(self.dead(c) for c in self.view.own_hand(self.g, self.side))
