"""Consistency of an imported game record, without an engine: does the snapshot before a move,
with the move applied as the rules reference reads it, explain the snapshot after?

Each move is applied to a light model of the position (money, the card zones as multisets, the
draw pile in order, the board, captures, the supplies) action by action, then the hand is
refilled (AFS-5.2 step 4). The model is compared with the recorded snapshot in every field a
move can touch, and the siege check (AFS-8.8) and the end of the game (AFS-15) are checked too.
A reshuffle (AFS-5.6) takes its order from the recorded draw pile after the move (the cards
still there keep their order; the ones drawn meanwhile are the rest of the discard pile).
`Readings` are the rule readings where Yucata may differ from the rules reference: `RULES` are
the reference's, `YUCATA` Yucata's, read from the engine's options of the `yucata` preset
(sim/acres/presets.py; docs/acres_yucata.md lists each difference and its moves).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from sim.acres import presets, siege
from sim.acres.components import SIDES, Acres, Card, load, other
from sim.acres.record import NEUTRAL_PREFIX, is_neutral
from sim.acres.rulebook import Rulebook, rulebook
from sim.acres.yucata import Action, Game, Move

HAND = 5
CAPITALS = {"french": ("boston", "new_york"), "british": ("quebec",)}      # AFS-15.1: what the attacker takes
NATIVES = ("native_americans", NEUTRAL_PREFIX + "native_americans")


@dataclass(frozen=True)
class Readings:
    """How to read the rules where Yucata and the reference may differ (each documented in
    docs/acres_yucata.md). The defaults are the rules reference's readings."""

    raid_town_keeps_cube: bool = True      # AFS-9.7: a raided town becomes a village
    siege_won_settler_card: bool = True    # AFS-8.9.3: settling a won location plays a settler card
    home_support_from_bottom: bool = False  # AFS-13.7: Home Support draws the top 3 cards
    reshuffle: str = "immediate"            # AFS-5.6.2 / AFS-18 A6 (rules.deck.reshuffle): or "on_draw"
    pieces: tuple[tuple[int, int], ...] = ((18, 12), (18, 12))   # AFS-1.1: (cubes, discs) British, French
    home_support_reshuffles: bool = True    # AFS-13.7 / AFS-18 A7: first edition; the second does not
    free_actions_after_refill: bool = False  # AFS-18 A21: free actions only before the refill


    @classmethod
    def of(cls, book: Rulebook) -> Readings:
        """The readings of the engine's resolved rules (edition, `rules.deck.reshuffle`, options)."""
        s = book.settings
        return cls(home_support_from_bottom=s["home_support_from_bottom"],
                   reshuffle="immediate" if s["immediate_shuffle"] else "on_draw",
                   pieces=tuple(zip(book.cubes, book.discs)), home_support_reshuffles=s["home_support_reshuffles"],
                   free_actions_after_refill=s["free_after_refill"])


RULES = Readings()
YUCATA = Readings.of(rulebook(load(variants=[str(presets.YUCATA)])))
READINGS = {"yucata": YUCATA, "rules": RULES}


@dataclass(frozen=True)
class Finding:
    """The first field of a move the model does not explain."""

    move: int
    field: str
    expected: Any
    got: Any
    rule: str


class _Unexplained(Exception):
    def __init__(self, field_name: str, expected: Any, got: Any, rule: str) -> None:
        super().__init__(field_name)
        self.finding = (field_name, expected, got, rule)


@dataclass
class _Side:
    money: int
    hand: Counter
    reserve: Counter
    draw: list[str]
    discard: Counter
    available: Counter
    locations: set[str]
    captured: list[int]
    future: list[str] = field(default_factory=list)     # the recorded draw pile after the move


@dataclass
class _Model:
    sides: dict[str, _Side]
    board: dict[str, list]
    neutral: Counter
    sieges: dict[str, dict[str, Counter]]
    siege_at: dict[str, str]


def _model(snap: dict) -> _Model:
    sides = {s: _Side(money=st["money"], hand=Counter(st["hand"]), reserve=Counter(st["reserve"]),
                      draw=list(st["draw"]), discard=Counter(st["discard"]), available=Counter(st["available_empire"]),
                      locations=set(st["available_locations"]),
                      captured=[st["captured_cubes"], st["captured_discs"]])
             for s, st in snap["sides"].items()}
    board = {loc: [p["owner"], p["piece"], p["fort"]] for loc, p in snap["board"].items()}
    sieges = {g["attacker"]: {g["attacker"]: Counter(g["attacker_cards"]),
                              other(g["attacker"]): Counter(g["defender_cards"])} for g in snap["sieges"]}
    return _Model(sides=sides, board=board, neutral=Counter(snap["neutral_available"]), sieges=sieges,
                  siege_at={g["attacker"]: g["location"] for g in snap["sieges"]})


# --------------------------------------------------------------------------- applying actions

class _Apply:
    """Applies one side's actions to the model (AFS-7 .. AFS-14)."""

    def __init__(self, acres: Acres, model: _Model, side: str, readings: Readings, choice: int = 0) -> None:
        self.acres, self.m, self.side, self.opp, self.r = acres, model, side, other(side), readings
        self.choice, self.choices = choice, 1
        self.me, self.them = model.sides[side], model.sides[other(side)]

    def card(self, side: str, name: str) -> Card:
        return self.acres.cards[side][name.removeprefix(NEUTRAL_PREFIX)]

    def take(self, zone: Counter, cards, where: str, rule: str) -> None:
        for c in cards:
            if zone[c] <= 0:
                raise _Unexplained(where, f"{c} there", "absent", rule)
            zone[c] -= 1
        zone += Counter()     # drop zero counts

    def play(self, cards, rule: str) -> None:
        self.take(self.me.hand, cards, f"sides.{self.side}.hand", rule)

    def to_supply(self, side: str, c: str) -> None:
        """A card going back to its supply: neutral supply, location deck or empire deck."""
        st = self.m.sides[side]
        if is_neutral(c):
            self.m.neutral[c] += 1
        elif self.card(side, c).kind == "location":
            st.locations.add(c)
        else:
            st.available[c] += 1

    def gain_location_card(self, loc: str) -> None:
        """AFS-7.1.6: your card for T from the location deck onto your discard pile."""
        if loc in self.me.locations:
            self.me.locations.discard(loc)
            self.me.discard[loc] += 1

    def capture(self, loc: str) -> None:
        """AFS-8.9.1 / AFS-9.7: the defender's piece at `loc` captured by this side."""
        owner, piece, _ = self.m.board[loc]
        self.me.captured[0 if piece == "village" else 1] += 1
        self.m.board[loc] = [None, None, False]
        return owner

    def apply(self, a: Action) -> None:
        getattr(self, "do_" + a.kind)(a)

    def do_settle(self, a: Action) -> None:
        (loc,) = a.locations
        self.play(a.cards, "AFS-7.1")
        self.me.discard.update(a.cards)
        if self.m.board[loc][0] is not None:
            raise _Unexplained(f"board.{loc}.owner", "neutral before settling", self.m.board[loc][0], "AFS-7.1.1")
        self.m.board[loc] = [self.side, "village", False]
        self.gain_location_card(loc)

    def do_settle_after_siege(self, a: Action) -> None:
        """Yucata's out-of-turn settle of a location whose defender gave the siege up (AFS-8.9.3)."""
        if a.detail["settled"]:
            self.do_settle(a)

    def do_develop(self, a: Action) -> None:
        (loc,) = a.locations
        self.play(a.cards, "AFS-7.2")
        self.me.discard.update(a.cards)
        self.m.board[loc][1] = "town"

    def do_fortify(self, a: Action) -> None:
        (loc,) = a.locations
        self.play(a.cards, "AFS-7.3")
        self.me.discard.update(a.cards)
        self.m.board[loc][2] = True
        self.me.money -= 3

    def _artillery(self, cards) -> None:
        self.me.money -= sum(self.card(self.side, c).siege_cost for c in cards)

    def do_besiege(self, a: Action) -> None:
        (loc,) = a.locations
        self.play(a.cards, "AFS-8.1")
        self.me.discard.update(a.cards[:-1])
        self.m.sieges[self.side] = {self.side: Counter(a.cards[-1:]), self.opp: Counter()}
        self.m.siege_at[self.side] = loc
        self._artillery(a.cards[-1:])

    def _siege_of(self, loc: str) -> str:
        for attacker, at in self.m.siege_at.items():
            if at == loc:
                return attacker
        raise _Unexplained(f"board.{loc}.besieged", True, False, "AFS-8.6.1")

    def do_reinforce(self, a: Action) -> None:
        (loc,) = a.locations
        self.play(a.cards, "AFS-8.6")
        self.m.sieges[self._siege_of(loc)][self.side].update(a.cards)
        self._artillery(a.cards)

    do_leader = do_reinforce

    def do_raid(self, a: Action) -> None:
        (loc,) = a.locations
        self.play(a.cards, "AFS-9.1")
        self.me.discard.update(a.cards)
        self.me.money -= sum(c in NATIVES for c in a.cards)
        if "blocked_by" in a.detail:
            self.take(self.them.hand, [a.detail["blocked_by"]], f"sides.{self.opp}.hand", "AFS-9.6")
            self.them.discard[a.detail["blocked_by"]] += 1
            return
        owner, piece, fort = self.m.board[loc]
        self.capture(loc)
        if piece == "town" and self.r.raid_town_keeps_cube:
            self.m.board[loc] = [owner, "village", fort]

    def do_ambush(self, a: Action) -> None:
        self.play(a.cards, "AFS-10.1")
        self.me.discard.update(a.cards)
        self.me.money -= sum(c in NATIVES for c in a.cards)
        result = a.detail["result"]
        if result == "blocked":
            self.take(self.them.hand, [a.detail["blocked_by"]], f"sides.{self.opp}.hand", "AFS-10.2")
            self.them.discard[a.detail["blocked_by"]] += 1
        elif result == "taken":
            self._lose(self.opp, a.detail["taken"], a.detail["from"], "AFS-10.3")
            self.to_supply(self.opp, a.detail["taken"])

    def _lose(self, side: str, c: str, zone: str, rule: str) -> None:
        st = self.m.sides[side]
        if zone == "siege":
            for cards in self.m.sieges.values():
                if cards[side][c] > 0:
                    cards[side][c] -= 1
                    return
            raise _Unexplained(f"sides.{side}.siege_cards", f"{c} there", "absent", rule)
        self.take(st.hand if zone == "hand" else st.reserve, [c], f"sides.{side}.{zone}", rule)

    def do_priest(self, a: Action) -> None:
        self.play(a.cards, "AFS-11.1")
        self.me.discard.update(a.cards)
        if a.detail["result"] == "taken":
            self._lose(self.opp, a.detail["taken"], a.detail["from"], "AFS-11.1")
            self.me.discard[a.detail["taken"]] += 1

    def do_take_money(self, a: Action) -> None:
        self.play(a.cards, "AFS-12.1")
        self.me.discard.update(a.cards)
        self.me.money += sum(self.card(self.side, c).money for c in a.cards)

    def do_sea_trade(self, a: Action) -> None:
        self.play(a.cards, "AFS-12.2")
        self.me.discard.update(a.cards)
        self.me.money += sum(self.card(self.side, c).money for c in a.cards[1:])

    def do_trader(self, a: Action) -> None:
        self.play(a.cards, "AFS-12.3")
        self.me.discard.update(a.cards)
        self.me.money += 2 * (len(a.cards) - 1)

    def do_piracy(self, a: Action) -> None:
        self.play(a.cards, "AFS-12.4")
        self.me.discard.update(a.cards)
        self.me.money += 2
        self.them.money -= min(2, self.them.money)

    def do_fur(self, a: Action) -> None:
        self.play(a.cards, "scenario 11")
        self.me.discard.update(a.cards)
        self.me.money += 1

    def do_recruit(self, a: Action) -> None:
        (c,) = a.cards
        zone, where = (self.m.neutral, "neutral_available") if is_neutral(c) else \
            (self.me.available, f"sides.{self.side}.available_empire")
        self.take(zone, [c], where, "AFS-13.1")
        self.me.discard[c] += 1
        if is_neutral(c):
            self.me.money -= self.acres.data.get(f"cards.neutral.{c.removeprefix(NEUTRAL_PREFIX)}")["cost"]
        elif a.detail.get("start_copy"):              # AFS-18 A34: a starting card returned by a siege
            self.me.money -= self.acres.data.get(f"cards.{self.side}.{c}")["start_copy_cost"]
        else:
            self.me.money -= self.card(self.side, c).cost

    def do_discard(self, a: Action) -> None:
        self.play(a.cards, "AFS-13.2")
        self.me.discard.update(a.cards)
        self.me.money -= max(len(a.cards) - 1, 0)

    def do_reserve(self, a: Action) -> None:
        self.play(a.cards, "AFS-13.3")
        self.me.reserve.update(a.cards)

    def do_retrieve(self, a: Action) -> None:
        self.take(self.me.reserve, a.cards, f"sides.{self.side}.reserve", "AFS-13.4")
        self.me.hand.update(a.cards)
        self.me.money -= len(a.cards)

    def do_governor(self, a: Action) -> None:
        self.play(a.cards, "AFS-13.5")
        self.me.discard.update(a.cards[:1])
        for c in a.cards[1:]:
            self.to_supply(self.side, c)

    def do_intendant(self, a: Action) -> None:
        self.play(["intendant"], "AFS-13.6")
        self.take(self.me.discard, a.cards, f"sides.{self.side}.discard", "AFS-13.6")
        self.me.discard["intendant"] += 1
        self.me.hand.update(a.cards)
        self.me.money -= 2

    def do_home_support(self, a: Action) -> None:
        self.play(a.cards, "AFS-13.7")
        for _ in range(3):
            if self.me.draw or self.r.home_support_reshuffles:
                draw_one(self.me, bottom=self.r.home_support_from_bottom, immediate=self.r.reshuffle == "immediate")
        self.me.discard.update(a.cards)

    def do_pass(self, a: Action) -> None:
        pass

    do_resign = do_pass
    do_choose_side = do_pass

    def _end_siege(self, attacker: str, winner: str, returned) -> None:
        """AFS-8.11: winner's siege cards to his discards; the loser returns one, discards the rest."""
        cards = self.m.sieges.pop(attacker, None)
        self.m.siege_at.pop(attacker, None)
        if cards is None:
            raise _Unexplained("sieges", f"a {attacker} siege", "none", "AFS-8.11")
        loser = other(winner)
        self.m.sides[winner].discard.update(cards[winner])
        self.take(cards[loser], returned, f"sides.{loser}.siege_cards", "AFS-8.11.3")
        self.m.sides[loser].discard.update(cards[loser])
        for c in returned:
            self.to_supply(loser, c)

    def do_withdraw(self, a: Action) -> None:
        """AFS-8.12 (the attacker); Yucata also lets the defender give the siege up, which is
        the attacker's win (AFS-8.9)."""
        attacker = a.detail["attacker"]
        (loc,) = a.locations
        if self.side == attacker:
            self._end_siege(attacker, self.opp, a.cards)
            return
        self._end_siege(attacker, attacker, a.cards)
        mover = _Apply(self.acres, self.m, attacker, self.r)
        mover.capture(loc)

    def do_siege_won(self, a: Action) -> None:
        """AFS-8.8 .. AFS-8.11."""
        attacker = a.detail["attacker"]
        loc = self.m.siege_at.get(attacker)
        self._end_siege(attacker, self.side, a.detail["returned"])
        if self.side != attacker or loc is None:
            return
        self.capture(loc)
        if a.detail["settled"]:
            if self.r.siege_won_settler_card and self.acres.locations[loc].settler:
                self.play_settler()
            self.m.board[loc] = [self.side, "village", False]
            self.gain_location_card(loc)

    def play_settler(self) -> None:
        """AFS-8.9.3 / AFS-18 A24: a settler-symbol card from the hand, which the page does not
        name: the `choice`-th candidate (explain tries each)."""
        candidates = sorted(c for c in self.me.hand if self.card(self.side, c).settler)
        if not candidates:
            raise _Unexplained(f"sides.{self.side}.hand", "a settler card to settle the won location", "none",
                               "AFS-8.9.3")
        c = candidates[min(self.choice, len(candidates) - 1)]
        self.choices = len(candidates)
        self.play([c], "AFS-8.9.3")
        self.me.discard[c] += 1

    do_start_card = do_pass


def draw_one(st: _Side, bottom: bool = False, immediate: bool = False) -> None:
    """AFS-5.6: draw the top card (or the bottom one). An empty draw pile becomes the shuffled
    discard pile when a card must be drawn, or (`immediate`, AFS-18 A6) the moment it runs out."""
    if not st.draw and st.discard:
        reshuffle(st)
    if st.draw:
        c = st.draw.pop(-1 if bottom else 0)
        st.hand[c] += 1
    if immediate and not st.draw and st.discard:
        reshuffle(st)


def reshuffle(st: _Side) -> None:
    """The shuffled order is only known from the recorded draw pile after the move: the cards
    still there keep their recorded order under the ones drawn meanwhile."""
    pool = st.discard
    remaining = Counter(st.future)
    drawn = pool - remaining if not remaining - pool else pool
    st.draw = sorted(drawn.elements()) + (list(st.future) if not remaining - pool else [])
    st.discard = Counter()


# --------------------------------------------------------------------------- comparing

def _compare(m: _Model, snap: dict) -> None:
    for s in SIDES:
        st, got = m.sides[s], snap["sides"][s]
        checks = [("money", st.money, got["money"], "AFS-12, AFS-13"),
                  ("reserve", st.reserve, Counter(got["reserve"]), "AFS-13.3"),
                  ("available_empire", st.available, Counter(got["available_empire"]), "AFS-13.1"),
                  ("available_locations", st.locations, set(got["available_locations"]), "AFS-7.1.6"),
                  ("captured_cubes", st.captured[0], got["captured_cubes"], "AFS-8.9.1, AFS-9.7"),
                  ("captured_discs", st.captured[1], got["captured_discs"], "AFS-8.9.1, AFS-9.7")]
        checks += [("hand", st.hand, Counter(got["hand"]), "AFS-5.2"),
                   ("draw", st.draw, list(got["draw"]), "AFS-5.2, AFS-5.6"),
                   ("discard", st.discard, Counter(got["discard"]), "AFS-5.5")]
        siege_cards = sum((c[s] for c in m.sieges.values()), Counter())
        checks.append(("siege_cards", siege_cards, Counter(got["siege_cards"]), "AFS-8.1.6, AFS-8.6.3"))
        for name, expected, actual, rule in checks:
            if isinstance(expected, Counter):
                expected = +expected
            if expected != actual:
                raise _Unexplained(f"sides.{s}.{name}", _plain(expected), _plain(actual), rule)
    if +m.neutral != Counter(snap["neutral_available"]):
        raise _Unexplained("neutral_available", _plain(m.neutral), snap["neutral_available"], "AFS-13.1")
    for loc, (owner, piece, fort) in m.board.items():
        p = snap["board"][loc]
        if [p["owner"], p["piece"], p["fort"]] != [owner, piece, fort]:
            raise _Unexplained(f"board.{loc}", {"owner": owner, "piece": piece, "fort": fort},
                               {k: p[k] for k in ("owner", "piece", "fort")}, "AFS-7, AFS-8.9, AFS-9.7")
    if {g["attacker"]: g["location"] for g in snap["sieges"]} != m.siege_at:
        raise _Unexplained("sieges", m.siege_at, {g["attacker"]: g["location"] for g in snap["sieges"]}, "AFS-8")


def _plain(x: Any) -> Any:
    if isinstance(x, Counter):
        return dict(sorted(x.items()))
    if isinstance(x, set):
        return sorted(x)
    return x


def _interrupted(game: Game, i: int) -> bool:
    """A turn recorded up to an out-of-turn settle, or that settle itself: no refill yet."""
    nxt = game.moves[i + 1] if i + 1 < len(game.moves) else None
    return game.moves[i].actions[0].kind == "settle_after_siege" or (
        nxt is not None and nxt.actions[0].kind == "settle_after_siege")


def explain(game: Game, i: int, acres: Acres | None = None, readings: Readings = RULES) -> Finding | None:
    """None if the snapshot before move i and the move explain the snapshot after it, else the
    first field that differs. Where the page leaves a choice out (the settler card of a won
    siege; under Yucata's readings, whether free actions came before or after the refill),
    every candidate is tried; if none explains the move, the finding of the one that got
    furthest is reported."""
    acres = acres or load()
    best = None
    for refill_at in _refill_points(game, i, readings):
        choice, choices = 0, 1
        while choice < choices:
            finding, choices, progress = _explain_with(game, i, acres, readings, choice, refill_at)
            if finding is None:
                return None
            if best is None or progress > best[0]:
                best = (progress, finding)
            choice += 1
    return best[1]


def _refill_points(game: Game, i: int, readings: Readings) -> list[int | None]:
    """Where the hand may have been refilled (AFS-5.2 step 4), as the number of actions before
    it: after all of them, or (Yucata, against AFS-18 A21) anywhere after the last counted
    action, free actions following the refill. None: the turn goes on after this record."""
    if _interrupted(game, i):
        return [None]
    move = game.moves[i]
    if not readings.free_actions_after_refill:
        return [len(move.actions)]
    counted = [n for n, a in enumerate(move.actions) if not a.free]
    first = counted[-1] + 1 if counted else 0
    return list(range(len(move.actions), first - 1, -1))


def _refill(me: _Side, readings: Readings) -> None:
    while sum(me.hand.values()) < HAND and (me.draw or me.discard):
        draw_one(me, immediate=readings.reshuffle == "immediate")


def _siege_check(acres: Acres, before: dict, move: Move) -> None:
    """AFS-8.8: at the start of his turn a player wins every siege whose marker is on his side
    (attacker P >= +2, defender P <= -1), and only those; Yucata records each as `siege_won`."""
    if move.continues is not None or move.actions[0].kind == "settle_after_siege":
        return
    att_at, def_at = siege.win_thresholds(acres.rules.siege)
    due = {g["attacker"] for g in before["sieges"]
           if (g["attacker"] == move.side and g["marker"] >= att_at)
           or (g["attacker"] != move.side and g["marker"] <= def_at)}
    won = {a.detail["attacker"] for a in move.actions if a.kind == "siege_won"}
    if due != won:
        raise _Unexplained("sieges", {"won at the start of the turn": sorted(due)}, {"recorded": sorted(won)},
                           "AFS-8.8")


def _end_check(acres: Acres, after: dict, move: Move, readings: Readings) -> None:
    """AFS-15: the game is over after a move exactly when the next player's turn would end it:
    no siege in progress and that player has no cubes or no discs left (AFS-18 A5) or has
    captured 12 points (AFS-15.2), or he wins a capital siege at its start (AFS-15.1, A44)."""
    nxt = other(move.side)
    st = after["sides"][nxt]
    end = after["end"]
    if end["reason"] == "resignation" or move.actions[0].kind == "settle_after_siege":
        return
    on_board = [sum(p["owner"] == nxt and p["piece"] == k for p in after["board"].values()) for k in ("village", "town")]
    lost = [after["sides"][move.side]["captured_cubes"], after["sides"][move.side]["captured_discs"]]
    left = [readings.pieces[SIDES.index(nxt)][k] - on_board[k] - lost[k] for k in (0, 1)]
    att_at = siege.win_thresholds(acres.rules.siege)[0]
    capital = any(g["attacker"] == nxt and g["marker"] >= att_at and g["location"] in CAPITALS[nxt]
                  for g in after["sieges"])
    normal = not after["sieges"] and (min(left) <= 0 or st["vp_captures"] >= acres.rules.scoring.capture_end_points)
    expected = "capital" if capital else ("pieces" if min(left) <= 0 else "captures") if normal else None
    got = end["reason"] if end["over"] else None
    if (expected is None) != (got is None) or (expected == "capital") != (got == "capital"):
        raise _Unexplained("end", expected, got, "AFS-15.1, AFS-15.2")


def _explain_with(game: Game, i: int, acres: Acres, readings: Readings, choice: int,
                  refill_at: int | None) -> tuple[Finding | None, int, int]:
    before = (game.start if i == 0 else game.statuses[i - 1]).as_dict()
    model = _model(before)
    for side, st in model.sides.items():
        st.future = list(game.statuses[i].sides[side].draw)
    move = game.moves[i]
    apply = _Apply(acres, model, move.side, readings, choice)
    progress = 0
    try:
        for n, a in enumerate(move.actions):
            if n == refill_at:
                _refill(model.sides[move.side], readings)
            if n >= move.repeated:
                apply.apply(a)
                progress += 1
        if refill_at == len(move.actions):
            _refill(model.sides[move.side], readings)
        after = game.statuses[i].as_dict()
        _compare(model, after)
        _siege_check(acres, before, move)
        _end_check(acres, after, move, readings)
    except _Unexplained as exc:
        return Finding(i, *exc.finding), apply.choices, progress
    return None, apply.choices, progress


def check(game: Game, acres: Acres | None = None, readings: Readings = RULES) -> list[Finding]:
    """Every move the model does not explain, in order (the first one is the headline)."""
    acres = acres or load()
    return [f for i in range(len(game.moves)) if (f := explain(game, i, acres, readings)) is not None]


def first_unexplained(game: Game, readings: Readings = RULES) -> Finding | None:
    found = check(game, readings=readings)
    return found[0] if found else None

