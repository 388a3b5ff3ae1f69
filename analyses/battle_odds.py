"""Odds report: one page per game (battles, sea moves, sieges, discovery), linked from
`reports/index.html`. Run with `python -m analyses.battle_odds --out reports` (`make report`).

Each game's page is built by `analyses/odds/<game>.py`, whose `build(out_dir, quick)` writes
PNG + CSV + `index.html` into `out_dir` and returns an `OddsPage`.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")

from analyses import html  # noqa: E402
from analyses import odds as odds_pages  # noqa: E402


@dataclass(frozen=True)
class OddsPage:
    """A finished page: its title, path relative to the report root and a one-line summary."""

    title: str
    path: str
    summary: str


def build_pages(out: Path, quick: bool = False) -> list[OddsPage]:
    """Build every game's odds page under `out/<game>/odds/`."""
    out.mkdir(parents=True, exist_ok=True)
    pages = []
    for info in sorted(pkgutil.iter_modules(odds_pages.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"{odds_pages.__name__}.{info.name}")
        folder = out / info.name / "odds"
        folder.mkdir(parents=True, exist_ok=True)
        built = module.build(folder, quick=quick)
        pages.append(OddsPage(built.title, f"{info.name}/odds/index.html", built.summary))
    return pages


def write_index(out: Path, pages: list[OddsPage]) -> None:
    items = "".join(f'<li><a href="{p.path}">{p.title}</a> &mdash; {p.summary}</li>' for p in pages)
    body = (html.summary("Odds of every random event the toolkit models, exact where the state space "
                         "allows and Monte Carlo with 95 % intervals elsewhere.")
            + f"<h2>Odds</h2><ul>{items}</ul>")
    (out / "index.html").write_text(html.page("empires-lab reports", body), encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", type=Path, default=Path("reports"))
    parser.add_argument("--quick", action="store_true", help="smaller grids, for tests")
    args = parser.parse_args(argv)
    pages = build_pages(args.out, args.quick)
    write_index(args.out, pages)
    for page in pages:
        print(f"wrote {args.out / page.path}: {page.title}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
