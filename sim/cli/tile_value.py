"""`empires tile-value <game>`: causal tile values and fair prices by paired experiments.

    empires tile-value struggle --tiles war_office,banking --strategy mixed --blocks 20
    empires tile-value struggle --tiles war_office --sweep tiles.war_office.cost_gold=0..6
    empires tile-value acres --strategy random --power french --blocks 8     # two seats: the nearest to 4

In a game whose assets belong to sides (A Few Acres of Snow) every value and price is given per
side of the focal seat; `--power` keeps one side (in any game: that power's values only).
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

from sim import games
from sim.core import runner
from sim.cli import game_verb
from sim.cli.common import add_json, add_overrides, emit_json, int_in, name_list, out_folder, print_table
from sim.core.data import validate_override
from sim.core.errors import UserError
from sim.core.random import MAX_SEED

HELP = "causal tile values (take at once vs never, same dice) and fair prices"
PLAYERS = 4       # default seats, brought into the game's range


def register(groups: dict) -> None:
    group = game_verb(groups, "tile-value", HELP)
    for game in games.names():
        parser = group.add_parser(game, help=f"{game} tile values", description=HELP)
        parser.add_argument("--tiles", metavar="T,T,...", help="tiles to measure (default: every tile)")
        parser.add_argument("--strategy", action="append", metavar="NAME",
                            help="skill level(s): scripted strategy or random (repeatable; default mixed)")
        parser.add_argument("--players", type=int_in(name="players"),
                            help=f"seats (default {PLAYERS}, or the nearest number the game allows)")
        parser.add_argument("--power", metavar="POWER",
                            help="value the assets for this power of the focal seat only (default: per side "
                                 "in a game whose assets belong to sides, else all powers pooled)")
        parser.add_argument("--blocks", type=int_in(2, 10**6, "blocks"), default=10,
                            help="blocks of paired games per experiment (each block plays every arm); fewer than 5 give "
                                 "no intervals")
        parser.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), default=1)
        parser.add_argument("--sweep", metavar="PATH=LOW..HIGH",
                            help="vary one data value and measure the tile's effect at each value")
        parser.add_argument("--no-prices", action="store_true", help="skip the resource grants (no fair prices)")
        parser.add_argument("--grant", action="append", default=[], metavar="RESOURCE=DOSE",
                            help="the dose of a resource grant, the fair prices' exchange rate (repeatable; default "
                                 "the game's, e.g. acres money=3): a larger dose measures one unit's value more "
                                 "precisely, on a rate assumed linear up to it")
        parser.add_argument("--jobs", type=int_in(1, 4096, "jobs"), default=1)
        parser.add_argument("--out", type=out_folder, help="folder for CSV, PNG and index.html")
        parser.add_argument("--quiet", action="store_true", help="no progress bar")
        add_overrides(parser)
        add_json(parser)
        parser.set_defaults(handler=command, tv_game=game)


def parse_grants(texts: Sequence[str], defaults: dict[str, int]) -> dict[str, int]:
    """The game's grant doses with `--grant RESOURCE=DOSE` in place of its default (a known
    resource, a whole dose of at least 1)."""
    grants = dict(defaults)
    for text in texts:
        resource, _, dose = text.partition("=")
        if resource not in defaults:
            raise UserError(f"--grant {text!r}: resource must be one of {', '.join(defaults)}")
        if not dose.isdigit() or not 1 <= int(dose) <= 10**6:
            raise UserError(f"--grant {text!r}: the dose must be a whole number from 1 to 1000000")
        grants[resource] = int(dose)
    return grants


def command(args: argparse.Namespace) -> int:
    from analyses import tile_value as tv

    engine = games.load(args.tv_game)
    tv.require_support(engine, args.tv_game)
    strategies = args.strategy or [engine.INFO.default_strategy]
    info = engine.INFO
    players = args.players if args.players is not None else min(max(PLAYERS, info.min_players), info.max_players)
    data = games.load_data(args.tv_game, engine, args.overrides, args.variants, strategies)
    costs = engine.asset_costs(data)
    powers = (args.power,) if args.power is not None else tv.sides(engine)
    tiles = tuple(name_list(args.tiles, "--tiles", "TILE", sorted(costs))) if args.tiles is not None else tuple(sorted(costs))
    grants = parse_grants(args.grant, engine.GRANTS)
    experiments = [tv.Experiment(game=args.tv_game, strategy=s, tiles=tiles, players=players,
                                 blocks=args.blocks, seed=args.seed,
                                 grants={} if args.no_prices or args.sweep is not None else grants,
                                 overrides=tuple(args.overrides), variants=tuple(args.variants), powers=powers)
                   for s in strategies]
    for experiment in experiments:
        tv.check(engine, experiment, data)
    if args.sweep is not None:
        path, values = tv.parse_sweep(args.sweep)
        check_sweep(args.tv_game, data, path, values)
    provenance = {"seed": args.seed, "blocks": args.blocks, "players": players, "strategies": strategies,
                  **({"powers": list(powers)} if powers else {}),
                  **runner.provenance(data, engine)}
    if args.sweep is not None:
        table = tv.sweep(experiments[0], path, values, jobs=args.jobs, quiet=args.quiet)
        crossing = tv.break_even(table)
        if args.out:
            args.out.mkdir(exist_ok=True)
            table.to_csv(args.out / "sweep.csv", index=False)
            tv.plot_sweep(table, args.out / "sweep.png")
        if args.json:
            emit_json({"sweep": table.to_dict(orient="records"), "break_even": crossing, "provenance": provenance})
        else:
            print_table([(r.value, r.d_win, f"[{r.d_win_low:.3f}, {r.d_win_high:.3f}]", r.blocks)
                         for r in table.itertuples()], [path, "win rate: at once - never", "95% CI", "blocks"])
            print(f"break-even {path} = {crossing:.2f}" if crossing == crossing else "no break-even in the range")
        return 0
    values, resources = tv.measure(experiments, costs, jobs=args.jobs, quiet=args.quiet)
    if args.out:
        tv.write_outputs(args.out, values, resources)
    if args.json:
        emit_json({"tiles": values.to_dict(orient="records"), "resources": resources.to_dict(orient="records"),
                   "provenance": provenance})
        return 0
    side = ["power"] if powers else []
    priced = bool(experiments[0].grants)            # --no-prices: no price column, not one of blanks
    print_table([(r.tile, r.strategy, *(getattr(r, c) for c in side), r.d_win,
                  f"[{r.d_win_low:.3f}, {r.d_win_high:.3f}]", r.d_vp,
                  *((getattr(r, "fair_price_gold", float("nan")), getattr(r, "verdict", "")) if priced else ()),
                  r.blocks)
                 for r in values.itertuples()],
                ["tile", "strategy", *side, "d win", "95% CI", "d VP",
                 *((f"fair price ({experiments[0].currency})", "verdict") if priced else ()), "blocks"])
    return 0


def check_sweep(game: str, data: Any, path: str, values: Sequence[int]) -> None:
    """Every swept value must be a valid override of the game's data; errors name --sweep."""
    if not hasattr(data, "leaves"):
        raise UserError(f"--sweep {path}: game {game!r} has no component data to vary")
    for value in values:
        validate_override(path, value, data.tree, data.leaves, game, "--sweep")
