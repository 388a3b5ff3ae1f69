"""`empires play struggle ...` (whole games with scripted players) and `empires replay FILE`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from sim.cli.common import add_json, add_overrides, add_seed, emit_json, int_in, print_table
from sim.core.errors import UserError
from sim.core.metadata import result_metadata
from sim.core.seating import Seating
from sim.core.stats import wilson_interval


def register(groups: dict) -> None:
    from sim.cli import Parser

    root = groups["_root"]
    if groups.get("play") is None:
        sub = root.add_parser("play", help="play whole games with scripted players",
                              description="play whole games with scripted players")
        groups["play"] = sub.add_subparsers(dest="game", required=True, metavar="GAME", parser_class=Parser)
    parser = groups["play"].add_parser("struggle", help="Struggle of Empires games with scripted players")
    parser.add_argument("--players", type=int_in(2, 7, "players"), default=4, help="players per game (2-7)")
    parser.add_argument("--strategies", default="colonial,european,mixed,random",
                        help="comma-separated strategies, one per seat or cycled (random, colonial, european, "
                             "mixed, opportunist)")
    parser.add_argument("--games", type=int_in(1, 10**7, "games"), default=100)
    parser.add_argument("--jobs", type=int_in(1, 64, "jobs"), default=1, help="worker processes")
    parser.add_argument("--out", help="write the results table (.parquet or .csv)")
    parser.add_argument("--log", help="write the JSONL event log of every game (see `empires replay`)")
    add_seed(parser)
    add_overrides(parser)
    add_json(parser)
    parser.set_defaults(handler=play)
    if groups.get("replay") is None:
        rep = root.add_parser("replay", help="print a readable account of games from an event log")
        rep.add_argument("log", help="JSONL event log written by `empires play struggle --log`")
        rep.add_argument("--game", type=int, default=None, help="only this game index")
        rep.set_defaults(handler=replay)
        groups["replay"] = rep


def seatings_for(players: int, strategies: list[str], games: int, powers: tuple[str, ...]) -> list[Seating]:
    """Strategies cycle over seats; seats rotate every game and powers rotate too, so every
    strategy meets every seat and power equally often."""
    out = []
    for i in range(games):
        strat = tuple(strategies[(j + i) % len(strategies)] for j in range(players))
        pw = tuple(powers[(j + i // players) % len(powers)] for j in range(players))
        out.append(Seating(pw, strat))
    return out


def play(args: argparse.Namespace) -> int:
    from sim.struggle.components import load_components
    from sim.struggle.play import INFO, play_games
    from sim.struggle.players import STRATEGIES

    strategies = [s.strip() for s in args.strategies.split(",") if s.strip()]
    if not strategies:
        raise UserError(f"--strategies {args.strategies!r}: name at least one of {', '.join(STRATEGIES)}")
    for s in strategies:
        if s not in STRATEGIES:
            raise UserError(f"strategy {s!r} is unknown; allowed: {', '.join(STRATEGIES)}")
    if args.out and not args.out.endswith((".parquet", ".csv")):
        raise UserError(f"--out {args.out!r}: use a .parquet or .csv file name")
    for path in filter(None, (args.out, args.log)):       # fail before playing, not after
        writable_file(path)
    if args.jobs > 1 and args.log:
        sys.stderr.write("empires: note: --log records every game in one process; --jobs is ignored\n")
    comp = load_components(args.overrides, args.variants)
    seatings = seatings_for(args.players, strategies, args.games, INFO.powers)
    indices = list(range(args.games))
    if args.jobs > 1 and not args.log:
        from joblib import Parallel, delayed
        chunks = [indices[i::args.jobs] for i in range(args.jobs)]
        frames = Parallel(n_jobs=args.jobs)(delayed(play_games)(args.seed, c, [seatings[i] for i in c], comp)
                                            for c in chunks if c)
        import pandas as pd
        df = pd.concat(frames, ignore_index=True).sort_values(["game_index", "seat"], ignore_index=True)
    else:
        df = play_games(args.seed, indices, seatings, comp, log=args.log)
    provenance = result_metadata(comp.data, args.seed, assumed_prefixes=["options", "strategies"],
                                 players=args.players, strategies=strategies, games=args.games)
    if args.out:
        tmp = Path(args.out).with_name(Path(args.out).name + ".tmp")
        (df.to_parquet if args.out.endswith(".parquet") else df.to_csv)(tmp, index=False)
        tmp.replace(args.out)
        Path(args.out + ".provenance.json").write_text(json.dumps(provenance, indent=2, default=str), "utf-8")
    rows = []
    for name, part in df.groupby("strategy"):
        wins = int(part.winner.sum())
        low, high = wilson_interval(wins, len(part))
        rows.append({"strategy": name, "seats": len(part), "wins": wins, "win_rate": wins / len(part),
                     "ci95": [low, high], "mean_vp": float(part.vp.mean()), "revolutions": int(part.revolution.sum())})
    if args.json:
        emit_json({"games": args.games, "players": args.players, "results": rows,
                   "provenance": provenance})
        return 0
    print(f"{args.games} games of {args.players} players, seed {args.seed} (shared wins count for every winner)")
    print_table([(r["strategy"], r["seats"], r["wins"], f"{r['win_rate']:.3f}",
                  f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]", f"{r['mean_vp']:.1f}", r["revolutions"]) for r in rows],
                ["strategy", "seats", "wins", "win rate", "95% CI", "mean VP", "revolutions"])
    return 0


def writable_file(path: str) -> None:
    """Create the file's folder if needed; a UserError if the file cannot be written there."""
    folder = Path(path).resolve().parent
    folder.mkdir(parents=True, exist_ok=True)
    if not os.access(folder, os.W_OK) or Path(path).is_dir():
        raise UserError(f"{path}: cannot write this file (folder not writable, or a folder of that name)")


def replay(args: argparse.Namespace) -> int:
    from sim.struggle.replay import account, read_games

    shown = 0
    try:
        for head, events in read_games(args.log):
            if args.game is not None and head["game_index"] != args.game:
                continue
            print("\n".join(account(head, events)))
            shown += 1
    except (UnicodeDecodeError, json.JSONDecodeError, KeyError):
        raise UserError(f"{args.log}: not an event log written by `empires play struggle --log`") from None
    if shown == 0:
        raise UserError(f"no game {args.game} in {args.log}" if args.game is not None else f"{args.log} holds no game")
    return 0
