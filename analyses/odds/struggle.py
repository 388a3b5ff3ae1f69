"""Struggle of Empires odds page: land-battle win probabilities (with and without a fort,
against neutral tokens), expected losses, the value of Reserves, sea-movement odds, and an exact
vs Monte Carlo cross-check. Exact numbers come from `sim.struggle.combat_exact.attack_odds`."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analyses import html
from analyses.odds import font_pt, judged, shown
from sim.core.metadata import result_metadata
from sim.core.montecarlo import run_blocks
from sim.core.stats import binomial_se, wilson_interval
from sim.struggle import combat, combat_exact, sea
from sim.struggle.components import default_components

TITLE = "Struggle of Empires: battle and sea-movement odds"
SEED = 20040101
ASSUMED_PREFIXES = ("options.", "rules.combat.", "rules.sea.")


def build(out_dir: Path, quick: bool = False):
    from analyses.battle_odds import OddsPage

    comp = default_components()
    rules = comp.combat
    top = 6 if quick else 12
    attackers = range(1, top + 1)
    panels = {"no fort": (range(0, top + 1), 0, False), "one fort": (range(0, top + 1), 1, False),
              "against a neutral": (range(1, comp.rule("combat.neutral_strength_max") + 1), 0, True)}
    rows = []
    for panel, (defenders, forts, neutral) in panels.items():
        for a in attackers:
            for d in defenders:
                attack = combat_exact.Attack(att_armies=a, def_armies=0 if neutral else d, def_forts=forts,
                                       neutral=d if neutral else -1)
                odds = combat_exact.attack_odds(attack, rules)
                rows.append({"panel": panel, "attacker_armies": a, "defender": d, "forts": forts,
                             "attacker_win": odds.attacker_win, "tie": odds.tie, "defender_win": odds.defender_win,
                             "control_change": odds.control_change,
                             "expected_attacker_losses": _mean(odds.losses("att")),
                             "expected_defender_losses": _mean(odds.losses("def"))})
    grid = pd.DataFrame(rows)
    grid.to_csv(out_dir / "battles.csv", index=False)
    _heatmaps(grid, "attacker_win", "P(attacker wins)", out_dir / "attacker_win.png", "viridis")
    _heatmaps(grid, "expected_attacker_losses", "expected attacker losses", out_dir / "attacker_losses.png", "magma_r")
    _heatmaps(grid, "expected_defender_losses", "expected defender losses", out_dir / "defender_losses.png", "magma_r",
              ("no fort", "one fort"))

    reserves = _reserves_table(rules, range(1, (4 if quick else 7)))
    reserves.to_csv(out_dir / "reserves.csv", index=False)
    seas = _sea_table(comp.sea, range(1, 5))
    seas.to_csv(out_dir / "sea.csv", index=False)
    check, verdict = judged(_cross_check(rules, 20_000 if quick else 400_000), "z (standard errors)")
    check.to_csv(out_dir / "cross_check.csv", index=False)

    even = grid[(grid.panel == "no fort") & (grid.attacker_armies == grid.defender)]
    fort = grid[(grid.panel == "one fort") & (grid.attacker_armies == 3) & (grid.defender == 1)].iloc[0]
    summary = (f"Between equal armies the attacker wins {even.attacker_win.iloc[0]:.0%} (ties "
               f"{even.tie.iloc[0]:.0%}); "
               f"3 armies against 1 army + 1 fort win {fort.attacker_win:.0%}; a sea move arrives 8/9 "
               f"(17/18 with Navigation).")
    meta = result_metadata(comp.data, SEED, ASSUMED_PREFIXES, quick=quick)
    body = "".join([
        html.summary(summary),
        "<h2>Land battles: P(attacker wins)</h2>",
        "<p>Exact (36 &times; 36 dice outcomes, SOE-12.4). Attacker armies on the vertical axis; "
        "defender armies (plus a fort worth 2, SOE-12.8) or the neutral's strength (SOE-12.14) across. "
        "No naval support, training or alliance tiles. The defender also wins every tie of a neutral "
        "and of a lone fort in the sense that he keeps his marker (SOE-12.11).</p>",
        html.figure("attacker_win.png", "P(attacker wins) heatmaps"),
        "<h2>Expected losses</h2>",
        "<p>Units lost per attack, including the &ldquo;7&rdquo; rule (SOE-12.10); forts are never lost "
        "in a tie; a neutral loses nothing but its token.</p>",
        html.figure("attacker_losses.png", "expected attacker losses"),
        html.figure("defender_losses.png", "expected defender losses"),
        "<h2>Reserves (SOE-20.3)</h2>",
        f"<p>Equal armies; re-roll policy <code>{rules.reserves_policy}</code> "
        "(attacker re-rolls while not winning, defender while losing, only when a re-roll can change "
        "the result; turns alternate, attacker first).</p>",
        html.table(shown(reserves).itertuples(index=False), list(reserves.columns)),
        "<h2>Sea movement (SOE-11)</h2>",
        "<p>One die per unit; on a 1 roll again: 1&ndash;2 destroyed, 3&ndash;4 back, 5&ndash;6 arrive "
        "(Navigation +2 on the re-roll). Units moved together roll independently.</p>",
        html.table(shown(seas).itertuples(index=False), list(seas.columns)),
        "<h2>Cross-check: exact against bulk Monte Carlo</h2>",
        html.table(check.itertuples(index=False), list(check.columns)), verdict,
        "<p>Data: <a href=\"battles.csv\">battles.csv</a>, <a href=\"reserves.csv\">reserves.csv</a>, "
        "<a href=\"sea.csv\">sea.csv</a>, <a href=\"cross_check.csv\">cross_check.csv</a>.</p>",
        html.provenance(meta),
    ])
    (out_dir / "index.html").write_text(html.page(TITLE, body), encoding="utf-8")
    return OddsPage(TITLE, "index.html", summary)


def _mean(pmf: dict[int, float]) -> float:
    return float(sum(k * p for k, p in pmf.items()))


def _heatmaps(grid: pd.DataFrame, column: str, label: str, path: Path, cmap: str,
              panels: tuple[str, ...] | None = None) -> None:
    panels = panels or tuple(dict.fromkeys(grid.panel))
    ncols = min(2, len(panels))
    nrows = -(-len(panels) // ncols)
    width, dpi = 5.6 * ncols, 110
    fig, axes = plt.subplots(nrows, ncols, figsize=(width, 4.8 * nrows), constrained_layout=True, squeeze=False)
    for ax in axes.ravel()[len(panels):]:
        ax.set_visible(False)
    vmax = 1.0 if column == "attacker_win" else float(grid[column].max())
    colours = plt.get_cmap(cmap)
    size = font_pt(width, dpi)
    for ax, panel in zip(axes.ravel(), panels):
        sub = grid[grid.panel == panel].pivot(index="attacker_armies", columns="defender", values=column)
        image = ax.imshow(sub.values, origin="lower", cmap=cmap, vmin=0, vmax=vmax, aspect="auto",
                          extent=(sub.columns.min() - .5, sub.columns.max() + .5, sub.index.min() - .5, sub.index.max() + .5))
        for i, a in enumerate(sub.index):
            for j, d in enumerate(sub.columns):
                value = sub.values[i, j]
                r, g, b, _ = colours(value / vmax if vmax else 0.0)
                ax.text(d, a, f"{value:.2f}".lstrip("0").replace("1.00", "1"), ha="center", va="center",
                        fontsize=size, color="white" if 0.299 * r + 0.587 * g + 0.114 * b < 0.5 else "black")
        ax.set_title(panel)
        ax.set_xlabel("neutral strength" if "neutral" in panel else "defender armies")
        ax.set_ylabel("attacker armies")
    fig.colorbar(image, ax=[ax for ax in axes.ravel() if ax.get_visible()], shrink=0.85, label=label)
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def _reserves_table(rules, sizes) -> pd.DataFrame:
    rows = []
    for n in sizes:
        row = {"armies each": n}
        for ra, rd in ((0, 0), (1, 0), (2, 0), (0, 1), (0, 2)):
            odds = combat_exact.attack_odds(combat_exact.Attack(att_armies=n, def_armies=n, att_reserves=ra, def_reserves=rd), rules)
            row[f"P(att wins) R{ra}/{rd}"] = odds.attacker_win
        rows.append(row)
    return pd.DataFrame(rows)


def _sea_table(rules, unit_counts) -> pd.DataFrame:
    rows = []
    for navigation in (False, True):
        one = sea.unit_odds(navigation, rules)
        for k in unit_counts:
            arrivals = sea.arrivals_odds(k, navigation, rules)
            rows.append({"navigation": "yes" if navigation else "no", "units": k,
                         "P(all arrive)": float(arrivals[k]), "P(none arrives)": float(arrivals[0]),
                         "expected arrivals": float(sum(a * p for a, p in arrivals.items())),
                         "one unit: arrive / return / destroyed": " / ".join(str(one[o]) for o in sea.OUTCOMES)})
    return pd.DataFrame(rows)


CHECKS = {
    "3 armies vs 2 armies": combat_exact.Attack(att_armies=3, def_armies=2),
    "2 armies vs 1 army + fort, training": combat_exact.Attack(att_armies=2, def_armies=1, def_forts=1, att_army_training=1),
    "2 armies + fleet vs neutral 4": combat_exact.Attack(att_armies=2, att_fleets=1, neutral=4, naval_phase=True),
    "naval then land, reserves 1/1": combat_exact.Attack(att_armies=3, att_fleets=2, def_armies=2, def_fleets=2,
                                                   naval_phase=True, att_reserves=1, def_reserves=1),
}


def _cross_check(rules, n: int) -> pd.DataFrame:
    rows = []
    for name, attack in CHECKS.items():
        inputs = attack.inputs()

        def kernel(rng, size, attack=attack, inputs=inputs):
            res = combat.resolve_attacks(rng, attack.att_armies, rules=rules, n=size, **inputs)
            return {"win": np.bincount((res.winner == combat.ATT_WIN).astype(np.int64), minlength=2)}

        wins = int(run_blocks(kernel, n, SEED, "struggle-odds-page")["win"][1])
        low, high = wilson_interval(wins, n)
        exact = combat_exact.attack_odds(attack, rules).attacker_win
        z = (wins / n - exact) / float(binomial_se(exact, n))
        rows.append({"configuration": name, "exact P(att wins)": exact, "Monte Carlo": wins / n,
                     "95% interval": f"[{low:.4f}, {high:.4f}]", "n": n, "z (standard errors)": round(z, 2)})
    return pd.DataFrame(rows)
