"""The Halifax hammer of A Few Acres of Snow, measured (issue 14 item 4): the British win rate of
the scripted `hammer` (a siege deck of regulars, ships and artillery thrown at Louisbourg and
Quebec) against every French scripted strategy, under the first edition, the second edition and
each anti-British Yucata variant alone (on the first edition), with Wilson 95 % intervals, an
SPRT verdict against an even game and the game-end reasons.

Besides the hand-set tables it plays the tuned ones of sim/acres/data/tuned.toml, a ladder of
best replies: `raider-tuned` (the raider tuned against the hammer) and `hammer-tuned` (the
hammer tuned against raider-tuned; no French table tuned against it has answered it,
docs/acres_engine.md). So the answer rests neither on French players who never looked for a
reply to the hammer, nor on a hammer that never answered that reply.

Each cell plays the same game indices (common random numbers), the British in every game, the
seat order alternating. The SPRTs (sim.core.sprt, one game per block, score 1 for a British
win) test an even game (0.5) against a British edge (0.6) and, on the French scores, against a
French edge; "no British edge" / "no French edge" when one accepts the even game, "undecided"
when neither crosses a bound within the games played.
"""

from __future__ import annotations

import html as html_lib
from pathlib import Path

import pandas as pd

from analyses import html, section_page
from sim.acres import play
from sim.core import runner
from sim.core.data import named_strategies
from sim.core.seating import Seating
from sim.core.sprt import Sprt
from sim.core.stats import wilson_interval

RULESETS: dict[str, tuple[str, ...]] = {
    "first edition": (),
    "second edition": ('rules.game.edition="second"',),
    "Scen4 (3 British Regular Infantry out)": ("rules.variants.scen4=true",),
    "Scen16 (no British siege before a French one or 25 VP)": ("rules.variants.scen16=true",),
    "Scen19 (no Governors)": ("rules.variants.scen19=true",),
    "Scen1 (fort in Louisbourg)": ("rules.variants.scen1=true",),
    "Scen10 (fort in Quebec)": ("rules.variants.scen10=true",),
}
HAND_SET = tuple(("hammer", french) for french in ("raider", "fortress", "balanced"))
LADDER = (("hammer", "raider-tuned"), ("hammer-tuned", "raider-tuned"))
PAIRINGS = HAND_SET + LADDER           # (British, French): the rows of every rule set
REASONS = play.END_REASONS              # every way a game can end; the page shows those that occurred
EDGE = 0.6                              # the British (or French) edge an SPRT tests an even game against
FIRST = "first edition"                 # the variants are played alone on it: what `changed` compares with
TRACE = ("winner", "turns", "end_reason", "vp")   # what a played game came to, per side
FEW_CHANGED = 0.25                      # a rule set changing fewer of its games than this is named in the finding


def seatings(pairing: tuple[str, str], games: int) -> list[Seating]:
    """The pairing's British and French strategies in every game, seat order alternating."""
    british, french = pairing
    return [Seating(("british", "french"), (british, french)) if g % 2 == 0
            else Seating(("french", "british"), (french, british)) for g in range(games)]


def tuned(name: str) -> bool:
    """A table of the ladder (shipped in data/tuned.toml, `named_strategies`), not a hand-set one."""
    return name in named_strategies(play.NAME)


def verdict(british_wins: list[int]) -> str:
    """Two SPRTs over the games in order, each stopping at its first bound: an even game (0.5)
    against a British edge (EDGE), and the same on the French scores."""
    decisions = []
    for scores in (british_wins, [1 - w for w in british_wins]):
        test = Sprt(0.5, EDGE)
        for w in scores:
            if test.add(w) is not None:
                break
        decisions.append(test.decision)
    british, french = decisions
    if british == "H1":
        return "British favoured"
    if french == "H1":
        return "French favoured"
    if british == "H0" and french == "H0":
        return "no edge either way"
    return {("H0", None): "no British edge", (None, "H0"): "no French edge"}.get((british, french), "undecided")


def hammer_table(games: int, seed: int, jobs: int, rulesets: dict[str, tuple[str, ...]] | None = None,
                 pairings: tuple[tuple[str, str], ...] | None = None, base: tuple[str, ...] = ()) -> pd.DataFrame:
    """One row per rule set and (British, French) pairing (default: RULESETS x PAIRINGS): the
    British win rate with its interval, the SPRT verdict and the share of each game-end reason.
    `base`: a report's overrides, under each rule set's own."""
    rows, played = [], {}
    pairings = PAIRINGS if pairings is None else pairings
    names = sorted({name for pairing in pairings for name in pairing})
    for rules, overrides in (RULESETS if rulesets is None else rulesets).items():
        data = play.load_data([*base, *overrides], strategies=names)       # the shipped tuned tables join
        for pairing in pairings:
            listed = list(enumerate(seatings(pairing, games)))
            table = runner.play_listed(play.__name__, seed, listed, data, jobs=jobs)
            british = table[table.power == "british"].sort_values("game_index")
            wins = british.winner.astype(int).tolist()
            low, high = wilson_interval(sum(wins), len(wins))
            reasons = british.end_reason.value_counts(normalize=True)
            unknown = set(reasons.index) - set(REASONS)
            if unknown:
                raise ValueError(f"game-end reasons {sorted(unknown)} are not among {REASONS}")
            played[rules, pairing] = traces(table)
            rows.append({"rules": rules, "british": pairing[0], "french": pairing[1], "games": len(wins),
                         "british_wins": sum(wins), "british_rate": sum(wins) / len(wins), "low": float(low),
                         "high": float(high), "sprt": verdict(wins), "median_turns": float(british.turns.median()),
                         **{_column(r): float(reasons.get(r, 0.0)) for r in REASONS}})
    for row in rows:
        row["changed"] = changed(played, row["rules"], (row["british"], row["french"]))
    return pd.DataFrame(rows)


def traces(table: pd.DataFrame) -> dict[int, tuple]:
    """Per game index, what the game came to (`TRACE`, each side's row): two plays of one game
    index under two rule sets with the same trace are taken as the same game."""
    columns = [c for c in TRACE if c in table.columns]
    ordered = table.sort_values(["game_index", "power"])
    return {int(g): tuple(rows[columns].itertuples(index=False, name=None))
            for g, rows in ordered.groupby("game_index", sort=False)}


def changed(played: dict, rules: str, pairing: tuple[str, str]) -> float:
    """How many of a cell's games came to something other than the same game index under the first
    edition (common random numbers: a variant that never binds leaves every game as it was);
    NaN for the first edition itself or where it was not played."""
    reference = played.get((FIRST, pairing))
    if rules == FIRST or reference is None:
        return float("nan")
    games = played[rules, pairing]
    return float(sum(games[g] != reference.get(g) for g in games))


def finding(table: pd.DataFrame) -> str:
    """The finding: does the hammer dominate the hand-set French strategies, how each pairing of
    the tuned ladder ends, and which rules bring its pairings closest to even."""
    first = table[table.rules == FIRST]
    ladder = first.british.map(tuned) | first.french.map(tuned)
    hand = first[~ladder & (first.british == "hammer")]
    sentence = ""
    if len(hand):
        dominates = bool((hand.low > 0.5).all())
        sentence = (f"The British hammer {'dominates' if dominates else 'does not dominate'} the hand-set French "
                    f"strategies under the first edition (British win rate "
                    f"{hand.british_rate.min():.2f}-{hand.british_rate.max():.2f})")
    steps = [f"{r.british} against {r.french} {r.british_rate:.2f} [{r.low:.2f}, {r.high:.2f}] ({r.sprt})"
             for r in first[ladder].itertuples()]
    if steps:
        sentence += ("; " if sentence else "") + "along the ladder of tuned replies the British win " + ", ".join(steps)
    by_rules = table.groupby("rules", sort=False).british_rate.mean()
    closest = (by_rules - 0.5).abs().idxmin()
    return (sentence + f". {closest} brings these pairings closest to even (mean British rate {by_rules[closest]:.2f};"
            " the game between all the tables, below, weighs each side's best choice)."
            + unchanged_clause(table))


def unchanged_clause(table: pd.DataFrame) -> str:
    """The rule sets that change fewer than `FEW_CHANGED` of their games against the first
    edition: the scripted games seldom meet what such a variant changes, so its rows measure the
    players' habits more than the variant ('' when none, or nothing was compared)."""
    if "changed" not in table:
        return ""
    compared = table.dropna(subset=["changed"]).groupby("rules", sort=False)[["changed", "games"]].sum()
    share = compared.changed / compared.games
    few = share[share < FEW_CHANGED]
    if few.empty:
        return ""
    listed = ", ".join(f"{rules}: {100 * s:.0f} % changed" for rules, s in few.items())
    return (f" Some variants leave most games as the first edition played them ({listed}): the scripted "
            "games seldom meet what they change, so their rows say little about them.")


def _column(reason: str) -> str:
    """The table's column of a game-end reason's share."""
    return "end_" + reason.replace(" ", "_")


def report_section(folder: Path, games: int, seed: int, jobs: int, overrides: tuple[str, ...] = ()
                   ) -> tuple[str, list[str]]:
    """The hammer table for the balance report: (the one-sentence finding, HTML fragments);
    `acres_hammer.csv` is written in `folder`. `overrides` (a report's `--set` / `--variant`)
    apply to every rule set, under its own edition and variant."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    table = hammer_table(games, seed, jobs, base=tuple(overrides))
    table.to_csv(folder / "acres_hammer.csv", index=False)
    sentence = finding(table)
    shown = [x for x in REASONS if table[_column(x)].any()]
    rows = [[r.rules, r.british, r.french, r.games, html.sig(r.british_rate), html.interval(r.low, r.high), r.sprt,
             html.sig(r.median_turns), *(f"{100 * getattr(r, _column(x)):.0f} %" for x in shown),
             "–" if pd.isna(r.changed) else f"{r.changed:.0f} of {r.games}"]
            for r in table.itertuples()]
    fragments = [
        "<h3>The Halifax hammer</h3>",
        html.summary(sentence),
        html.table(rows, ["rules", "British strategy", "French strategy", "games", "British win rate", "95 % interval",
                          "SPRT vs 0.5", "median turns", *shown, "games changed"]),
        f"<p>The scripted British <code>hammer</code> against each French strategy, then the ladder of tuned "
        f"replies (<code>sim/acres/data/tuned.toml</code>: raider-tuned tuned against the hammer, hammer-tuned "
        f"against raider-tuned), {games} games per cell "
        f"(seed {seed}, common random numbers, seat order alternating); variants alone on the first edition. "
        f"Games changed: the games of a cell that came to another winner, length, end or VP than the same "
        f"game under the first edition; a variant whose cards or rules the players never reach changes none. "
        f"SPRT: an even game (0.5) against an edge of {EDGE} for either side (alpha = beta = 0.05). "
        f"Table: <code>{html_lib.escape('acres_hammer.csv')}</code>.</p>",
    ]
    return sentence, fragments


def main(argv: list[str] | None = None) -> int:
    """`python -m analyses.acres_hammer`: the hammer table on its own, as an HTML page."""
    from sim.cli.common import int_in

    parser = section_page.parser("acres_hammer", __doc__)
    parser.add_argument("--games", type=int_in(2, 10**6, "games"), default=40,
                        help="games per rule set and pairing, seat order alternating (default 40, as the report)")

    def section(args) -> tuple[str, list[str]]:
        return report_section(args.out, args.games, args.seed, args.jobs, args.data_overrides)

    return section_page.run(parser, argv, "reports/acres_hammer", "The Halifax hammer", section, "acres")


if __name__ == "__main__":
    raise SystemExit(main())
