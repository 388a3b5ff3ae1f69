"""`empires import acres FILE... --out DIR`: real games from Yucata history pages as game records.

Every page is decoded before anything is written, so a malformed page (one line naming the file,
the move and what was expected, exit 2) leaves DIR untouched; each record is written to a
temporary file and renamed (sim.core.store.atomic_write). One record per page,
`DIR/<page name>.jsonl`, which `empires replay` prints.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from sim.acres import record_checks, yucata
from sim.cli import game_verb
from sim.cli.common import in_file, out_folder
from sim.core.errors import UserError
from sim.core.lockstep import write_jsonl
from sim.core.store import atomic_write

TEXT = "import real games played elsewhere as game records (see `empires replay`)"


def register(groups: dict) -> None:
    group = game_verb(groups, "import", TEXT)
    parser = group.add_parser("acres", help="A Few Acres of Snow games from Yucata history pages",
                              description="decode Yucata history pages of A Few Acres of Snow into game records")
    parser.add_argument("files", nargs="+", type=in_file, metavar="FILE", help="a Yucata history page (.js)")
    parser.add_argument("--out", required=True, type=out_folder, metavar="DIR",
                        help="folder for the records, one DIR/<page>.jsonl per page (created if missing)")
    parser.add_argument("--check", choices=sorted(record_checks.READINGS), metavar="READINGS",
                        help="also check that every move explains the next snapshot, under Yucata's readings of "
                             "the rules (yucata) or the rules reference's (rules); print the first move that does not")
    parser.set_defaults(handler=import_acres)


def import_acres(args: argparse.Namespace) -> int:
    targets = [args.out / (Path(f).stem + ".jsonl") for f in args.files]
    seen = {}
    for f, t in zip(args.files, targets):
        if t in seen:
            raise UserError(f"{f}: writes the same record {t.name} as {seen[t]}; give pages with different names")
        seen[t] = f
    pages = [yucata.read_page(f) for f in args.files]
    args.out.mkdir(exist_ok=True)
    for target, game in zip(targets, pages):
        rec = yucata.record(game)
        atomic_write(target, lambda tmp, rec=rec: write_jsonl(tmp, [rec]))
        print(f"{target}: game {game.game_id}, {len(game.moves)} moves, variants {list(game.variants) or 'none'}")
        if args.check:
            print("  " + _consistency(game, args.check))
    return 0


def _consistency(game: yucata.Game, readings: str) -> str:
    """One line: all moves explained, or the first that is not (sim/acres/record_checks.py)."""
    found = record_checks.check(game, readings=record_checks.READINGS[readings])
    if not found:
        return f"consistent under the {readings} readings: all {len(game.moves)} moves explained"
    f = found[0]
    return (f"{len(found)} of {len(game.moves)} moves unexplained under the {readings} readings; first: move {f.move}, "
            f"{f.field}: expected {f.expected}, got {f.got} ({f.rule})")
