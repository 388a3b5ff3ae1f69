"""How people play A Few Acres of Snow: one row per imported game (`empires import acres`).

From a game record (header and events, `sim.core.replay.read_games`) alone: game length in
moves and turns, the winner's side and the end reason (AFS-15), cards recruited per side
(AFS-13.1), sieges started and won per side (AFS-8), raids made and raids that hit (AFS-9), and
money over time (`money_table`, one row per game, move and side). Simulated games will get the
same columns once the engine writes the same events, so human and scripted play sit side by
side.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from sim.acres.components import SIDES
from sim.acres.record import snapshots
from sim.core.store import atomic_write

Record = tuple[dict, list[dict]]
OUT_OF_TURN = "settle_after_siege"


def _new_actions(move: dict) -> list[dict]:
    """The actions a move adds (an interrupted turn recorded again repeats its first ones)."""
    return move["actions"][move.get("repeated", 0):]


def _turns(moves: Sequence[dict]) -> int:
    """AFS-5.1 turns: moves less Yucata's out-of-turn settles and the turn parts recorded before
    them (the whole turn is recorded again after the settle)."""
    out = [m["actions"][0]["kind"] == OUT_OF_TURN for m in moves]
    return sum(not o and not (i + 1 < len(out) and out[i + 1]) for i, o in enumerate(out))


def game_row(record: Record) -> dict:
    """One game's summary (AFS-8, AFS-9, AFS-13.1, AFS-15)."""
    head, events = record
    moves = [e for e in events if e["event"] == "move"]
    last = snapshots(events)[-1]
    row = {"game": head["game_index"], "source": head.get("source", "engine"), "variants": head.get("variants", []),
           "moves": len(moves), "turns": _turns(moves), "winner": last["end"]["winner"],
           "end_reason": last["end"]["reason"]}
    for side in SIDES:
        acts = [a for m in moves if m["side"] == side for a in _new_actions(m)]
        row[f"{side}_recruited"] = sum(a["kind"] == "recruit" for a in acts)
        row[f"{side}_sieges_started"] = sum(a["kind"] == "besiege" for a in acts)
        row[f"{side}_raids"] = sum(a["kind"] == "raid" for a in acts)
        row[f"{side}_raids_hit"] = sum(a["kind"] == "raid" and "blocked_by" not in a["detail"] for a in acts)
        row[f"{side}_final_vp"] = last["sides"][side]["vp_locations"] + last["sides"][side]["vp_captures"]
    for side in SIDES:
        row[f"{side}_sieges_won"] = _sieges_won(moves, side)
    return row


def _sieges_won(moves: Sequence[dict], attacker: str) -> int:
    """Sieges `attacker` started and won: a recorded siege win (AFS-8.9) or a defender giving the
    siege up (Yucata's withdraw by the defender, docs/acres_yucata.md). A capital siege that ends
    the game before it is resolved shows as the end reason `capital` instead."""
    def won(move: dict, a: dict) -> bool:
        if a["kind"] == "siege_won":
            return a["detail"]["attacker"] == attacker == a["detail"]["winner"]
        return a["kind"] == "withdraw" and a["detail"]["attacker"] == attacker != move["side"]

    return sum(won(m, a) for m in moves for a in _new_actions(m))


def humans_table(records: Iterable[Record]) -> pd.DataFrame:
    """One row per game record; columns as in `game_row`."""
    return pd.DataFrame([game_row(r) for r in records])


def money_table(records: Iterable[Record]) -> pd.DataFrame:
    """Money of each side after setup (move -1) and after every move, one row per game, move and side."""
    rows = []
    for head, events in records:
        moves = [-1] + [e["move"] for e in events if e["event"] == "status"]
        for move, snap in zip(moves, snapshots(events)):
            rows += [{"game": head["game_index"], "move": move, "side": side, "money": snap["sides"][side]["money"]}
                     for side in SIDES]
    return pd.DataFrame(rows)


def write_csv(records: Sequence[Record], path: str | Path) -> tuple[Path, Path]:
    """`path` gets the per-game table, `<stem>_money.csv` beside it the money over time."""
    path = Path(path)
    money = path.with_name(f"{path.stem}_money.csv")
    atomic_write(path, lambda tmp: humans_table(records).to_csv(tmp, index=False))
    atomic_write(money, lambda tmp: money_table(records).to_csv(tmp, index=False))
    return path, money
