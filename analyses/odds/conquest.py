"""Conquest of the Empire odds page: win-probability heatmaps by army size (open field or
fortified City, with or without a catapult), the optimal retreat map, naval odds and an exact vs
Monte Carlo cross-check. Exact numbers come from `sim.conquest.land_exact.solve_land`."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import pandas as pd
from matplotlib.colors import ListedColormap

from analyses import html
from analyses.odds import font_pt, judged, shown
from sim.conquest.combat import Army, LandBattle
from sim.conquest.components import default_components
from sim.conquest.land_bulk import simulate_land
from sim.conquest.land_exact import solve_land
from sim.conquest.naval import Fleet, solve_naval
from sim.conquest.policy import FIGHT, OPTIMAL, Objective, RetreatPolicy
from sim.core.metadata import result_metadata
from sim.core.stats import binomial_se

TITLE = "Conquest of the Empire: land and naval battle odds"
SEED = 2005
ASSUMED_PREFIXES = ("options.",)
PANELS = {  # name: (fortified, attacker has a catapult)
    "open field": (False, False), "open field, attacker with a catapult": (False, True),
    "fortified City": (True, False), "fortified City, attacker with a catapult": (True, True)}
RETREAT_OBJECTIVE = Objective(unit_weight=0.02, leader_weight=0.5)


def army(units: int, catapult: bool, leaders: int = 1) -> Army:
    """The page's standard legion: a third cavalry (rounded down), the rest infantry; with a
    catapult, one infantry (or cavalry) is replaced by a catapult."""
    cav = units // 3
    inf = units - cav
    if catapult:
        inf, cav = (inf - 1, cav) if inf > 0 else (inf, cav - 1)
    return Army(inf, cav, int(catapult), leaders)


def build(out_dir: Path, quick: bool = False):
    from analyses.battle_odds import OddsPage

    comps = default_components()
    top = 6 if quick else 12
    rows = []
    for panel, (fortified, catapult) in PANELS.items():
        for a in range(1, top + 1):
            for d in range(1, top + 1):
                odds = solve_land(LandBattle(army(a, catapult), army(d, False), fortified), comps).odds
                rows.append({"panel": panel, "attacker_units": a, "defender_units": d,
                             "attacker_win": odds.attacker_win, "defender_win": odds.defender_win,
                             "both_destroyed": odds.both_destroyed, "expected_rounds": odds.expected_rounds,
                             "expected_attacker_survivors": _mean(odds.attacker_survivors),
                             "expected_defender_survivors": _mean(odds.defender_survivors)})
    grid = pd.DataFrame(rows)
    grid.to_csv(out_dir / "battles.csv", index=False)
    _heatmaps(grid, out_dir / "attacker_win.png")

    retreat = _retreat_maps(comps, 6 if quick else 12)
    retreat.to_csv(out_dir / "optimal_retreat.csv", index=False)
    _retreat_plot(retreat, out_dir / "optimal_retreat.png")
    thresholds = _thresholds(retreat)
    thresholds.to_csv(out_dir / "retreat_thresholds.csv", index=False)

    naval = pd.DataFrame([{"attacker galleys": a, "defender galleys": d,
                           **{k: getattr(o, k) for k in ("attacker_win", "defender_win", "both_sunk", "undecided")}}
                          for a in range(1, 5) for d in range(1, 5)
                          for o in [solve_naval(Fleet(a), Fleet(d), comps)]])
    naval.to_csv(out_dir / "naval.csv", index=False)
    check, verdict = judged(_cross_check(comps, 20_000 if quick else 400_000))
    check.to_csv(out_dir / "cross_check.csv", index=False)

    even = grid[(grid.panel == "open field") & (grid.attacker_units == grid.defender_units)]
    fort = grid[(grid.panel == "fortified City") & (grid.attacker_units == grid.defender_units)]
    fort_cat = grid[(grid.panel == "fortified City, attacker with a catapult")
                    & (grid.attacker_units == grid.defender_units)]
    n = min(6, top)
    summary = (f"Equal legions of {n}: the attacker takes the province {_at(even, n):.0%} of the time in the "
               f"open, {_at(fort, n):.0%} against a fortified City and {_at(fort_cat, n):.0%} when one of his "
               f"units is a catapult. Fighting to the end is optimal when only the province counts.")
    meta = result_metadata(comps.data, SEED, ASSUMED_PREFIXES, quick=quick)
    body = "".join([
        html.summary(summary),
        "<h2>Land battles: P(attacker takes the province)</h2>",
        "<p>Exact (absorbing-chain recursion, COE-14). Land units of the attacker on the vertical axis, of "
        "the defender across; each legion is one third cavalry (rounded down) and the rest infantry, "
        "with one leader per side. &ldquo;With a catapult&rdquo;: one of the attacker's units is a "
        "catapult (it scores from reserve and cuts the fortified City's bonus from 2 dice to 1, "
        "COE-14.7). Both sides fight to the end; formations maximise expected hits and casualties keep "
        "the strongest next formation (the choices of COE-E5).</p>",
        html.figure("attacker_win.png", "P(attacker wins) heatmaps"),
        "<h2>Optimal retreat</h2>",
        "<p>Retreating hands over the province (defender) or abandons the attack (attacker), so when only "
        "the province counts the optimal policy never retreats. Retreat pays once surviving units and "
        f"leaders are worth something: here one talent of units = {RETREAT_OBJECTIVE.unit_weight} "
        f"province and one captured leader = {RETREAT_OBJECTIVE.leader_weight} province, zero-sum, both "
        "sides optimal (the defender decides first, COE-14.5; pursuit by the winner's cavalry, "
        "COE-16.2). Infantry-only armies with one leader each, so pursuit costs a retreating side nothing "
        "(only cavalry pursues); each cell is the decision after a round with that many units left.</p>",
        html.figure("optimal_retreat.png", "optimal retreat map"),
        "<p>Smallest own army with which each side keeps fighting, by the opponent's army:</p>",
        html.table(thresholds.itertuples(index=False), list(thresholds.columns)),
        "<h2>Naval battles (COE-15)</h2>",
        "<p>Two dice per galley, galley symbols hit (uncapped, COE-A17), at most three rounds.</p>",
        html.table(shown(naval).itertuples(index=False), list(naval.columns)),
        "<h2>Cross-check: exact against bulk Monte Carlo</h2>",
        html.table(check.itertuples(index=False), list(check.columns)), verdict,
        "<p>Data: <a href=\"battles.csv\">battles.csv</a>, <a href=\"optimal_retreat.csv\">optimal_retreat.csv</a>, "
        "<a href=\"retreat_thresholds.csv\">retreat_thresholds.csv</a>, <a href=\"naval.csv\">naval.csv</a>, "
        "<a href=\"cross_check.csv\">cross_check.csv</a>.</p>",
        html.provenance(meta),
    ])
    (out_dir / "index.html").write_text(html.page(TITLE, body), encoding="utf-8")
    return OddsPage(TITLE, "index.html", summary)


def _mean(pmf: dict[int, float]) -> float:
    return float(sum(k * p for k, p in pmf.items()))


def _at(frame: pd.DataFrame, n: int) -> float:
    return float(frame[frame.attacker_units == n].attacker_win.iloc[0])


def _heatmaps(grid: pd.DataFrame, path: Path) -> None:
    panels = list(PANELS)
    width, dpi = 10.5, 110
    fig, axes = plt.subplots(2, 2, figsize=(width, 9), constrained_layout=True)
    size = font_pt(width, dpi)
    for ax, panel in zip(axes.ravel(), panels):
        sub = grid[grid.panel == panel].pivot(index="attacker_units", columns="defender_units", values="attacker_win")
        image = ax.imshow(sub.values, origin="lower", cmap="viridis", vmin=0, vmax=1, aspect="auto",
                          extent=(sub.columns.min() - .5, sub.columns.max() + .5, sub.index.min() - .5,
                                  sub.index.max() + .5))
        for a in sub.index:
            for d in sub.columns:
                value = sub.loc[a, d]
                ax.text(d, a, f"{value:.2f}".lstrip("0").replace("1.00", "1"), ha="center", va="center",
                        fontsize=size, color="white" if value < 0.6 else "black")
        ax.set_title(panel)
        ax.set_xlabel("defender land units")
        ax.set_ylabel("attacker land units")
    fig.colorbar(image, ax=axes.ravel().tolist(), shrink=0.8, label="P(attacker takes the province)")
    fig.savefig(path, dpi=dpi)
    plt.close(fig)


def _retreat_maps(comps, top: int) -> pd.DataFrame:
    """The optimal decision after a round in every (attacker, defender) infantry-only state."""
    rows = []
    for fortified in (False, True):
        sol = solve_land(LandBattle(Army(top, 0, 0, 1), Army(top, 0, 0, 1), fortified), comps,
                         OPTIMAL, OPTIMAL, objective=RETREAT_OBJECTIVE)
        for a in range(1, top + 1):
            for d in range(1, top + 1):
                ia, id_ = sol.attacker.index((a, 0, 0)), sol.defender.index((d, 0, 0))
                who = ("defender retreats" if sol.defender_retreats[ia, id_]
                       else "attacker retreats" if sol.attacker_retreats[ia, id_] else "both continue")
                rows.append({"fortified": fortified, "attacker_units": a, "defender_units": d, "decision": who})
    return pd.DataFrame(rows)


DECISIONS = ("both continue", "attacker retreats", "defender retreats")


def _retreat_plot(frame: pd.DataFrame, path: Path) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(10.5, 4.6), constrained_layout=True)
    cmap = ListedColormap(["#dfe7ef", "#e76f51", "#2a9d8f"])
    for ax, fortified in zip(axes, (False, True)):
        sub = frame[frame.fortified == fortified].copy()
        sub["code"] = sub.decision.map({d: i for i, d in enumerate(DECISIONS)})
        table = sub.pivot(index="attacker_units", columns="defender_units", values="code")
        ax.imshow(table.values, origin="lower", cmap=cmap, vmin=0, vmax=2, aspect="auto",
                  extent=(table.columns.min() - .5, table.columns.max() + .5, table.index.min() - .5,
                          table.index.max() + .5))
        ax.set_title("fortified City" if fortified else "open field")
        ax.set_xlabel("defender infantry left")
        ax.set_ylabel("attacker infantry left")
    handles = [plt.Rectangle((0, 0), 1, 1, color=cmap(i)) for i in range(3)]
    fig.legend(handles, DECISIONS, loc="outside lower center", ncol=3)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _thresholds(frame: pd.DataFrame) -> pd.DataFrame:
    """Per opponent army: the smallest own army at which a side does not retreat."""
    rows = []
    for fortified in (False, True):
        sub = frame[frame.fortified == fortified]
        for other in sorted(sub.defender_units.unique()):
            att = sub[(sub.defender_units == other) & (sub.decision != "attacker retreats")].attacker_units
            dfn = sub[(sub.attacker_units == other) & (sub.decision != "defender retreats")].defender_units
            rows.append({"fortified": "yes" if fortified else "no", "opponent units": int(other),
                         "attacker fights on with at least": int(att.min()) if len(att) else "never",
                         "defender holds with at least": int(dfn.min()) if len(dfn) else "never"})
    return pd.DataFrame(rows)


def _cross_check(comps, n: int) -> pd.DataFrame:
    cases = [
        ("COE-E5 armies, open field", LandBattle(Army(5, 2, 1, 2), Army(4, 2, 0, 1)), FIGHT, FIGHT, Objective()),
        ("same, fortified, retreat-below 3 / 2", LandBattle(Army(5, 2, 1, 2), Army(4, 2, 0, 1), True),
         RetreatPolicy("below", 3), RetreatPolicy("below", 2), Objective()),
        ("8 vs 8 mixed, fortified, both optimal", LandBattle(army(8, True, 2), army(8, False, 1), True),
         OPTIMAL, OPTIMAL, RETREAT_OBJECTIVE),
    ]
    rows = []
    for i, (name, battle, a_pol, d_pol, obj) in enumerate(cases):
        exact = solve_land(battle, comps, a_pol, d_pol, objective=obj).odds
        mc = simulate_land(battle, comps, n, SEED + i, a_pol, d_pol, objective=obj)
        se = float(binomial_se(exact.attacker_win, n))
        rows.append({"battle": name, "exact P(att wins)": exact.attacker_win, "MC": mc.attacker_win,
                     "95% interval": "[{:.4f}, {:.4f}]".format(*mc.extra["ci95"]["attacker_win"]),
                     "n": n, "z": (mc.attacker_win - exact.attacker_win) / se if se else 0.0})
    return pd.DataFrame(rows)
