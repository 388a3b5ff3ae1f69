"""Decoder of Yucata's A Few Acres of Snow history pages into typed moves and snapshots.

A history page holds `StartStatus` (the position after setup), and for every move i
`HistoryMove[i]` (the move) and `HistoryStatus[i]` (the whole position after it). Every number
is one character, `ord(c) - 176`; the neutral cards are the letters A..I. The layout (learnt from
Yucata's public client script, see docs/acres_yucata.md) is decoded here from the text alone:
nothing in the file is ever executed. Yucata's numeric ids become the ids of `sim/acres/data`;
positions become `sim.acres.record.Snapshot`s. Any malformed or truncated page is one
`RecordError` line naming the file, the move and what was expected.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from sim.acres import siege
from sim.acres.components import GAME, SIDES, Acres, load, other
from sim.acres.record import NEUTRAL_PREFIX, End, Place, SideState, Siege, Snapshot, changes
from sim.core.errors import UserError
from sim.core.lockstep import game_header
from sim.core.seating import Seating

OFFSET = 176
EDITION = "second"          # Yucata enforces the second edition (scenarios 22-24 restore first-edition rules)
SETUP = -1                  # the move number of StartStatus in error messages and records

# Board locations in Yucata's index order (its locationData table).
LOCATIONS = (
    "boston", "new_haven", "new_york", "norfolk", "pemaquid", "philadelphia", "st_marys", "albany",
    "baltimore", "canso", "cumberland", "deerfield", "detroit", "fort_beausejour", "fort_duquesne",
    "fort_frontenac", "fort_halifax", "fort_niagara", "fort_presquisle", "fort_st_john", "fort_stanwix",
    "fort_venango", "fort_william_henry", "gaspe", "halifax", "kennebec", "louisbourg", "oswego",
    "port_royal", "richmond", "tadoussac", "ticonderoga", "trois_rivieres", "montreal", "quebec",
    "michillimackinac")
# A side's location cards by card id (British card i is location i; the French order differs).
LOCATION_CARDS = {
    "british": LOCATIONS[:33],
    "french": ("gaspe", "louisbourg", "montreal", "quebec", "port_royal", "tadoussac", "trois_rivieres",
               "albany", "canso", "detroit", "fort_beausejour", "fort_duquesne", "fort_frontenac",
               "fort_halifax", "fort_niagara", "fort_presquisle", "fort_st_john", "fort_stanwix",
               "fort_venango", "fort_william_henry", "halifax", "kennebec", "michillimackinac", "oswego",
               "pemaquid", "ticonderoga"),
}
# A side's empire cards by card id, from the first empire id on.
EMPIRE_CARDS = {
    "british": ("leader", *["regular_infantry"] * 6, "indian_leader", "home_support", "trader", "bateaux",
                "siege_artillery", *["militia"] * 3, *["ships"] * 2, "settlers", "rangers", "fortification",
                "governor"),
    "french": ("bateaux", "regular_infantry", "trader", "coureurs_de_bois", "fortification", "governor",
               "home_support", "intendant", "leader", *["militia"] * 3, "native_americans", *["priest"] * 2,
               *["regular_infantry"] * 3, "ships", "siege_artillery", "trader"),
}
NEUTRAL_CARDS = dict(zip("ABCDEFGHI", ("fortification",) * 2 + ("native_americans",) * 5 + ("settlers",) * 2))
# Pieces per side (cubes, discs) as Yucata counts them.
PIECES = {"british": (18, 12), "french": (18, 9)}
FORTS = 12
# Empire card ids that are out of the game under a scenario variant (Yucata's empire-pile rules).
FRENCH_BATEAUX = 26
SCEN4_BRITISH_REMOVED = (34, 35, 36)                 # three Regular Infantry
SCEN19_GOVERNORS = {"british": 53, "french": 31}
# Empire card ids of the starting decks (AFS-4.9): recruited again after a siege returned them,
# they cost nothing (AFS-18 A34), unlike the other copies of their kind.
START_COPIES = {"british": set(), "french": {26, 27, 28}}
# Action codes -> action kinds of the AFS-5.7 catalogue (plus Yucata's own bookkeeping moves).
KINDS = {0: "settle", 1: "develop", 2: "fortify", 3: "besiege", 4: "reinforce", 5: "raid", 36: "raid",
         6: "ambush", 35: "ambush", 7: "leader", 8: "priest", 9: "take_money", 10: "sea_trade", 11: "trader",
         12: "piracy", 13: "recruit", 14: "discard", 38: "discard", 15: "reserve", 16: "retrieve",
         17: "governor", 18: "intendant", 19: "home_support", 20: "pass", 21: "withdraw", 30: "siege_won",
         37: "fur"}
FREE_KINDS = {"leader", "retrieve", "home_support", "withdraw", "siege_won", "fur"}
# Action codes whose blocked form is free (scenarios 8, 9) or that follow a lost location (17).
FREE_CODES = {35: "blocked ambush (scenario 8)", 36: "blocked raid (scenario 9)",
              38: "discard of a lost location's card (scenario 17)"}
# Cards an action plays, (fewest, most; None = no limit), by the rules of AFS-7 .. AFS-13.
CARDS_PLAYED = {"settle": (2, 3), "develop": (2, 2), "fortify": (2, 2), "besiege": (3, 3), "reinforce": (1, 1),
                "leader": (1, 1), "raid": (1, None), "take_money": (1, 1), "sea_trade": (2, 3), "trader": (2, None),
                "piracy": (2, 2), "recruit": (1, 1), "discard": (1, None), "reserve": (1, 1), "retrieve": (1, None),
                "governor": (2, 3), "intendant": (1, 1), "home_support": (1, 1), "fur": (1, 1)}
ZONES = {0: "reserve", 1: "hand", 3: "siege"}
WON_CAPTURE = {"C": "disc", "D": "cube"}
WON_SETTLE = {"B": True, "N": False}
ASSIGNMENT = re.compile(r"^[ \t]*(?:var[ \t]+)?(StartStatus|HistoryMove|HistoryStatus)(?:\[(\d{1,6})\])?[ \t]*=[ \t]*"
                        r"'([^'\r\n]*)'[ \t]*;?[ \t]*\r?$", re.MULTILINE)
MOVE_COUNT = re.compile(r"^[ \t]*var[ \t]+MoveCount[ \t]*=[ \t]*(\d{1,6})[ \t]*;", re.MULTILINE)
DIGITS = re.compile(r"[0-9]+")
NUMBER = re.compile(r"[0-9]{1,6}")
ANY_ASSIGNMENT = re.compile(r"(StartStatus|HistoryMove|HistoryStatus)(?:\[(\d{1,6})\])?")


class RecordError(UserError):
    """A malformed history page: `FILE: move N: expected ...` (N = HistoryMove index, -1 = setup)."""

    def __init__(self, path: str | Path, move: int, expected: str) -> None:
        self.path, self.move, self.expected = str(path), move, expected
        where = "StartStatus" if move == SETUP else f"move {move}"
        super().__init__(f"{path}: {where}: expected {expected}")


@dataclass(frozen=True)
class Action:
    """One action of a move: its AFS-5.7 kind, the cards and locations it names, and the
    outcome details Yucata records (blocking card, card taken, siege result)."""

    kind: str
    code: int | str
    cards: tuple[str, ...] = ()
    locations: tuple[str, ...] = ()
    free: bool = False
    detail: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Move:
    """A player's whole move (one turn, or an out-of-turn settle after a siege)."""

    index: int
    side: str
    seat: int
    actions: tuple[Action, ...]
    raw: str
    continues: int | None = None
    repeated: int = 0


@dataclass(frozen=True)
class Game:
    """A decoded history page."""

    path: str
    game_id: str
    version: int
    setup_mode: int
    variants: tuple[int, ...]
    powers: tuple[str, ...]
    start: Snapshot
    moves: tuple[Move, ...]
    statuses: tuple[Snapshot, ...]

    @property
    def edition(self) -> str:
        return EDITION


# --------------------------------------------------------------------------- reading the page

def read_page(path: str | Path) -> Game:
    """Decode one history page file (AFS game record import)."""
    path = Path(path)
    if not path.is_file():
        raise UserError(f"history page {str(path)!r} does not exist")
    data = path.read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(path, _move_at(data[:exc.start].decode("utf-8", "replace")),
                          f"UTF-8 text (byte {exc.start} is not)") from None
    return decode_page(text, path)


def decode_page(text: str, path: str | Path = "<text>") -> Game:
    """Decode the text of a history page; `path` only names it in errors."""
    start, moves, statuses = None, {}, {}
    for m in ASSIGNMENT.finditer(text):
        name, index, value = m.group(1), m.group(2), m.group(3)
        if name == "StartStatus" and index is None:
            start = value
        elif name != "StartStatus" and index is not None:
            (moves if name == "HistoryMove" else statuses)[int(index)] = value
    if start is None:
        raise RecordError(path, SETUP, "a line `var StartStatus = '...';`")
    count = _move_count(text, path, moves, statuses)
    for i in range(count):
        if i not in moves:
            raise RecordError(path, i, f"a line `HistoryMove[{i}] = '...';`")
        if i not in statuses:
            raise RecordError(path, i, f"a line `HistoryStatus[{i}] = '...';`")
    extra = sorted((set(moves) | set(statuses)) - set(range(count)))
    if extra:
        raise RecordError(path, extra[0], f"no more than MoveCount = {count} moves")
    acres = load()
    head = _header(start, path, SETUP)
    first = decode_status(start, path, SETUP, acres)
    snaps, decoded = [], []
    for i in range(count):
        snap = decode_status(statuses[i], path, i, acres)
        if snaps and _seats(snap) != _seats(snaps[0]):
            raise RecordError(path, i, "the same sides in the same seats as in HistoryStatus[0]")
        if snap.active is None:
            raise RecordError(path, i, "an active player in the status after the move")
        if snap.variants != first.variants:
            raise RecordError(path, i, f"the scenario variants of StartStatus {list(first.variants)}")
        if snap.end.over and i != count - 1:
            raise RecordError(path, i, f"a running game before the last move ({count - 1})")
        if moves[i] == "" and snap.end.reason == "resignation":    # giving up writes an empty move
            decoded.append(Move(index=i, side=snap.active, seat=snap.sides[snap.active].seat,
                                actions=(Action("resign", ""),), raw=""))
        else:
            side = other(snap.active) if _out_of_turn(moves[i]) else snap.active
            move = decode_move(moves[i], side, snap.sides[side].seat, path, i)
            decoded.append(_continued(move, decoded))
        snaps.append(snap)
    if snaps:   # Yucata swaps the seats at the first move so that the starting player is British
        first = replace(first, sides={s: replace(st, seat=snaps[0].sides[s].seat) for s, st in first.sides.items()})
    seat_of = _seats(first)
    powers = tuple(sorted(SIDES, key=lambda s: seat_of[SIDES.index(s)]))
    return Game(path=str(path), game_id=_game_id(path), version=head["version"], setup_mode=head["setup_mode"],
                variants=first.variants, powers=powers, start=first, moves=tuple(decoded), statuses=tuple(snaps))


def _out_of_turn(text: str) -> bool:
    """Yucata's settle after a siege the defender gave up (`W`), made by the attacker while the
    defender's turn is interrupted."""
    return text.startswith("W") and len(text) in (2, 3)


def _continued(move: Move, before: list[Move]) -> Move:
    """A turn interrupted for the opponent's out-of-turn settle is recorded twice: once up to
    the interruption, and again whole after it. Mark the actions the second record repeats."""
    if len(before) < 2 or not _out_of_turn(before[-1].raw) or before[-2].side != move.side:
        return move
    done = before[-2].actions
    if move.actions[:len(done)] != done:
        return move
    return replace(move, continues=before[-2].index, repeated=len(done))


def _seats(snap: Snapshot) -> tuple[int, ...]:
    return tuple(snap.sides[s].seat for s in SIDES)


def _move_count(text: str, path: str | Path, moves: dict, statuses: dict) -> int:
    """`var MoveCount = N;` closes a whole page; without it the page was cut off, and the error
    names the first move it does not hold whole."""
    m = MOVE_COUNT.search(text)
    if m is not None:
        return int(m.group(1))
    i = 0
    while i in moves and i in statuses:
        i += 1
    what = f"HistoryStatus[{i}]" if i in moves else f"HistoryMove[{i}]"
    if i == len(moves) == len(statuses):
        raise RecordError(path, i, f"`var MoveCount = {i};` after the last move (the page ends early)")
    raise RecordError(path, i, f"a line `{what} = '...';` (the page ends early)")


def _move_at(prefix: str) -> int:
    """The move whose line holds the end of `prefix` (for errors found below the parser)."""
    hits = list(ANY_ASSIGNMENT.finditer(prefix))
    if not hits or hits[-1].group(2) is None:
        return SETUP
    return int(hits[-1].group(2))


def _game_id(path: str | Path) -> str:
    digits = re.findall(r"\d+", Path(path).stem)
    return digits[-1] if digits else Path(path).stem


# --------------------------------------------------------------------------- numbers and cards

def _num(text: str, i: int, path, move: int, what: str, top: int) -> int:
    if i >= len(text):
        raise RecordError(path, move, f"{what} at character {i}, found the end")
    v = ord(text[i]) - OFFSET
    if not 0 <= v <= top:
        raise RecordError(path, move, f"{what} (0..{top}) at character {i}, found {text[i]!r}")
    return v


def card_name(side: str, ch: str, path, move: int) -> str:
    """Our id of a Yucata card character of `side` (neutral cards as `neutral.<kind>`)."""
    if ch in NEUTRAL_CARDS:
        return NEUTRAL_PREFIX + NEUTRAL_CARDS[ch]
    v = ord(ch) - OFFSET
    locs, emp = LOCATION_CARDS[side], EMPIRE_CARDS[side]
    if 0 <= v < len(locs):
        return locs[v]
    if len(locs) <= v < len(locs) + len(emp):
        return emp[v - len(locs)]
    raise RecordError(path, move, f"a {side} card (A..I or {chr(OFFSET)}..{chr(OFFSET + len(locs) + len(emp) - 1)}), "
                                  f"found {ch!r}")


def _cards(side: str, text: str, path, move: int) -> tuple[str, ...]:
    return tuple(card_name(side, ch, path, move) for ch in text)


def _all_ids(side: str) -> list[str]:
    n = len(LOCATION_CARDS[side]) + len(EMPIRE_CARDS[side])
    return [chr(OFFSET + v) for v in range(n)]


# --------------------------------------------------------------------------- statuses

def _header(status: str, path, move: int) -> dict[str, Any]:
    groups = status.split(";")
    if len(groups) != 6:
        raise RecordError(path, move, f"a status of 6 ';'-separated groups, found {len(groups)}")
    g = groups[0]
    if len(g) < 8 or not DIGITS.fullmatch(g[:3]):
        raise RecordError(path, move, "a status header of at least 8 characters starting with 3 digits")
    variants = tuple(_num(g, i, path, move, "a scenario variant", 25) for i in range(8, len(g)))
    active = None if g[6] == "-" else _num(g, 6, path, move, "the active seat", 1)
    return {"version": int(g[0]), "state": int(g[1]), "setup_mode": int(g[2]), "active": active,
            "first_french_siege": _num(g, 7, path, move, "the first-French-siege flag", 1) == 1,
            "variants": variants}


def decode_status(status: str, path, move: int, acres: Acres | None = None) -> Snapshot:
    """One status string as a Snapshot (AFS-3 board, AFS-2.6 zones, AFS-8 sieges, AFS-15 points)."""
    acres = acres or load()
    head = _header(status, path, move)
    groups = status.split(";")
    if len(groups[1]) != len(LOCATIONS):
        raise RecordError(path, move, f"{len(LOCATIONS)} board locations, found {len(groups[1])}")
    codes = [_num(groups[1], i, path, move, "a location state", 8) for i in range(len(LOCATIONS))]
    siege_locs = groups[2].split(",")
    if len(siege_locs) != 2 or any(len(s) > 1 for s in siege_locs):
        raise RecordError(path, move, "two siege entries (empty or one location each)")
    sieged = {SIDES[t]: LOCATIONS[_num(s, 0, path, move, "a besieged location", 35)]
              for t, s in enumerate(siege_locs) if s}
    board = {loc: Place(owner=None if c == 0 else SIDES[(c - 1) // 4], piece=None if c == 0 else
                        ("village", "town")[(c - 1) % 2], fort=c in (3, 4, 7, 8), besieged=loc in sieged.values())
             for loc, c in zip(LOCATIONS, codes)}
    raw = {}
    for seat in range(2):
        fields = groups[3 + seat].split(",")
        if len(fields) != 11:
            raise RecordError(path, move, f"11 ','-separated fields for seat {seat}, found {len(fields)}")
        raw[seat] = fields
    side_of = {seat: SIDES[_num(raw[seat][0], 0, path, move, f"the side of seat {seat}", 1)] for seat in range(2)}
    if side_of[0] == side_of[1]:
        raise RecordError(path, move, "one British and one French seat")
    seat_of = {s: seat for seat, s in side_of.items()}
    held = {s: "".join(raw[seat_of[s]][k] for k in (2, 3, 4, 5, 6, 7)) for s in SIDES}
    for s in SIDES:
        dup = [c for c, n in Counter(held[s]).items() if n > 1]
        if dup:
            raise RecordError(path, move, f"each {s} card in one zone only, found {dup[0]!r} twice")
    both = set(held["british"]) & set(held["french"]) & set(NEUTRAL_CARDS)
    if both:
        raise RecordError(path, move, f"neutral card {min(both)!r} held by one side only")
    sides = {s: _side(acres, s, seat_of[s], raw, seat_of, board, head["variants"], held[s], path, move) for s in SIDES}
    sieges = tuple(_siege(acres, att, loc, raw, seat_of, board) for att, loc in sieged.items())
    neutral = tuple(NEUTRAL_PREFIX + NEUTRAL_CARDS[c] for c in NEUTRAL_CARDS
                    if c not in held["british"] and c not in held["french"])
    forts = max(FORTS - sum(p.fort for p in board.values()), 0)
    active = None if head["active"] is None else side_of[head["active"]]
    return Snapshot(active=active, board=board, sides=sides, sieges=sieges, neutral_available=neutral,
                    forts_left=forts, end=_end(head["state"], head["active"], raw, side_of, sides, path, move),
                    variants=head["variants"])


def _side(acres: Acres, side: str, seat: int, raw, seat_of, board, variants, held: str, path, move: int) -> SideState:
    f = raw[seat]
    opp = raw[seat_of[other(side)]]
    if len(f[0]) not in (10, 12):
        raise RecordError(path, move, f"a seat-{seat} flag field of 10 or 12 characters, found {len(f[0])}")
    if not NUMBER.fullmatch(f[1]):
        raise RecordError(path, move, f"the money of seat {seat} as a number, found {f[1]!r}")
    if f[10] and not NUMBER.fullmatch(f[10]):
        raise RecordError(path, move, f"the points of seat {seat} as a number or nothing, found {f[10]!r}")
    zones = [_cards(side, f[k], path, move) for k in (2, 3, 4, 5)]
    captured = [_num(f[0], 2 + k, path, move, f"the captured pieces of seat {seat}", 40) for k in (0, 1)]
    lost = [_num(opp[0], 2 + k, path, move, "the captured pieces of the other seat", 40) for k in (0, 1)]
    on_board = [sum(p.owner == side and p.piece == kind for p in board.values()) for kind in ("village", "town")]
    ids = _all_ids(side)
    n_loc = len(LOCATION_CARDS[side])
    out = _out_of_game(side, variants)
    avail_emp = tuple(card_name(side, c, path, move) for c in ids[n_loc:] if c not in held and ord(c) - OFFSET not in out)
    avail_loc = tuple(LOCATION_CARDS[side][i] for i, c in enumerate(ids[:n_loc]) if c not in held)
    vp = sum(acres.locations[loc].vp * (2 if p.piece == "town" else 1) for loc, p in board.items() if p.owner == side)
    rules = acres.rules.scoring
    return SideState(seat=seat, money=int(f[1]), hand=zones[0], reserve=zones[1], draw=zones[2][::-1], discard=zones[3],
                     siege_cards=_cards(side, f[6] + f[7], path, move), captured_cubes=captured[0],
                     captured_discs=captured[1],
                     cubes_left=max(PIECES[side][0] - on_board[0] - lost[0], 0),
                     discs_left=max(PIECES[side][1] - on_board[1] - lost[1], 0),
                     available_empire=avail_emp, available_locations=avail_loc, vp_locations=vp,
                     vp_captures=captured[0] * rules.captured_cube + captured[1] * rules.captured_disc,
                     recorded_points=int(f[10]) if f[10] else None)


def _out_of_game(side: str, variants: tuple[int, ...]) -> set[int]:
    """Empire card ids not in play under the variants (second edition: no French Bateaux
    unless scenario 21; scenario 4: three British Regular Infantry; scenario 19: Governors)."""
    out = set()
    if side == "french" and 21 not in variants:
        out.add(FRENCH_BATEAUX)
    if side == "british" and 4 in variants:
        out.update(SCEN4_BRITISH_REMOVED)
    if 19 in variants:
        out.add(SCEN19_GOVERNORS[side])
    return out


def _siege(acres: Acres, attacker: str, loc: str, raw, seat_of, board) -> Siege:
    """AFS-8.2 / AFS-8.4: the marker from the start position and the committed cards."""
    t = SIDES.index(attacker)
    defender = SIDES[1 - t]
    location = acres.locations[loc]
    cards = {s: _cards(s, raw[seat_of[s]][6 + t], "", 0) for s in SIDES}

    def value(side: str, role: str) -> int:
        return sum(siege.card_value(acres.cards[side][c.removeprefix(NEUTRAL_PREFIX)], location, role)
                   for c in cards[side])

    marker = (siege.start_position(location, board[loc].fort, acres.rules.siege)
              + value(attacker, "attacker") - value(defender, "defender"))
    return Siege(attacker=attacker, location=loc, marker=marker, attacker_cards=cards[attacker],
                 defender_cards=cards[defender])


def _end(state: int, active_seat: int | None, raw, side_of, sides, path, move: int) -> End:
    """AFS-15: Yucata's game state (0 running, 1 over, 2 resigned). Its winner flag 3 marks an
    immediate win; a normal end flags the French seat whoever won, so the winner is the higher
    total (AFS-15.3). A resignation is taken as the active seat's (the page does not say)."""
    if state == 0:
        return End(over=False)
    flags = {side_of[seat]: _num(raw[seat][0], 8, path, move, f"the winner flag of seat {seat}", 3) for seat in range(2)}
    if state == 2:
        loser = None if active_seat is None else side_of[active_seat]
        return End(over=True, winner=None if loser is None else other(loser), reason="resignation")
    immediate = [s for s, v in flags.items() if v == 3]
    if immediate:                                   # AFS-15.1: a capital (or Fort Duquesne, scenario 2) taken
        return End(over=True, winner=immediate[0], reason="capital")
    total = {s: st.vp_locations + st.vp_captures for s, st in sides.items()}
    winner = "british" if total["british"] > total["french"] else "french"      # AFS-15.3.3: a tie is French
    pieces = any(st.cubes_left == 0 or st.discs_left == 0 for st in sides.values())
    return End(over=True, winner=winner, reason="pieces" if pieces else "captures")


# --------------------------------------------------------------------------- moves

def decode_move(text: str, side: str, seat: int, path, move: int) -> Move:
    """One HistoryMove string of `side`: comma-separated actions, each a code character and its
    arguments, or one of Yucata's single bookkeeping moves (side choice, French start card,
    settling after a siege)."""
    if text.startswith(("OS", "FC")) or _out_of_turn(text):
        actions = [_special(text, side, path, move)]
    else:
        actions = [_action(part, side, path, move) for part in text.split(",") if part]
    if not actions:
        raise RecordError(path, move, "at least one action in the move")
    return Move(index=move, side=side, seat=seat, actions=tuple(actions), raw=text)


def _special(text: str, side: str, path, move: int) -> Action:
    if text.startswith("OS"):
        return Action("choose_side", "OS", detail={"side": SIDES[_num(text, 2, path, move, "a side", 1)]})
    if text.startswith("FC"):
        return Action("start_card", "FC", cards=_cards(side, text[2:3], path, move))
    loc = LOCATIONS[_num(text, 1, path, move, "a location", 35)]
    return Action("settle_after_siege", "W", cards=_cards(side, text[2:], path, move), locations=(loc,), free=True,
                  detail={"settled": len(text) == 3})


def _action(part: str, side: str, path, move: int) -> Action:
    action = _decode_action(part, side, path, move)
    low, high = CARDS_PLAYED.get(action.kind, (0, None))
    if len(action.cards) < low or (high is not None and len(action.cards) > high):
        most = "" if high == low else f"..{high}" if high is not None else " or more"
        raise RecordError(path, move, f"a {action.kind} with {low}{most} cards, found {len(action.cards)} in {part!r}")
    return action


def _decode_action(part: str, side: str, path, move: int) -> Action:
    code = _num(part, 0, path, move, "an action code", 60)
    if code not in KINDS:
        raise RecordError(path, move, f"an action code in {sorted(KINDS)}, found {code}")
    kind = KINDS[code]
    opp = other(side)
    free = kind in FREE_KINDS or code in FREE_CODES

    def cards(text: str) -> tuple[str, ...]:
        return _cards(side, text, path, move)

    def loc(i: int) -> str:
        return LOCATIONS[_num(part, i, path, move, "a location", 35)]

    if code in (0, 1, 2, 3, 4, 7):
        return Action(kind, code, cards=cards(part[2:]), locations=(loc(1),), free=free)
    if kind == "raid":
        if len(part) >= 4 and part[-2] == "R":
            return Action(kind, code, cards=cards(part[2:-2]), locations=(loc(1),), free=free,
                          detail={"blocked_by": card_name(opp, part[-1], path, move)})
        return Action(kind, code, cards=cards(part[2:]), locations=(loc(1),), free=free)
    if kind in ("ambush", "priest"):
        return _targeted(kind, code, part, side, opp, free, path, move)
    if kind == "pass":
        if part[1:] != "P":
            raise RecordError(path, move, f"a pass written {chr(OFFSET + 20)}P, found {part!r}")
        return Action(kind, code)
    if kind == "withdraw":
        if len(part) != 4 or part[1] not in "01":
            raise RecordError(path, move, f"a withdraw of 4 characters (siege 0/1, location, card or '-'), found {part!r}")
        return Action(kind, code, cards=() if part[3] == "-" else cards(part[3]), locations=(loc(2),), free=True,
                      detail={"attacker": SIDES[int(part[1])]})
    if kind == "siege_won":
        return _siege_won(part, side, path, move)
    if kind == "recruit" and len(part) == 2 and ord(part[1]) - OFFSET in START_COPIES[side]:
        return Action(kind, code, cards=cards(part[1:]), detail={"start_copy": True})
    return Action(kind, code, cards=cards(part[1:]), free=free,
                  detail={"reason": FREE_CODES[code]} if code in FREE_CODES else {})


def _targeted(kind: str, code: int, part: str, side: str, opp: str, free: bool, path, move: int) -> Action:
    """Ambush (AFS-10) and Priest / Indian Leader (AFS-11): `C` no target (hand shown), `B` +
    blocking card, `T` + the card taken + the zone it came from."""
    played = _cards(side, part[1:2], path, move)
    result = part[2:3]
    if result == "C" and len(part) == 3:
        return Action(kind, code, cards=played, free=free, detail={"result": "no_target"})
    if result == "B" and len(part) == 4 and kind == "ambush":
        return Action(kind, code, cards=played, free=free,
                      detail={"result": "blocked", "blocked_by": card_name(opp, part[3], path, move)})
    if result == "T" and len(part) == 5:
        zone = _num(part, 4, path, move, "the zone of the card taken", 3)
        if zone not in ZONES:
            raise RecordError(path, move, f"the zone of the card taken (0 reserve, 1 hand, 3 siege), found {zone}")
        return Action(kind, code, cards=played, free=free,
                      detail={"result": "taken", "taken": card_name(opp, part[3], path, move), "from": ZONES[zone]})
    raise RecordError(path, move, f"a {kind} result C, B+card or T+card+zone, found {part!r}")


def _siege_won(part: str, side: str, path, move: int) -> Action:
    """Yucata's siege check (AFS-8.8): siege 0/1, the loser's returned card (`L`+card or `XX`),
    and for an attacker's win the captured piece (`C` disc, `D` cube) and whether he settled."""
    if len(part) < 4 or part[1] not in "01":
        raise RecordError(path, move, f"a siege result (siege 0/1, L+card or XX, ...), found {part!r}")
    attacker = SIDES[int(part[1])]
    loser = other(side)
    if part[2:4] == "XX":
        lost: tuple[str, ...] = ()
    elif part[2] == "L":
        lost = (card_name(loser, part[3], path, move),)
    else:
        raise RecordError(path, move, f"the siege loser's card as L+card or XX, found {part[2:4]!r}")
    rest = part[4:]
    detail: dict[str, Any] = {"attacker": attacker, "winner": side, "returned": list(lost)}
    if side == attacker:
        if len(rest) != 2 or rest[0] not in WON_CAPTURE or rest[1] not in WON_SETTLE:
            raise RecordError(path, move, f"the attacker's capture C/D and settle B/N, found {rest!r}")
        detail.update(captured=WON_CAPTURE[rest[0]], settled=WON_SETTLE[rest[1]])
    elif rest:
        raise RecordError(path, move, f"nothing after a defender's siege win, found {rest!r}")
    return Action("siege_won", 30, free=True, detail=detail)


# --------------------------------------------------------------------------- the game record

POWERS_STRATEGY = "human"


def record(game: Game) -> tuple[dict, list[dict]]:
    """The project's game record of an imported game: the `empires replay` header (the Yucata
    game number as game index, seed 0: the recorded draws replace any shuffle) and the events
    `setup` (the whole snapshot), then per move `move` and `status` (the snapshot's changed
    leaves; `record.snapshots` rebuilds the whole ones; docs/acres_yucata.md)."""
    head = game_header(GAME, 0, int(game.game_id) if game.game_id.isdigit() else 0,
                       Seating(game.powers, (POWERS_STRATEGY,) * len(game.powers)))
    head.update(source="yucata", yucata_game=game.game_id, file=Path(game.path).name, edition=game.edition,
                variants=list(game.variants), status_version=game.version, setup_mode=game.setup_mode,
                moves=len(game.moves))
    before = game.start.as_dict()
    events = [{"event": "setup", "move": SETUP, "snapshot": before}]
    for move, snap in zip(game.moves, game.statuses):
        after = snap.as_dict()
        events.append({"event": "move", "move": move.index, "side": move.side, "seat": move.seat,
                       "text": describe(move), "raw": move.raw, "continues": move.continues,
                       "repeated": move.repeated, "actions": [asdict(a) for a in move.actions]})
        events.append({"event": "status", "move": move.index, "changed": changes(before, after)})
        before = after
    return head, events


def describe(move: Move) -> str:
    """One readable line: `settle fort_halifax with pemaquid, st_marys; recruit leader`."""
    parts = []
    for a in move.actions[move.repeated:]:
        text = a.kind + "".join(f" {loc}" for loc in a.locations)
        if a.cards:
            text += (" with " if a.locations else ": ") + ", ".join(a.cards)
        extra = {k: v for k, v in a.detail.items() if v not in ((), [], None)}
        if extra:
            text += " (" + ", ".join(f"{k} {v}" for k, v in extra.items()) + ")"
        parts.append(text)
    return "; ".join(parts) or "(the interrupted turn again, nothing new)"
