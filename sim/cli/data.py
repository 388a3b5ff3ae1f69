"""`empires data <game>`: every component value with its provenance and any override."""

from __future__ import annotations

import argparse
import importlib

from sim import games
from sim.cli.common import add_json, add_overrides, emit_json, print_table
from sim.core.data import load_game_data

GAMES = games.PACKAGES


def register(groups: dict) -> None:
    for game in GAMES:
        parser = groups["data"].add_parser(game, help=f"list {game} component data and provenance")
        add_overrides(parser)
        add_json(parser)
        parser.add_argument("--status", choices=("FOUND", "DERIVED", "ASSUMED"),
                            help="only values with this provenance")
        parser.set_defaults(handler=show, data_game=game)


def show(args: argparse.Namespace) -> int:
    data = load_game_data(args.data_game, args.overrides, args.variants)
    # Cross-file checks (e.g. an alliance tile naming an unknown region) live in each game's
    # components; building them refuses an override every other command would refuse too.
    importlib.import_module(f"sim.{args.data_game}.components").from_data(data)
    rows = [r for r in data.rows() if args.status is None or r["status"] == args.status]
    if args.json:
        emit_json({"game": data.game, "rules_edition": data.rules_edition, "data_hash": data.hash,
                   "overrides": dict(data.overrides), "values": rows})
        return 0
    print(f"{data.game} data  rules edition: {data.rules_edition}  hash: {data.hash}")
    print_table([(r["path"], r["value"], r["status"] + ("*" if r["overridden"] else ""), r["source"])
                 for r in rows], ["path", "value", "status", "source"])
    if data.overrides:
        print("* overridden by --set / --variant")
    return 0
