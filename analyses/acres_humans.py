"""How people play A Few Acres of Snow: one row per imported game (`empires import acres`).

From a game record (header and events, `sim.core.replay.read_games`) alone: game length in
moves and turns, the winner's side and the end reason (AFS-15), cards recruited per side
(AFS-13.1), sieges started and won per side (AFS-8), raids made and raids that hit (AFS-9), and
money over time (`money_table`, one row per game, move and side). Simulated games (the engine's
event logs of `play_games` with scripted players) get the same columns (`simulated_row`,
`simulated_money`), so `report_section` puts human and scripted play side by side.
"""

from __future__ import annotations

import html as html_lib
from collections.abc import Iterable, Sequence
from pathlib import Path

import pandas as pd

from analyses import html
from sim.acres import play, yucata
from sim.acres.components import SIDES
from sim.acres.record import snapshots
from sim.acres.snapshot import REASONS
from sim.core import runner
from sim.core.seating import Seating
from sim.core.store import atomic_write

Record = tuple[dict, list[dict]]
OUT_OF_TURN = "settle_after_siege"
PAGES = Path(__file__).resolve().parents[1] / "tests" / "acres" / "yucata_games"
HUMAN_PAGES = ("game_8604012.js", "game_10348395.js", "game_10400521.js", "game_10415909.js", "game_10506048.js")
# Scripted tables for the comparison: every British plan against every French one (players issue).
BRITISH_PLANS = ("hammer", "settler", "balanced")
FRENCH_PLANS = ("raider", "fortress", "balanced")
# The human games are second-edition games; the scripted ones play its rules (recommended readings).
SECOND_EDITION = ('rules.game.edition="second"',)
SIDE_COLUMNS = ("recruited", "sieges_started", "sieges_won", "raids", "raids_hit", "discards", "home_support",
                "final_vp")


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
        row[f"{side}_discards"] = sum(a["kind"] == "discard" for a in acts)              # AFS-13.2, as an action
        row[f"{side}_home_support"] = sum(a["kind"] == "home_support" for a in acts)     # AFS-13.7, played
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


def simulated_row(record: Record) -> dict:
    """`game_row` of a simulated game, from its engine event log (sim.acres.engine.Engine.log):
    a move is a turn; a siege that takes a capital shows as the end reason `capital` only."""
    head, events = record
    end = next(e for e in events if e["event"] == "end")
    turns = sum(e["event"] == "turn" for e in events)
    row = {"game": head["game_index"], "source": "engine", "variants": [], "moves": turns, "turns": turns,
           "winner": end["winner"], "end_reason": REASONS.get(end["reason"], end["reason"])}
    for q, side in enumerate(SIDES):
        mine = [e for e in events if e.get("side") == q]
        won = sum(e["event"] == "siege_won" and e["role"] == "attacker" for e in mine)
        row[f"{side}_recruited"] = sum(e["event"] == "action" and e["action"] == "Recruit" for e in mine)
        row[f"{side}_sieges_started"] = sum(e["event"] == "action" and e["action"] == "Besiege" for e in mine)
        row[f"{side}_raids"] = sum(e["event"] == "raid" for e in mine)
        row[f"{side}_raids_hit"] = sum(e["event"] == "raid" and not e["blocked"] for e in mine)
        row[f"{side}_discards"] = sum(e["event"] == "action" and e["action"] == "Discard" for e in mine)
        row[f"{side}_home_support"] = sum(e["event"] == "action" and e["action"] == "HomeSupport" for e in mine)
        row[f"{side}_final_vp"] = end["scores"][q]
        row[f"{side}_sieges_won"] = won - (row["end_reason"] == "capital" and end["winner"] == side)
    return row


def simulated_money(records: Iterable[Record]) -> pd.DataFrame:
    """`money_table` of simulated games: the money at the start of turn k is after move k - 2
    (move -1 is the setup)."""
    rows = []
    for head, events in records:
        for e in events:
            if e["event"] in ("setup", "turn") and (e["event"] == "setup" or e["turn"] >= 2):
                move = -1 if e["event"] == "setup" else e["turn"] - 2
                rows += [{"game": head["game_index"], "move": move, "side": side, "money": e["money"][q]}
                         for q, side in enumerate(SIDES)]
    return pd.DataFrame(rows)


def human_records(pages: Sequence[Path] | None = None) -> list[Record]:
    """The imported records of the Yucata pages (default: the five shared games)."""
    return [yucata.record(yucata.read_page(p)) for p in (pages or [PAGES / n for n in HUMAN_PAGES])]


def scripted_seatings(games: int) -> list[tuple[int, Seating]]:
    """Game i: the British plan i mod 3 against the French plan (i div 3) mod 3, British in seat 0."""
    return [(i, Seating(("british", "french"), (BRITISH_PLANS[i % 3], FRENCH_PLANS[(i // 3) % 3])))
            for i in range(games)]


def _logged(table: pd.DataFrame, logged: Iterable[Record]) -> list[Record]:
    return list(logged)


def simulate(games: int, seed: int, jobs: int = 1, overrides: tuple[str, ...] = SECOND_EDITION) -> list[Record]:
    """Scripted games with their event logs, on `jobs` processes (`runner.play_logged`); each
    game depends only on its (seed, index) streams, so the records are the same for any `jobs`."""
    parts = runner.play_logged("sim.acres.play", seed, scripted_seatings(games), play.load_data(overrides), jobs,
                               _logged)
    return [record for part in parts for record in part]


def comparison(humans: pd.DataFrame, scripted: pd.DataFrame) -> pd.DataFrame:
    """One row per figure, the human and the scripted value side by side (means per game)."""
    def figures(t: pd.DataFrame) -> dict:
        out = {"games": len(t), "median turns": float(t.turns.median()),
               "British wins": float((t.winner == "british").mean())}
        for reason in ("capital", "pieces", "captures", "resignation", "turn limit"):
            out[f"end: {reason}"] = float((t.end_reason == reason).mean())
        for side in SIDES:
            for col in SIDE_COLUMNS:
                out[f"{side} {col.replace('_', ' ')}"] = float(t[f"{side}_{col}"].mean())
        return out
    h, s = figures(humans), figures(scripted)
    return pd.DataFrame({"figure": list(h), "humans": list(h.values()), "scripted": [s[k] for k in h]})


def money_by_move(money: pd.DataFrame, last: int) -> pd.DataFrame:
    """Mean money per side after each move up to `last` (columns british, french)."""
    kept = money[money.move <= last]
    return kept.groupby(["move", "side"]).money.mean().unstack("side")[list(SIDES)]


def _money_png(path: Path, humans: pd.DataFrame, scripted: pd.DataFrame) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(7, 3.5))
    for table, style, who in ((humans, "-", "humans"), (scripted, "--", "scripted")):
        for side, colour in zip(SIDES, ("tab:red", "tab:blue")):
            ax.plot(table.index, table[side], style, color=colour, label=f"{side}, {who}")
    ax.set_xlabel("move")
    ax.set_ylabel("mean money")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def finding(table: pd.DataFrame) -> str:
    """The one-sentence finding: game length, recruits and sieges, human against scripted."""
    f = dict(zip(table.figure, zip(table.humans, table.scripted)))

    def pair(key: str, digits: int = 1) -> str:
        h, s = f[key]
        return f"{s:.{digits}f} against {h:.{digits}f}"
    return (f"Scripted games last a median {pair('median turns', 0)} turns of the {int(f['games'][0])} Yucata games; "
            f"scripted sides recruit {pair('british recruited')} (British) and {pair('french recruited')} (French) "
            f"cards, start {pair('british sieges started')} British and {pair('french sieges started')} French "
            f"sieges, and discard as an action {pair('british discards')} (British) and {pair('french discards')} "
            f"(French) times per game.")


def report_section(folder: Path, games: int = 100, seed: int = 1, jobs: int = 1, overrides: tuple[str, ...] = ()
                   ) -> tuple[str, list[str]]:
    """Human against scripted play for the balance report: (the one-sentence finding, HTML
    fragments); `acres_humans.csv` (both tables of games), `acres_humans_compare.csv` and
    `acres_humans_money.png` are written in `folder`. A report's `overrides` are not applied: the
    scripted games are compared with human games played under the second edition as Yucata
    enforces it, so they play those rules; the page says so."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    humans_records = human_records()
    simulated = simulate(games, seed, jobs)
    humans = humans_table(humans_records)
    scripted = pd.DataFrame([simulated_row(r) for r in simulated])
    pd.concat([humans, scripted]).to_csv(folder / "acres_humans.csv", index=False)
    table = comparison(humans, scripted)
    table.to_csv(folder / "acres_humans_compare.csv", index=False)
    last = int(humans.moves.min()) - 1
    _money_png(folder / "acres_humans_money.png", money_by_move(money_table(humans_records), last),
               money_by_move(simulated_money(simulated), last))
    sentence = finding(table)
    rows = [[r.figure, html.sig(r.humans), html.sig(r.scripted)] for r in table.itertuples()]
    fragments = [
        "<h3>Human and scripted play</h3>",
        html.summary(sentence),
        html.table(rows, ["figure (mean per game)", f"humans ({len(humans)} Yucata games)",
                          f"scripted ({games} games)"]),
        html.figure("acres_humans_money.png", "mean money per side after each move, humans and scripted"),
        (f"<p>The five shared Yucata games (second edition, imported with <code>empires import acres</code>) "
         f"against {games} scripted games under the second edition (seed {seed}): every British plan "
         f"({', '.join(BRITISH_PLANS)}) against every French one ({', '.join(FRENCH_PLANS)}). A move is one "
         f"player's turn; a siege that takes a capital counts in the end reason only.</p>"),
    ]
    if overrides:
        fragments.append(f"<p><strong>Note:</strong> this comparison plays the rules of the human games, not this "
                         f"report's overrides ({html_lib.escape(', '.join(o.split('=', 1)[0] for o in overrides))}).</p>")
    return sentence, fragments
