"""A Few Acres of Snow odds page: siege success by location (AFS-8) for the starting decks and
for decks after a little recruiting, the turns a siege takes, and an exact vs Monte Carlo check.
Numbers come from `sim.acres.siege` (model and policies in docs/acres_odds.md)."""

from __future__ import annotations

from pathlib import Path

import matplotlib.pyplot as plt
import numpy as np
import pandas as pd

from analyses import html
from analyses.odds import judged, shown
from sim.acres import siege
from sim.acres.components import SIDES, Acres, load, other
from sim.core.metadata import result_metadata
from sim.core.stats import binomial_se

TITLE = "A Few Acres of Snow: siege odds"
SEED = 20111001
ASSUMED_PREFIXES = ("rules.model.", "rules.siege.")
# Illustrative mid-game decks: the starting deck plus cards each side may recruit (AFS-13.1).
RECRUITED = {"british": {"regular_infantry": 2, "leader": 1}, "french": {"regular_infantry": 2, "leader": 1}}
HOME = {"british": ("gb_town", "gb_village"), "french": ("fr_town", "fr_village")}
TURN_CASES = (("recruited", "british", "louisbourg"), ("recruited", "british", "quebec"),
              ("recruited", "french", "new_york"), ("recruited", "french", "pemaquid"))


def build(out_dir: Path, quick: bool = False):
    from analyses.battle_odds import OddsPage

    acres = load()
    n = 1_000 if quick else 20_000
    rows, turns = [], []
    for scenario in ("starting", "recruited"):
        for attacker in SIDES:
            decks = _decks(acres, scenario)
            targets = [loc.id for loc in acres.locations.values() if loc.start in HOME[other(attacker)]]
            for location in targets:
                for fort in (False, True):
                    setup = siege.make_setup(acres, location, attacker, decks, fort=fort)
                    r = siege.siege_odds(setup, n, SEED)
                    rows.append({"scenario": scenario, "attacker": attacker, "location": location, "fort": fort,
                                 "start_position": setup.start, "attacker_win": r["attacker_win"],
                                 "attacker_low": r["ci95"]["attacker_win"][0],
                                 "attacker_high": r["ci95"]["attacker_win"][1],
                                 "defender_win": r["defender_win"], "defender_low": r["ci95"]["defender_win"][0],
                                 "defender_high": r["ci95"]["defender_win"][1], "unresolved": r["unresolved"],
                                 "mean_turns": r["mean_turns"], "n": r["n"]})
                    if (scenario, attacker, location) in TURN_CASES and not fort:
                        turns += [{"case": f"{attacker} vs {location}", "turns": t, "probability": p}
                                  for t, p in r["turns"].items()]
    table = pd.DataFrame(rows)
    table.to_csv(out_dir / "sieges.csv", index=False)
    turn_table = pd.DataFrame(turns)
    turn_table.to_csv(out_dir / "turns.csv", index=False)
    for scenario in ("starting", "recruited"):
        _bars(table[table.scenario == scenario], out_dir / f"success_{scenario}.png", scenario)
    _turns_plot(turn_table, out_dir / "turns.png")
    check, verdict = judged(_cross_check(acres, 10_000 if quick else 200_000))
    check.to_csv(out_dir / "cross_check.csv", index=False)

    start = table[(table.scenario == "starting") & ~table.fort]
    rec = table[(table.scenario == "recruited") & ~table.fort]
    best = {a: start[start.attacker == a].sort_values("attacker_win").iloc[-1] for a in SIDES}
    top = rec.loc[rec.attacker_win.idxmax()]
    summary = (f"Starting decks, no fort: the best British siege wins {best['british'].attacker_win:.0%} "
               f"({acres.location(best['british'].location).name}), the best French one "
               f"{best['french'].attacker_win:.0%} ({acres.location(best['french'].location).name}); "
               f"{start.unresolved.mean():.0%} of these sieges stall with both sides out of siege cards. "
               f"After each side recruits two Regular Infantry and a Leader, the best target is "
               f"{acres.location(top.location).name} for the {top.attacker} ({top.attacker_win:.0%}).")
    meta = result_metadata(acres.data, SEED, ASSUMED_PREFIXES, quick=quick, n_per_siege=n)
    columns = ["scenario", "attacker", "location", "fort", "start_position", "attacker_win", "defender_win",
             "unresolved", "mean_turns", "n"]
    body = "".join([
        html.summary(summary),
        "<h2>The model</h2>",
        "<p>One siege between two shuffled decks (AFS-8): the attacker besieges on his first hand that "
        "holds a military card (a ship card at a ship location; Siege Artillery for 3 money), then both "
        "sides alternate turns of two actions, committing their best siege card with each action "
        "(policy <code>greedy</code>; a non-committing action discards one dead card), Leaders as free "
        "actions, refilling to 5 cards. Win checks at the start of the mover's turn: attacker at "
        "P &ge; +2, defender at P &le; &minus;1 (track with a 0 space, AFS-18 A1). "
        "<em>Unresolved</em> sieges are stalemates (both sides have committed every card that could move "
        "the marker; a real attacker would withdraw, AFS-8.12) or still running after "
        f"{acres.rules.max_turns} player turns. Targets are the defender's starting locations; the "
        "location's own card is dead for both sides. See docs/acres_odds.md.</p>",
        "<h2>Starting decks (AFS-4.9)</h2>",
        html.figure("success_starting.png", "siege success by location, starting decks"),
        "<h2>After recruiting: starting deck + 2 Regular Infantry + Leader, each side</h2>",
        html.figure("success_recruited.png", "siege success by location, recruited decks"),
        "<h2>Turns to resolution (recruited decks, no fort)</h2>",
        "<p>Player turns completed when the deciding check happens (turn 1 is the besieging turn; "
        "a defender win after 1 turn means the opening left the marker on his side).</p>",
        html.figure("turns.png", "distribution of turns to resolution"),
        "<h2>All sieges</h2>",
        html.table(shown(table[columns]).itertuples(index=False), columns),
        "<h2>Cross-check: bulk Monte Carlo against the exact state recursion</h2>",
        html.table(check.itertuples(index=False), list(check.columns)), verdict,
        "<p>Data: <a href=\"sieges.csv\">sieges.csv</a> (with 95 % Wilson intervals), "
        "<a href=\"turns.csv\">turns.csv</a>, <a href=\"cross_check.csv\">cross_check.csv</a>.</p>",
        html.provenance(meta),
    ])
    (out_dir / "index.html").write_text(html.page(TITLE, body), encoding="utf-8")
    return OddsPage(TITLE, "index.html", summary)


def _decks(acres: Acres, scenario: str) -> dict:
    decks = {}
    for side in SIDES:
        counts = acres.starting_deck(side).as_dict()
        if scenario == "recruited":
            for cid, k in RECRUITED[side].items():
                counts[cid] = counts.get(cid, 0) + k
        decks[side] = acres.deck(side, counts)
    return decks


def _bars(table: pd.DataFrame, path: Path, scenario: str) -> None:
    fig, axes = plt.subplots(1, 2, figsize=(13, 4.4), constrained_layout=True, sharey=True)
    for ax, attacker in zip(axes, SIDES):
        sub = table[table.attacker == attacker]
        labels = list(dict.fromkeys(sub.location))
        x = np.arange(len(labels))
        for k, (fort, colour) in enumerate(((False, "#457b9d"), (True, "#e63946"))):
            part = sub[sub.fort == fort].set_index("location").loc[labels]
            err = np.vstack([part.attacker_win - part.attacker_low, part.attacker_high - part.attacker_win])
            ax.bar(x + (k - 0.5) * 0.38, part.attacker_win, 0.38, yerr=err, capsize=2, color=colour,
                   label="with fort" if fort else "no fort")
        ax.set_xticks(x, labels, rotation=35, ha="right")
        ax.set_ylim(0, 1)
        ax.set_title(f"{attacker} attack ({scenario} decks)")
        ax.set_xlabel("besieged location")
        ax.set_ylabel("P(attacker wins), 95 % interval")
    handles, labels = axes[0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="outside upper center", ncol=2, frameon=False)
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _turns_plot(turns: pd.DataFrame, path: Path) -> None:
    fig, ax = plt.subplots(figsize=(9, 4), constrained_layout=True)
    for case, sub in turns.groupby("case", sort=False):
        # Every turn count in the range gets a point; a turn no siege ended on has no data and
        # breaks the line (NaN) instead of being bridged.
        full = sub.set_index("turns")["probability"].reindex(range(int(sub.turns.min()), int(sub.turns.max()) + 1))
        ax.plot(full.index, full.to_numpy(), marker="o", ms=4, label=case)
    ax.set_xlabel("player turns completed at resolution")
    ax.set_ylabel("probability")
    ax.xaxis.get_major_locator().set_params(integer=True)
    ax.legend(loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False, title="siege")
    fig.savefig(path, dpi=110)
    plt.close(fig)


def _cross_check(acres: Acres, n: int) -> pd.DataFrame:
    """Small decks where the exact recursion is cheap: bulk estimate, exact value, z-score."""
    cases = {
        "GB 2 RI + 2 Militia + Leader + 4 dead vs FR 2 Militia + RI + Fortification + 4 dead, Montreal":
            ("montreal", "british", {"british": {"regular_infantry": 2, "militia": 2, "pemaquid": 4, "leader": 1},
                                     "french": {"militia": 2, "regular_infantry": 1, "trader": 3, "montreal": 1,
                                                "fortification": 1}}),
        "FR 2 RI + Militia + Leader + 3 dead vs GB 2 Militia + RI + Fortification + 3 dead, Albany":
            ("albany", "french", {"french": {"regular_infantry": 2, "militia": 1, "trader": 3, "leader": 1},
                                  "british": {"militia": 2, "regular_infantry": 1, "pemaquid": 3,
                                              "fortification": 1}}),
    }
    rows = []
    for name, (location, attacker, decks) in cases.items():
        setup = siege.make_setup(acres, location, attacker, {s: acres.deck(s, c) for s, c in decks.items()},
                                 max_turns=14)
        exact = siege.exact(setup)
        counts = siege.siege_counts(setup, n, SEED)
        for key in ("attacker", "defender", "unresolved"):
            p = float(np.sum(exact[key]))
            est = counts[key].sum() / n
            se = float(binomial_se(p, n))
            rows.append({"case": name, "outcome": key, "exact": p, "monte_carlo": est, "n": n,
                         "z": (est - p) / se if se else 0.0})
    return pd.DataFrame(rows)
