"""The player audit's page (`empires audit <game> --out DIR`): are the scripted players competent
enough for their balance numbers to measure the game? `sim.core.audit.audit` plays the games and
turns their logs into audit records (the game's `audit_records`); this module shows:

- calibration: every probability a player acted on (SoE: an attack's forecast of winning its
  battle) against what happened, in ten bins with Wilson 95 % intervals, pooled and per strategy;
- coverage: per strategy, the share of games in which some seat of it chose each item (tiles,
  cards, buildings, action kinds); items never chosen are listed;
- idleness: actions passed, overall and outside the last round of a war;
- waste the log shows (SoE: a rebuild that puts the unit straight back);
- resources left unused (CotE: land units no leader could lead at the start of a turn, units a
  turn's land moves led straight back, Generals a ransom offer did not free).

Writes `audit.json`, `calibration.png`, `coverage.png` and `index.html` to the output folder.
"""

from __future__ import annotations

import json
from pathlib import Path

from analyses import html
from sim.core.audit import IN_THE_LARGE_HEADERS, idle_table, in_the_large_rows
from sim.core.store import atomic_write


def write_page(result: dict, out: Path, title: str) -> Path:
    """`audit.json`, the two plots and `index.html` in `out` (written beside, then renamed)."""
    out.mkdir(parents=True, exist_ok=True)
    _write(out / "audit.json", json.dumps(result, indent=2, default=str))
    plot_calibration(result, out / "calibration.png")
    plot_coverage(result, out / "coverage.png")
    bins = result["calibration"]
    off = [b for b in bins if not b["calibrated"]]
    text = (f"{result['games']} games. Calibration of the forecasts players acted on: "
            f"{sum(b['n'] for b in bins)} forecasts in {len(bins)} bins, {len(off)} bins where the mean forecast lies "
            f"outside the realised rate's 95 % interval. Items never chosen: "
            + "; ".join(f"{s}: {len(v)}" for s, v in result["never_chosen"].items())
            + f". Never chosen by any scripted strategy: {', '.join(result['never_chosen_by_any']) or 'none'}.")
    body = [html.summary(text), "<h2>Calibration</h2>",
            "<p>Each bin pools the forecasts in a tenth of the probability scale; a calibrated player's mean "
            "forecast lies inside the 95 % interval of what happened.</p>",
            html.table([(f"{b['bin'][0]:.1f}-{b['bin'][1]:.1f}", b["n"], b["predicted"], b["realised"],
                         f"{b['ci95'][0]:.3f}..{b['ci95'][1]:.3f}", "yes" if b["calibrated"] else "NO")
                        for b in bins], ["forecast", "n", "mean forecast", "realised", "95 % CI", "calibrated"]),
            *_kind_table(result),
            *_in_the_large_table(result),
            html.figure("calibration.png", "forecast against outcome"), "<h2>Idle and wasted</h2>",
            _idle_and_wasted(result),
            *_unused_table(result),
            "<h2>Coverage</h2>", "<p>Share of games in which some seat of the strategy chose the item.</p>",
            html.figure("coverage.png", "coverage of items by strategy"),
            html.table([(s, ", ".join(v) or "none", ", ".join(result["not_applicable"][s]) or "none")
                        for s, v in result["never_chosen"].items()],
                       ["strategy", "never chosen", "not open to its side"]),
            f"<p>Not open to any side under these rules: {', '.join(result['unavailable']) or 'none'}.</p>",
            html.provenance(result["provenance"])]
    index = out / "index.html"
    _write(index, html.page(title, "\n".join(body)))
    return index


def _kind_table(result: dict) -> list[str]:
    """Each kind of forecast on its own (an attack's, a siege's, a City's risk), so that one kind's
    miscalibration is not hidden in the pooled bins."""
    kinds = result.get("calibration_by_kind", {})
    if len(kinds) < 2:
        return []
    rows = [(kind, sum(b["n"] for b in bins),
             html.sig(sum(b["predicted"] * b["n"] for b in bins) / max(1, sum(b["n"] for b in bins))),
             html.sig(sum(b["realised"] * b["n"] for b in bins) / max(1, sum(b["n"] for b in bins))),
             f"{sum(not b['calibrated'] for b in bins)} of {len(bins)}")
            for kind, bins in kinds.items()]
    return ["<p>By kind of forecast:</p>",
            html.table(rows, ["kind", "n", "mean forecast", "realised", "bins outside the interval"])]


def _in_the_large_table(result: dict) -> list[str]:
    """Each strategy's forecasts of each kind taken together (`sim.core.audit.in_the_large`): a
    player whose every siege falls short of its forecast shows here even where the pooled bins
    hide it."""
    rows = in_the_large_rows(result)
    if not rows:
        return []
    return ["<p>Each strategy's forecasts of each kind taken together: z is the realised count less the summed "
            "forecasts, in standard errors (the larger of the binomial one and the one with games as clusters: "
            "a game's forecasts share its board); a group of at least 30 is calibrated when |z| passes a "
            "two-sided 5 % test, Bonferroni-corrected over the groups tested.</p>",
            html.table(rows, IN_THE_LARGE_HEADERS)]


def _unused_table(result: dict) -> list[str]:
    """The resources the players left unused (CotE: units no leader could lead, units led
    straight back), when the game records any."""
    rows = [(s, resource, _share(v["share"]), f"{v['ci95'][0]:.3f}..{v['ci95'][1]:.3f}", v["games"])
            for s, by in result.get("unused", {}).items() for resource, v in by.items()]
    if not rows:
        return []
    return ["<p>Resources left unused: their share of all, pooled over the moments the game records "
            "(CotE: every turn: the units unled at its start, the units its moves led straight back; every "
            "ransom offer: the General left captive when it is refused), with a "
            "Wilson 95 % interval at the effective size of games as clusters.</p>",
            html.table(rows, ["strategy", "resource", "unused", "95 % CI", "games"])]


def plot_calibration(result: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(5.5, 5))
    ax.plot([0, 1], [0, 1], color="grey", linestyle="--", label="perfect forecast")
    for name, bins in {"all": result["calibration"], **result["calibration_by_strategy"]}.items():
        if bins:
            x = [b["predicted"] for b in bins]
            y = [b["realised"] for b in bins]
            err = [[r - b["ci95"][0] for r, b in zip(y, bins)], [b["ci95"][1] - r for r, b in zip(y, bins)]]
            ax.errorbar(x, y, yerr=err, marker="o", capsize=3, label=name, alpha=0.9 if name == "all" else 0.5)
    ax.set(xlabel="mean forecast of the bin", ylabel="realised rate (95 % interval)", xlim=(0, 1), ylim=(0, 1),
           title="Forecasts players acted on")
    ax.legend(fontsize=8, loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot_coverage(result: dict, path: Path) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    strategies = list(result["coverage"])
    items = sorted({i for shares in result["coverage"].values() for i in shares})
    grid = np.array([[result["coverage"][s][i] for s in strategies] for i in items]) if items else np.zeros((0, 0))
    fig, ax = plt.subplots(figsize=(2 + 1.1 * len(strategies), 1 + 0.22 * len(items)))
    image = ax.imshow(grid, aspect="auto", cmap="viridis", vmin=0, vmax=1)
    ax.set_xticks(range(len(strategies)), strategies, rotation=30, ha="right")
    ax.set_yticks(range(len(items)), items, fontsize=8)
    fig.colorbar(image, ax=ax, label="share of games chosen")
    ax.set_title("Coverage")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _idle_and_wasted(result: dict) -> str:
    rows, headers = idle_table(result, _share)
    return html.table([(*row, ", ".join(f"{k} {n}" for k, n in result["wasted"].get(row[0], {}).items()) or "none")
                       for row in rows], [*headers, "wasted"])


def _share(value: float | None) -> str:
    return "\u2013" if value is None else f"{value:.3f}"


def _write(path: Path, text: str) -> None:
    atomic_write(path, lambda tmp: tmp.write_text(text, encoding="utf-8"))
