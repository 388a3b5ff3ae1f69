"""`empires audit GAME`: the player audit (analyses.player_audit) of a game's scripted players."""

from __future__ import annotations

import argparse

from sim import games
from sim.cli import game_verb
from sim.cli.common import add_json, add_overrides, add_seed, emit_json, int_in, out_folder, print_table, strategy_list
from sim.cli.play import player_count

TEXT = "audit the scripted players: calibration of their forecasts, coverage, idleness, waste"


def register(groups: dict) -> None:
    group = game_verb(groups, "audit", TEXT)
    for game in games.names():
        parser = group.add_parser(game, help=f"audit {game}'s scripted players", description=TEXT)
        parser.add_argument("--strategies", metavar="A,B,...", help="strategies cycled over the seats "
                                                                     "(default: the game's default lineup)")
        parser.add_argument("--players", type=int_in(name="players"), help="players per game (default: the lineup's)")
        parser.add_argument("--games", type=int_in(1, 10**6, "games"), default=200)
        parser.add_argument("--jobs", type=int_in(1, 64, "jobs"), default=1,
                            help="worker processes (the audit is the same for any number)")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        parser.add_argument("--out", type=out_folder, help="folder for audit.json, the plots and index.html")
        add_seed(parser)
        add_overrides(parser)
        add_json(parser)
        parser.set_defaults(handler=command)


def command(args: argparse.Namespace) -> int:
    from analyses import player_audit
    from sim.core import audit

    engine = games.load(args.game)
    audit.require_audit(engine)
    info = engine.INFO
    strategies = strategy_list(info, args.strategies)
    players = player_count(engine, args.players, strategies)
    data = games.load_data(args.game, engine, args.overrides, args.variants, strategies)
    games.check_strategies(args.game, engine, data, strategies)
    result = audit.audit(engine, data, strategies, players, args.games, args.seed, args.jobs,
                         args.quiet or args.json)
    if args.out:
        player_audit.write_page(result, args.out, f"{info.title}: player audit")
    if args.json:
        emit_json(result)
        return 0
    print(f"{info.title}: {result['games']} games of {players} players, seed {args.seed}")
    print("\ncalibration of the forecasts players acted on")
    print_table([(f"{b['bin'][0]:.1f}-{b['bin'][1]:.1f}", b["n"], f"{b['predicted']:.3f}", f"{b['realised']:.3f}",
                  f"{b['ci95'][0]:.3f}..{b['ci95'][1]:.3f}", "yes" if b["calibrated"] else "NO")
                 for b in result["calibration"]], ["forecast", "n", "mean forecast", "realised", "95 % CI", "calibrated"])
    if result["in_the_large"]:
        print("\neach strategy's forecasts of each kind taken together (z: realised less forecast, in standard errors)")
        print_table(audit.in_the_large_rows(result), audit.IN_THE_LARGE_HEADERS)
    print("\nidle and never chosen")
    rows, headers = audit.idle_table(result, _share)
    print_table([(*row, len(result["never_chosen"][row[0]])) for row in rows], [*headers, "items never chosen"])
    if result["unused"]:
        print("\nresources left unused (share of all, Wilson 95 % interval with games as clusters)")
        print_table([(s, resource, f"{v['share']:.3f}", f"{v['ci95'][0]:.3f}..{v['ci95'][1]:.3f}", v["games"])
                     for s, by in result["unused"].items() for resource, v in by.items()],
                    ["strategy", "resource", "unused", "95 % CI", "games"])
    print(f"\nnever chosen by any scripted strategy: {', '.join(result['never_chosen_by_any']) or 'none'}")
    if result["unavailable"]:
        print(f"not open to any side under these rules: {', '.join(result['unavailable'])}")
    if args.out:
        print(f"\npage: {args.out / 'index.html'}")
    return 0


def _share(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"
