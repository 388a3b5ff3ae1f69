"""Age of Discovery: is the turn-order money fair? (AOD-3.3, AOD-16, issue 16 item 3)

Win rate by starting turn-order position (the `start_position` column) in 4-player games of the
scripted lineup, rotated over the seats so that strategies and positions are independent:
with the rulebook's money (+$1 per position after the first), without it, as a sweep of
`rules.turn_order_money`, and with the starting-order auction of AOD-16 instead. The fair share
is every win over every seat-game (a shared first place counts for each sharer,
`analyses.tournament.null_rate`); the money that makes the seats fairest is the sweep value with
the smallest largest gap between a position's win rate and that share.

`report_section(folder, games, seed, jobs)` writes `discovery_seats.csv` into `folder` and returns
a one-sentence finding and HTML fragments for the balance report.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from analyses import html
from analyses.tournament import level_table, null_rate
from sim.core.runner import play_listed
from sim.core.seating import Seating, rotated
from sim.discovery import play

MODULE = "sim.discovery.play"
PLAYERS = 4
SWEEP = (0, 1, 2, 3, 4)          # dollars per turn-order position; 1 is the rulebook's (AOD-3.3)
RULEBOOK = 1


def seatings(games: int) -> list[Seating]:
    """The default lineup rotated one seat per game (powers fixed: they have no effect, AOD-1.1)."""
    lineup = play.INFO.lineup
    powers = play.INFO.powers[:PLAYERS]
    return [rotated(powers, lineup, g) for g in range(games)]


def arm(overrides: list[str], games: int, seed: int, jobs: int, base: tuple[str, ...] = ()) -> pd.DataFrame:
    """One arm's results (the same game indices, hence the same setups, in every arm), its own
    overrides on top of the report's (`base`)."""
    data = play.load_data([*base, *overrides])
    return play_listed(MODULE, seed, list(enumerate(seatings(games))), data, jobs=jobs)


def seat_table(results: pd.DataFrame, name: str, money: int | None) -> pd.DataFrame:
    """Win rate with its 95 % interval per starting position, and the fair share."""
    table = level_table(results, "start_position").reset_index()
    table.insert(0, "arm", name)
    table.insert(1, "turn_order_money", money)
    table["fair_share"] = null_rate(results)
    return table


def largest_gap(table: pd.DataFrame) -> float:
    return float((table["win_rate"] - table["fair_share"]).abs().max())


def report_section(folder: Path, games: int, seed: int, jobs: int, overrides: tuple[str, ...] = ()
                   ) -> tuple[str, list[str]]:
    """Play the arms (each under `overrides`, a report's `--set` / `--variant`), write
    `discovery_seats.csv` and return (finding, HTML fragments)."""
    folder = Path(folder)
    base = tuple(overrides)
    tables = [seat_table(arm([f"rules.turn_order_money={m}"], games, seed, jobs, base), "sweep", m) for m in SWEEP]
    tables.append(seat_table(arm(["options.start_order=auction"], games, seed, jobs, base), "auction", None))
    seats = pd.concat(tables, ignore_index=True)
    seats.to_csv(folder / "discovery_seats.csv", index=False)
    sweep = seats[seats.arm == "sweep"]
    gaps = {m: largest_gap(sweep[sweep.turn_order_money == m]) for m in SWEEP}
    fairest = min(gaps, key=gaps.get)
    book = sweep[sweep.turn_order_money == RULEBOOK]
    first = book[book.start_position == 1].iloc[0]
    verdict = ("above" if first.ci_low > first.fair_share else "below" if first.ci_high < first.fair_share
               else "within chance of")
    finding = (f"With the rulebook's +${RULEBOOK} per position the first player wins {first.win_rate:.3f} "
               f"(95 % interval {first.ci_low:.3f}-{first.ci_high:.3f}), {verdict} the fair share "
               f"{first.fair_share:.3f}; the seats are fairest at +${fairest} per position "
               f"(largest gap {gaps[fairest]:.3f}).")
    rows = [(r.arm, "" if pd.isna(r.turn_order_money) else int(r.turn_order_money), int(r.start_position), int(r.n),
             html.sig(r.win_rate), html.interval(r.ci_low, r.ci_high), html.sig(r.fair_share))
            for r in seats.itertuples()]
    fragments = [html.summary(finding),
                 html.table(rows, ("arm", "$ per position", "start position", "seat-games", "win rate",
                                   "95 % interval", "fair share")),
                 html.table([(m, html.sig(g)) for m, g in gaps.items()], ("$ per position", "largest gap"))]
    return finding, fragments
