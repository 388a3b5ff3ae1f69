"""A report section run on its own (`python -m analyses.<module>`): the options every section
shares (--jobs, --out, --seed), then the section written as one HTML page with its provenance
(seed, code and engine versions, rules edition, data hash, the ASSUMED values by group; also as
`provenance.json`), a bad value refused in one line with exit 2 before anything is written."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

from analyses import html
from sim.core.errors import EXIT_USER_ERROR, UserError


def parser(module: str, doc: str) -> argparse.ArgumentParser:
    """The section's parser; its own options are added before `run` adds the shared ones."""
    from sim.cli import Parser

    return Parser(prog=f"python -m analyses.{module}", description=doc.splitlines()[0])


def run(parser: argparse.ArgumentParser, argv: Sequence[str] | None, out: str, title: str,
        section: Callable[[argparse.Namespace], tuple[str, list[str]]], game: str) -> int:
    """Add --jobs, --out (default `out`), --seed, --set and --variant, parse, play
    `section(args)` -> (finding, fragments) with the overrides as `args.data_overrides`
    (`PATH=VALUE` texts, each arm's own on top), and write `--out/index.html` with the provenance
    of `game`'s data under them and `--out/provenance.json`."""
    from sim import games
    from sim.cli.common import add_overrides, add_seed, int_in, out_folder
    from sim.core.data import override_texts, user_overrides

    parser.add_argument("--jobs", type=int_in(1, 256, "jobs"), default=1, help="worker processes (default 1)")
    parser.add_argument("--out", type=out_folder, default=Path(out),
                        help=f"folder for the page and its CSVs (default {out})")
    add_seed(parser)
    add_overrides(parser)
    args = parser.parse_args(argv)
    try:
        data = games.load(game).load_data(args.overrides, args.variants)
        args.data_overrides = override_texts(user_overrides(data))
        finding, fragments = section(args)
    except UserError as exc:
        sys.stderr.write(f"{parser.prog}: error: {exc}\n")
        return EXIT_USER_ERROR
    meta, box = provenance(game, args.seed, data)
    (args.out / "provenance.json").write_text(json.dumps(meta, indent=1, default=str) + "\n", encoding="utf-8")
    page = args.out / "index.html"
    page.write_text(html.page(title, html.summary(finding) + "".join(fragments) + box), encoding="utf-8")
    print(finding)
    print(f"wrote {page}")
    return 0


def provenance(game: str, seed: int, data=None) -> tuple[dict, str]:
    """(the provenance of `game`'s data (default: the shipped data) and the seed, its HTML box
    with the ASSUMED values by group, as the report shows them)."""
    from analyses import robustness
    from sim import games
    from sim.core import runner

    module = games.load(game)
    data = module.load_data() if data is None else data
    meta = {"seed": seed, **runner.provenance(data, module)}
    shown = {k: v for k, v in meta.items() if k != "assumed"}
    return meta, html.provenance(shown, robustness.groups_table(robustness.groups(data)))
