"""AFS-8: one siege between two decks, as bulk Monte Carlo over N sieges and exactly for small decks.

The model (docs/acres_odds.md). The attacker's deck and the defender's deck are freshly
shuffled; the defender holds a hand of 5. Turn 1 is the attacker's besieging turn: he draws a
hand of 5 and besieges with the best card his hand allows (AFS-8.1.4; hands that allow none
are re-dealt, i.e. he besieges at the first hand that can), which puts the marker at
`P = -(1 + 2 fort + modifiers) + value` (AFS-8.2). The connection and transport cards of the
besiege action are outside the modelled decks. Then the players alternate turns: at the start
of each turn the player to move checks his win (AFS-8.8: attacker at P >= +2, defender at
P <= -1), then takes his actions (2 per turn, AFS-5.2) -- each either commits one card to the
siege (AFS-8.6) or, if his reinforcement policy does not commit, discards one dead card for free
(AFS-13.2, the cheapest legal way to cycle) -- plays Leaders as free actions (AFS-8.7) and
refills his hand to 5 (AFS-5.2), reshuffling the discards when the draw pile runs out (AFS-5.6).

Card values follow AFS-8.4: +1 per military symbol; a ship card is worth 1 at a location with
the board ship symbol (never both); a Fortification card is worth 1 to the defender only and
never opens a siege; Siege Artillery costs 3 money each time it is played (AFS-8.5); the
besieged location's own card cannot be played (AFS-6.1.3, AFS-8.4.4). Every other location
card in a deck is taken as playable (controlled and connected, AFS-6.1).

Deck state is kept as counts per card class (draw pile, hand, discard pile, siege area), one
row per siege. Drawing the top card of a uniformly shuffled pile is the same as drawing a
uniformly random card of the pile's multiset (the order is never looked at), so a shuffle is
just moving the discard counts into the draw pile and each draw costs one uniform number.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np

from sim.acres import siege_kernel as kernel
from sim.acres.components import Acres, Card, Deck, Location, SiegeRules, check_side, other
from sim.core.errors import UserError
from sim.core.montecarlo import BLOCK, run_blocks
from sim.core.random import check_seed, stream
from sim.core.stats import wilson_interval

ROLES = ("attacker", "defender")
PURPOSE = "acres-siege"


# --------------------------------------------------------------------------- track and card values

def start_position(location: Location, fort: bool, rules: SiegeRules) -> int:
    """AFS-8.2: the marker starts on the defender's 1 space, 2 further with a fort disc and 1
    further per printed defence modifier: P = -(1 + 2 fort + modifiers)."""
    return -(rules.base_defence + rules.fort_bonus * int(fort)
             + rules.per_defence_modifier * location.defence_modifiers)


def win_thresholds(rules: SiegeRules) -> tuple[int, int]:
    """AFS-8.8 / AFS-18 A1: (attacker wins at P >= a, defender wins at P <= d) in the signed P of
    AFS-0.4. With the recommended 0 space, a = +2 and d = -1. Without it one step from
    "defender 1" lands on "attacker 1", so the attacker's "2 or more" is P >= +1."""
    a = rules.attacker_wins_at if rules.zero_space else rules.attacker_wins_at - 1
    return a, -rules.defender_wins_at


def attacker_wins(p, rules: SiegeRules):
    """AFS-8.8.1: checked at the start of the attacker's turn only."""
    return np.asarray(p) >= win_thresholds(rules)[0]


def defender_wins(p, rules: SiegeRules):
    """AFS-8.8.2: checked at the start of the defender's turn only."""
    return np.asarray(p) <= win_thresholds(rules)[1]


def track_bounds(rules: SiegeRules) -> tuple[int | None, int | None]:
    """AFS-3.4.2 / AFS-18 A1: the track length is unknown (ASSUMED unbounded, limit 0); a limit
    L keeps the marker within L spaces of the middle on either side."""
    if rules.track_limit <= 0:
        return None, None
    return -rules.track_limit, rules.track_limit if rules.zero_space else rules.track_limit - 1


def card_value(card: Card, location: Location, role: str) -> int:
    """AFS-8.4: a card's siege value. Military symbols count 1 each; a ship card is worth 1 where
    the location has the board ship symbol, and a card with both uses one or the other
    (AFS-8.4.2, Example AFS-E17); a Fortification card is worth 1 to the defender only
    (AFS-8.4.3); the besieged location's own card can never be played (AFS-8.4.4)."""
    if role not in ROLES:
        raise UserError(f"role {role!r} is not allowed; choose one of: {', '.join(ROLES)}")
    if card.location == location.id:
        return 0
    if card.defender_only:
        return card.military if role == "defender" else 0
    return max(card.military, 1 if card.ship and location.ship_symbol else 0)


def can_open(card: Card, location: Location, ship_opens: bool = True) -> bool:
    """AFS-8.1.4 / AFS-18 A19, A20, A41: the besieging card has a military symbol, or a ship
    symbol at a ship location (unless `ship_opens` is off, option `ship_opens_siege`: the
    rulebook's main text alone); never a Fortification card, never the free-action Leader."""
    opens = card_value(card, location, "attacker") > 0 and not card.free_action
    return opens and (ship_opens or (card.military > 0 and not card.defender_only))


# --------------------------------------------------------------------------- policies

@dataclass(frozen=True)
class ReinforcementPolicy:
    """How a side spends its actions in a siege (AFS-21 items 5-7). Which cards count is the
    rules' (AFS-8.4); this decides how many to commit and when.

    `margin`: commit cards while the marker is short of the own win line plus this margin
    (attacker: P < +2 + margin; defender: P > -1 - margin); None commits whenever it can.
    `cycle`: the dead cards (no siege value, or too dear) the side discards by an action it does
    not commit with (AFS-13.2; None: the rules' `model.cycle_per_action`). A side whose hand
    keeps cards for other uses cycles none and draws fewer new cards (docs/acres_engine.md,
    "What the siege forecast assumes of each side").
    `leaders`: "at_once" plays every Leader in hand as a free action each turn; "when_needed"
    keeps them and plays them only while the position is short of the target after the actions.
    `artillery`: whether Siege Artillery is ever played (it costs 3 money, AFS-8.5).
    `ambush`: the chance (0: never) that an action that commits no card plays a card of no siege
    value that can ambush, if the hand holds one, as an ambush on the other side's hand instead
    of cycling (AFS-10): the other side blocks with its least valuable ambush-blocker in hand
    (AFS-10.2), else gives up its least valuable vulnerable hand card to its empire deck, out of
    the siege (AFS-10.3).
    Played blind, as people must; the fee (AFS-18 A9) and the reserve (A14) are not modelled.
    Cards are committed best first: highest value, then lowest money cost (then a vulnerable
    card before one that is not, keeping it from ambushes).
    """

    name: str
    margin: int | None = None
    leaders: str = "at_once"
    artillery: bool = True
    cycle: int | None = None
    ambush: float = 0.0

    def wants(self, p: np.ndarray, role: str, rules: SiegeRules) -> np.ndarray:
        """Whether the side still commits cards at marker position `p`."""
        if self.margin is None:
            return np.ones(np.shape(p), dtype=bool)
        a, d = win_thresholds(rules)
        p = np.asarray(p)
        return p < a + self.margin if role == "attacker" else p > d - self.margin


POLICIES: Mapping[str, ReinforcementPolicy] = {
    "greedy": ReinforcementPolicy("greedy"),
    "sufficient": ReinforcementPolicy("sufficient", margin=1, leaders="when_needed"),
    "no-artillery": ReinforcementPolicy("no-artillery", artillery=False),
}


def parse_policy(text: str) -> ReinforcementPolicy:
    """`greedy`, `no-artillery`, `sufficient` (margin 1) or `sufficient=K` (margin K >= 0), each
    with `+ambush` (the side ambushes whenever it can) or `+ambush=Q` (with chance Q in (0, 1];
    `ReinforcementPolicy.ambush`)."""
    base, plus, extra = text.partition("+")
    if plus:
        what, sep, arg = extra.partition("=")
        if what != "ambush":
            raise UserError(f"policy {text!r}: {'+' + extra!r} is not allowed; the one addition is +ambush or +ambush=Q")
        try:
            chance = float(arg) if sep else 1.0
        except ValueError:
            chance = -1.0
        if not 0.0 < chance <= 1.0:
            raise UserError(f"policy {text!r}: ambush chance {arg!r} is not allowed; use a number in (0, 1]")
        policy = parse_policy(base)
        return replace(policy, name=f"{policy.name}+{extra}", ambush=chance)
    name, sep, arg = text.partition("=")
    if name not in POLICIES or (sep and name != "sufficient"):
        raise UserError(f"policy {text!r} is not allowed; choose one of: greedy, sufficient, sufficient=K, no-artillery "
                        "(each with +ambush)")
    if not sep:
        return POLICIES[name]
    try:
        margin = int(arg)
    except ValueError:
        raise UserError(f"policy {text!r}: margin {arg!r} is not an integer >= 0")
    if margin < 0:
        raise UserError(f"policy {text!r}: margin {margin} is negative; use an integer >= 0")
    return ReinforcementPolicy(f"sufficient={margin}", margin=margin, leaders="when_needed")


# --------------------------------------------------------------------------- setup

@dataclass(frozen=True)
class SideClasses:
    """A side's deck reduced to what the siege sees: classes of cards with equal siege value,
    free-action flag, money cost and opening right, in commit order (best first, dead last);
    where a side of the siege ambushes (`ReinforcementPolicy.ambush`), also with equal ambush
    flags (`ambush`: a dead card that can ambush; `vulnerable`; `blocks`: blocks an ambush),
    all False otherwise."""

    labels: tuple[str, ...]
    members: tuple[tuple[str, ...], ...]
    value: tuple[int, ...]
    free: tuple[bool, ...]
    cost: tuple[int, ...]
    opener: tuple[bool, ...]
    counts: tuple[int, ...]
    ambush: tuple[bool, ...]
    vulnerable: tuple[bool, ...]
    blocks: tuple[bool, ...]


def side_classes(acres: Acres, deck: Deck, location: Location, role: str,
                 policy: ReinforcementPolicy, ambushes: bool = False) -> SideClasses:
    """Group a deck's cards by (value, free, cost, opener) for `role` at `location`, and with
    `ambushes` (a side of the siege ambushes) by their ambush flags too."""
    members: dict[tuple, list[str]] = {}
    counts: dict[tuple, int] = {}
    keys = _card_keys(acres, deck.side, location, role, policy.artillery, ambushes)
    for cid, count in deck.counts:
        key = keys.get(cid)
        if key is None:
            card = acres.card(deck.side, cid)
            key = _card_key(card, location, role, policy.artillery, ship_opens_siege(acres))
            if ambushes:
                key += (card.ambush and key[0] == 0, card.vulnerable, card.block_ambush)
            keys[cid] = key
        if key in members:
            members[key].append(cid)
            counts[key] += count
        else:
            members[key] = [cid]
            counts[key] = count
    order = sorted(members, key=lambda k: (k[0] == 0, k[1], -k[0], k[2], not k[3], *(not x for x in k[4:])))
    flags = [k[4:] or (False, False, False) for k in order]
    return SideClasses(
        labels=tuple([_label(k) for k in order]), members=tuple([tuple(members[k]) for k in order]),
        value=tuple([k[0] for k in order]), free=tuple([k[1] for k in order]),
        cost=tuple([k[2] for k in order]), opener=tuple([k[3] for k in order]),
        counts=tuple([counts[k] for k in order]), ambush=tuple([f[0] for f in flags]),
        vulnerable=tuple([f[1] for f in flags]), blocks=tuple([f[2] for f in flags]))


def ship_opens_siege(acres: Acres) -> bool:
    """AFS-18 A41 (option `ship_opens_siege`): a ship card may open a siege at a ship location."""
    data = getattr(acres, "data", None)
    return bool(data.get("options.ship_opens_siege")) if data is not None else True


def _label(k: tuple) -> str:
    """A class's name for tables: dead, or its value, Leader flag and cost (and its ambush flags
    where they are kept)."""
    flags = "".join(f", {name}" for name, on in zip(("ambushes", "vulnerable", "blocks ambushes"), k[4:]) if on)
    if k[0] == 0:
        return "dead" + flags
    return f"{'leader ' if k[1] else ''}value {k[0]}" + (f" cost {k[2]}" if k[2] else "") + flags


def _card_key(card: Card, location: Location, role: str, artillery: bool,
              ship_opens: bool = True) -> tuple[int, bool, int, bool]:
    """A card's class key of `side_classes`: (value, free, cost, opener) for `role` at `location`
    (`ship_opens`: `can_open`'s)."""
    value = card_value(card, location, role)
    if card.siege_cost and not artillery:
        value = 0
    return (value, bool(card.free_action) and value > 0, card.siege_cost if value else 0,
            role == "attacker" and value > 0 and can_open(card, location, ship_opens))


_CARD_KEYS: dict[tuple, tuple[Acres, Location, dict]] = {}   # by ids of the data and location, side, role,
                                                              # artillery, ambush flags kept


def _card_keys(acres: Acres, side: str, location: Location, role: str, artillery: bool,
               ambushes: bool = False) -> dict:
    """The class key of each card id met so far in a siege of `location` (filled by
    `side_classes`): a pure function of the card, the location, the role, the policy's
    artillery and whether ambush flags are kept, and the scripted estimates group decks at the
    same few locations again and again."""
    key = (id(acres), side, id(location), role, artillery, ambushes)
    hit = _CARD_KEYS.get(key)
    if hit is None or hit[0] is not acres or hit[1] is not location:
        if len(_CARD_KEYS) > 10_000:
            _CARD_KEYS.clear()
        hit = _CARD_KEYS[key] = (acres, location, {})
    return hit[2]


@dataclass(frozen=True)
class Position:
    """A siege as its attacker sees it just after his besieging card (AFS-8.1.4, AFS-8.2), by
    class of `SiegeSetup.sides`: the marker `p`, the actions left in his turn, his hand, draw and
    discard piles, and the defender's unseen cards (hand and draw pile together, AFS-18 A42),
    discard pile and hand size. The defender's hand is dealt from his unseen cards."""

    p: int
    actions: int
    hand: tuple[int, ...]
    draw: tuple[int, ...]
    discard: tuple[int, ...]
    foe_unseen: tuple[int, ...]
    foe_discard: tuple[int, ...]
    foe_hand: int


@dataclass(frozen=True)
class SiegeSetup:
    """Everything one siege needs: start position, both sides' classes, money and policies; with
    `position`, the siege begins there instead of from freshly shuffled decks."""

    location: Location
    attacker: str
    fort: bool
    start: int
    sides: tuple[SideClasses, SideClasses]
    money: tuple[int, int]
    policies: tuple[ReinforcementPolicy, ReinforcementPolicy]
    rules: SiegeRules
    hand_size: int
    actions: int
    cycle: int
    max_turns: int
    reshuffle: str
    decks: tuple[Deck, Deck]
    position: Position | None = None


def make_setup(acres: Acres, location: str, attacker: str, decks: Mapping[str, Deck] | None = None,
               policy: ReinforcementPolicy = POLICIES["greedy"],
               defender_policy: ReinforcementPolicy | None = None, fort: bool | None = None,
               money: Mapping[str, int] | None = None, max_turns: int | None = None) -> SiegeSetup:
    """A siege of `location` by `attacker` (default decks: the starting decks, AFS-4.9; default
    fort: the data's setup value; default money: `rules.model.*_money`)."""
    loc = acres.location(location)
    attacker = check_side(attacker)
    defender = other(attacker)
    decks = {s: (decks or {}).get(s) or acres.starting_deck(s) for s in (attacker, defender)}
    fort = loc.fort if fort is None else bool(fort)
    cash = {s: (money or {}).get(s, acres.rules.money[s]) for s in (attacker, defender)}
    for s, m in cash.items():
        if isinstance(m, bool) or not isinstance(m, int) or m < 0:
            raise UserError(f"{s} money: {m!r} is not allowed; use an integer >= 0")
    policies = (policy, defender_policy or policy)
    ambushes = any(pol.ambush > 0 for pol in policies)
    sides = (side_classes(acres, decks[attacker], loc, "attacker", policies[0], ambushes),
             side_classes(acres, decks[defender], loc, "defender", policies[1], ambushes))
    a = sides[0]
    if not any(o and n and c <= cash[attacker] for o, n, c in zip(a.opener, a.counts, a.cost)):
        raise UserError(f"the {attacker} deck has no card that can open a siege at {loc.name} (a military "
                        f"card{', a ship card' if loc.ship_symbol else ''}, or Siege Artillery with 3 money)")
    turns = acres.rules.max_turns if max_turns is None else max_turns
    if isinstance(turns, bool) or not isinstance(turns, int) or turns < 2:
        raise UserError(f"max turns: {turns!r} is not allowed; use an integer >= 2")
    return SiegeSetup(location=loc, attacker=attacker, fort=fort,
                      start=start_position(loc, fort, acres.rules.siege), sides=sides,
                      money=(cash[attacker], cash[defender]), policies=policies, rules=acres.rules.siege,
                      hand_size=acres.rules.hand_size, actions=acres.rules.actions_per_turn,
                      cycle=acres.rules.cycle_per_action, max_turns=turns, reshuffle=acres.rules.reshuffle,
                      decks=(decks[attacker], decks[defender]))


def at_position(setup: SiegeSetup, p: int, actions: int, own: Sequence[Mapping[str, int]],
                foe_unseen: Mapping[str, int], foe_discard: Mapping[str, int], foe_hand: int) -> SiegeSetup:
    """The siege from a known position: `own` = the attacker's (hand, draw pile, discard pile) as
    counts by card id, the defender's unseen cards and discards likewise (ids of the decks the
    setup was made with, which hold every card named here)."""
    att, dfn = setup.sides
    if not 0 <= foe_hand <= sum(foe_unseen.values()):
        raise UserError(f"defender hand size {foe_hand} is not allowed; use 0 to the {sum(foe_unseen.values())} "
                        f"unseen cards")
    own_index, foe_index = class_index(att), class_index(dfn)
    hand, draw, discard = (class_counts(own_index, len(att.counts), zone) for zone in own)
    pos = Position(p=p, actions=actions, hand=hand, draw=draw, discard=discard,
                   foe_unseen=class_counts(foe_index, len(dfn.counts), foe_unseen),
                   foe_discard=class_counts(foe_index, len(dfn.counts), foe_discard), foe_hand=foe_hand)
    return replace(setup, position=pos)


def class_index(sc: SideClasses) -> dict[str, int]:
    """The class of each card id of a side (`SideClasses.members`), to count zones by class."""
    return {c: i for i, members in enumerate(sc.members) for c in members}


def class_counts(index: Mapping[str, int], classes: int, cards: Mapping[str, int]) -> tuple[int, ...]:
    """Counts by class of cards counted by id (ids outside `index` ignored)."""
    out = [0] * classes
    for c, n in cards.items():
        i = index.get(c)
        if i is not None:
            out[i] += n
    return tuple(out)


# --------------------------------------------------------------------------- bulk kernel

@dataclass
class DeckState:
    """Card counts per class of one side in a batch of sieges: arrays of shape (n, classes).
    Cards are only ever moved between zones, never created or destroyed."""

    draw: np.ndarray
    hand: np.ndarray
    discard: np.ndarray
    siege: np.ndarray
    money: np.ndarray

    @classmethod
    def fresh(cls, counts: Sequence[int], money: int, n: int) -> DeckState:
        """AFS-4.2: the whole deck shuffled as the draw pile."""
        draw = _rows(counts, n)
        zeros = np.zeros_like(draw)
        return cls(draw, zeros.copy(), zeros.copy(), zeros.copy(), np.full(n, money, dtype=np.int64))

    @classmethod
    def known(cls, hand: Sequence[int], draw: Sequence[int], discard: Sequence[int], money: int,
              n: int) -> DeckState:
        """A side's zones as counted (the draw pile in unknown order), the four zones' rows
        made in one step (C-order slices of one array)."""
        zones = np.array((draw, hand, discard, (0,) * len(draw)), dtype=np.int64)
        rows = np.repeat(zones[:, None, :], n, axis=1)
        return cls(rows[0], rows[1], rows[2], rows[3], np.full(n, money, dtype=np.int64))

    def take(self, rows: np.ndarray) -> DeckState:
        return DeckState(self.draw[rows], self.hand[rows], self.discard[rows], self.siege[rows], self.money[rows])

    def zones(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.draw, self.hand, self.discard, self.siege


def _rows(counts: Sequence[int], n: int) -> np.ndarray:
    """`counts` as each of n rows (int64, C order; `np.repeat` being cheaper than `np.tile`)."""
    return np.repeat(np.asarray(counts, dtype=np.int64)[None, :], n, axis=0)


_CLASS_ARRAYS: dict[int, tuple[SideClasses, tuple]] = {}     # by the id of the SideClasses (kept with them)
_AMBUSH_ARRAYS: dict[tuple[int, bool], tuple[SideClasses, tuple]] = {}   # by that id and the side's ambushing


def _classes(sc: SideClasses) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """(value, cost, free, opener) of a side's classes as the kernel's arrays (which it only
    reads), made once per classes object: the scripted estimates simulate a kept setup many times."""
    hit = _CLASS_ARRAYS.get(id(sc))
    if hit is None or hit[0] is not sc:
        arrays = (np.asarray(sc.value, dtype=np.int64), np.asarray(sc.cost, dtype=np.int64),
                  np.asarray(sc.free, dtype=np.bool_), np.asarray(sc.opener, dtype=np.bool_))
        if len(_CLASS_ARRAYS) > 100_000:
            _CLASS_ARRAYS.clear()
        hit = _CLASS_ARRAYS[id(sc)] = (sc, arrays)
    return hit[1]


def _ambush_flags(sc: SideClasses, ambushes: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(ambusher, vulnerable, blocks) of a side's classes as the kernel's arrays, ambusher only
    where the side's policy ambushes (`ReinforcementPolicy.ambush`)."""
    hit = _AMBUSH_ARRAYS.get((id(sc), ambushes))
    if hit is None or hit[0] is not sc:
        arrays = (np.asarray(sc.ambush, dtype=np.bool_) & ambushes, np.asarray(sc.vulnerable, dtype=np.bool_),
                  np.asarray(sc.blocks, dtype=np.bool_))
        if len(_AMBUSH_ARRAYS) > 100_000:
            _AMBUSH_ARRAYS.clear()
        hit = _AMBUSH_ARRAYS[(id(sc), ambushes)] = (sc, arrays)
    return hit[1]


def _policy(policy: ReinforcementPolicy, rules_cycle: int) -> tuple[int, bool, int, float]:
    """(margin, Leaders at once, dead cards cycled an action, ambush chance) for the kernel:
    margin -1 commits whenever it can."""
    return ((-1 if policy.margin is None else int(policy.margin)), policy.leaders == "at_once",
            cycle_of(policy, rules_cycle), float(policy.ambush))


def cycling(policy: ReinforcementPolicy, cycle: int) -> ReinforcementPolicy:
    """The policy with its side cycling `cycle` dead cards an action it does not commit with."""
    return replace(policy, name=f"{policy.name}, cycle {cycle}", cycle=int(cycle))


def cycle_of(policy: ReinforcementPolicy, rules_cycle: int) -> int:
    """The dead cards a side of this policy cycles an action (its own, else the rules')."""
    return int(rules_cycle if policy.cycle is None else policy.cycle)


def _bounds(rules: SiegeRules) -> tuple[bool, int, int]:
    low, high = track_bounds(rules)
    return low is not None, int(low or 0), int(high or 0)


def refill(rng: np.random.Generator, state: DeckState, hand_size: int, immediate: bool,
           rows: Sequence[int] | None = None) -> None:
    """AFS-5.2 step 4 for `rows` (default all), in place: draw until the hand holds `hand_size`
    cards, or both piles are empty (reshuffles per AFS-5.6 / AFS-18 A6)."""
    flagged = np.ones(len(state.money), dtype=np.bool_)
    if rows is not None:
        flagged[:] = False
        flagged[np.asarray(rows, dtype=np.int64)] = True
    kernel.refill(rng, state.draw, state.hand, state.discard, flagged, int(hand_size), bool(immediate))


def play_turn(state: DeckState, p: np.ndarray, sc: SideClasses, role: str, policy: ReinforcementPolicy,
              setup: SiegeSetup, actions: int, foe: DeckState | None = None,
              rng: np.random.Generator | None = None) -> None:
    """AFS-5.2 step 3 for one side on every row, in place: `actions` actions (commit the best
    card the policy wants, AFS-8.6, or ambush the other side's hand `foe` where the policy
    ambushes, drawing its chance from `rng`, AFS-10, or discard a dead card, AFS-13.2), then
    Leaders as free actions (AFS-8.7)."""
    value, cost, free, _ = _classes(sc)
    margin, at_once, cycle, chance = _policy(policy, setup.cycle)
    a_line, d_line = win_thresholds(setup.rules)
    ambusher = _ambush_flags(sc, policy.ambush > 0 and foe is not None)[0]
    if foe is None:                       # nobody to ambush: an empty hand without flags
        foe_hand = foe_discard = np.zeros((len(p), 0), np.int64)
        vulnerable = blocks = np.zeros(0, dtype=np.bool_)
    else:
        foe_hand, foe_discard = foe.hand, foe.discard
        _, vulnerable, blocks = _ambush_flags(setup.sides[1] if role == "attacker" else setup.sides[0], False)
    rng = rng if rng is not None else np.random.default_rng(0)
    for r in range(len(p)):
        p[r] = kernel.play_turn(rng, state.hand, state.discard, state.siege, state.money, r, int(p[r]), value, cost,
                                free, role == "attacker", margin, at_once, a_line, d_line, *_bounds(setup.rules),
                                int(actions), cycle, ambusher, chance, foe_hand, foe_discard, vulnerable, blocks)


def open_siege(rng: np.random.Generator, att: DeckState, sc: SideClasses, setup: SiegeSetup) -> np.ndarray:
    """AFS-8.1 / AFS-8.2 on every row: deal the attacker hands until one can besiege, commit the
    best opening card; returns the marker positions."""
    value, cost, _, opener = _classes(sc)
    p = np.full(len(att.money), setup.start, dtype=np.int64)
    kernel.open_siege(rng, *att.zones(), att.money, p, value, cost, opener, int(setup.hand_size),
                      setup.reshuffle == "immediate")
    return p


def simulate(setup: SiegeSetup, rng: np.random.Generator, n: int, keep_state: bool = False) -> dict[str, Any]:
    """Play `n` independent sieges (sim.acres.siege_kernel, in lockstep); counts of outcomes by
    the number of completed player turns.

    Returns {"attacker": counts by turns, "defender": counts by turns, "unresolved": [count],
    "stalemate": [count]} (counts of length max_turns + 1). Unresolved sieges are those still
    running after max_turns player turns plus the stalemates: both sides have committed or lost
    every card that could move the marker, so it never moves again (a real attacker would
    withdraw, AFS-8.12). With `keep_state`, also the final DeckStates and P of the sieges still
    running (for invariant tests). From a known position without `keep_state` the kernel makes
    the rows itself (`siege_kernel.run_known`: the same rows, so the same counts)."""
    pos = setup.position
    a_cls, d_cls = _classes(setup.sides[0]), _classes(setup.sides[1])
    flags = (*_ambush_flags(setup.sides[0], setup.policies[0].ambush > 0),
             *_ambush_flags(setup.sides[1], setup.policies[1].ambush > 0))
    wins = np.zeros((2, setup.max_turns + 1), dtype=np.int64)
    status = np.empty(n, dtype=np.int64)
    if pos is not None and not keep_state:        # the rows made in the kernel (the scripted estimates)
        kernel.run_known(rng, np.array((pos.draw, pos.hand, pos.discard), dtype=np.int64),
                         np.array((pos.foe_unseen, pos.foe_discard), dtype=np.int64), int(setup.money[0]),
                         int(setup.money[1]), int(pos.p), int(pos.actions), int(pos.foe_hand), n, *a_cls,
                         *d_cls[:3], *flags, *_policy(setup.policies[0], setup.cycle),
                         *_policy(setup.policies[1], setup.cycle), *win_thresholds(setup.rules), *_bounds(setup.rules),
                         setup.hand_size, setup.actions, setup.reshuffle == "immediate", setup.max_turns,
                         wins, status)
        return _outcomes(wins, status)
    if pos is None:
        att = DeckState.fresh(setup.sides[0].counts, setup.money[0], n)
        dfn = DeckState.fresh(setup.sides[1].counts, setup.money[1], n)
        p0, actions, foe_hand = setup.start, setup.actions - 1, setup.hand_size
    else:
        att = DeckState.known(pos.hand, pos.draw, pos.discard, setup.money[0], n)
        dfn = DeckState.known((0,) * len(pos.foe_unseen), pos.foe_unseen, pos.foe_discard, setup.money[1], n)
        p0, actions, foe_hand = pos.p, pos.actions, pos.foe_hand
    p = np.full(n, p0, dtype=np.int64)
    kernel.run(rng, att.zones(), dfn.zones(), (att.money, dfn.money), p, pos is None, int(actions), int(foe_hand),
               (*a_cls, *d_cls[:3], *flags),
               (*_policy(setup.policies[0], setup.cycle), *_policy(setup.policies[1], setup.cycle)),
               win_thresholds(setup.rules), _bounds(setup.rules),
               (int(setup.hand_size), int(setup.actions), setup.reshuffle == "immediate",
                int(setup.max_turns)), wins, status)
    out = _outcomes(wins, status)
    if keep_state:
        running = np.flatnonzero(status == kernel.RUNNING)
        out["state"] = (att.take(running), dfn.take(running), p[running])
    return out


def _outcomes(wins: np.ndarray, status: np.ndarray) -> dict[str, Any]:
    """`simulate`'s counts from the kernel's wins by turn and each row's status."""
    stuck = int(np.count_nonzero(status == kernel.STALEMATE))
    unresolved = stuck + int(np.count_nonzero(status == kernel.RUNNING))
    return {"attacker": wins[0], "defender": wins[1], "unresolved": np.array([unresolved], dtype=np.int64),
            "stalemate": np.array([stuck], dtype=np.int64)}


# --------------------------------------------------------------------------- exact counterpart

def exact(setup: SiegeSetup, max_states: int = 200_000) -> dict[str, np.ndarray]:
    """The outcome distribution of `simulate`, computed exactly by pushing probability mass
    through the states (draw pile, hand, discard pile, money of both sides, P) turn by turn.

    An independent oracle for the bulk kernel on small decks: each draw takes class c with
    probability count_c / pile size. Returns probabilities in the shape of `simulate`'s counts.
    Raises UserError when a turn holds more than `max_states` states."""
    sa, sd = setup.sides
    immediate = setup.reshuffle == "immediate"
    a_line, d_line = win_thresholds(setup.rules)
    low, high = track_bounds(setup.rules)
    zero_a, zero_d = (0,) * len(sa.counts), (0,) * len(sd.counts)

    def draw_to(hand, draw, disc, size):
        """Distribution of (hand, draw, disc) after refilling to `size` (AFS-5.2, AFS-5.6)."""
        todo = {(hand, draw, disc): 1.0}
        done: dict = {}
        while todo:
            nxt: dict = {}
            for (h, dr, di), pr in todo.items():
                if sum(h) >= size or sum(dr) + sum(di) == 0:
                    done[(h, dr, di)] = done.get((h, dr, di), 0.0) + pr
                    continue
                if sum(dr) == 0:
                    dr, di = tuple(x + y for x, y in zip(dr, di)), tuple(0 for _ in di)
                total = sum(dr)
                for c, k in enumerate(dr):
                    if not k:
                        continue
                    h2 = h[:c] + (h[c] + 1,) + h[c + 1:]
                    d2, di2 = dr[:c] + (k - 1,) + dr[c + 1:], di
                    if immediate and total == 1:
                        d2, di2 = tuple(x + y for x, y in zip(d2, di2)), tuple(0 for _ in di2)
                    key = (h2, d2, di2)
                    nxt[key] = nxt.get(key, 0.0) + pr * k / total
            todo = nxt
        return done

    def best(hand, money, sc, need_opener=False):
        for c in range(len(hand)):
            if hand[c] and sc.value[c] > 0 and not sc.free[c] and sc.cost[c] <= money \
                    and (sc.opener[c] or not need_opener):
                return c
        return -1

    def wants(pol, p, role):
        return bool(pol.wants(np.array(p), role, setup.rules))

    def ambush(hand, disc, sc, foe_hand, foe_disc, foe_sc) -> None:
        """`siege_kernel.ambush` once it is played, in place on lists."""
        c = next(i for i in range(len(hand)) if hand[i] and sc.ambush[i])
        hand[c] -= 1
        disc[c] += 1
        b = next((i for i in reversed(range(len(foe_hand))) if foe_hand[i] and foe_sc.blocks[i]), -1)
        if b >= 0:
            foe_hand[b] -= 1
            foe_disc[b] += 1
            return
        v = next((i for i in reversed(range(len(foe_hand))) if foe_hand[i] and foe_sc.vulnerable[i]), -1)
        if v >= 0:
            foe_hand[v] -= 1

    def cycled(hand, disc, money, sc, pol) -> None:
        """AFS-13.2: the policy's dead cards to the discards, in place on lists."""
        for _ in range(cycle_of(pol, setup.cycle)):
            dead = [i for i in range(len(hand)) if hand[i] and (sc.value[i] == 0 or sc.cost[i] > money)]
            if dead:
                hand[dead[0]] -= 1
                disc[dead[0]] += 1

    def turn(p, hand, disc, money, sc, role, pol, actions, foe_hand, foe_disc, foe_sc):
        """One side's actions and free actions: the distribution of (P, hand, discards, money, the
        other side's hand and discards) after them, as (probability, state) pairs (an ambush
        played with a chance below 1 branches)."""
        sign = 1 if role == "attacker" else -1
        out = [(1.0, p, list(hand), list(disc), money, list(foe_hand), list(foe_disc))]
        for _ in range(actions):
            nxt = []
            for pr, p, hand, disc, money, fh, fd in out:
                c = best(hand, money, sc)
                if c >= 0 and wants(pol, p, role):
                    hand = hand.copy()
                    hand[c] -= 1
                    money -= sc.cost[c]
                    p += sign * sc.value[c]
                    branches = [(pr, hand, disc, fh, fd)]
                else:
                    branches = []
                    if pol.ambush > 0 and any(hand[i] and sc.ambush[i] for i in range(len(hand))):
                        h2, d2, fh2, fd2 = hand.copy(), disc.copy(), fh.copy(), fd.copy()
                        ambush(h2, d2, sc, fh2, fd2, foe_sc)
                        branches.append((pr * pol.ambush, h2, d2, fh2, fd2))
                        pr *= 1.0 - pol.ambush
                    if pr > 0:
                        h2, d2 = hand.copy(), disc.copy()
                        cycled(h2, d2, money, sc, pol)
                        branches.append((pr, h2, d2, fh, fd))
                if low is not None:
                    p = min(max(p, low), high)
                nxt += [(q, p, h2, d2, money, fh2, fd2) for q, h2, d2, fh2, fd2 in branches]
            out = nxt
        done = []
        for pr, p, hand, disc, money, fh, fd in out:
            hand = hand.copy()
            for c in range(len(hand)):
                if sc.free[c]:
                    while hand[c] and (pol.leaders == "at_once" or wants(pol, p, role)):
                        hand[c] -= 1
                        p += sign * sc.value[c]
            if low is not None:
                p = min(max(p, low), high)
            done.append((pr, (p, tuple(hand), tuple(disc), money, tuple(fh), tuple(fd))))
        return done

    def opened():
        """(probability, P, hand, draw, discard, money) of the attacker after his besieging card."""
        pos = setup.position
        if pos is not None:
            yield 1.0, pos.p, pos.hand, pos.draw, pos.discard, setup.money[0]
            return
        # Opening hand, conditioned on holding an affordable opener (the re-deal of `open_siege`).
        openings = {k: v for k, v in draw_to(zero_a, sa.counts, zero_a, setup.hand_size).items()
                    if best(k[0], setup.money[0], sa, need_opener=True) >= 0}
        norm = sum(openings.values())
        for (h, dr, di), pr in openings.items():
            c = best(h, setup.money[0], sa, need_opener=True)
            yield (pr / norm, setup.start + sa.value[c], h[:c] + (h[c] - 1,) + h[c + 1:], dr, di,
                   setup.money[0] - sa.cost[c])

    pos = setup.position
    dealt_d = (draw_to(zero_d, sd.counts, zero_d, setup.hand_size) if pos is None
               else draw_to(zero_d, pos.foe_unseen, pos.foe_discard, pos.foe_hand))
    actions = setup.actions - 1 if pos is None else pos.actions
    states: dict = {}
    for pr, p0, h0, dr, di0, m0 in opened():
        for (hd, drd, did), qd in dealt_d.items():
            for qt, (p, h, di, m, hd2, did2) in turn(p0, h0, di0, m0, sa, "attacker", setup.policies[0], actions,
                                                     hd, did, sd):
                for (h2, dr2, di2), q in draw_to(h, dr, di, setup.hand_size).items():
                    key = (p, (h2, dr2, di2, m), (hd2, drd, did2, setup.money[1]))
                    states[key] = states.get(key, 0.0) + pr * qt * q * qd
    out = {"attacker": np.zeros(setup.max_turns + 1), "defender": np.zeros(setup.max_turns + 1)}
    for t in range(2, setup.max_turns + 2):
        mover = 0 if t % 2 else 1
        nxt: dict = {}
        for (p, a, d), pr in states.items():
            if (mover == 0 and p >= a_line) or (mover == 1 and p <= d_line):
                out[ROLES[mover]][t - 1] += pr
                continue
            if t > setup.max_turns:
                nxt[(p, a, d)] = nxt.get((p, a, d), 0.0) + pr
                continue
            h, dr, di, m = (a, d)[mover]
            fh, fdr, fdi, fm = (a, d)[1 - mover]
            for qt, (p2, h2, di2, m2, fh2, fdi2) in turn(p, h, di, m, setup.sides[mover], ROLES[mover],
                                                          setup.policies[mover], setup.actions, fh, fdi,
                                                          setup.sides[1 - mover]):
                other = (fh2, fdr, fdi2, fm)
                for (h3, dr3, di3), q in draw_to(h2, dr, di2, setup.hand_size).items():
                    side = (h3, dr3, di3, m2)
                    key = (p2, side, other) if mover == 0 else (p2, other, side)
                    nxt[key] = nxt.get(key, 0.0) + pr * qt * q
        if len(nxt) > max_states:
            raise UserError(f"exact siege: {len(nxt)} states at turn {t} exceed {max_states}; use Monte Carlo")
        states = nxt
    out["unresolved"] = np.array([sum(states.values())])
    return out


# --------------------------------------------------------------------------- odds

def siege_counts(setup: SiegeSetup, n: int, seed: int, first: int = 0, count: int | None = None,
                 block: int = BLOCK) -> dict[str, np.ndarray]:
    """Summed outcome counts of sieges in blocks `first .. first+count-1` of n (run_blocks):
    the same seed gives the same counts however the blocks are split between calls. All of n
    in one block (the scripted estimates) is simulated from `first_stream`, the same numbers."""
    if first == 0 and 1 <= n <= block and (count is None or count >= 1):
        return simulate(setup, first_stream(seed), n)
    return run_blocks(lambda rng, size: simulate(setup, rng, size), n, seed, PURPOSE, first, count, block)


_FIRST: dict[int, tuple[np.random.Generator, dict]] = {}      # by seed: a generator and its start


def first_stream(seed: int) -> np.random.Generator:
    """`stream(seed, 0, PURPOSE)`, block 0's generator, as a kept generator set back to its
    start: the same numbers without building one per estimate (a fresh generator's seeding and
    the compiled kernel's unboxing of it cost more than 32 sieges)."""
    seed = check_seed(seed)
    hit = _FIRST.get(seed)
    if hit is None:
        if len(_FIRST) > 1_000:                   # bounded, like the other caches: a sweep of seeds
            _FIRST.clear()
        rng = stream(seed, 0, PURPOSE)
        hit = _FIRST[seed] = (rng, rng.bit_generator.state)
    hit[0].bit_generator.state = hit[1]
    return hit[0]


def summarise(counts: Mapping[str, np.ndarray], n: int) -> dict[str, Any]:
    """Probabilities with Wilson 95 % intervals and the distribution of turns to resolution
    (`turns[k]` = P(resolved after k player turns); `stalemate` is the part of `unresolved`
    where no card left could move the marker)."""
    att, dfn = np.asarray(counts["attacker"]), np.asarray(counts["defender"])
    unresolved = int(np.asarray(counts["unresolved"]).sum())
    length = max(len(att), len(dfn))
    att, dfn = np.pad(att, (0, length - len(att))), np.pad(dfn, (0, length - len(dfn)))
    both = att + dfn
    stalemate = int(np.asarray(counts.get("stalemate", [0])).sum())
    out = {"attacker_win": att.sum() / n, "defender_win": dfn.sum() / n, "unresolved": unresolved / n,
           "stalemate": stalemate / n,
           "turns": {int(t): both[t] / n for t in np.flatnonzero(both)},
           "mean_turns": float((np.arange(length) * both).sum() / both.sum()) if both.sum() else float("nan"),
           "ci95": {k: list(wilson_interval(int(v), n)) for k, v in
                    (("attacker_win", att.sum()), ("defender_win", dfn.sum()), ("unresolved", unresolved))},
           "n": int(n)}
    return out


def summarise_exact(probs: Mapping[str, np.ndarray]) -> dict[str, Any]:
    """The `summarise` layout for exact probabilities (intervals collapse to the value, n = None)."""
    att, dfn = np.asarray(probs["attacker"]), np.asarray(probs["defender"])
    both = att + dfn
    values = {"attacker_win": float(att.sum()), "defender_win": float(dfn.sum()),
              "unresolved": float(np.sum(probs["unresolved"]))}
    return {**values, "turns": {int(t): float(both[t]) for t in np.flatnonzero(both)},
            "mean_turns": float((np.arange(len(both)) * both).sum() / both.sum()) if both.sum() else float("nan"),
            "ci95": {k: [v, v] for k, v in values.items()}, "n": None}


def siege_odds(setup: SiegeSetup, n: int, seed: int) -> dict[str, Any]:
    """AFS-8: P(attacker wins), P(defender wins), P(unresolved within max_turns) and the
    distribution of turns to resolution, by Monte Carlo over n sieges."""
    result = summarise(siege_counts(setup, n, seed), n)
    result["seed"] = seed
    return result


def dispose(winner: Sequence[Card], loser: Sequence[Card], choose=None) -> tuple[list[Card], Card | None, list[Card]]:
    """AFS-8.11: when a siege ends, the winner discards all his siege cards; the loser returns one
    non-location card to his empire deck (or the neutral supply) and discards the rest. If he has
    only location cards he returns nothing (AFS-8.11.4). `choose` picks among the candidates
    (the loser's choice); by default the one cheapest to recruit again (ASSUMED)."""
    candidates = [c for c in loser if c.kind != "location"]
    if not candidates:
        return list(winner), None, list(loser)
    pick = (choose or (lambda cs: min(cs, key=lambda c: (c.cost, c.military))))(candidates)
    rest = list(loser)
    rest.remove(pick)
    return list(winner), pick, rest
