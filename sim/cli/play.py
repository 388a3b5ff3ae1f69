"""`empires play GAME ...` (whole games with scripted players) and `empires replay FILE`, for every
registered game.

`play` seats the strategies by `sim.core.design.rotation` and plays the games through the runner
(`sim.core.runner.play_listed`), so `--jobs` changes the speed, never the games. `replay` reads
any game's log (`sim.core.replay`) and prints it with the game's own `account` where it has one.
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pandas as pd

from sim import games
from sim.cli import game_verb
from sim.cli.common import (add_json, add_overrides, add_seed, emit_json, in_file, int_in, out_file, print_table,
                            strategy_list)
from sim.core import replay as core_replay
from sim.core import runner
from sim.core.contract import GameInfo, strategy_sides
from sim.core.design import rotation
from sim.core.errors import UserError, require
from sim.core.stats import wilson_interval
from sim.core.store import atomic_write

TEXT = "play whole games with scripted players"
UNNAMED_LOG_GAME = "struggle"  # logs written before their headers named the game are SoE logs


def register(groups: dict) -> None:
    group = game_verb(groups, "play", TEXT)
    for game in games.names():
        _play_parser(group, game)
    root = groups["_root"]
    if "replay" not in root.choices:
        parser = root.add_parser("replay", help="print a readable account of games from an event log",
                                 description="print a readable account of games from an event log")
        parser.add_argument("log", type=in_file, help="JSONL event log written by `empires play GAME --log`")
        parser.add_argument("--game", type=int_in(0, None, "game"), default=None, help="only this game index")
        parser.add_argument("--verify", action="store_true",
                            help="replay an imported record through the game's engine and compare every "
                                 "recorded state (exit code 1 on a mismatch)")
        add_json(parser)
        parser.set_defaults(handler=replay)


def _play_parser(group, game: str) -> None:
    parser = group.add_parser(game, help=f"{game} games with scripted players", description=TEXT)
    parser.add_argument("--players", type=int_in(name="players"),
                        help="players per game (default: the number of strategies, within the game's range)")
    parser.add_argument("--strategies", metavar="A,B,...",
                        help="comma-separated strategies (with +interventions), one per seat or cycled "
                             "(default: the game's strategies)")
    parser.add_argument("--games", type=int_in(1, 10**7, "games"), default=100)
    parser.add_argument("--jobs", type=int_in(1, 64, "jobs"), default=1, help="worker processes")
    parser.add_argument("--out", type=out_file(".parquet", ".csv"),
                        help="write the results table to this .parquet or .csv file (its folder must exist)")
    parser.add_argument("--log", type=out_file(), help="write the JSONL event log of every game (see `empires replay`)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_seed(parser)
    add_overrides(parser)
    add_json(parser)
    parser.set_defaults(handler=play)


def player_count(engine: ModuleType, players: int | None, strategies: list[str]) -> int:
    """--players, or one seat per strategy of the game's default lineup, or one per strategy
    given (within the game's range)."""
    info = engine.INFO
    if players is None:
        players = len(info.lineup) or min(max(info.min_players, len(strategies)), info.max_players)
    require(info.min_players <= players <= info.max_players,
            f"--players {players} is out of range; {info.name} allows {info.min_players}..{info.max_players}")
    return players


def play(args: argparse.Namespace) -> int:
    engine = games.load(args.game)
    strategies = strategy_list(engine.INFO, args.strategies)
    players = player_count(engine, args.players, strategies)
    data = games.load_data(args.game, engine, args.overrides, args.variants, strategies)
    games.check_strategies(args.game, engine, data, strategies)
    seatings = rotation(engine.INFO.powers, players, strategies, args.games, strategy_sides(engine, data))
    df = runner.play_listed(games.module_path(args.game), args.seed, list(enumerate(seatings)), data,
                            args.jobs, args.quiet, args.log)
    provenance = {"game": args.game, "seed": args.seed, **runner.provenance(data, engine),
                  "players": players, "strategies": strategies, "games": args.games}
    if args.out:
        write_results(df, args.out, provenance)
    rows = summary(df)
    from analyses.tournament import endings
    ended = endings(df)
    levels = by_level(df, engine.INFO)
    if args.json:
        emit_json({"game": args.game, "games": args.games, "players": players, "results": rows, **levels,
                   **({"endings": ended} if ended else {}), "provenance": provenance})
        return 0
    print(f"{args.games} games of {players} players, seed {args.seed} (shared wins count for every winner)")
    print_summary(rows, engine.INFO.vp_label)
    print_levels(levels, engine.INFO)
    if ended:
        print()
        print_endings(ended, engine.INFO.vp_label)
    return 0


def summary(df: pd.DataFrame) -> list[dict]:
    """Per strategy: seats, wins, win rate with its Wilson 95 % interval, mean `vp`, and the
    revolutions where the game has them (a `revolution` column: Struggle of Empires)."""
    rows = []
    for name, part in df.groupby("strategy"):
        wins = int(part.winner.sum())
        low, high = wilson_interval(wins, len(part))
        row = {"strategy": name, "seats": len(part), "wins": wins, "win_rate": wins / len(part),
               "ci95": [low, high], "mean_vp": float(part.vp.mean())}
        if "revolution" in df.columns:
            row["revolutions"] = int(part.revolution.sum())
        rows.append(row)
    return rows


def by_level(df: pd.DataFrame, info: GameInfo) -> dict[str, dict]:
    """Win rates by power and by seat (`analyses.tournament.summarise`, as `empires analyse`
    gives them), so that a side's or a seat's edge shows without a run folder: with one strategy
    on every seat, or the same strategies on both sides, the strategy table cannot show it. No
    seat table where the rules, not the seat, decide who moves first (`GameInfo.turn_order`)."""
    from analyses.tournament import summarise
    tables = summarise(df)
    return {"by_power": tables["by_power"], **({} if info.turn_order else {"by_seat": tables["by_seat"]})}


def print_levels(levels: dict[str, dict], info: GameInfo) -> None:
    """The tables of `by_level` under the strategy table, in its columns."""
    for key, column in (("by_power", "power"), ("by_seat", "seat")):
        print()
        if key not in levels:
            print(f"seats: only labels here, {info.turn_order}")
            continue
        print_table([(level, r["n"], int(round(r["win_rate"] * r["n"])), f"{r['win_rate']:.3f}",
                      f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]", f"{r['mean_vp']:.1f}")
                     for level, r in levels[key].items()],
                    [column, "seats", "wins", "win rate", "95% CI", f"mean {info.vp_label}"])


def print_summary(rows: list[dict], vp_label: str) -> None:
    revolutions = ["revolutions"] if rows and "revolutions" in rows[0] else []
    print_table([(r["strategy"], r["seats"], r["wins"], f"{r['win_rate']:.3f}",
                  f"[{r['ci95'][0]:.3f}, {r['ci95'][1]:.3f}]", f"{r['mean_vp']:.1f}", *(r[k] for k in revolutions))
                 for r in rows],
                ["strategy", "seats", "wins", "win rate", "95% CI", f"mean {vp_label}", *revolutions])


def print_endings(ended: dict, vp_label: str) -> None:
    """How the games ended (`analyses.tournament.endings`), each reason with its Wilson 95 %
    interval, and what the turn cap means for the wins above (COE-25.3)."""
    from analyses.tournament import turn_cap_note
    print("games ended by: " + "; ".join(
        f"{r['reason']} {r['games']} ({100 * r['share']:.3g} %, "
        f"95 % CI {100 * r['ci95'][0]:.3g}-{100 * r['ci95'][1]:.3g} %)" for r in ended["reasons"]))
    if any(r["reason"] == "turn_cap" for r in ended["reasons"]):
        print(f"turn_cap: {turn_cap_note(vp_label)}; the wins above count them")


def write_results(df: pd.DataFrame, out: Path, provenance: dict) -> None:
    """The table (written to a temporary file, then renamed: never half a table) and its provenance."""
    atomic_write(out, lambda tmp: (df.to_parquet if out.suffix == ".parquet" else df.to_csv)(tmp, index=False))
    out.with_name(out.name + ".provenance.json").write_text(json.dumps(provenance, indent=2, default=str), "utf-8")


def replay(args: argparse.Namespace) -> int:
    require(args.verify or not args.json, "--json: only with --verify")
    shown, failed = 0, False
    try:
        for head, events in core_replay.read_games(args.log):
            if args.game is not None and head["game_index"] != args.game:
                continue
            if args.verify:
                failed |= _verify(head, events, args)
            else:
                print("\n".join(account_of(head.get("game", UNNAMED_LOG_GAME), args.log)(head, events)))
            shown += 1
    except (UnicodeDecodeError, KeyError):
        raise UserError(f"{args.log}: {core_replay.NOT_A_LOG}") from None
    if shown == 0:
        raise UserError(f"no game {args.game} in {args.log}" if args.game is not None else f"{args.log} holds no game")
    return 1 if failed else 0


def _verify(head: dict, events: list[dict], args: argparse.Namespace) -> bool:
    """`--verify`: the game's verified replay of an imported record; whether it found a mismatch."""
    game = head.get("game", UNNAMED_LOG_GAME)
    module = games.load(game) if game in games.names() else None
    check = getattr(module, "verify", None)
    require(check is not None, f"{args.log}: --verify: game {game!r} has no verified replay; "
                               f"it is available for: acres")
    result = check(head, events)
    if args.json:
        emit_json(result.as_dict())
    else:
        print("\n".join(module.verify_report(head, result)))
    return result.mismatch is not None


def account_of(game: str, log: str) -> Callable[[dict, list[dict]], list[str]]:
    """The game's own account of a logged game, else the generic one (also for a record of a
    game whose engine is not registered yet, e.g. one imported with `empires import`)."""
    if game in games.PACKAGES and game not in games.names():
        return core_replay.account
    require(game in games.names(), f"{log}: the log is of game {game!r}, which is not registered; "
                                   f"known games: {', '.join(games.names())}")
    return getattr(games.load(game), "account", core_replay.account)
