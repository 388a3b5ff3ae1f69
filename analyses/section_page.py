"""A report section run on its own (`python -m analyses.<module>`): the options every section
shares (--jobs, --out, --seed), then the section written as one HTML page, a bad value refused in
one line with exit 2 before anything is written."""

from __future__ import annotations

import argparse
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
        section: Callable[[argparse.Namespace], tuple[str, list[str]]]) -> int:
    """Add --jobs, --out (default `out`) and --seed, parse, play `section(args)` -> (finding,
    fragments) and write `--out/index.html`."""
    from sim.cli.common import add_seed, int_in, out_folder

    parser.add_argument("--jobs", type=int_in(1, 256, "jobs"), default=1, help="worker processes (default 1)")
    parser.add_argument("--out", type=out_folder, default=Path(out),
                        help=f"folder for the page and its CSVs (default {out})")
    add_seed(parser)
    args = parser.parse_args(argv)
    try:
        finding, fragments = section(args)
    except UserError as exc:
        sys.stderr.write(f"{parser.prog}: error: {exc}\n")
        return EXIT_USER_ERROR
    page = args.out / "index.html"
    page.write_text(html.page(title, html.summary(finding) + "".join(fragments)), encoding="utf-8")
    print(finding)
    print(f"wrote {page}")
    return 0
