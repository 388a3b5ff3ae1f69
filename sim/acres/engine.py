"""The A Few Acres of Snow forward model for a batch of games.

`Engine` holds a `BatchState` of B games and plays them turn by turn in lockstep: every game not
yet over plays one player turn per step (AFS-5.2: siege checks, end check, actions and free
actions, refill). Within a turn the rules are plain Python per game: the decisions are the hot
path and vectorising them does not pay. The rules of each chapter live in the parts the class is
made of (network AFS-6/9.4, expansion AFS-7, sieges AFS-8, raids AFS-9-11, economy AFS-12/13).

Randomness: a game's shuffles come from its stream `(root_seed, game_index, "shuffle")` and each
seat's player from `"players<seat>"`, so a game never depends on the other games of its batch.

Players are injected (`Roster`); they answer decisions (sim.acres.players.SeatPlayer) with
actions (sim.acres.actions) that `apply` validates; an illegal one raises `RuleViolation`. They
read the game through `Engine.view` (sim.acres.view: no opponent hand, no deck order).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from sim.acres import scoring, siege
from sim.acres.actions import (
    FREE,
    NOTES,
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
from sim.acres.choices import Choices
from sim.acres.components import SIDES
from sim.acres.economy import Economy
from sim.acres.expansion import Expansion
from sim.acres.network import Network
from sim.acres.raids import Raids
from sim.acres.rulebook import Rulebook
from sim.acres.sieges import Sieges
from sim.acres.state import BatchState
from sim.acres.view import View
from sim.core import interventions
from sim.core.lockstep import GameLog, RuleViolation, game_header
from sim.core.random import stream

if TYPE_CHECKING:
    from sim.acres.players import Roster

NAME = "acres"


class Engine(Network, Expansion, Sieges, Raids, Economy):
    """Plays `len(seatings)` games (see the module docstring)."""

    def __init__(self, book: Rulebook, seatings, root_seed: int, game_indices, roster: Roster,
                 log: bool = False) -> None:
        self.book, self.t = book, book.tables
        self.acres = book.acres
        self.__dict__.update(book.settings)
        self.siege_rules = self.acres.rules.siege
        self.seed = int(root_seed)
        self.game_indices = [int(i) for i in game_indices]
        self.seatings = list(seatings)
        b = len(self.seatings)
        self.s = BatchState.empty(b)
        self.view = View(self.s)
        self.logs: list[list[dict]] | None = [[] for _ in range(b)] if log else None
        self.on_step: Callable[[Engine, int, str], None] | None = None
        # per game and side: (board version, value) of the connected set, the raid distances and
        # the location points, indexed rather than keyed (hot lookups)
        self._conn_cache: list[list[tuple | None]] = [[None, None] for _ in range(b)]
        self._raid_cache: list[list[tuple | None]] = [[None, None] for _ in range(b)]
        self._vp_cache: list[list[tuple | None]] = [[None, None] for _ in range(b)]
        self._held_cache: list[tuple | None] = [None] * b     # per game: (board version, `held` per owner)
        self._vp = tuple(int(v) for v in book.vp)        # AFS-15.3.1 per location, as Python ints
        self._end_cache: dict[tuple, bool] = {}       # `scoring.normal_end` by its (few) inputs
        self._shuffle_rng = [functools.partial(stream, self.seed, gi, "shuffle") for gi in self.game_indices]
        self.seat_of = [[seating.powers.index(side) for side in SIDES] for seating in self.seatings]
        self.iv = []
        for seating in self.seatings:
            parsed = [interventions.parse(spec) for spec in seating.strategies]
            self.iv.append([parsed[seating.powers.index(side)][1] for side in SIDES])
        self.players = []
        for g, (gi, seating) in enumerate(zip(self.game_indices, self.seatings)):
            row = []
            for side in SIDES:
                seat = seating.powers.index(side)
                name = interventions.parse(seating.strategies[seat])[0]
                row.append(roster.make(name, self, g, SIDES.index(side),
                                       functools.partial(stream, self.seed, gi, f"players{seat}")))
            self.players.append(row)
        self._handlers: dict[type, Callable] = {
            Settle: self.do_settle, Develop: self.do_develop, Fortify: self.do_fortify, Besiege: self.do_besiege,
            Reinforce: self.do_reinforce, PlayLeader: self.do_reinforce, Withdraw: self.do_withdraw,
            GiveUp: self.do_give_up,
            Raid: self.do_raid, Ambush: self.do_ambush, Steal: self.do_steal, TakeMoney: self.do_take_money,
            SeaTrade: self.do_sea_trade, FurTrade: self.do_fur_trade, Piracy: self.do_piracy,
            Recruit: self.do_recruit, Discard: self.do_discard, Reserve: self.do_reserve,
            Retrieve: self.do_retrieve, Governor: self.do_governor, Intendant: self.do_intendant,
            HomeSupport: self.do_home_support, FurCoin: self.do_fur_coin, DropLost: self.do_drop_lost,
            Pass: lambda g, side, a: None}
        self._shuffles: list[np.random.Generator | None] = [None] * b
        # A replay's recorded deck order (sim.acres.verify): (g, side, discards) -> the new draw
        # pile (top last), replacing the shuffle.
        self.deck_order: Callable[[int, int, list[int]], list[int]] | None = None
        self.penalty = [[0, 0] for _ in range(b)]        # Scen0: cards owed for unpaid reshuffles

    # ------------------------------------------------------------------ plumbing
    def variant(self, n: int) -> bool:
        """Whether Yucata's scenario variant Scen<n> is on (`rules.variants.scen<n>`)."""
        return self.book.variants[n]

    def require(self, ok: bool, what: str, action: Any) -> None:
        if not ok:
            raise RuleViolation(f"illegal {what}: {action!r}")

    def log(self, g: int, event: str, **fields: Any) -> None:
        if self.logs is not None:
            self.logs[g].append({"event": event, "turn": self.s.turn[g], **fields})

    def step(self, g: int, where: str) -> None:
        if self.on_step is not None:
            self.on_step(self, g, where)

    def ask(self, g: int, side: int, decision: str, *args: Any) -> Any:
        """A decision of the player of `side` (its own turn or a reaction, AFS-21)."""
        return getattr(self.players[g][side], decision)(*args)

    def in_hand(self, g: int, side: int, cards: Sequence[int]) -> bool:
        hand = self.s.hand[g][side]
        if len(cards) == 1:                  # most tests ask about one card
            return cards[0] in hand
        return len(set(cards)) == len(cards) and all(c in hand for c in cards)

    def usable(self, g: int, side: int, cards: Sequence[int]) -> bool:
        """Distinct cards in hand, each playable (AFS-6.1 on every use, AFS-2.4.2 one job each)."""
        if not self.in_hand(g, side, cards):
            return False
        for c in cards:                      # a loop, not `all` over a generator: a hot test
            if not self.playable(g, side, c):
                return False
        return True

    def take_from_hand(self, g: int, side: int, cards: Sequence[int]) -> None:
        hand = self.s.hand[g][side]
        for c in cards:
            hand.remove(c)

    def play_cards(self, g: int, side: int, cards: Sequence[int]) -> None:
        """AFS-5.5.1: played cards go to the discard pile."""
        self.take_from_hand(g, side, cards)
        self.s.discard[g][side].extend(cards)

    def remove_anywhere(self, g: int, side: int, c: int) -> None:
        """Take a card of `side` from hand, reserve or (Scen3) a siege, moving that marker back."""
        s = self.s
        for zone in (s.hand[g][side], s.reserve[g][side]):
            if c in zone:
                zone.remove(c)
                return
        for track in (0, 1):
            zone = s.siege_cards[g][track][side]
            if c in zone:
                zone.remove(c)
                v = self.value(g, c, s.siege_loc[g][track], self.role(side, track))
                s.siege_p[g][track] += -v if side == track else v
                return
        raise RuleViolation(f"card {c} is not in a zone of side {side}")

    def send_home(self, g: int, side: int, c: int) -> None:
        """AFS-5.5.2: back to the location deck, the empire deck or the neutral supply (Scen14: a
        location card sent back loses its location; where the opponent besieges it, his siege is
        won without a capture, or with `options.scen14_besieged_card = "forbidden"` the Governor
        may not give the card back, `governor_ok`)."""
        s, kind = self.s, self.t.kind[c]
        if kind.home == "neutral":
            s.neutral[g].append(c)
            return
        (s.loc_deck if kind.home == "location" else s.emp_deck)[g][kind.owner].append(c)
        if kind.is_location and self.variant(14) and s.control[g][kind.loc] == side + 1:
            if s.town[g][kind.loc]:
                s.discs[g][side] += 1
            else:
                s.cubes[g][side] += 1
            s.control[g][kind.loc] = 0
            s.town[g][kind.loc] = False
            s.version[g] += 1
            if s.siege_loc[g][1 - side] == kind.loc:
                self.attacker_won(g, 1 - side, capture=False)

    def reveal(self, g: int, side: int, why: str) -> None:
        """AFS-10.4 / AFS-11.2: the hand shown as proof, logged for information-aware players."""
        self.log(g, "reveal", side=side, why=why, hand=sorted(self.t.kind[c].key for c in self.s.hand[g][side]))

    def acquire(self, g: int, side: int, asset: str) -> None:
        self.s.acquired[g][side].add(asset)

    def banned(self, g: int, side: int, asset: str) -> bool:
        return asset in self.iv[g][side].ban

    def location_vp(self, g: int, side: int) -> int:
        """AFS-15.3.1: the side's location points now (kept until the board changes)."""
        s = self.s
        hit = self._vp_cache[g][side]
        if hit is not None and hit[0] == s.version[g]:
            return hit[1]
        vp, mine = self._vp, side + 1
        control, town = s.control[g], s.town[g]
        total = sum([vp[i] * (2 if town[i] else 1) for i, c in enumerate(control) if c == mine])
        self._vp_cache[g][side] = (s.version[g], total)
        return total

    def do_drop_lost(self, g: int, side: int, a: DropLost) -> None:
        """Scen17 (free action): a card of a location the side no longer controls, back to its deck."""
        kind = self.t.kind[a.card]
        self.require(self.variant(17) and kind.is_location and self.s.control[g][kind.loc] != side + 1
                     and self.in_hand(g, side, [a.card]), "drop lost card", a)
        self.take_from_hand(g, side, [a.card])
        self.send_home(g, side, a.card)

    # ------------------------------------------------------------------ decks
    def shuffle_into_draw(self, g: int, side: int, paid: bool = True) -> None:
        """AFS-5.6.1: the discard pile, shuffled (or in a replay's recorded order), becomes the draw
        pile (Scen0: 1 coin, if any, for a reshuffle in play; the setup's first shuffle, `paid`
        False, is not a reshuffle and costs nothing)."""
        s = self.s
        if self._shuffles[g] is None and self.deck_order is None:
            self._shuffles[g] = self._shuffle_rng[g]()
        pile = s.discard[g][side]
        s.shuffled[g][side] = sorted(pile)
        if self.deck_order is not None:
            s.draw[g][side][:0] = self.deck_order(g, side, list(pile))
        else:
            order = self._shuffles[g].permutation(len(pile))
            s.draw[g][side][:0] = [pile[i] for i in order]
        pile.clear()
        if paid and self.variant(0):
            if s.money[g][side] > 0:
                s.money[g][side] -= 1
            else:
                self.penalty[g][side] += 2
        self.log(g, "reshuffle", side=side, cards=len(s.draw[g][side]))

    def draw(self, g: int, side: int, n: int, reshuffle: bool = True, bottom: bool = False) -> int:
        """Draw n cards (AFS-5.2 step 4, AFS-13.7) from the top (or the `bottom`) of the pile; the
        discards are shuffled in the moment the draw pile runs out (AFS-18 A6 "immediate"), or
        when a card is needed ("on_draw"), or at the end of the turn (Scen25). Returns the cards
        drawn."""
        s = self.s
        pile, hand = s.draw[g][side], s.hand[g][side]
        drawn = 0
        for _ in range(n):
            if not pile and reshuffle and not self.postpone_shuffle and s.discard[g][side]:
                self.shuffle_into_draw(g, side)
            if not pile:
                break
            hand.append(pile.pop(0 if bottom else -1))
            drawn += 1
            if not pile and reshuffle and self.immediate_shuffle and not self.postpone_shuffle and s.discard[g][side]:
                self.shuffle_into_draw(g, side)
        return drawn

    def refill(self, g: int, side: int) -> None:
        """AFS-5.2 step 4: draw up to the hand size; never discard down (Scen0: a reshuffle not
        paid for costs two cards of the side's choice after the refill)."""
        short = self.hand_size - len(self.s.hand[g][side])
        if short > 0:
            self.draw(g, side, short)
        if self.postpone_shuffle and not self.s.draw[g][side] and self.s.discard[g][side]:
            self.shuffle_into_draw(g, side)
        while self.penalty[g][side] and self.s.hand[g][side]:
            self.penalty[g][side] -= 1
            self.shed(g, side)
        self.penalty[g][side] = 0

    def shed(self, g: int, side: int) -> None:
        """One card of the side's choice from hand to the discard pile, for no action (Scen0, Scen5)."""
        options = list(self.s.hand[g][side])
        pick = self.ask(g, side, "shed", options)
        self.require(pick in options, "shed", pick)
        self.take_from_hand(g, side, [pick])
        self.s.discard[g][side].append(pick)

    # ------------------------------------------------------------------ setup and turns
    def setup(self) -> None:
        """AFS-4 for every game (with the edition's and the variants' changes, `Rulebook`)."""
        t, s = self.t, self.s
        for g in range(len(self.seatings)):
            s.control[g] = list(self.book.start_control)
            s.town[g] = list(self.book.start_town)
            s.fort[g] = list(self.book.start_fort)
            s.forts_left[g] = self.book.forts - sum(self.book.start_fort)
            for side in range(2):
                s.cubes[g][side] = self.book.cubes[side] - sum(
                    1 for i, c in enumerate(s.control[g]) if c == side + 1 and not s.town[g][i])
                s.discs[g][side] = self.book.discs[side] - sum(
                    1 for i, c in enumerate(s.control[g]) if c == side + 1 and s.town[g][i])
                s.money[g][side] = self.book.money[side] + self.iv[g][side].grants.get("money", 0)
            for c, zone in enumerate(self.book.zone):
                owner = t.start_side[c]
                if zone == "neutral":
                    s.neutral[g].append(c)
                elif zone == "removed":
                    s.removed[g].append(c)
                else:
                    {"draw": s.draw, "location": s.loc_deck, "empire": s.emp_deck}[zone][g][owner].append(c)
            if self.variant(13):
                options = sorted(s.emp_deck[g][1], key=lambda c: t.kind[c].key)
                if options:
                    pick = self.ask(g, 1, "start_card", options)
                    self.require(pick in options, "start card", pick)
                    s.emp_deck[g][1].remove(pick)
                    s.draw[g][1].append(pick)
            for side in range(2):
                pile = s.draw[g][side]
                s.discard[g][side].extend(pile)
                pile.clear()
                self.shuffle_into_draw(g, side, paid=False)     # AFS-4: the starting deck, Scen0 aside
                self.draw(g, side, self.hand_size)
            s.active[g] = 0
            self.log(g, "setup", money=list(s.money[g]), cubes=list(s.cubes[g]), discs=list(s.discs[g]),
                     forts=[t.locs[i] for i, f in enumerate(s.fort[g]) if f])
            self.step(g, "setup")

    def play(self) -> None:
        self.setup()
        live = list(range(len(self.seatings)))
        while live:
            for g in live:
                self.turn(g)
            live = [g for g in live if not self.s.over[g]]

    def turn(self, g: int) -> None:
        """AFS-5.2: siege checks (AFS-8.8), the end check (AFS-15.2, A22), actions, refill.
        Options: free actions after the refill (A21), a capital siege won at the end of the
        defender's turn (A44), the end check made at the end of the turn for the next side
        (`end_test_at_turn_end`, so before that side's siege checks)."""
        s = self.s
        side = s.active[g]
        s.turn[g] += 1
        s.discarded[g] = False
        if self.logs is not None:            # no fields built with the log off
            self.log(g, "turn", side=side, money=list(s.money[g]))
        self.siege_checks(g, side)
        self.step(g, "siege checks")
        if s.over[g] or (not self.end_test_at_turn_end and self.end_check(g, side)):
            return
        if self.actions(g, side, self.first_round_actions if s.turn[g] <= 2 else self.actions_per_turn):
            return
        self.refill(g, side)
        self.step(g, "refill")
        if self.free_after_refill and self.actions(g, side, 0):
            return
        if self.capital_siege_at_turn_end and self.capital_siege_won(g, 1 - side):
            return
        if self.end_test_at_turn_end and self.end_check(g, 1 - side):
            return
        if s.turn[g] >= self.turn_limit:
            self.finish(g, None, "turn limit")
        s.active[g] = 1 - side

    def actions(self, g: int, side: int, left: int) -> bool:
        """AFS-5.3, AFS-5.4: actions and free actions until the player passes with no action left
        (or no free action remains). Returns whether the game ended."""
        s = self.s
        while True:
            choices = Choices(self, g, side, left)
            forced = self.forced_action(g, side, choices) if left else None
            if left == 0 and not choices.has_free():
                return False
            action = forced or self.ask(g, side, "choose_action", choices)
            if isinstance(action, Pass) and left == 0:
                return False
            used = self.apply(g, side, action, left)
            left -= used
            self.step(g, type(action).__name__)
            if s.over[g]:
                return True

    def capital_siege_won(self, g: int, att: int) -> bool:
        """AFS-18 A44 alternative (`options.capital_siege_at_turn_end`): the attacker's siege of a
        capital target standing at his win at the end of the defender's turn wins the game there
        and then (AFS-15.1), before any siege check: nothing is captured or disposed of."""
        s = self.s
        loc = s.siege_loc[g][att]
        if loc < 0 or loc not in self.t.win_targets[att] or not siege.attacker_wins(s.siege_p[g][att], self.siege_rules):
            return False
        self.log(g, "siege_won", side=att, role="attacker", location=self.t.locs[loc], p=s.siege_p[g][att])
        self.finish(g, att, "capital taken")
        return True

    def apply(self, g: int, side: int, action: Any, left: int) -> int:
        """The only way in: validate and apply one action; returns the actions it used."""
        handler = self._handlers.get(type(action))
        if handler is None:
            raise RuleViolation(f"unknown action {action!r}")
        free = isinstance(action, FREE)
        if not free and left <= 0:
            raise RuleViolation(f"no action left for {action!r}")
        if self.logs is not None:
            self.log(g, "action", side=side, action=type(action).__name__, **self.describe(action))
        used = handler(g, side, action)
        return 0 if free else (1 if used is None else used)

    def describe(self, action: Any) -> dict:
        """An action's fields with card numbers and locations named, for the log."""
        out = {}
        kind, locs = self.t.kind, self.t.locs
        for name in action.__slots__:
            v = getattr(action, name)
            if name in NOTES:                         # a player's note for the audit, if any
                if v is not None and v is not False:
                    out[name] = round(v, 4) if isinstance(v, float) else v
            elif name in ("target", ) and isinstance(action, (Settle, Develop, Fortify, Besiege, Raid)):
                out[name] = locs[v]
            elif name == "track":
                out[name] = v
            elif isinstance(v, tuple):
                out[name] = [kind[c].key for c in v]
            elif isinstance(v, int):
                out[name] = kind[v].key
            else:
                out[name] = v
        return out

    def forced_action(self, g: int, side: int, choices) -> Any:
        """A `force` intervention: the first legal settle or recruit acquiring the asset."""
        iv = self.iv[g][side]
        if iv.force is None:
            return None
        options = iv.forced([*choices.list("recruit"), *choices.list("settle")], choices.acquires,
                            self.s.acquired[g][side])
        return options[0] if options else None

    def end_check(self, g: int, side: int) -> bool:
        """AFS-15.2 through `scoring.normal_end`: no siege in progress and the active side is out of
        cubes or discs (A5) or has captured 12 points."""
        s = self.s
        key = (s.cubes[g][side], s.discs[g][side], tuple(s.captured[g][side]),
               s.siege_loc[g][0] >= 0 or s.siege_loc[g][1] >= 0)
        ended = self._end_cache.get(key)
        if ended is None:
            ended = self._end_cache[key] = bool(scoring.normal_end(
                np.array([key[0]]), np.array([key[1]]), np.array([key[2]]), np.array([key[3]]),
                self.acres.rules.scoring)[0])
        if ended:
            s.over[g] = True
            s.end_reason[g] = ("captures" if s.cubes[g][side] and s.discs[g][side] else
                               "cubes out" if not s.cubes[g][side] else "discs out")
            self.score(g)
        return ended

    def finish(self, g: int, winner: int | None, reason: str) -> None:
        """AFS-15.1: an immediate win (winner given), or the game scored as it stands."""
        s = self.s
        s.over[g] = True
        s.end_reason[g] = reason
        self.score(g, winner)

    def score(self, g: int, winner: int | None = None) -> None:
        """AFS-15.3 through `scoring.final_scores`; an immediate win overrides the totals."""
        s = self.s
        res = scoring.final_scores(self.book.vp[None, :], np.array([s.control[g]]), np.array([s.town[g]]),
                                   np.array([s.captured[g]]), self.acres.rules.scoring)
        self.totals = getattr(self, "totals", {})
        self.totals[g] = [int(x) for x in res["total"][0]]
        s.winner[g] = int(res["winner"][0]) if winner is None else winner
        self.log(g, "end", reason=s.end_reason[g], winner=SIDES[s.winner[g]], scores=self.totals[g],
                 captured=[list(x) for x in s.captured[g]])

    def game_logs(self) -> list[GameLog]:
        return [(game_header(NAME, self.seed, gi, seating), events)
                for gi, seating, events in zip(self.game_indices, self.seatings, self.logs or [])]
