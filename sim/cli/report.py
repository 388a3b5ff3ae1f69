"""`empires report`: the balance report of every game the toolkit can play (analyses.balance_report)."""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.cli.common import int_in
from sim.core.random import MAX_SEED

HELP = "the balance report: odds, win rates, tile values, fair prices, imbalances, provenance"


def register(groups: dict) -> None:
    from analyses.balance_report import ReportSize

    default = ReportSize()
    parser = groups["_root"].add_parser("report", help=HELP, description=HELP)
    parser.add_argument("--out", type=Path, default=Path("reports"), help="output folder (default reports/)")
    parser.add_argument("--games", type=int_in(1, 10**9, "games"), default=default.games,
                        help=f"tournament games per playable game (default {default.games})")
    parser.add_argument("--tile-blocks", type=int_in(2, 10**6, "tile blocks"), default=default.tile_blocks,
                        help=f"paired blocks per tile-value experiment (default {default.tile_blocks})")
    parser.add_argument("--tiles", metavar="T,T,...", help="only these tiles (default: every tile)")
    parser.add_argument("--tile-strategies", metavar="S,S,...", default=",".join(default.tile_strategies),
                        help=f"skill levels of the tile values (default {','.join(default.tile_strategies)})")
    parser.add_argument("--players", type=int_in(2, 64, "players"), default=default.players)
    parser.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), default=default.seed)
    parser.add_argument("--jobs", type=int_in(1, 4096, "jobs"), default=default.jobs)
    parser.add_argument("--quick", action="store_true", help="small odds grids (for tests)")
    parser.set_defaults(handler=command)


def command(args: argparse.Namespace) -> int:
    from analyses.balance_report import ReportSize, build_report

    tiles = tuple(t.strip() for t in args.tiles.split(",") if t.strip()) if args.tiles else None
    skill = tuple(t.strip() for t in args.tile_strategies.split(",") if t.strip())
    size = ReportSize(games=args.games, players=args.players, tile_blocks=args.tile_blocks, tiles=tiles,
                      tile_strategies=skill, seed=args.seed, jobs=args.jobs, quick=args.quick)
    index = build_report(args.out, size)
    print(f"wrote {index}")
    return 0
