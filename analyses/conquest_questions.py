"""Two Conquest of the Empire questions with intervals, as a report section:

- *Is the catapult still dominant under the classic rules?* Exact odds of equal-cost armies
  (COE-20.2 prices; `sim.conquest.land_exact`), with and without a catapult, in the open and
  against a fortified City; and in whole games, the focal seat's win rate when it may not buy
  catapults (or cavalry) against the same games unchanged (common random numbers).
- *Does inflation favour the leader?* The win rate of the income leader at a fixed round,
  with inflation (COE-21) and with prices that never rise (thresholds out of reach), and the
  win rate of the player who triggered the first inflation.

- *Sweeps* (the issue's): the inflation thresholds (`off`, the `first` threshold only, or the
  printed thresholds scaled by a factor: `1` as printed, `0.5` twice as early) and the
  catapult's price in talents. Each cell plays the same seeds (the lineup rotating over seats)
  and reports, with n and 95 % intervals, the sole-win rate of the round-LEADER_ROUND income
  leader, of the first inflation's trigger player and of the seat that bought the most
  catapults, catapults bought per seat, game length, and (prices) the catapult ban's effect.
  Cells the questions already played (printed rules, no inflation) are reused.

`report_section(folder, games, seed, jobs, inflation, prices, sweep_games)` returns a
one-sentence finding and HTML fragments (a table and a sentence per sweep); its CSVs go to
`folder`. `python -m analyses.conquest_questions --help` runs it on its own.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from pathlib import Path

import numpy as np
import pandas as pd

from analyses import html as H
from analyses import section_page
from sim.conquest.combat import Army, LandBattle
from sim.conquest.components import Components, default_components
from sim.conquest.economy import load_economy
from sim.conquest.land_exact import solve_land
from sim.conquest.play import INFO, components_of, load_data
from sim.core import runner
from sim.core.data import parse_assignment, validate_override
from sim.core.errors import UserError
from sim.core.seating import Seating, rotated
from sim.core.stats import mean_interval, wilson_interval

LINEUP = ("expansionist", "fortifier", "hunter", "siege_train")
BANS = ("", "+ban=catapult", "+ban=cavalry")
NO_INFLATION = "economy.inflation.inflation_thresholds=[1000000, 2000000]"
LEADER_ROUND = 10          # the round at which the income leader is read (ASSUMED analysis setting)
TURN_CAP = "rules.turn_cap=30"   # long enough for inflation to come in most games (ASSUMED analysis setting)
BUDGETS = (60, 90, 120)    # talents of each equal-cost army
# The sweeps (ASSUMED analysis settings): inflation off, the first threshold only, as printed
# and with the printed thresholds halved (COE-21); the catapult's price around the printed 30
# talents (COE-20.2). A sweep cell plays games // SWEEP_SHARE games (at least MIN_SWEEP_GAMES).
INFLATION_ARMS = ("off", "first", "1", "0.5")
CATAPULT_PRICES = (15, 20, 30, 45, 60)
SWEEP_SHARE = 4
MIN_SWEEP_GAMES = 8
THRESHOLDS = "economy.inflation.inflation_thresholds"
MULTIPLIERS = "economy.inflation.inflation_multipliers"
CATAPULT_COST = "units.catapult.cost"


def equal_cost_duels(comp: Components | None = None) -> pd.DataFrame:
    """Exact attacker win chances (1 General each side) of equal-cost armies against an
    infantry defender of the same cost, in the open and in his fortified City (COE-14.7), with
    the prices and dice of `comp` (default: the shipped data)."""
    comp = comp or default_components()
    cost = {u: comp.cost(u) for u in ("infantry", "cavalry", "catapult")}
    rows = []
    for budget in BUDGETS:
        defender = Army(budget // cost["infantry"], 0, 0, leaders=1)
        armies = {"infantry only": Army(budget // cost["infantry"], 0, 0, leaders=1),
                  "one catapult": Army((budget - cost["catapult"]) // cost["infantry"], 0, 1, leaders=1),
                  "one cavalry": Army((budget - cost["cavalry"]) // cost["infantry"], 1, 0, leaders=1),
                  "two catapults": Army((budget - 2 * cost["catapult"]) // cost["infantry"], 0, 2, leaders=1)}
        for name, army in armies.items():
            if army.total == 0:
                continue
            for fortified in (False, True):
                odds = solve_land(LandBattle(army, defender, fortified), comp).odds
                rows.append({"budget": budget, "attacker": name, "fortified": fortified,
                             "attacker_win": odds.attacker_win})
    return pd.DataFrame(rows)


def ban_games(games: int, seed: int, jobs: int, overrides: tuple[str, ...] = (),
              bans: tuple[str, ...] = BANS) -> pd.DataFrame:
    """The focal seat (rotating) of the four-strategy lineup, unchanged or banned from buying
    catapults or cavalry, in the same games (each arm plays the same indices)."""
    data = load_data([TURN_CAP, *overrides])
    out = []
    for ban in bans:
        listed = []
        for i in range(games):
            lineup = list(rotated(INFO.powers[:4], LINEUP, i).strategies)
            lineup[i % 4] += ban
            listed.append((i, Seating(INFO.powers[:4], tuple(lineup))))
        table = runner.play_listed("sim.conquest.play", seed, listed, data, jobs=jobs)
        focal = table[table.seat == table.game_index % 4]
        out.append(pd.DataFrame({"game_index": focal.game_index.to_numpy(), "arm": ban or "unchanged",
                                 "strategy": [x.split("+")[0] for x in focal.strategy],
                                 "win": focal.winner.astype(bool).to_numpy(), "vp": focal.vp.to_numpy(),
                                 "end_reason": focal.end_reason.to_numpy()}))
    return pd.concat(out, ignore_index=True)


def paired_difference(frame: pd.DataFrame, arm: str) -> tuple[float, float, float]:
    """Mean win-rate change of an arm against the unchanged games, with a 95 % normal interval
    over the paired games."""
    base = frame[frame.arm == "unchanged"].set_index("game_index").win.astype(float)
    other = frame[frame.arm == arm].set_index("game_index").win.astype(float)
    d = (other - base.reindex(other.index)).dropna()
    se = d.std(ddof=1) / math.sqrt(len(d)) if len(d) > 1 else float("nan")
    return float(d.mean()), float(d.mean() - 1.96 * se), float(d.mean() + 1.96 * se)


def logged_games(games: int, seed: int, overrides: tuple[str, ...] = (), jobs: int = 1) -> pd.DataFrame:
    """One row per game and seat of the rotating lineup (games 0..games-1, so every cell of a
    sweep plays the same seeds): `winner`, `sole` (the only winner), `rounds`, `end_reason`,
    and read off the event log the seat's `catapults` bought, whether it was the income
    `leader` at LEADER_ROUND and whether it `triggered` the first inflation (COE-21)."""
    listed = [(i, rotated(INFO.powers[:4], LINEUP, i)) for i in range(games)]
    parts = runner.play_logged("sim.conquest.play", seed, listed, load_data([TURN_CAP, *overrides]), jobs, _measured)
    return pd.concat(parts, ignore_index=True)


def _measured(table: pd.DataFrame, logged: Iterable[tuple[dict, list[dict]]]) -> pd.DataFrame:
    """`logged_games`' rows of one slice, where it was played (`runner.play_logged`)."""
    leader, trigger, catapults = {}, {}, {}
    for head, events in logged:
        g = head["game_index"]
        income = {e["seat"]: e["income"] for e in events if e["event"] == "turn" and e["round"] == LEADER_ROUND}
        leader[g] = max(income, key=income.get) if income else None
        trigger[g] = next((e["seat"] for e in events if e["event"] == "inflation_triggered"), None)
        for e in events:
            if e["event"] == "buy" and e["item"] == "catapult":
                catapults[g, e["seat"]] = catapults.get((g, e["seat"]), 0) + 1
    out = table[["game_index", "seat", "strategy", "winner", "rounds", "end_reason"]].copy()
    out["winner"] = out.winner.astype(bool)
    out["sole"] = out.winner & (out.groupby("game_index").winner.transform("sum") == 1)
    out["catapults"] = [catapults.get((g, q), 0) for g, q in zip(out.game_index, out.seat)]
    out["leader"] = [leader[g] == q for g, q in zip(out.game_index, out.seat)]
    out["triggered"] = [trigger[g] == q for g, q in zip(out.game_index, out.seat)]
    return out


def cell_measures(rows: pd.DataFrame) -> dict[str, float]:
    """A sweep cell's measures with 95 % intervals: the sole-win rate of the round-LEADER_ROUND
    income leader, of the first inflation's trigger player and of the seat with the most
    catapults (a unique maximum above 0), catapults bought per seat, game length in rounds,
    and the share of games with an inflation."""
    games = rows.drop_duplicates("game_index")
    most = rows[rows.catapults == rows.groupby("game_index").catapults.transform("max")]
    most = most[(most.catapults > 0) & (most.groupby("game_index").seat.transform("size") == 1)]
    out: dict[str, float] = {"games": len(games)}
    for name, flags in (("leader", rows.sole[rows.leader]), ("trigger", rows.sole[rows.triggered]),
                        ("most_catapults", most.sole)):
        out[f"{name}_win"], out[f"{name}_low"], out[f"{name}_high"], out[f"{name}_n"] = rate(flags)
    for name, values in (("catapults", rows.catapults), ("rounds", games.rounds)):
        out[name], out[f"{name}_low"], out[f"{name}_high"] = mean_interval(values)
    out["inflated"] = float(rows.groupby("game_index").triggered.any().mean())
    return out


def rate(flags: pd.Series) -> tuple[float, float, float, int]:
    n = int(flags.notna().sum())
    k = int(flags.fillna(False).astype(bool).sum())
    low, high = wilson_interval(k, n)
    return (k / n if n else float("nan")), float(low), float(high), n


def inflation_overrides(arm: str, data) -> tuple[str, ...]:
    """An inflation arm as data overrides: `off`, `first` (the first threshold and multiplier
    only) or a factor scaling every printed threshold (`1`: as printed, `0.5`: twice as early)."""
    thresholds, multipliers = data.get(THRESHOLDS), data.get(MULTIPLIERS)
    if arm == "off":
        return (NO_INFLATION,)
    if arm == "first":
        return (f"{THRESHOLDS}=[{thresholds[0]}]", f"{MULTIPLIERS}=[{multipliers[0]}]")
    try:
        factor = float(arm)
    except ValueError:
        factor = float("nan")
    if not (math.isfinite(factor) and factor > 0):
        raise UserError(f"--inflation {arm!r} is not allowed; give off, first or a factor > 0 that scales the "
                        f"printed thresholds {list(thresholds)}, e.g. off,first,1,0.5")
    if factor == 1:
        return ()
    return (f"{THRESHOLDS}={[max(1, round(t * factor)) for t in thresholds]}",)


def price_overrides(price: int, data) -> tuple[str, ...]:
    """A catapult price in talents (COE-20.2) as data overrides; none for the printed price."""
    return () if price == data.get(CATAPULT_COST) else (f"{CATAPULT_COST}={price}",)


def parse_prices(text: str) -> tuple[int, ...]:
    """`15,20,30` -> catapult prices in talents (integers >= 0)."""
    try:
        prices = tuple(int(x) for x in text.split(","))
    except ValueError:
        prices = ()
    if not prices:
        raise UserError(f"--catapult-prices {text!r} is malformed; give integer talents >= 0, e.g. 15,20,30,45,60")
    return prices


def checked(flag: str, arm: str, overrides: tuple[str, ...], data, base: tuple[str, ...] = ()) -> tuple[str, ...]:
    """Every override a valid value of the CotE data, and the inflation keys consistent
    (COE-21) on top of the report's `base` overrides; otherwise a one-line error naming the flag
    and the value."""
    try:
        for text in overrides:
            validate_override(*parse_assignment(text), data.tree, data.leaves, "conquest", "data")
        load_economy(components_of(load_data([TURN_CAP, *base, *overrides])))
    except UserError as exc:
        raise UserError(f"{flag} {arm!r}: {exc}") from None
    return overrides


def _subset(frame: pd.DataFrame, games: int) -> pd.DataFrame:
    return frame[frame.game_index < games]


def inflation_sweep(arms: dict[str, tuple[str, ...]], games: int, seed: int, jobs: int,
                    known: dict[tuple[str, ...], pd.DataFrame], base: tuple[str, ...] = ()) -> pd.DataFrame:
    """One row per inflation arm: `cell_measures` over the same games; cells already played for
    the questions (`known`, by the arm's own overrides, at least `games` games) are reused.
    `base`: the report's overrides, under every arm's own."""
    rows = []
    for arm, overrides in arms.items():
        frame = (_subset(known[overrides], games) if overrides in known
                 else logged_games(games, seed, (*base, *overrides), jobs))
        rows.append({"inflation": arm, "overrides": " ".join(overrides) or "as printed", **cell_measures(frame)})
    return pd.DataFrame(rows)


def price_sweep(prices: dict[int, tuple[str, ...]], games: int, seed: int, jobs: int,
                known: dict[tuple[str, ...], pd.DataFrame], bans: pd.DataFrame,
                base: tuple[str, ...] = ()) -> pd.DataFrame:
    """One row per catapult price: `cell_measures` and the focal seat's win-rate change when
    it may not buy catapults (paired games); the printed price reuses the questions' games
    (`known[()]` and `bans`) where they were played."""
    rows = []
    for price, overrides in prices.items():
        if overrides in known:                    # the printed price, played for the questions
            frame, paired = _subset(known[overrides], games), _subset(bans, games)
        else:
            frame = logged_games(games, seed, (*base, *overrides), jobs)
            focal = frame[frame.seat == frame.game_index % 4]
            unchanged = pd.DataFrame({"game_index": focal.game_index, "arm": "unchanged", "win": focal.winner})
            paired = pd.concat([unchanged, ban_games(games, seed, jobs, (*base, *overrides), ("+ban=catapult",))])
        d = paired_difference(paired, "+ban=catapult")
        rows.append({"catapult_price": price, **cell_measures(frame), "ban_effect": d[0], "ban_low": d[1],
                     "ban_high": d[2]})
    return pd.DataFrame(rows)


def report_section(folder: Path, games: int, seed: int, jobs: int, inflation: tuple[str, ...] = INFLATION_ARMS,
                   prices: tuple[int, ...] = CATAPULT_PRICES, sweep_games: int | None = None,
                   overrides: tuple[str, ...] = ()) -> tuple[str, list[str]]:
    """The catapult and inflation questions and their sweeps (see the module docstring): a
    one-sentence finding and HTML fragments; CSVs in `folder`. Every swept value is checked
    before a game is played. `overrides` (the report's `--set` / `--variant`) apply to every
    game, under each arm's own (a swept path takes the arm's value)."""
    base = tuple(overrides)
    data = load_data([TURN_CAP, *base])
    inflation_arms = {arm: checked("--inflation", arm, inflation_overrides(arm, data), data, base) for arm in inflation}
    price_arms = {p: checked("--catapult-prices", str(p), price_overrides(p, data), data, base) for p in prices}
    cell = sweep_games or min(games, max(MIN_SWEEP_GAMES, games // SWEEP_SHARE))
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    duels = equal_cost_duels(components_of(data))
    duels.to_csv(folder / "conquest_catapult_duels.csv", index=False)
    bans = ban_games(games, seed, jobs, base)
    bans.to_csv(folder / "conquest_catapult_bans.csv", index=False)
    with_inf = logged_games(games, seed, base, jobs)
    without = logged_games(games, seed, (*base, NO_INFLATION), jobs)
    pd.concat([with_inf.assign(arm="inflation"), without.assign(arm="no inflation")]).to_csv(
        folder / "conquest_inflation_leader.csv", index=False)
    known = {(): with_inf, (NO_INFLATION,): without} if cell <= games else {}
    inf_sweep = inflation_sweep(inflation_arms, cell, seed, jobs, known, base)
    inf_sweep.to_csv(folder / "conquest_inflation_sweep.csv", index=False)
    cat_sweep = price_sweep(price_arms, cell, seed, jobs, known, bans, base)
    cat_sweep.to_csv(folder / "conquest_catapult_price_sweep.csv", index=False)

    open_gain = _gain(duels, False)
    fort_gain = _gain(duels, True)
    d_cat = paired_difference(bans, "+ban=catapult")
    d_cav = paired_difference(bans, "+ban=cavalry")
    lead_a, lead_b = rate(with_inf.sole[with_inf.leader]), rate(without.sole[without.leader])
    trig = rate(with_inf.sole[with_inf.triggered])
    dominant = open_gain > 0.1 and d_cat[2] < 0 and d_cat[0] < d_cav[0]
    favours = lead_a[1] > lead_b[2]
    hurts = lead_a[2] < lead_b[1]
    finding = (f"The catapult is {'still' if dominant else 'not'} dominant under the classic rules (one catapult in "
               f"place of three infantry changes an equal-cost attack's exact win chance by {open_gain:+.2f} in the "
               f"open and {fort_gain:+.2f} against a fortified City; banning catapults changes the focal seat's win "
               f"rate by {d_cat[0]:+.3f} [{d_cat[1]:+.3f}, {d_cat[2]:+.3f}]), and inflation "
               + ("favours" if favours else "hurts" if hurts else "neither clearly favours nor hurts")
               + f" the leader (the round-{LEADER_ROUND} income leader wins {lead_a[0]:.2f} with it, {lead_b[0]:.2f} "
               f"without).")
    fragments = [
        "<h3>Is the catapult still dominant?</h3>",
        H.table([(r.budget, r.attacker, "yes" if r.fortified else "no", H.number(r.attacker_win))
                 for r in duels.itertuples()], ["talents", "attacker", "fortified City", "exact attacker win"]),
        H.table([(arm, *(H.number(x) for x in paired_difference(bans, arm)))
                 for arm in ("+ban=catapult", "+ban=cavalry")],
                ["focal seat", "win-rate change", "95% low", "95% high"]),
        (f"<p>{games} paired four-player games per arm, lineup {', '.join(LINEUP)} rotating, "
        f"<code>{TURN_CAP}</code>; seed {seed}.</p>"),
        "<h3>Does inflation favour the leader?</h3>",
        H.table([("with inflation", H.number(lead_a[0]), H.interval(lead_a[1], lead_a[2]), lead_a[3]),
                 ("prices never rise", H.number(lead_b[0]), H.interval(lead_b[1], lead_b[2]), lead_b[3]),
                 ("first inflation's trigger player", H.number(trig[0]), H.interval(trig[1], trig[2]), trig[3])],
                [f"income leader at round {LEADER_ROUND} wins", "rate", "95% CI", "games"]),
        *sweep_fragments(inf_sweep, cat_sweep, cell, seed),
    ]
    return finding, fragments


def sweep_fragments(inf_sweep: pd.DataFrame, cat_sweep: pd.DataFrame, games: int, seed: int) -> list[str]:
    """The two sweep tables, each with its one-sentence reading."""
    ci = H.interval
    inf_rows = [(r.inflation, r.overrides, r.games, H.number(r.leader_win, 2), ci(r.leader_low, r.leader_high),
                 H.number(r.trigger_win, 2), ci(r.trigger_low, r.trigger_high), H.number(r.inflated, 2),
                 H.number(r.rounds, 1), ci(r.rounds_low, r.rounds_high)) for r in inf_sweep.itertuples()]
    cat_rows = [(r.catapult_price, r.games, H.number(r.catapults, 2), ci(r.catapults_low, r.catapults_high),
                 H.number(r.most_catapults_win, 2), ci(r.most_catapults_low, r.most_catapults_high),
                 r.most_catapults_n, H.number(r.ban_effect, 3), ci(r.ban_low, r.ban_high), H.number(r.rounds, 1))
                for r in cat_sweep.itertuples()]
    return [
        "<h3>Sweep: inflation thresholds</h3>",
        H.table(inf_rows, ["inflation", "data", "games", f"round-{LEADER_ROUND} leader wins", "95% CI",
                           "trigger player wins", "95% CI", "games inflated", "rounds", "95% CI"]),
        f"<p>{inflation_sentence(inf_sweep)}</p>",
        "<h3>Sweep: catapult price</h3>",
        H.table(cat_rows, ["talents", "games", "catapults bought per seat", "95% CI", "most catapults wins",
                           "95% CI", "n", "catapult ban effect", "95% CI", "rounds"]),
        f"<p>{price_sentence(cat_sweep)}</p>",
        (f"<p>{games} four-player games per cell, the same seeds in every cell (seed {seed}), lineup rotating "
        f"over seats, <code>{TURN_CAP}</code>; a win is a sole win.</p>"),
    ]


def inflation_sentence(sweep: pd.DataFrame) -> str:
    lo, hi = sweep.loc[sweep.leader_win.idxmin()], sweep.loc[sweep.leader_win.idxmax()]
    overlap = sweep.leader_low.max() <= sweep.leader_high.min()
    return (f"Across the inflation settings the round-{LEADER_ROUND} income leader wins {lo.leader_win:.2f} "
            f"({lo.inflation}) to {hi.leader_win:.2f} ({hi.inflation}), "
            + ("all intervals overlapping, so the thresholds make no measurable difference to the leader"
               if overlap else "a difference beyond the intervals")
            + f", and games last {sweep.rounds.min():.1f} to {sweep.rounds.max():.1f} rounds.")


def price_sentence(sweep: pd.DataFrame) -> str:
    first, last = sweep.iloc[0], sweep.iloc[-1]
    return (f"From {first.catapult_price} to {last.catapult_price} talents a seat buys {first.catapults:.2f} to "
            f"{last.catapults:.2f} catapults; the seat with the most catapults wins {H.number(first.most_catapults_win, 2)} "
            f"and {H.number(last.most_catapults_win, 2)}, and banning catapults changes the focal seat's win rate by "
            f"{first.ban_effect:+.3f} and {last.ban_effect:+.3f}.")


def _gain(duels: pd.DataFrame, fortified: bool) -> float:
    """Mean exact win-chance change from infantry only to one catapult at equal cost."""
    rows = duels[duels.fortified == fortified]
    inf = rows[rows.attacker == "infantry only"].set_index("budget").attacker_win
    cat = rows[rows.attacker == "one catapult"].set_index("budget").attacker_win
    return float(np.mean(cat - inf.reindex(cat.index)))


def main(argv: list[str] | None = None) -> int:
    """`python -m analyses.conquest_questions`: the section on its own, as an HTML page."""
    from sim.cli.common import int_in

    parser = section_page.parser("conquest_questions", __doc__)
    parser.add_argument("--games", type=int_in(1, 10**6, "games"), default=100,
                        help="four-player games per arm of the questions (default 100)")
    parser.add_argument("--sweep-games", type=int_in(1, 10**6, "games"), default=None,
                        help=f"games per sweep cell (default games // {SWEEP_SHARE}, at least {MIN_SWEEP_GAMES})")
    parser.add_argument("--inflation", default=",".join(INFLATION_ARMS), metavar="ARM[,ARM...]",
                        help="inflation arms: off, first (first threshold only) or a factor of the printed "
                             f"thresholds (default {','.join(INFLATION_ARMS)})")
    parser.add_argument("--catapult-prices", default=",".join(map(str, CATAPULT_PRICES)), metavar="T[,T...]",
                        help=f"catapult prices in talents (default {','.join(map(str, CATAPULT_PRICES))})")

    def section(args) -> tuple[str, list[str]]:
        arms = tuple(x.strip() for x in args.inflation.split(","))
        return report_section(args.out, args.games, args.seed, args.jobs, arms, parse_prices(args.catapult_prices),
                              args.sweep_games, args.data_overrides)

    return section_page.run(parser, argv, "reports/conquest_questions", "Conquest of the Empire questions", section,
                            "conquest")


if __name__ == "__main__":
    raise SystemExit(main())
