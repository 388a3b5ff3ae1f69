"""Small HTML helpers shared by every report page: one look, no template engine needed."""

from __future__ import annotations

import html
import math
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

STYLE = """
body{font-family:system-ui,sans-serif;max-width:72rem;margin:2rem auto;padding:0 1rem;color:#222}
h1,h2,h3{color:#1d3557} table{border-collapse:collapse;margin:.5rem 0 1rem}
td,th{border:1px solid #ccc;padding:.2rem .5rem;text-align:right} th{background:#f1f4f8}
td:first-child,th:first-child{text-align:left} img{max-width:100%;border:1px solid #ddd}
.summary{background:#f7f9fc;border-left:4px solid #457b9d;padding:.5rem 1rem}
.prov{font-size:.85rem;background:#fafafa;border:1px solid #ddd;padding:.5rem 1rem}
code{background:#f2f2f2;padding:0 .2rem}
"""


# The page icon, inline so that a page in any folder finds it (a browser asks for /favicon.ico otherwise).
FAVICON = ("data:image/svg+xml,%3Csvg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 16 16'%3E"
           "%3Crect width='16' height='16' rx='3' fill='%231d3557'/%3E"
           "%3Cpath d='M4 12V4h7M4 8h5' stroke='white' stroke-width='2' fill='none'/%3E%3C/svg%3E")


def page(title: str, body: str) -> str:
    """A complete standalone HTML page."""
    return (f"<!doctype html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<link rel=\"icon\" href=\"{FAVICON}\">"
            f"<title>{html.escape(title)}</title><style>{STYLE}</style></head>"
            f"<body>\n<h1>{html.escape(title)}</h1>\n{body}\n</body></html>\n")


def table(rows: Iterable[Sequence[Any]], headers: Sequence[str]) -> str:
    head = "".join(f"<th>{html.escape(str(h))}</th>" for h in headers)
    body = "".join("<tr>" + "".join(f"<td>{_cell(c)}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"


def figure(src: str, alt: str) -> str:
    return f'<p><img src="{html.escape(src)}" alt="{html.escape(alt)}"></p>'


def summary(text: str) -> str:
    return f'<div class="summary"><p>{html.escape(text)}</p></div>'


def provenance(meta: Mapping[str, Any], assumed_html: str | None = None) -> str:
    """The provenance box: seeds, code version, rules edition, data hash, overrides, ASSUMED values
    (`assumed_html`, where given, replaces the list of `meta["assumed"]`: the report's groups)."""
    assumed = meta.get("assumed", {})
    items = "".join(f"<li><code>{html.escape(k)}</code> = {html.escape(str(v))}</li>" for k, v in assumed.items())
    rest = "".join(f"<li>{html.escape(k)}: <code>{html.escape(str(v))}</code></li>"
                   for k, v in meta.items() if k != "assumed")
    listed = assumed_html if assumed_html is not None else (
        f"<strong>ASSUMED values these numbers depend on</strong> ({len(assumed)})"
        f"<ul>{items or '<li>none</li>'}</ul>")
    return f'<div class="prov"><strong>Provenance</strong><ul>{rest}</ul>{listed}</div>'


def number(value: float, digits: int = 4) -> str:
    """A number for a table; NaN (nothing to estimate) shows as a dash."""
    return "\u2013" if value != value else f"{value:.{digits}f}"


def sig(value: float, digits: int = 3) -> str:
    """A number with `digits` significant digits (rates, values, prices); NaN as a dash, and
    rounding noise of a zero (a mean of differences that cancel) as 0."""
    if math.isnan(value):
        return "\u2013"
    return f"{0.0 if abs(value) < 1e-12 else value:.{digits}g}"


def interval(low: float, high: float, digits: int = 3) -> str:
    """A 95 % interval as [low, high] with `digits` significant digits."""
    return f"[{sig(low, digits)}, {sig(high, digits)}]"


def _cell(value: Any) -> str:
    if isinstance(value, float):
        return number(value)
    return html.escape(str(value))
