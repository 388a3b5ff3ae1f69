"""The legal choices of one action decision of A Few Acres of Snow (AFS-5.3, AFS-5.4).

`Choices(engine, g, side, left)` lists, per action kind, actions the engine's rules allow now;
each list is built when first asked for. Lists of combinations are kept small: one option per
distinct combination of card kinds (copies of a kind are interchangeable), a raid uses the fewest
cards that reach its target (cheapest first), discards are single cards or pairs. Every listed
action passes `Engine.apply`; players may also build other legal actions themselves.
"""

from __future__ import annotations

from itertools import combinations
from collections.abc import Sequence
from typing import Any

from sim.acres import siege
from sim.acres.actions import (
    Ambush,
    Besiege,
    Develop,
    Discard,
    DropLost,
    Fortify,
    FurCoin,
    FurTrade,
    GiveUp,
    Governor,
    HomeSupport,
    Intendant,
    Pass,
    Piracy,
    PlayLeader,
    Raid,
    Recruit,
    Reinforce,
    Reserve,
    Retrieve,
    SeaTrade,
    Settle,
    Steal,
    TakeMoney,
    Withdraw,
)

ACTION_KINDS = ("settle", "develop", "fortify", "besiege", "reinforce", "raid", "ambush", "steal", "take_money",
                "sea_trade", "fur_trade", "piracy", "recruit", "discard", "reserve", "governor", "intendant",
                "pass")
FREE_KINDS = ("leader", "withdraw", "retrieve", "home_support", "fur_coin", "drop_lost")
GIVE_UP = ("give_up",)          # a free kind only under `options.defender_may_withdraw`
_NEED_ACTION = frozenset(ACTION_KINDS) - {"pass"}      # kinds listed only while an action is left
# by `Engine.defender_withdraws`: the free kinds, and the kinds with and without an action left
_KINDS = {withdraws: (free, ACTION_KINDS + free, free + ("pass",))
          for withdraws, free in ((False, FREE_KINDS), (True, FREE_KINDS + GIVE_UP))}


class Choices:
    """The legal choices of one action decision (see the module docstring)."""

    __slots__ = ("_hand", "_lists", "_live", "_rest", "e", "g", "left", "side")

    def __init__(self, engine, g: int, side: int, left: int) -> None:
        self.e, self.g, self.side, self.left = engine, g, side, left
        self._lists: dict[str, list] = {}
        self._rest: dict[tuple[int, ...], list[int]] = {}
        self._hand: list[int] | None = None
        self._live: list[int] | None = None

    def kinds(self) -> tuple[str, ...]:
        """The kinds this decision may take (action kinds only while an action is left)."""
        _, acting, closing = _KINDS[self.e.defender_withdraws]
        return acting if self.left > 0 else closing

    def _free(self) -> tuple[str, ...]:
        return _KINDS[self.e.defender_withdraws][0]

    def list(self, kind: str) -> list:
        got = self._lists.get(kind)
        if got is None:
            got = self._lists[kind] = [] if self.left <= 0 and kind in _NEED_ACTION else _BUILDERS[kind](self)
        return got

    def free_kinds(self) -> list[str]:
        return [k for k in self._free() if self.list(k)]

    def has_free(self) -> bool:
        """Whether a free action is legal now (`free_kinds` without listing the rest)."""
        for k in self._free():
            if self.list(k):
                return True
        return False

    def acquires(self, action: Any) -> str | None:
        """The asset an action acquires (interventions): a recruited card kind, a settled
        location that was neutral at setup."""
        e = self.e
        if isinstance(action, Recruit):
            return e.t.kind[action.card].key
        if isinstance(action, Settle) and e.t.locations[action.target].start == "neutral":
            return e.t.locs[action.target]
        return None

    # ------------------------------------------------------------------ helpers
    @property
    def live(self) -> list[int]:
        """The side's playable hand cards (AFS-6.1)."""
        if self._live is None:
            e, g, side = self.e, self.g, self.side
            # `Engine.playable` per card, the connected set and the siege markers read once
            kind, control, sieges, mine = e.t.kind, e.s.control[g], e.s.siege_loc[g], side + 1
            conn = e.connected(g, side)
            self._live = [c for c in e.s.hand[g][side] if (loc := kind[c].loc) < 0
                          or (control[loc] == mine and loc in conn and loc not in sieges)]
        return self._live

    @property
    def hand(self) -> list[int]:
        """The side's playable hand cards, one per kind (copies are interchangeable)."""
        if self._hand is None:
            self._hand = self._distinct(self.live)
        return self._hand

    def _distinct(self, cards: list[int]) -> list[int]:
        """The first card of each copy key, in order."""
        keys = self.e.t.copy_key
        first: dict = {}
        for c in cards:
            k = keys[c]
            if k not in first:
                first[k] = c
        return list(first.values())

    def _others(self, used: tuple[int, ...]) -> list[int]:
        """Playable hand cards other than `used` (a second copy of a used kind included);
        kept per decision, as several action kinds ask for the same ones."""
        got = self._rest.get(used)
        if got is None:
            got = self._rest[used] = self._distinct([c for c in self.live if c not in used])
        return got

    def _journeys(self, owner: int, avoid: Sequence[int]) -> list[tuple[int, int, int]]:
        """(via, target, transport) for every playable connection card, a listed target of
        `owner` (a `control` value) not in `avoid` and a transport card with the link's symbol
        (AFS-7.1.2-7.1.3, AFS-8.1.2-8.1.3): the other playable cards carrying the link's symbol
        (`Tables.card_links`, `transport_bits`). The targets are tested as bits (`Engine.held`,
        `Tables.link_reach`), so a card none of whose links reaches one is passed over; repeats
        are dropped where a card's links share a target."""
        e = self.e
        want = e.held(self.g, owner)
        for loc in avoid:
            if loc >= 0:
                want &= ~(1 << loc)
        if not want:
            return []
        t = e.t
        reach, printed, bits, overlap = t.link_reach, t.card_links, t.transport_bits, t.links_overlap
        out = []
        repeats = False
        for via in self.hand:
            if reach[via] & want:
                others = self._others((via,))
                for bit, dests in printed[via]:
                    targets = [d for d in dests if want >> d & 1]
                    if targets and (xs := [x for x in others if bits[x] & bit]):
                        out += [(via, d, x) for x in xs for d in targets]
                        repeats = repeats or overlap[via]
        return list(dict.fromkeys(out)) if repeats else out

    # ------------------------------------------------------------------ action kinds
    def _settle(self) -> list[Settle]:
        e, g, side = self.e, self.g, self.side
        if e.s.cubes[g][side] <= 0:
            return []
        kind, locations, locs = e.t.kind, e.t.locations, e.t.locs
        out = []
        # the journeys are distinct and so are the settler cards: so are the actions
        for via, target, x in self._journeys(0, ()):
            if e.banned(g, side, locs[target]) and locations[target].start == "neutral":
                continue
            if locations[target].settler:
                out += [Settle(target, via, x, y) for y in self._others((via, x)) if kind[y].settler]
            else:
                out.append(Settle(target, via, x))
        return out

    def _develop(self) -> list[Develop]:
        e, g, side = self.e, self.g, self.side
        if e.s.discs[g][side] <= 0:
            return []
        kind, control, town, locations = e.t.kind, e.s.control[g], e.s.town[g], e.t.locations
        out = []
        # develop_ok's tests, so none is asked of the actions: an own village with VP > 0, its own
        # card and a settler card, both distinct playable hand cards, and a disc (above)
        for c in self.hand:
            loc = kind[c].loc
            if loc < 0 or kind[c].owner != side or control[loc] != side + 1 or town[loc] or locations[loc].vp <= 0:
                continue
            out += [Develop(loc, c, y) for y in self._others((c,)) if kind[y].settler]
        return out

    def _fortify(self) -> list[Fortify]:
        e, g, side = self.e, self.g, self.side
        out = []
        forts = [c for c in self.hand if e.t.kind[c].special == "fortification"]
        if not forts:
            return out
        for c in self.hand:
            if e.t.kind[c].is_location:
                out += [a for a in (Fortify(e.t.kind[c].loc, c, f) for f in forts) if e.fortify_ok(g, side, a)]
        return out

    def _besiege(self) -> list[Besiege]:
        e, g, side = self.e, self.g, self.side
        if not e.may_besiege(g, side):
            return []
        kind, locations = e.t.kind, e.t.locations
        out = []
        # besiege_ok's tests, so none is asked of the actions: the side may besiege (above), an
        # enemy location not besieged (AFS-8.1.7) listed by a playable connection card, a
        # transport card with the link's symbol (the journeys), an opening card, artillery paid,
        # three distinct playable hand cards
        for via, target, x in self._journeys(2 - side, e.s.siege_loc[g]):
            for m in self._others((via, x)):
                if siege.can_open(kind[m].card, locations[target], e.ship_opens_siege) and e.artillery_ok(g, side, m):
                    out.append(Besiege(target, via, x, m))
        return out

    def _siege_cards(self, leader: bool) -> list:
        e, g, side = self.e, self.g, self.side
        out = []
        kind, sieges = e.t.kind, e.s.siege_loc[g]
        if sieges[0] < 0 and sieges[1] < 0:
            return out
        if leader:                                # a Leader in hand before the playable hand
            for c in e.s.hand[g][side]:
                if kind[c].special == "leader":
                    break
            else:
                return out
        cls = PlayLeader if leader else Reinforce
        # reinforce_ok's tests, so none is asked of the actions: a siege the side supplies (once
        # per track), a playable hand card, the Leader only as the free action, worth something
        # to the side's role, artillery paid
        for track in (0, 1):
            loc = sieges[track]
            if loc < 0 or not e.feeds(g, side, loc, leader):
                continue
            role = e.role(side, track)
            out += [cls(track, c) for c in self.hand if (kind[c].special == "leader") == leader
                    and e.value(g, c, loc, role) > 0 and e.artillery_ok(g, side, c)]
        return out

    def _reinforce(self) -> list[Reinforce]:
        return self._siege_cards(False)

    def _leader(self) -> list[PlayLeader]:
        return self._siege_cards(True)

    def _withdraw(self) -> list[Withdraw]:
        return [Withdraw()] if self.e.s.siege_loc[self.g][self.side] >= 0 else []

    def _give_up(self) -> list[GiveUp]:
        """AFS-8.12.2 alternative: the defender of the opponent's siege may give it up."""
        return [GiveUp()] if self.e.s.siege_loc[self.g][1 - self.side] >= 0 else []

    def _raid(self) -> list[Raid]:
        """Per reachable target, the fewest raid cards: a raider first (no fee before Native
        Americans), then range cards (Priest, Indian Leader), then more raiders. `raid_ok` is
        asked once per card set: its one test of the target is the distance (AFS-9.2), which
        the fewest cards always reach (`need` + `raid_bonus` >= d), save where the range must be
        exact (`raid_exact`: then per target)."""
        e, g, side = self.e, self.g, self.side
        kind = e.t.kind
        hand = [c for c in e.s.hand[g][side] if kind[c].raid in ("yes", "range")]
        raiders = [c for c in hand if kind[c].raid == "yes"]
        if not raiders:
            return []
        native = [c for c in raiders if kind[c].special == "native_americans"]
        if native:                             # a stable sort: the Native Americans last
            raiders = [c for c in raiders if c not in native] + native
        ranged = [c for c in hand if kind[c].raid == "range"]
        pool = [raiders[0], *ranged, *raiders[1:]]
        out = []
        bonus, oks = e.raid_bonus, {}
        for target, d in sorted(e.raid_distances(g, side).items()):
            need = max(1, d - bonus)
            if need <= len(pool):
                a = Raid(target, tuple(pool[:need]))
                ok = oks.get(need)
                if ok is None:
                    ok = e.raid_ok(g, side, a)
                    if not e.raid_exact:
                        oks[need] = ok
                if ok:
                    out.append(a)
        return out

    def _ambush(self) -> list[Ambush]:
        e, g, side = self.e, self.g, self.side
        kind = e.t.kind                           # ambush_ok's card test first
        return [a for a in (Ambush(c) for c in self.hand if kind[c].ambush) if e.ambush_ok(g, side, a)]

    def _steal(self) -> list[Steal]:
        e, g, side = self.e, self.g, self.side
        return [a for a in (Steal(c) for c in self.hand) if e.steal_ok(g, side, a)]

    def _take_money(self) -> list[TakeMoney]:
        kind = self.e.t.kind
        return [TakeMoney(c) for c in self.hand if kind[c].is_location and kind[c].money > 0]

    def _sea_trade(self) -> list[SeaTrade]:
        kind = self.e.t.kind
        out = []
        for ship in (c for c in self.hand if kind[c].ship):
            coins = [c for c in self._others((ship,)) if kind[c].money > 0]
            out += [SeaTrade(ship, (c,)) for c in coins]
            out += [SeaTrade(ship, pair) for pair in combinations(coins, 2)]
        return out

    def _fur_trade(self) -> list[FurTrade]:
        e, g, side = self.e, self.g, self.side
        kind = e.t.kind
        out = []
        for trader in (c for c in self.hand if kind[c].special == "trader"):
            furs = tuple(c for c in e.s.hand[g][side] if kind[c].is_location and kind[c].fur and e.playable(g, side, c))
            if furs:
                out.append(FurTrade(trader, furs))
        return out

    def _piracy(self) -> list[Piracy]:
        e, g, side = self.e, self.g, self.side
        kind, louisbourg = e.t.kind, e.t.index.get("louisbourg")
        out = []
        if side != 1:                          # AFS-12.4: French only
            return out
        for lb in (c for c in self.hand if kind[c].loc == louisbourg and kind[c].owner == 1):
            out += [a for a in (Piracy(lb, x) for x in self._others((lb,))) if e.piracy_ok(g, side, a)]
        return out

    def _recruit(self) -> list[Recruit]:
        e, g, side = self.e, self.g, self.side
        pool = [*e.s.emp_deck[g][side], *e.s.neutral[g]]
        keys, cost, money, kind = e.t.copy_key, e.t.card_cost, e.s.money[g][side], e.t.kind
        # recruit_ok's tests, so none is asked of the actions: a card of the own empire deck or
        # the neutral supply (the pool), its cost paid (before the copies go: the cost is part of
        # the kind), not a banned asset
        first: dict = {}                   # the first card of each (copy key, cost)
        for c in pool:
            if cost[c] <= money:
                first.setdefault((keys[c], cost[c]), c)
        return [Recruit(c) for c in first.values() if not e.banned(g, side, kind[c].key)]

    def _discard(self) -> list[Discard]:
        e, g, side = self.e, self.g, self.side
        cards = self._distinct(list(e.s.hand[g][side]))
        if e.s.money[g][side] < e.discard_cost(g, 1):            # discard_ok's money test
            return []
        out = [Discard((c,)) for c in cards]
        if e.s.money[g][side] >= e.discard_cost(g, 2):
            out += [Discard(pair) for pair in combinations(cards, 2)]
        return out

    def _reserve(self) -> list[Reserve]:
        e, g, side = self.e, self.g, self.side
        if len(e.s.reserve[g][side]) >= e.reserve_limit:          # reserve_ok's first test
            return []
        return [a for a in (Reserve(c) for c in self._distinct(list(e.s.hand[g][side]))) if e.reserve_ok(g, side, a)]

    def _retrieve(self) -> list[Retrieve]:
        return [Retrieve()] if self.e.retrieve_ok(self.g, self.side) else []

    def _governor(self) -> list[Governor]:
        e, g, side = self.e, self.g, self.side
        out = []
        for gov in (c for c in e.s.hand[g][side] if e.t.kind[c].special == "governor"):
            rest = self._distinct([c for c in e.s.hand[g][side] if c != gov])
            options = [(c,) for c in rest] + list(combinations(rest, 2))
            out += [a for a in (Governor(gov, cs) for cs in options) if e.governor_ok(g, side, a)]
            break
        return out

    def _intendant(self) -> list[Intendant]:
        e, g, side = self.e, self.g, self.side
        out = []
        for it in (c for c in e.s.hand[g][side] if e.t.kind[c].special == "intendant"):
            out += [a for a in (Intendant(it, c) for c in self._distinct(list(e.s.discard[g][side])))
                    if e.intendant_ok(g, side, a)]
            break
        return out

    def _home_support(self) -> list[HomeSupport]:
        e, g, side = self.e, self.g, self.side
        kind = e.t.kind
        for c in e.s.hand[g][side]:               # a loop, not `next` over a generator: asked every decision
            if kind[c].special == "home_support":
                return [HomeSupport(c)]
        return []

    def _fur_coin(self) -> list[FurCoin]:
        e, g, side = self.e, self.g, self.side
        if not e.variant(11):                                      # fur_coin_ok's first test
            return []
        return [a for a in (FurCoin(c) for c in self.hand) if e.fur_coin_ok(g, side, a)]

    def _drop_lost(self) -> list[DropLost]:
        e, g, side = self.e, self.g, self.side
        if not e.variant(17):
            return []
        kind = e.t.kind
        return [DropLost(c) for c in e.s.hand[g][side]
                if kind[c].is_location and e.s.control[g][kind[c].loc] != side + 1]

    def _pass(self) -> list[Pass]:
        return [Pass()]


_BUILDERS = {kind: getattr(Choices, "_" + kind) for kind in (*ACTION_KINDS, *FREE_KINDS, *GIVE_UP)}
