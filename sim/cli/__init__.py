"""The `empires` command line (also `python -m sim`).

Commands are grouped by verb -- `empires odds <game> <kind>`, `empires score <game> <kind>`,
`empires data <game>`, ... Each module in this package contributes its commands through a
`register(groups)` function, so adding a game touches no other game's code. Bad input never
shows a traceback: one line on stderr naming the bad value and what is allowed, exit code 2.
"""

from __future__ import annotations

import argparse
import importlib
import os
import pkgutil
import sys
from collections.abc import Sequence

from sim import __version__
from sim.core.errors import EXIT_USER_ERROR, UserError

VERBS = {
    "odds": "exact and Monte Carlo odds of battles, sea moves and sieges",
    "score": "scoring rules on given positions",
    "data": "component data with provenance (FOUND / DERIVED / ASSUMED)",
}


class Parser(argparse.ArgumentParser):
    """An ArgumentParser whose errors are one line and exit code 2."""

    def error(self, message: str) -> None:  # noqa: D401 - argparse API
        sys.stderr.write(f"{self.prog}: error: {message} (see --help)\n")
        raise SystemExit(EXIT_USER_ERROR)


def game_verb(groups: dict, verb: str, text: str) -> argparse._SubParsersAction:
    """The GAME sub-parsers of a top-level verb (`empires play GAME`), creating the verb once."""
    if groups.get(verb) is None:
        sub = groups["_root"].add_parser(verb, help=text, description=text)
        groups[verb] = sub.add_subparsers(dest="game", required=True, metavar="GAME", parser_class=Parser)
    return groups[verb]


def game_kinds(groups: dict, verb: str, game: str, text: str) -> argparse._SubParsersAction:
    """The KIND sub-parsers of one game under a verb (`empires odds struggle KIND`)."""
    parser = groups[verb].add_parser(game, help=text)
    return parser.add_subparsers(dest="kind", required=True, metavar="KIND", parser_class=Parser)


def build_parser() -> Parser:
    parser = Parser(prog="empires", description=__doc__.splitlines()[0])
    parser.add_argument("--version", action="version", version=f"empires-lab {__version__}")
    verbs = parser.add_subparsers(dest="verb", required=True, metavar="COMMAND", parser_class=Parser)
    groups = {}
    for verb, text in VERBS.items():
        sub = verbs.add_parser(verb, help=text, description=text)
        groups[verb] = sub.add_subparsers(dest="game", required=True, metavar="GAME", parser_class=Parser)
    groups["_root"] = verbs
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{__name__}.{info.name}")
        register = getattr(module, "register", None)
        if register is not None:
            register(groups)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit code."""
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        result = args.handler(args)
    except UserError as exc:
        sys.stderr.write(f"empires: error: {exc}\n")
        return EXIT_USER_ERROR
    except BrokenPipeError:                      # `empires ... | head`: the reader left; stay quiet
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 1
    except OSError as exc:                       # a path the user gave cannot be read or written
        where = f"{exc.filename}: " if exc.filename else ""
        sys.stderr.write(f"empires: error: {where}{exc.strerror or exc}\n")
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        sys.stderr.write("empires: interrupted\n")
        return 130
    return int(result or 0)
