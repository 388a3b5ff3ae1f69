"""Conquest of the Empire: win rate by seat and Home Province for each player count, and whether
moving first or the province itself carries a seat's advantage (COE-8.2, COE-9, issue 17 item 3).

A seat is a Home Province: seat k takes the k-th province of the player count's table in the
fixed turn cycle (COE-8.2, COE-9.2), so the tournament's "first seat" is always Macedonia's (or the
first province in play) and cannot tell the turn order from the map. Here every player count is
played once per rotation of the cycle (COE-A30: the first province in play starts), a Latin square
in which every Home Province moves in every position once: pooled over the rotations, a
province's win rate averages out the turn order and a position's averages out the provinces. The
rulebook's order is rotation 0. The scripted lineup rotates over the seats game by game, the same
games (seeds) are played in every rotation, and intervals are Wilson's clustered by game
(`analyses.tournament.level_table`: a game's seats share its dice in every rotation).

`report_section(folder, games, seed, jobs)` writes `conquest_seats.csv` into `folder` and returns
a one-sentence finding and HTML fragments for the balance report; `games` sizes each player
count (split over its rotations, a multiple of the lineup's length each). The same games, played
again with one focal seat granted talents, price each Home Province in starting talents
(`analyses.conquest_homes`, `conquest_homes.csv`).
"""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd

from analyses import conquest_homes as homes
from analyses import html, section_page
from analyses.tournament import level_table, null_rate
from sim.conquest.play import INFO, load_data
from sim.core.errors import UserError
from sim.core.runner import play_listed
from sim.core.seating import Seating, rotated

MODULE = "sim.conquest.play"
PLAYER_COUNTS = (2, 3, 4, 5, 6)
FOCUS = 4                          # the tournament's player count: the finding speaks of it
SKILLS = {"scripted": INFO.lineup, "random": ("random",)}   # skill level -> the lineup rotated over seats


def rotations(cycle: list[str], homes: list[str]) -> list[list[str]]:
    """The turn cycle rotated to start at each Home Province in play, the rulebook's first
    (COE-9.1: the order of the cycle is kept, only who starts changes)."""
    in_play = [h for h in cycle if h in homes]
    return [cycle[cycle.index(first):] + cycle[:cycle.index(first)] for first in in_play]


def games_per_rotation(games: int, players: int, lineup: tuple[str, ...] = INFO.lineup) -> int:
    """`games` for a player count, split over its rotations, rounded to whole lineup turns (each
    strategy then sits in every seat equally often), at least one turn."""
    turn = len(lineup)
    return turn * max(1, round(games / players / turn))


def seatings(games: int, players: int, lineup: tuple[str, ...] = INFO.lineup) -> list[tuple[int, Seating]]:
    """Games 0..games-1, the lineup rotated one seat per game (strategies cycled beyond four)."""
    return [(g, rotated(INFO.powers[:players], lineup, g)) for g in range(games)]


def focal_seat(game: int, players: int, lineup: tuple[str, ...] = INFO.lineup) -> int:
    """The seat a game's intervention goes to: it stays one lineup turn in a seat (the seat then
    plays every strategy of the lineup once) before moving on, so over players x len(lineup) games
    the focal seat has played every strategy in every position (seat k moves k+1-th)."""
    return (game // len(lineup)) % players


def with_grant(seating: Seating, seat: int, talents: int) -> Seating:
    """The seating with one seat starting with `talents` more (COE-A29, `+grant_talents`)."""
    strategies = list(seating.strategies)
    strategies[seat] += f"+grant_talents={talents}"
    return Seating(seating.powers, tuple(strategies))


def play_count(players: int, games: int, seed: int, jobs: int, lineup: tuple[str, ...] = INFO.lineup,
               grant: int = 0, overrides: tuple[str, ...] = ()) -> pd.DataFrame:
    """Every rotation of one player count: one row per game and seat, with `rotation`, the
    1-based turn-order `position`, `block` (the game, shared by its rotations) and `focal` (the
    seat of `focal_seat`; with `grant`, it starts with that many more talents). `overrides`
    (a report's `--set` / `--variant`) apply to every game; each rotation turns their cycle."""
    data = load_data(overrides)
    cycle, homes = data.get("rules.cycle"), data.get(f"rules.homes.p{players}")
    listed = seatings(games_per_rotation(games, players, lineup), players, lineup)
    focal = {g: focal_seat(g, players, lineup) for g, _ in listed}
    if grant:
        listed = [(g, with_grant(seating, focal[g], grant)) for g, seating in listed]
    parts = []
    for r, order in enumerate(rotations(cycle, homes)):
        arm = load_data([*overrides, f"rules.cycle={json.dumps(order)}"])
        table = play_listed(MODULE, seed, listed, arm, jobs=jobs)
        parts.append(table.assign(rotation=r, position=table.seat + 1, block=table.game_index,
                                  focal=table.seat == table.game_index.map(focal)))
    return pd.concat(parts, ignore_index=True)


def level_rows(results: pd.DataFrame, column: str, players: int, skill: str, kind: str) -> pd.DataFrame:
    table = level_table(results, column).reset_index().rename(columns={column: "level"})
    table.insert(0, "skill", skill)
    table.insert(1, "players", players)
    table.insert(2, "kind", kind)
    table["level"] = table["level"].astype(str)
    table["fair_share"] = null_rate(results)
    return table


def count_tables(results: pd.DataFrame, players: int, skill: str) -> pd.DataFrame:
    """Per player count and skill level: each Home Province in the rulebook's order (`rulebook`),
    then pooled over the rotations each Home Province (`home`) and each position (`position`)."""
    book = results[results.rotation == 0]
    named = book.assign(level=book.home + " (" + book.position.astype(str) + ")")
    return pd.concat([level_rows(named, "level", players, skill, "rulebook"),
                      level_rows(results, "home", players, skill, "home"),
                      level_rows(results, "position", players, skill, "position")], ignore_index=True)


def off_share(table: pd.DataFrame) -> pd.DataFrame:
    """The rows whose interval excludes the fair share."""
    return table[(table.ci_low > table.fair_share) | (table.ci_high < table.fair_share)]


def spread(table: pd.DataFrame) -> float:
    return float(table.win_rate.max() - table.win_rate.min())


def finding_of(tables: pd.DataFrame) -> str:
    """What decides a seat at the tournament's player count with the scripted players: the
    province or the position; and whether random-legal players see the same provinces."""
    scripted, random_ = tables[tables.skill == "scripted"], tables[tables.skill == "random"]
    at = scripted[scripted.players == FOCUS]
    homes, positions = at[at.kind == "home"], at[at.kind == "position"]
    best, worst = homes.loc[homes.win_rate.idxmax()], homes.loc[homes.win_rate.idxmin()]
    first = positions[positions.level == "1"].iloc[0]
    carrier = ("the Home Province rather than the turn order" if spread(homes) > spread(positions)
               and not len(off_share(positions)) else
               "the turn order rather than the Home Province" if spread(positions) > spread(homes)
               and not len(off_share(homes)) else "both the Home Province and the turn order")
    others = scripted[(scripted.players != FOCUS) & (scripted.kind == "home")]
    uneven = sorted({int(p) for p in off_share(others).players})
    text = (f"With the scripted players in {FOCUS}-player games {carrier} decides a seat's chances: with every "
            f"province moving in every position once, {best.level.title()} wins {best.win_rate:.3f} "
            f"({best.ci_low:.3f}-{best.ci_high:.3f}) and {worst.level.title()} {worst.win_rate:.3f} "
            f"({worst.ci_low:.3f}-{worst.ci_high:.3f}), while moving first wins {first.win_rate:.3f} "
            f"({first.ci_low:.3f}-{first.ci_high:.3f}) against a fair share of {first.fair_share:.3f}; "
            + (f"some Home Province is outside chance of the fair share also at {', '.join(map(str, uneven))} players"
               if uneven else "at the other player counts no Home Province is outside chance of the fair share"))
    if not len(random_):
        return text + "."
    plain = random_[(random_.players == FOCUS) & (random_.kind == "home")]
    return text + (f". With random-legal players the {FOCUS} provinces win {plain.win_rate.min():.3f} to "
                   f"{plain.win_rate.max():.3f}, "
                   + ("some outside chance of the fair share." if len(off_share(plain))
                      else "none outside chance of the fair share: the map alone does not decide, the players' "
                           "plans on it do."))


def report_section(folder: Path, games: int, seed: int, jobs: int, counts: tuple[int, ...] = PLAYER_COUNTS,
                   skills: tuple[str, ...] = tuple(SKILLS), grant: int = homes.GRANT_TALENTS,
                   grant_counts: tuple[int, ...] = (FOCUS,), overrides: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    """Play every player count's rotations at each skill level, and again with the focal seat's
    grant of talents at `grant_counts` (none with `grant` 0), every game under `overrides`;
    write `conquest_seats.csv` and `conquest_homes.csv` and return (finding, HTML fragments)."""
    if FOCUS not in counts:
        raise UserError(f"player counts {','.join(map(str, counts))}: must include {FOCUS}, the tournament's")
    parts, values = [], []
    for skill in skills:
        for n in counts:
            base = play_count(n, games, seed, jobs, SKILLS[skill], overrides=overrides)
            parts.append(count_tables(base, n, skill))
            granted = (play_count(n, games, seed, jobs, SKILLS[skill], grant, overrides)
                       if grant and n in grant_counts else None)
            values.append(homes.home_values(base, granted, grant, seed, skill))
    tables = pd.concat(parts, ignore_index=True)
    Path(folder).mkdir(parents=True, exist_ok=True)
    tables.to_csv(Path(folder) / "conquest_seats.csv", index=False)
    finding = finding_of(tables)
    worth = pd.concat(values, ignore_index=True)
    worth.to_csv(Path(folder) / "conquest_homes.csv", index=False)
    finding += " " + homes.finding_of(worth, FOCUS)
    per_rotation = {n: games_per_rotation(games, n) for n in counts}
    rows = [(r.skill, int(r.players), r.kind, r.level, int(r.n), html.sig(r.win_rate),
             html.interval(r.ci_low, r.ci_high), html.sig(r.fair_share),
             "above" if r.ci_low > r.fair_share else "below" if r.ci_high < r.fair_share else "")
            for r in tables.itertuples()]
    fragments = [
        "<h3>Seats and Home Provinces by player count</h3>",
        html.table(rows, ("skill", "players", "rows", "Home Province (position) / position", "seat-games",
                          "win rate", "95 % interval", "fair share", "outside chance")),
        (f"<p>A seat is a Home Province (COE-8.2). <code>rulebook</code>: the rulebook's turn order (COE-9.2), "
         f"the province's position in brackets; <code>home</code> and <code>position</code>: pooled over the "
         f"turn cycle rotated to start at each province in play (a data override of <code>rules.cycle</code>, not "
         f"the rulebook), so each province moves in each position once. Skill levels: "
         f"{'; '.join(f'{k}: ' + ', '.join(SKILLS[k]) for k in skills)}, rotating over seats. Games per rotation "
         f"(scripted): {', '.join(f'{n} players {g}' for n, g in per_rotation.items())}; the same seeds in every "
         f"rotation (seed {seed}); intervals clustered by game.</p>"),
    ]
    return finding, fragments + homes.fragments(worth)


def main(argv: list[str] | None = None) -> int:
    """`python -m analyses.conquest_seats`: the section on its own, as an HTML page."""
    from sim.cli.common import int_in

    parser = section_page.parser("conquest_seats", __doc__)
    parser.add_argument("--games", type=int_in(1, 10**6, "games"), default=120,
                        help="games per player count, split over its rotations (default 120)")
    parser.add_argument("--grant", type=int_in(0, 10**4, "grant"), default=homes.GRANT_TALENTS,
                        help=f"starting talents given to the focal seat to price a Home Province in talents "
                             f"(default {homes.GRANT_TALENTS}, played at every player count of --players; 0: no "
                             f"worth in talents, half the games)")
    parser.add_argument("--players", default=",".join(map(str, PLAYER_COUNTS)), metavar="N[,N...]",
                        help=f"player counts (default {','.join(map(str, PLAYER_COUNTS))}; must include {FOCUS})")

    def section(args) -> tuple[str, list[str]]:
        return report_section(args.out, args.games, args.seed, args.jobs, parse_counts(args.players),
                              grant=args.grant, grant_counts=parse_counts(args.players), overrides=args.data_overrides)

    return section_page.run(parser, argv, "reports/conquest_seats", "Conquest of the Empire seats", section,
                            "conquest")


def parse_counts(text: str) -> tuple[int, ...]:
    """`--players 2,4,6`: each within the game's range (COE-8.2), listed once."""
    try:
        counts = tuple(int(x) for x in text.split(","))
    except ValueError:
        raise UserError(f"--players {text!r}: give player counts like 2,4,6") from None
    bad = [n for n in counts if not INFO.min_players <= n <= INFO.max_players]
    if bad or len(set(counts)) != len(counts):
        raise UserError(f"--players {text!r}: each count once, from {INFO.min_players} to {INFO.max_players}")
    return counts


if __name__ == "__main__":
    raise SystemExit(main())
