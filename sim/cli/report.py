"""`empires report`: the balance report of every game the toolkit can play (analyses.balance_report),
for the default rules or a variant (`--set`, `--variant`), optionally compared with an earlier
report (`--compare BASE_DIR`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from sim.cli.common import add_overrides, in_folder, int_in, name_list, out_folder, real_in
from sim.core.errors import UserError
from sim.core.random import MAX_SEED

HELP = "the balance report: odds, win rates, tile values, fair prices, imbalances, provenance"


def sizes(field: str) -> str:
    """The per-game defaults of one size field, for the help text."""
    from analyses.balance_report import FALLBACK_SIZE, GAME_SIZES

    listed = [f"{game} {getattr(size, field)}" for game, size in GAME_SIZES.items()]
    return ", ".join([*listed, f"other games {getattr(FALLBACK_SIZE, field)}"])


def register(groups: dict) -> None:
    from analyses.balance_report import ReportSize

    default = ReportSize()
    parser = groups["_root"].add_parser("report", help=HELP, description=HELP)
    parser.add_argument("--out", type=out_folder, default=Path("reports"),
                        help="output folder (default reports/); replaced only when the new report is complete")
    parser.add_argument("--game", metavar="G,G,...", help="play only these games (default: every playable game; "
                                                         "the odds pages cover all four)")
    parser.add_argument("--games", type=int_in(1, 10**9, "games"),
                        help=f"tournament games per playable game (default per game: {sizes('games')})")
    parser.add_argument("--tile-blocks", type=int_in(2, 10**6, "tile blocks"),
                        help=f"paired blocks per tile-value experiment; fewer than 5 give no intervals (default per game: "
                             f"{sizes('tile_blocks')})")
    parser.add_argument("--tiles", metavar="T,T,...", help="only these tiles (default: every tile)")
    parser.add_argument("--skill", "--tile-strategies", dest="skill", metavar="S,S,...",
                        default=",".join(default.tile_strategies),
                        help=f"skill levels (strategy names) of the tile values "
                             f"(default {','.join(default.tile_strategies)})")
    parser.add_argument("--players", type=int_in(name="players"),
                        help=f"players per game (default per game: {sizes('players')}; within each game's range)")
    parser.add_argument("--question-games", type=int_in(0, 10**6, "question games"), metavar="N",
                        help=f"games per cell of each game's own questions (the AFAoS hammer table, AoD seat "
                             f"money, CotE catapult and inflation; default per game: {sizes('extra_games')}; 0: off)")
    parser.add_argument("--audit-games", type=int_in(0, 10**6, "audit games"), metavar="N",
                        help=f"games of each game's player audit (calibration of the players' forecasts, items "
                             f"no strategy chooses; default per game: {sizes('audit_games')}; 0: off)")
    parser.add_argument("--scale", type=real_in(0.01, 1000, "scale"), default=default.scale, metavar="F",
                        help="every game's default share times F: tournament, question and audit games, tile "
                             "blocks (never below 5); sizes given by their own flags stay as given (default 1: "
                             "about 15 minutes on 2 cores; 3: tighter intervals, about three times as long)")
    parser.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), default=default.seed)
    parser.add_argument("--jobs", type=int_in(1, 4096, "jobs"), default=default.jobs)
    parser.add_argument("--robust-games", type=int_in(0, 10**9, "robust games"), metavar="N",
                        help="games per perturbed tournament of the robustness pass (default: a quarter of "
                             "--games; 0: off, every finding untested)")
    parser.add_argument("--quick", action="store_true", help="small odds grids (for tests)")
    parser.add_argument("--compare", type=in_folder, metavar="BASE_DIR",
                        help="an earlier report: show both reports' headline numbers side by side")
    add_overrides(parser)
    parser.set_defaults(handler=command)


def command(args: argparse.Namespace) -> int:
    from analyses import headline
    from analyses.balance_report import ReportSize, build_report

    out = args.out.absolute()
    here = Path.cwd()
    if out == Path(out.anchor) or out == here or out in here.parents:
        raise UserError(f"--out {args.out}: the report replaces this folder, which holds the current folder; "
                        f"give a folder of its own, e.g. reports")
    tiles = tuple(name_list(args.tiles, "--tiles", "TILE")) if args.tiles is not None else None
    skill = tuple(name_list(args.skill, "--skill", "STRATEGY"))
    only = tuple(name_list(args.game, "--game", "GAME")) if args.game is not None else None
    size = ReportSize(only=only, games=args.games, players=args.players, tile_blocks=args.tile_blocks, tiles=tiles,
                      tile_strategies=skill, seed=args.seed, jobs=args.jobs, quick=args.quick,
                      overrides=tuple(args.overrides), variants=tuple(args.variants),
                      robust_games=args.robust_games, extra_games=args.question_games,
                      audit_games=args.audit_games, scale=args.scale)
    index = build_report(args.out, size, args.compare)
    if args.compare is not None:
        compared = json.loads((args.out / "compare.json").read_text("utf-8"))
        print(f"against {args.compare}:")
        for game, entry in compared["games"].items():
            print(f"  base: {entry['base']}\n  new:  {entry['new']}")
            print("\n".join(headline.text_table(game, entry["rows"])))
    print(f"wrote {index}")
    return 0
