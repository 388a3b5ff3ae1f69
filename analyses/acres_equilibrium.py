"""Who is favoured in A Few Acres of Snow when both sides choose well among the scripted tables
(issue 14's hammer question, at the top of the ladder): the British win rate of every British
table against every French one, under each edition and each anti-British variant of the hammer
table, and the value of that matrix as a zero-sum game (sim.core.matrix_game): each side plays
its best mixture of the tables measured.

Why a matrix and not only the ladder: the tables tuned as replies to one another (the hammer
table's ladder, sim/acres/data/tuned.toml) need not settle. Under the second edition each side
found a reply to the other's last table twice over, so the last rung of a ladder says who tuned
last, not who is favoured. The value of the game between all the tables, each side mixing
them as best it can, does not depend on the order they were made in; a new table can only move
it if it is a better reply to the other side's mixture.

Each cell plays the same game indices (common random numbers), the British in every game, the
seat order alternating (as the hammer table). The 95 % interval of the value is a bootstrap over
the game indices, resampled together for every cell (they share their dice). A value is the
maximum of noisy minima, so on few games it leans towards the British: read it with its
interval, and as the value of the tables measured, not of the game.
"""

from __future__ import annotations

import html as html_lib
from pathlib import Path

import numpy as np
import pandas as pd

from analyses import html, section_page
from analyses.acres_hammer import RULESETS, seatings
from sim.acres import play
from sim.core import runner
from sim.core.matrix_game import solve, value
from sim.core.random import stream
from sim.core.stats import wilson_interval

EDITIONS = ("first edition", "second edition")   # the rule sets whose matrices the page shows (RULESETS' names)
BRITISH = ("hammer", "settler", "balanced", "hammer-tuned", "hammer-tuned-2e", "hammer-tuned-2e-2")
FRENCH = ("raider", "fortress", "balanced", "raider-tuned", "raider-tuned-2e", "raider-tuned-2e-2")
BOOTSTRAP = 1_000          # resamples of the game indices for the value's interval
SHOWN = 0.005              # mixture weights below this are left out of the finding


def british_wins(games: int, seed: int, jobs: int, overrides: tuple[str, ...], british: tuple[str, ...],
                 french: tuple[str, ...]) -> np.ndarray:
    """1 where the British won, by British table, French table and game index (0 .. games-1).
    The British tables must differ from one another (each names its rows)."""
    if len(set(british)) != len(british):
        raise ValueError(f"the British tables {british} repeat one; each must be played once")
    data = play.load_data(list(overrides), strategies=sorted({*british, *french}))   # the shipped tuned tables join
    wins = np.zeros((len(british), len(french), games))
    for j, f in enumerate(french):
        # one call a French table: its British opponents are told apart by their strategy
        listed = [cell for b in british for cell in enumerate(seatings((b, f), games))]
        table = runner.play_listed(play.__name__, seed, listed, data, jobs=jobs)
        rows = table[table.power == "british"]
        for i, b in enumerate(british):
            wins[i, j] = rows[rows.strategy == b].sort_values("game_index").winner.astype(float).to_numpy()
    return wins


def value_interval(wins: np.ndarray, seed: int, resamples: int) -> tuple[float, float]:
    """The 95 % percentile interval of the value over `resamples` bootstrap draws of the game
    indices, one draw for every cell together (they share their dice)."""
    rng = stream(seed, 0, "acres-equilibrium-bootstrap")
    n = wins.shape[2]
    values = [value(wins[:, :, rng.integers(0, n, n)].mean(axis=2)) for _ in range(resamples)]
    low, high = np.percentile(values, [2.5, 97.5])
    return float(low), float(high)


def equilibria(games: int, seed: int, jobs: int, base: tuple[str, ...] = (),
               rulesets: dict[str, tuple[str, ...]] | None = None, british: tuple[str, ...] | None = None,
               french: tuple[str, ...] | None = None, resamples: int | None = None
               ) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(the win-rate matrix of every rule set as rows: rules, British, French, games, British
    rate with its Wilson 95 % interval; the equilibrium of every rule set: its value, interval and
    each side's mixture). Rule sets default to the hammer table's (`RULESETS`: the editions and
    each anti-British variant alone on the first edition); `base`: a report's overrides, under
    each rule set's own; the tables default to BRITISH and FRENCH, the resamples to BOOTSTRAP."""
    british, french = british or BRITISH, french or FRENCH
    resamples = resamples or BOOTSTRAP
    cells, values = [], []
    for rules, overrides in (RULESETS if rulesets is None else rulesets).items():
        # fresh workers for each rule set: a worker keeps the siege odds of every table it met, and
        # grown past loky's limit over several rule sets it was stopped mid-run (results unchanged)
        runner.release_workers()
        wins = british_wins(games, seed, jobs, (*base, *overrides), british, french)
        rates = wins.mean(axis=2)
        eq = solve(rates)
        low, high = value_interval(wins, seed, resamples)
        cells += [{"rules": rules, "british": b, "french": f, "games": games, "british_rate": rates[i, j],
                   **dict(zip(("low", "high"), map(float, wilson_interval(int(wins[i, j].sum()), games))))}
                  for i, b in enumerate(british) for j, f in enumerate(french)]
        values.append({"rules": rules, "value": eq.value, "low": low, "high": high,
                       "british_mix": _mix(british, eq.rows), "french_mix": _mix(french, eq.columns)})
    return pd.DataFrame(cells), pd.DataFrame(values)


def _mix(names: tuple[str, ...], weights: np.ndarray) -> str:
    """The mixture's tables with weight at least SHOWN, heaviest first: 'hammer-tuned 0.70, hammer 0.30'."""
    order = sorted((w, n) for n, w in zip(names, weights) if w >= SHOWN)[::-1]
    return ", ".join(f"{n} {w:.2f}" for w, n in order)


def finding(values: pd.DataFrame) -> str:
    """The value of each edition's game with its interval and the mixtures that reach it, then the
    variant whose value is closest to even."""
    editions = values[values.rules.isin(EDITIONS)]
    variants = values[~values.rules.isin(EDITIONS)]
    parts = [f"under {_rules(r.rules)} the British win {_value(r)} (British {r.british_mix}; French {r.french_mix})"
             for r in editions.itertuples()]
    sentence = "With each side playing its best mixture of the scripted tables, " + "; ".join(parts)
    if len(variants):
        closest = variants.loc[(variants.value - 0.5).abs().idxmin()]
        sentence += (f"; of the variants, {closest.rules} brings it closest to even ({_value(closest)}; British "
                     f"{closest.british_mix})")
    return sentence + "."


def _value(r) -> str:
    return f"{r.value:.2f} [{r.low:.2f}, {r.high:.2f}]"


def _rules(name: str) -> str:
    """'the first edition', or a variant's name as it is."""
    return f"the {name}" if name.endswith("edition") else name


def report_section(folder: Path, games: int, seed: int, jobs: int, overrides: tuple[str, ...] = (),
                   rulesets: dict[str, tuple[str, ...]] | None = None) -> tuple[str, list[str]]:
    """The matrices and their equilibria for the balance report: (the finding, HTML fragments);
    `acres_equilibrium.csv` (every matrix) and `acres_equilibrium_values.csv` are written in
    `folder`. `overrides` (a report's `--set` / `--variant`) apply under each rule set's own
    (default RULESETS)."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    cells, values = equilibria(games, seed, jobs, base=tuple(overrides), rulesets=rulesets)
    cells.to_csv(folder / "acres_equilibrium.csv", index=False)
    values.to_csv(folder / "acres_equilibrium_values.csv", index=False)
    sentence = finding(values)
    fragments = ["<h3>Both sides choosing well: the game between the scripted tables</h3>", html.summary(sentence),
                 html.table([[r.rules, html.sig(r.value), html.interval(r.low, r.high), r.british_mix, r.french_mix]
                             for r in values.itertuples()],
                            ["rules", "value: British win rate", "95 % interval", "British mixture", "French mixture"])]
    for rules, matrix in cells[cells.rules.isin(EDITIONS)].groupby("rules", sort=False):
        grid = matrix.pivot(index="british", columns="french", values="british_rate").loc[
            list(dict.fromkeys(matrix.british)), list(dict.fromkeys(matrix.french))]
        fragments += [f"<h4>{html_lib.escape(rules)}: British win rate, British table by French table</h4>",
                      html.table([[b, *(html.sig(x) for x in row)] for b, row in zip(grid.index, grid.to_numpy())],
                                 ["British \\ French", *grid.columns])]
    fragments.append(
        f"<p>{games} games per cell (seed {seed}, common random numbers, seat order alternating; each cell's Wilson "
        f"95 % interval, and the variants' matrices, are in the CSV). The value is "
        f"the British win rate when each side plays its best mixture of these tables against the other's "
        f"(a zero-sum matrix game solved by linear programming); its 95 % interval is a bootstrap over the "
        f"game indices ({BOOTSTRAP:,} resamples). It is the value of the tables measured, not of the game: a "
        f"better table for either side can move it. The tuned tables are those of "
        f"<code>sim/acres/data/tuned.toml</code>, each tuned against the other side's table before it, the "
        f"<code>-2e</code> ones under the second edition; none was tuned under a variant, so a variant's value is "
        f"that of tables made for the editions. Variants alone on the first edition. Tables: "
        f"<code>{html_lib.escape('acres_equilibrium.csv')}</code>, "
        f"<code>{html_lib.escape('acres_equilibrium_values.csv')}</code>.</p>")
    return sentence, fragments


def main(argv: list[str] | None = None) -> int:
    """`python -m analyses.acres_equilibrium`: the matrices and their equilibria as an HTML page."""
    from sim.cli.common import int_in

    parser = section_page.parser("acres_equilibrium", __doc__)
    parser.add_argument("--games", type=int_in(2, 10**6, "games"), default=40,
                        help="games per British and French table and rule set, seat order alternating (default 40, "
                             "as the report)")
    parser.add_argument("--rules", choices=("all", "editions"), default="all",
                        help="the editions and each anti-British variant of the hammer table alone on the first "
                             "edition (default, as the report), or the two editions only")

    def section(args) -> tuple[str, list[str]]:
        rulesets = {k: v for k, v in RULESETS.items() if args.rules == "all" or k in EDITIONS}
        return report_section(args.out, args.games, args.seed, args.jobs, args.data_overrides, rulesets)

    return section_page.run(parser, argv, "reports/acres_equilibrium", "A Few Acres of Snow: both sides choosing well",
                            section, "acres")


if __name__ == "__main__":
    raise SystemExit(main())
