"""Verified replay of an imported game record (docs/acres_yucata.md; `empires replay --verify`).

The engine starts from the recorded setup under the recorded edition and variants (the `yucata`
preset, sim/acres/presets.py, plus the record's scenario variants), takes its deck order from the
record (`Engine.deck_order` replaces every shuffle: the new draw pile is the recorded one, below
the cards drawn from it during the move), and plays every recorded move through its own rules:
each recorded action must be one of the engine's legal choices (`sim.acres.choices`) and pass
`Engine.apply`, each reaction one of the options the engine offers. After the setup and after
every turn the engine's snapshot (sim/acres/snapshot.py) is compared with the recorded one.

A turn interrupted by a defender giving a siege up (move i, the attacker's out-of-turn settle
i+1, the whole turn again i+2, `continues`) is one engine turn: the actions of move i+2, the
settle answering the engine's occupy decision; its snapshot is compared after move i+2.
"""

from __future__ import annotations

from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from sim.acres import presets
from sim.acres.actions import (NOTES, Discard, FurTrade, Governor, LeaveNeutral, Occupy, Pass, Raid, Recruit,
                               SeaTrade)
from sim.acres.components import SIDES, from_data
from sim.acres.engine import NAME, Engine
from sim.acres.players import Roster
from sim.acres.record import snapshots
from sim.acres.rulebook import rulebook
from sim.acres.snapshot import card_name, first_difference, snapshot
from sim.core.data import load_game_data
from sim.core.errors import UserError
from sim.core.lockstep import RuleViolation
from sim.core.seating import Seating

# A recorded action kind (yucata.py) -> the engine's choice kind (sim/acres/choices.py).
KINDS = {"settle": "settle", "develop": "develop", "fortify": "fortify", "besiege": "besiege",
         "reinforce": "reinforce", "leader": "leader", "raid": "raid", "ambush": "ambush", "priest": "steal",
         "take_money": "take_money", "sea_trade": "sea_trade", "trader": "fur_trade", "piracy": "piracy",
         "recruit": "recruit", "discard": "discard", "reserve": "reserve", "retrieve": "retrieve",
         "governor": "governor", "intendant": "intendant", "home_support": "home_support", "fur": "fur_coin"}
LOCATION_FIELDS = ("target",)           # fields naming a location (Intendant.target is a card)
NO_CARDS = ("retrieve", "withdraw")    # the recorded cards are not the action's own (moved / returned)
# Roles the recorded card order fixes (yucata.py): the ship of a sea trade comes first (its own
# money does not count, AFS-12.2), the military card of a siege last (it enters the siege, AFS-8.1).
BUILT = {"sea_trade": (SeaTrade, "sea_trade_ok"), "fur_trade": (FurTrade, "fur_trade_ok"),
         "governor": (Governor, "governor_ok")}
ROLES = {"sea_trade": ("ship", 0), "besiege": ("military", -1)}


@dataclass
class Turn:
    """One engine turn: its recorded moves (several for an interrupted turn), the actions it
    plays, the attacker's out-of-turn settle if any, and the side."""

    moves: list[dict]
    actions: list[dict]
    settle: dict | None
    side: int

    @property
    def last(self) -> int:
        return self.moves[-1]["move"]


def turns(moves: list[dict]) -> list[Turn]:
    """The record's moves grouped into engine turns (see the module docstring)."""
    resumed = {m["continues"]: k for k, m in enumerate(moves) if m.get("continues") is not None}
    out, k = [], 0
    while k < len(moves):
        end = resumed.get(moves[k]["move"], k)
        group = moves[k:end + 1]
        settle = next((a for g in group[1:-1] for a in g["actions"] if a["kind"] == "settle_after_siege"), None)
        out.append(Turn(group, list(group[-1]["actions"]), settle, SIDES.index(group[-1]["side"])))
        k = end + 1
    return out


@dataclass
class Mismatch(Exception):
    """The first disagreement: at `move`, `field` recorded as `expected`, the engine `got`."""

    move: int
    field: str
    expected: Any
    got: Any

    def as_dict(self) -> dict[str, Any]:
        return {"move": self.move, "field": self.field, "expected": self.expected, "got": self.got}


@dataclass
class Script:
    """The recorded answers of the turn being replayed, shared by both sides' players."""

    engine: Any = None
    queue: deque = field(default_factory=deque)
    sieges: list[dict] = field(default_factory=list)
    current: dict | None = None
    settle: dict | None = None
    target: dict | None = None
    in_siege_checks: bool = False
    queue_after_refill: bool = False


class ReplayPlayer:
    """Answers every decision of one side from the script, through the engine's own options."""

    def __init__(self, script: Script, engine, g: int, side: int) -> None:
        self.script, self.e, self.g, self.side = script, engine, g, side

    # ------------------------------------------------------------------ naming
    def name(self, c: int) -> str:
        return card_name(self.e, c)

    def signature(self, action: Any) -> tuple[Counter, frozenset]:
        """An engine action as the record names it: its distinct cards and its locations."""
        cards, locs = set(), set()
        s = self.e.s
        for slot in action.__slots__:
            v = getattr(action, slot)
            if slot in NOTES:
                continue
            if slot in LOCATION_FIELDS and not hasattr(action, "intendant"):
                locs.add(self.e.t.locs[v])
            elif slot == "track":
                locs.add(self.e.t.locs[s.siege_loc[self.g][v]])
            elif isinstance(v, tuple):
                cards.update(v)
            elif isinstance(v, int):
                cards.add(v)
        return Counter(self.name(c) for c in cards), frozenset(locs)

    def recorded(self, a: dict) -> tuple[Counter, frozenset]:
        cards = Counter() if a["kind"] in NO_CARDS else Counter(a["cards"])
        if a["kind"] == "intendant":
            cards["intendant"] += 1
        return cards, frozenset(a["locations"])

    def pick(self, options: list[int], name: str | None) -> int | None:
        return next((c for c in options if self.name(c) == name), None)

    # ------------------------------------------------------------------ the turn
    def choose_action(self, choices) -> Any:
        sc = self.script
        if not sc.queue:
            return Pass()
        a = sc.queue[0]
        if a["kind"] == "pass":
            sc.queue.popleft()
            sc.current = a
            return Pass()
        action = None if self.after_refill(choices, a) else self.match(choices, a)
        if action is None:
            if choices.left == 0 and a["free"] and not sc.queue_after_refill:
                sc.queue_after_refill = True         # Yucata: free actions may follow the refill (A21)
                return Pass()
            raise RuleViolation(f"{a['kind']} {a['cards']} {a['locations']} is not a legal choice here")
        sc.queue.popleft()
        sc.current = a
        return action

    def after_refill(self, choices, a: dict) -> bool:
        """AFS-18 A21 under Yucata's reading: the page does not say where the refill fell, but a
        turn ending with a short hand while cards were left to draw played its last free actions
        after the refill."""
        e, sc = self.e, self.script
        if not (e.free_after_refill and choices.left == 0 and a["free"] and not sc.queue_after_refill):
            return False
        mine = (sc.target or {}).get("sides", {}).get(SIDES[self.side], {})
        return len(mine.get("hand", ())) < e.hand_size and bool(mine.get("draw") or mine.get("discard"))

    def match(self, choices, a: dict) -> Any:
        kind = a["kind"]
        if kind == "withdraw":
            kind = "withdraw" if a["detail"].get("attacker") == SIDES[self.side] else "give_up"
        elif kind == "discard" and a["code"] == 38:
            kind = "drop_lost"
        kind = KINDS.get(kind, kind)
        if kind not in choices.kinds():
            return None
        want = self.recorded(a)
        role = ROLES.get(kind)
        if kind == "recruit" and a["detail"].get("start_copy"):
            return self.start_copy(a["cards"][0])
        for option in choices.list(kind):
            if kind in ("withdraw", "give_up"):
                return option
            if self.signature(option) == want and (role is None or self.name(getattr(option, role[0])) == a["cards"][role[1]]):
                return option
        return self.built(kind, a)

    def start_copy(self, name: str) -> Recruit | None:
        """AFS-18 A34: a French starting card back in the empire deck, recruited for its start cost."""
        e, g, side = self.e, self.g, self.side
        t, deck = e.t, e.s.emp_deck[g][side]
        start = [c for c in range(t.n_cards) if self.name(c) == name and t.card_cost[c] != t.kind[c].cost]
        here = [c for c in deck if c in start]
        if not here:
            # The record names copies by kind only, so an earlier return of "a regular_infantry"
            # may have sent the engine's other copy home: the copies trade places.
            supply = next((c for c in deck if self.name(c) == name), None)
            if supply is None or not start:
                return None
            self.trade_places(start[0], supply)
            here = [start[0]]
        action = Recruit(here[0])
        return action if e.recruit_ok(g, side, action) else None

    def trade_places(self, a: int, b: int) -> None:
        """Two copies of one kind exchange their places in the card zones."""
        for zone in self.e.s.zones(self.g):
            for i, c in enumerate(zone):
                if c == a:
                    zone[i] = b
                elif c == b:
                    zone[i] = a

    def built(self, kind: str, a: dict) -> Any:
        """Actions whose choice lists are thinned (one raid per target, single or paired
        discards, one trade per card combination): built from the recorded cards, in the recorded
        roles, and checked by the engine's own test."""
        hand = list(self.e.s.hand[self.g][self.side])

        def cards() -> tuple[int, ...] | None:
            out = []
            for n in a["cards"]:
                c = next((c for c in hand if self.name(c) == n and c not in out), None)
                if c is None:
                    return None
                out.append(c)
            return tuple(out)

        got = cards()
        if got is None:
            return None
        e, g, side = self.e, self.g, self.side
        if kind == "raid":
            action, ok = Raid(e.t.index[a["locations"][0]], got), e.raid_ok
        elif kind == "discard":
            action, ok = Discard(got), e.discard_ok
        elif kind in BUILT and got:
            make, ok = BUILT[kind]
            action, ok = make(got[0], got[1:]), getattr(e, ok)
        else:
            return None
        return action if ok(g, side, action) else None

    # ------------------------------------------------------------------ reactions
    def block_raid(self, location: int, options: list[int]) -> int | None:
        return self._block(options)

    def block_ambush(self, options: list[int]) -> int | None:
        return self._block(options)

    def _block(self, options: list[int]) -> int | None:
        """The recorded blocking card, which must be among the engine's options (AFS-9.6, AFS-10.2)."""
        name = (self.script.current or {}).get("detail", {}).get("blocked_by")
        got = self.pick(options, name)
        if name is not None and got is None:
            raise RuleViolation(f"the recorded blocking card {name} is not among {[self.name(c) for c in options]}")
        return got

    def _taken(self, options: list[int]) -> int:
        """The card an ambush or Priest took, from the recorded zone where a copy is in two."""
        detail = (self.script.current or {}).get("detail", {})
        name = detail.get("taken")
        s, g, side = self.e.s, self.g, self.side
        zone = {"hand": s.hand[g][side], "reserve": s.reserve[g][side]}.get(detail.get("from"), ())
        got = self.pick([c for c in options if c in zone], name) or self.pick(options, name)
        if got is None:
            raise RuleViolation(f"the recorded card taken, {name}, is not among {[self.name(c) for c in options]}")
        return got

    give_up_ambush = _taken
    give_up_native = _taken

    def siege_loss_card(self, options: list[int]) -> int:
        sc = self.script
        if sc.in_siege_checks:
            won = next((w for w in sc.sieges if w["detail"].get("winner") != SIDES[self.side]), None)
            names = won["detail"].get("returned", []) if won else []
        else:
            names = (sc.current or {}).get("cards", [])
        got = next((c for n in names for c in options if self.name(c) == n), None)
        if got is None:
            raise RuleViolation(f"the recorded returned card {names} is not among {[self.name(c) for c in options]}")
        return got

    def occupy(self, location: int, options: list) -> Occupy | LeaveNeutral:
        sc = self.script
        if sc.in_siege_checks:
            won = next((w for w in sc.sieges if w["detail"].get("attacker") == SIDES[self.side]), None)
            settled, names = bool(won and won["detail"].get("settled")), []
        else:
            settled, names = bool(sc.settle and sc.settle["detail"].get("settled")), (sc.settle or {}).get("cards", [])
        if not settled:
            return next(o for o in options if isinstance(o, LeaveNeutral))
        placed = [o for o in options if isinstance(o, Occupy)]
        if not placed:
            raise RuleViolation(f"the recorded settling of {self.e.t.locs[location]} is not allowed")
        for o in placed:
            if o.settler is None or self.name(o.settler) in names:
                return o
        return self.likely_settler(placed)

    def likely_settler(self, placed: list[Occupy]) -> Occupy:
        """AFS-8.9.3: the page does not name the settler card; take one of which the hand now
        holds more than the rest of the turn plays and the recorded hand after it keeps."""
        after = Counter((self.script.target or {}).get("sides", {}).get(SIDES[self.side], {}).get("hand", []))
        now = Counter(self.name(c) for c in self.e.s.hand[self.g][self.side])
        later = Counter(n for a in self.script.queue for n in a["cards"])
        for o in placed:
            n = self.name(o.settler)
            if after[n] + later[n] < now[n]:
                return o
        return placed[0]

    def _unrecorded(self, *args: Any) -> Any:
        raise RuleViolation("a decision the record does not hold (Scen0, Scen5, Scen13 are not replayed)")

    start_card = shed = cycle_after_siege = _unrecorded


@dataclass(frozen=True)
class Result:
    """`moves` recorded, `accepted` applied as legal, `compared` snapshots compared (the setup's
    included), `mismatch` the first disagreement or None."""

    moves: int
    accepted: int
    compared: int
    mismatch: Mismatch | None

    def as_dict(self) -> dict[str, Any]:
        return {"moves": self.moves, "accepted": self.accepted, "compared": self.compared,
                "mismatch": None if self.mismatch is None else self.mismatch.as_dict()}


def overrides(head: dict) -> list[str]:
    """The record's edition and scenario variants as `--set`s (on top of the `yucata` preset)."""
    return [f'rules.game.edition="{head.get("edition", "second")}"',
            *(f"rules.variants.scen{n}=true" for n in head.get("variants", []))]


def deck_order(script: Script):
    """The recorded shuffle (docs/acres_yucata.md): the draw pile recorded after the move, below
    the cards drawn from the reshuffled pile during the move (the rest of the discards)."""
    def order(g: int, side: int, discards: list[int]) -> list[int]:
        rest = list(discards)
        bottom_up = []
        recorded = (script.target or {}).get("sides", {}).get(SIDES[side], {}).get("draw", [])
        for name in reversed(recorded):
            c = next((c for c in rest if card_name(script.engine, c) == name), None)
            if c is not None:
                rest.remove(c)
                bottom_up.append(c)
        return bottom_up + rest
    return order


def verify(head: dict, events: list[dict], extra: tuple[str, ...] = ()) -> Result:
    """Replay one imported record through the engine (see the module docstring); `extra` are
    further `--set`s (a test switching one reading back to the reference's)."""
    if not any(e["event"] == "setup" and "snapshot" in e for e in events):
        raise UserError(f"game {head.get('game_index')}: not an imported record (no setup snapshot); "
                        "--verify replays records written by `empires import acres`")
    states = snapshots(events)
    moves = [e for e in events if e["event"] == "move"]
    book = rulebook(from_data(load_game_data(NAME, [*overrides(head), *extra], [str(presets.YUCATA)])))
    script = Script()
    seating = Seating(tuple(head["powers"]), ("replay", "replay"))
    engine = Engine(book, [seating], 0, [int(head.get("game_index", 0))],
                    Roster(make=lambda _name, e, g, side, _rng: ReplayPlayer(script, e, g, side)))
    script.engine = engine
    engine.deck_order = deck_order(script)
    engine.on_step = lambda e, g, where: setattr(script, "in_siege_checks", False) if where == "siege checks" else None
    seats = tuple(states[0]["sides"][side]["seat"] for side in SIDES)
    variants = tuple(head.get("variants", []))
    script.target = states[0]
    engine.setup()
    accepted, compared = 0, 0

    def compare(move: int, active: int | None, expected: dict) -> Mismatch | None:
        got = snapshot(engine, 0, active, seats, variants)
        diff = first_difference(expected, got)
        return None if diff is None else Mismatch(move, *diff)

    mismatch = compare(-1, None, states[0])
    compared += 1
    for turn in turns(moves) if mismatch is None else []:
        after = states[turn.last + 1]
        script.queue = deque(a for a in turn.actions if a["kind"] not in ("siege_won", "resign"))
        script.sieges = [a for a in turn.actions if a["kind"] == "siege_won"]
        script.settle, script.target = turn.settle, after
        script.current, script.in_siege_checks, script.queue_after_refill = None, True, False
        if engine.s.active[0] != turn.side:
            mismatch = Mismatch(turn.moves[0]["move"], "active", SIDES[turn.side], SIDES[engine.s.active[0]])
            break
        try:
            if any(a["kind"] == "resign" for a in turn.actions):
                engine.finish(0, 1 - turn.side, "resignation")
            else:
                engine.turn(0)
        except RuleViolation as exc:
            mismatch = Mismatch(turn.moves[0]["move"], "move", turn.moves[-1]["text"], str(exc))
            break
        if script.queue:
            left = script.queue[0]
            mismatch = Mismatch(turn.last, "move", f"{left['kind']} {left['cards']}", "the engine's turn ended before it")
            break
        accepted += len(turn.moves)
        mismatch = compare(turn.last, turn.side, after)
        compared += 1
        if mismatch is not None:
            break
    return Result(len(moves), accepted, compared, mismatch)


def report(head: dict, result: Result) -> list[str]:
    """The readable verdict of one verified replay."""
    lines = [(f"game {head.get('game_index')}: {result.moves} moves, {result.accepted} accepted, "
              f"{result.compared} states compared")]
    m = result.mismatch
    lines.append("no mismatch" if m is None else
                 f"first mismatch at move {m.move}, {m.field}: recorded {m.expected!r}, engine {m.got!r}")
    return lines
