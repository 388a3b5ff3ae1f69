"""Two Conquest of the Empire questions with intervals, as a report section:

- *Is the catapult still dominant under the classic rules?* Exact odds of equal-cost armies
  (COE-20.2 prices; `sim.conquest.land_exact`), with and without a catapult, in the open and
  against a fortified City; and in whole games, the focal seat's win rate when it may not buy
  catapults (or cavalry) against the same games unchanged (common random numbers).
- *Does inflation favour the leader?* The win rate of the income leader at a fixed round,
  with inflation (COE-21) and with prices that never rise (thresholds out of reach), and the
  win rate of the player who triggered the first inflation.

`report_section(folder, games, seed, jobs)` returns a one-sentence finding and HTML fragments;
its CSVs go to `folder`.
"""

from __future__ import annotations

import math
import tempfile
from pathlib import Path

import numpy as np
import pandas as pd

from analyses import html as H
from sim.conquest.combat import Army, LandBattle
from sim.conquest.components import default_components
from sim.conquest.land_exact import solve_land
from sim.conquest.play import INFO, load_data, play_games
from sim.core import runner
from sim.core.replay import read_games
from sim.core.seating import Seating
from sim.core.stats import wilson_interval

LINEUP = ("expansionist", "fortifier", "hunter", "siege_train")
BANS = ("", "+ban=catapult", "+ban=cavalry")
NO_INFLATION = "economy.inflation.inflation_thresholds=[1000000, 2000000]"
LEADER_ROUND = 10          # the round at which the income leader is read (ASSUMED analysis setting)
TURN_CAP = "rules.turn_cap=30"   # long enough for inflation to come in most games (ASSUMED analysis setting)
BUDGETS = (60, 90, 120)    # talents of each equal-cost army


def equal_cost_duels() -> pd.DataFrame:
    """Exact attacker win chances (1 General each side) of equal-cost armies against an
    infantry defender of the same cost, in the open and in his fortified City (COE-14.7)."""
    comp = default_components()
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


def ban_games(games: int, seed: int, jobs: int) -> pd.DataFrame:
    """The focal seat (rotating) of the four-strategy lineup, unchanged or banned from buying
    catapults or cavalry, in the same games (each arm plays the same indices)."""
    data = load_data([TURN_CAP])
    out = []
    for ban in BANS:
        listed = []
        for i in range(games):
            lineup = [LINEUP[(j + i) % 4] for j in range(4)]
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


def inflation_games(games: int, seed: int, overrides: tuple[str, ...]) -> pd.DataFrame:
    """Per game: the income leader at LEADER_ROUND, the first inflation's trigger seat, the winner."""
    seatings = [Seating(INFO.powers[:4], tuple(LINEUP[(j + i) % 4] for j in range(4))) for i in range(games)]
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "games.jsonl"
        table = play_games(seed, list(range(games)), seatings, load_data([TURN_CAP, *overrides]), log=log)
        rows = []
        for head, events in read_games(log):
            income = {e["seat"]: e["income"] for e in events if e["event"] == "turn" and e["round"] == LEADER_ROUND}
            trigger = next((e["seat"] for e in events if e["event"] == "inflation_triggered"), None)
            rows.append({"game_index": head["game_index"], "leader": max(income, key=income.get) if income else None,
                         "trigger": trigger})
    games_frame = pd.DataFrame(rows)
    winners = table[table.winner.astype(bool)].groupby("game_index").seat.apply(set)
    games_frame["leader_wins"] = [w is not None and w in winners.get(g, set()) and len(winners.get(g, ())) == 1
                                  for g, w in zip(games_frame.game_index, games_frame.leader)]
    games_frame["trigger_wins"] = [t is not None and t in winners.get(g, set()) and len(winners.get(g, ())) == 1
                                   for g, t in zip(games_frame.game_index, games_frame.trigger)]
    return games_frame


def rate(flags: pd.Series) -> tuple[float, float, float, int]:
    n = int(flags.notna().sum())
    k = int(flags.fillna(False).astype(bool).sum())
    low, high = wilson_interval(k, n)
    return (k / n if n else float("nan")), float(low), float(high), n


def report_section(folder: Path, games: int, seed: int, jobs: int) -> tuple[str, list[str]]:
    """The catapult and inflation questions (see the module docstring): a one-sentence finding
    and HTML fragments; CSVs in `folder`."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    duels = equal_cost_duels()
    duels.to_csv(folder / "conquest_catapult_duels.csv", index=False)
    bans = ban_games(games, seed, jobs)
    bans.to_csv(folder / "conquest_catapult_bans.csv", index=False)
    with_inf = inflation_games(games, seed, ())
    without = inflation_games(games, seed, (NO_INFLATION,))
    pd.concat([with_inf.assign(arm="inflation"), without.assign(arm="no inflation")]).to_csv(
        folder / "conquest_inflation_leader.csv", index=False)

    open_gain = _gain(duels, False)
    fort_gain = _gain(duels, True)
    d_cat = paired_difference(bans, "+ban=catapult")
    d_cav = paired_difference(bans, "+ban=cavalry")
    lead_a, lead_b = rate(with_inf.leader_wins), rate(without.leader_wins)
    trig = rate(with_inf.trigger_wins[with_inf.trigger.notna()])
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
        f"<p>{games} paired four-player games per arm, lineup {', '.join(LINEUP)} rotating, "
        f"<code>{TURN_CAP}</code>; seed {seed}.</p>",
        "<h3>Does inflation favour the leader?</h3>",
        H.table([("with inflation", H.number(lead_a[0]), H.interval(lead_a[1], lead_a[2]), lead_a[3]),
                 ("prices never rise", H.number(lead_b[0]), H.interval(lead_b[1], lead_b[2]), lead_b[3]),
                 ("first inflation's trigger player", H.number(trig[0]), H.interval(trig[1], trig[2]), trig[3])],
                [f"income leader at round {LEADER_ROUND} wins", "rate", "95% CI", "games"]),
    ]
    return finding, fragments


def _gain(duels: pd.DataFrame, fortified: bool) -> float:
    """Mean exact win-chance change from infantry only to one catapult at equal cost."""
    rows = duels[duels.fortified == fortified]
    inf = rows[rows.attacker == "infantry only"].set_index("budget").attacker_win
    cat = rows[rows.attacker == "one catapult"].set_index("budget").attacker_win
    return float(np.mean(cat - inf.reindex(cat.index)))
