"""The balance report: one `index.html` with a section per game (`empires report`, `make report`).

Each section opens with a one-paragraph summary of findings and the table of findings with the
ASSUMED groups they rest on and their robustness verdicts (analyses.robustness, docs/robustness.md),
then links the game's odds page and, for games the toolkit can play end to end, shows a balanced
tournament (win rates by power, seat and strategy with 95 % intervals, Plackett-Luce ratings,
first-seat advantage, game length and VP distributions, how the games ended where the results
say: each end reason's share with its interval and the seats eliminated per game), causal tile
values with fair prices per
skill level (SKILL_LADDER; prices only where identifiable, skill-dependent assets apart:
docs/tile_value.md), flagged imbalances and a provenance box (seeds, code version, rules edition,
data hash, overrides and the ASSUMED values the numbers depend on, one collapsed row per group).
The statistics are explained where they appear (fair share, design effect, effective n). Plots
are PNG files beside the page; tables are also written as CSV.

Imbalance flags (analyses.tournament.imbalance_flags): a power, seat or strategy is flagged
when its win rate is further than BAND from the fair share with 95 % family-wise confidence:
the null "within the band" is rejected after Holm's correction over every power, seat and
strategy, with the variance inflated by the block design effect (games of a block share dice).
A flag is a statement a designer can act on.
"""

from __future__ import annotations

import hashlib
import html as html_lib
import importlib
import json
import math
import re
import shlex
import sys
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import pandas as pd

from analyses import battle_odds, headline, html, players_section, robustness, tournament
from analyses import tile_value as tv
from sim import games
from sim.core import runner
from sim.core.audit import has_audit
from sim.core.causal import MIN_BLOCKS, NOT_IDENTIFIABLE, unit_name
from sim.core.contract import has_assets, strategy_sides
from sim.core.data import override_texts, user_overrides
from sim.core.design import Design, balanced, bound
from sim.core.errors import UserError
from sim.core.metadata import code_version
from sim.core.store import staged_folder

BAND = 0.05
DEFAULT = "<default>"   # in a skill list: the game's default scripted strategy
# The skill ladder of the tile values: the default scripted strategy and its tuned version (a level
# named through DEFAULT is used only where the game has that strategy), plus a game's own `skills`
# (GameSize). The random baseline is one flag away (`--skill random,<default>,<default>-tuned`): it
# cost about 150 s of `make report` (SoE's random games alone 93 s), which kept the report within
# 15 minutes only by seconds on a slow hour, and asset values to a random player decide little.
SKILL_LADDER = (DEFAULT, f"{DEFAULT}-tuned")


@dataclass(frozen=True)
class GameSize:
    """A game's default share of the report: tournament games, tile-value blocks, players, games
    per cell of its own questions (EXTRAS), and the tournament's lineups (default: the first
    scripted strategies, one per seat)."""

    games: int
    tile_blocks: int
    players: int
    extra_games: int = 0
    audit_games: int = 100                    # games of the player audit (analyses.players_section)
    lineups: tuple[tuple[str, ...], ...] = ()
    value_overrides: tuple[str, ...] = ()     # settings of the value experiments' design (not rules)
    skills: tuple[str, ...] = ()              # more skill levels of the value experiments, after --skill's <default>


# The defaults per game, chosen so that `make report` fits in about 15 minutes on 2 cores, with at
# least MIN_BLOCKS tile blocks (fewer give no intervals, sim.core.causal); `--scale F` multiplies
# them all (`scaled`) for tighter intervals; a game not listed gets
# FALLBACK_SIZE (players within the game's range). AFAoS pairs every British plan
# with every French one (a side's strategy plays its side, sim.core.seating.bind_sides) and values its cards
# at the balanced plan and its tuned table too (its default skill level is the random baseline).
GAME_SIZES = {
    "struggle": GameSize(games=2000, tile_blocks=5, players=4, audit_games=200),
    "acres": GameSize(games=360, tile_blocks=5, players=2, extra_games=40, skills=("balanced", "balanced-tuned"),
                      lineups=tuple((b, f) for b in ("hammer", "settler", "balanced") for f in ("raider", "fortress"))
                      + (("balanced", "balanced"),)),
    "discovery": GameSize(games=800, tile_blocks=5, players=4, extra_games=200, audit_games=200,
                          value_overrides=("options.force_saving=none",)),   # unbiased forced arms (docs/discovery_engine.md)
    "conquest": GameSize(games=240, tile_blocks=5, players=4, extra_games=40, audit_games=60),
}
FALLBACK_SIZE = GameSize(games=1000, tile_blocks=8, players=4)
# Each game's own questions beyond the generic sections: modules with `report_section(folder,
# games, seed, jobs) -> (finding, HTML fragments)`, given `extra_games` games per cell.
EXTRAS = {"acres": ("analyses.acres_hammer", "analyses.acres_equilibrium", "analyses.acres_humans"), "discovery": ("analyses.discovery_seats",),
          "conquest": ("analyses.conquest_questions", "analyses.conquest_seats")}


@dataclass(frozen=True)
class ReportSize:
    """How much to play: None takes each game's default (GAME_SIZES), a number applies to every
    game (players within each game's range). `only` names the games to play (default: all)."""

    games: int | None = None
    players: int | None = None
    tile_blocks: int | None = None
    tiles: tuple[str, ...] | None = None
    tile_strategies: tuple[str, ...] = SKILL_LADDER
    seed: int = 1
    jobs: int = 2
    quick: bool = False
    overrides: tuple[str, ...] = ()       # `--set PATH=VALUE` for the games the report plays
    variants: tuple[str, ...] = ()        # `--variant FILE.toml`, applied before the overrides
    robust_games: int | None = None       # games per perturbed tournament; None: a quarter of games; 0: off
    only: tuple[str, ...] | None = None   # `--game G,...`: the games to play (the odds pages cover all)
    extra_games: int | None = None        # games per cell of a game's own questions (EXTRAS); 0: off
    audit_games: int | None = None        # games of the player audit; 0: off
    lineups: tuple[tuple[str, ...], ...] = ()
    scale: float = 1.0                    # `--scale F`: every game's default share times F (sizes given stay)

    @property
    def robustness_games(self) -> int:
        """Games per tournament of the robustness pass (analyses.robustness)."""
        assert self.games is not None, "robustness_games of a size resolved for one game (for_game)"
        return self.games // 4 if self.robust_games is None else self.robust_games

    def for_game(self, game: str, info: Any) -> ReportSize:
        """This size resolved for one game: its defaults where none was given, players clamped to
        the game's range (a two-player game plays two in a four-player report)."""
        default = scaled(GAME_SIZES.get(game, FALLBACK_SIZE), self.scale)
        players = default.players if self.players is None else self.players
        if self.players is None:
            players = min(max(players, info.min_players), info.max_players)
        return replace(self, games=default.games if self.games is None else self.games, players=players,
                       tile_blocks=default.tile_blocks if self.tile_blocks is None else self.tile_blocks,
                       extra_games=default.extra_games if self.extra_games is None else self.extra_games,
                       audit_games=default.audit_games if self.audit_games is None else self.audit_games,
                       lineups=default.lineups if players == default.players else ())


def scaled(size: GameSize, factor: float) -> GameSize:
    """A game's default share times `factor` (`--scale`): games, tile blocks, question and audit
    games, each at least 1, tile blocks never below MIN_BLOCKS (fewer give no intervals); a share
    that is off (0) stays off."""
    def times(n: int, least: int = 1) -> int:
        return max(least, round(n * factor)) if n else 0

    return replace(size, games=times(size.games), tile_blocks=times(size.tile_blocks, MIN_BLOCKS),
                   extra_games=times(size.extra_games), audit_games=times(size.audit_games))


@dataclass
class Section:
    game: str
    title: str
    summary: str
    body: list[str] = field(default_factory=list)


def odds_section(game: str, page: battle_odds.OddsPage | None) -> list[str]:
    if page is None:
        return []
    return [f'<h3>Odds</h3><p><a href="{page.path}">{html_lib.escape(page.title)}</a> &mdash; '
            f"{html_lib.escape(page.summary)}</p>"]


def tournament_plan(game: str, engine: Any, data: Any, size: ReportSize) -> runner.Plan:
    """A balanced tournament of the game's lineups (default: its scripted strategies, as many as
    there are seats; the random baseline is a skill level of the tile values, `--skill random,...`)."""
    lineups = size.lineups or ([s for s in engine.INFO.strategies if s != "random"][: size.players],)
    sides = strategy_sides(engine, data)
    checked = [balanced(engine.INFO.powers, size.players, lineup, engine.INFO.strategies,
                        engine.INFO.min_players, engine.INFO.max_players, sides) for lineup in lineups]
    design = Design(powers=checked[0].powers, lineups=tuple(d.lineups[0] for d in checked), sides=bound(sides))
    n = design.whole_blocks(size.games)
    return runner.Plan(module=games.module_path(game), seed=size.seed, design=design, games=n,
                       batch_size=runner.default_batch_size(design, n, size.jobs), data=data)


def skill_levels(engine: Any, requested: tuple[str, ...], known: tuple[str, ...] | None = None) -> tuple[str, ...]:
    """The skill levels to measure: names with DEFAULT stand for the game's default strategy and
    are dropped where the game has no such strategy among `known` (default: the game's built-in
    ones; a tuned table not made yet); plain names must exist (tile_value.check says so otherwise)."""
    known = engine.INFO.strategies if known is None else known
    levels = []
    for name in requested:
        resolved = name.replace(DEFAULT, engine.INFO.default_strategy)
        if (DEFAULT not in name or resolved in known) and resolved not in levels:
            levels.append(resolved)
    return tuple(levels)


def tile_experiments(game: str, engine: Any, data: Any, size: ReportSize) -> list[tv.Experiment]:
    """One tile-value experiment per skill level, every request checked before anything runs."""
    costs = engine.asset_costs(data)
    tiles = tuple(t for t in size.tiles if t in costs) if size.tiles else tuple(sorted(costs))
    if not tiles:                                            # --tiles names only other games' assets
        return []
    known = games.strategies(game, engine, data)           # shipped named strategies too (mixed-tuned)
    extra = GAME_SIZES.get(game, FALLBACK_SIZE).skills if DEFAULT in size.tile_strategies else ()   # with its default
    levels = skill_levels(engine, (*size.tile_strategies, *extra), known)
    if not levels:
        raise UserError(f"--tile-strategies {','.join(size.tile_strategies)}: no such skill level in {game}; "
                        f"allowed: {', '.join(known)}")
    design_settings = GAME_SIZES.get(game, FALLBACK_SIZE).value_overrides
    experiments = [tv.Experiment(game=game, strategy=s, tiles=tiles, players=size.players, blocks=size.tile_blocks,
                                 seed=size.seed, grants=dict(engine.GRANTS), overrides=(*design_settings, *size.overrides),
                                 variants=size.variants, powers=tv.sides(engine)) for s in levels]
    for experiment in experiments:
        tv.check(engine, experiment, data)
    return experiments


def play_tournament(plan: runner.Plan, size: ReportSize, folder: Path) -> pd.DataFrame:
    say(f"tournament: {plan.games} games of {plan.design.players} players")
    results = runner.run(plan, jobs=size.jobs, quiet=False)
    folder.mkdir(parents=True, exist_ok=True)
    results.to_csv(folder / "results.csv", index=False)
    return results


def imbalances(results: pd.DataFrame) -> pd.DataFrame:
    """The report's imbalance flags: every power, seat and strategy against the band."""
    return tournament.imbalance_flags(results, band=BAND, factors=("power", "seat", "strategy"))


def tournament_section(game: str, results: pd.DataFrame, folder: Path, rel: str) -> tuple[list[str], str]:
    analysis = tournament.analyse(results, folder)
    flags = imbalances(results)
    flags.to_csv(folder / "flags.csv", index=False)
    share = tournament.fair_share(results)
    body = [f"<h3>Win rates ({analysis.summary['games']} games, seats and powers rotated)</h3>",
            (f"<p>The dashed line is the <strong>fair share</strong> {share['share']:.3g}: all wins over all "
            f"seat-games, what every level would win if nothing mattered. "
            + (f"It is above 1/{round(1 / share['one_over_n'])} = {share['one_over_n']:.3g} because a shared first "
               f"place counts as a win for every player sharing it ({100 * share['shared_games']:.3g} % of the games "
               "had one). " if share["shared_games"] else "It equals 1/N: no game had a shared first place. ")
            + "Intervals are 95 % Wilson intervals at the "
            "<strong>effective sample size</strong> n / deff: games of a block share their dice, so they are not "
            "independent, and the design effect deff (the block-clustered variance of a win rate over the "
            "binomial one, at least 1) says how many seat-games count as one independent one. Seat intervals are wider "
            "than power intervals when the dice of a block favour one seat in all its games.</p>"),
            html.figure(f"{rel}/win_rates.png", "win rates by strategy, power and seat")]
    info = games.load(game).INFO
    vp_label = info.vp_label
    for key, label in (("by_power", "power"), ("by_seat", "seat"), ("by_strategy", "strategy")):
        rows = [(name, v["n"], html.sig(v["deff"]), f"{v['n'] / v['deff']:.0f}", html.sig(v["win_rate"]),
                 html.interval(*v["ci95"]), html.sig(v["mean_vp"]), html.sig(v["mean_rank"]))
                for name, v in analysis.summary[key].items()]
        body.append(f"<h4>By {label}</h4>" + html.table(rows, [label, "n (seat-games)", "design effect",
                                                              "effective n", "win rate", "95% CI", f"mean {vp_label}",
                                                              "mean rank"]))
    seat0 = analysis.first_seat
    if info.turn_order:                  # the rules, not the seat, decide who moves first
        seat_sentence = f"A seat is only a label: {info.turn_order}."
        seat_text = (f"None to measure. {seat_sentence} The seat rows above say only how the games were seated "
                     f"(seat 0 won {seat0['win_rate']:.3g}).")
    else:
        seat_sentence = f"Seat 0 wins {seat0['win_rate']:.3g} against a fair share of {seat0['expected']:.3g}."
        seat_text = (f"Seat 0 wins {seat0['win_rate']:.3g} (95 % CI {seat0['ci95'][0]:.3g}..{seat0['ci95'][1]:.3g}, "
                     f"n = {seat0['n']}) against a fair share of {seat0['expected']:.3g}.")
    body.append(f"<h4>First-seat advantage</h4><p>{seat_text}</p>")
    body.append("<h4>Rating model (Plackett-Luce: strategy + seat + power)</h4>"
                + html.figure(f"{rel}/ratings.png", "rating effects")
                + html.table([(r.factor, r.level, html.sig(r.effect), html.interval(r.ci_low, r.ci_high))
                              for r in analysis.ratings.itertuples()], ["factor", "level", "log-worth", "95% CI"]))
    spike = tournament.revolutions(results)
    body.append("<h4>Distributions</h4>"
                + (f"<p>{100 * spike['zero_vp']:.3g} % of seat-games end at 0 VP, {spike['zero_by_revolution']:.0%} of "
                   f"them by a revolution (unrest at the threshold sets VP to 0, SOE-18.2; revolutions in "
                   f"{100 * spike['revolution']:.3g} % of all seat-games): that is the spike at 0.</p>"
                   if spike else "")
                + html.figure(f"{rel}/vp.png", "VP distribution")
                + (html.figure(f"{rel}/length.png", "game length") if (folder / "length.png").exists() else ""))
    ended = tournament.endings(results)
    if ended:
        body.append(ending_table(ended))
    flagged = flags[flags["flag"] != ""]
    body.append(f"<h4>Flagged imbalances (further than &plusmn;{BAND:.2f} from the fair share, Holm-adjusted "
                f"over every power, seat and strategy)</h4>"
                + (html.table([(r.factor, r.level, r.n, html.sig(r.win_rate), html.interval(r.ci_low, r.ci_high),
                                html.sig(r.p_holm), r.flag) for r in flagged.itertuples()],
                              ["factor", "level", "n", "win rate", "95% CI", "Holm p", "flag"])
                   if len(flagged) else "<p>None: no power, seat or strategy is outside the band.</p>"))
    best = max(analysis.summary["by_strategy"].items(), key=lambda kv: kv[1]["win_rate"])
    strongest_power = max(analysis.summary["by_power"].items(), key=lambda kv: kv[1]["win_rate"])
    power_rates = {v["win_rate"] for v in analysis.summary["by_power"].values()}
    powers = (f"every power wins alike ({strongest_power[1]['win_rate']:.3g})" if len(power_rates) == 1 else
              f"the strongest power {strongest_power[0]} ({strongest_power[1]['win_rate']:.3g})")
    summary = (f"In {analysis.summary['games']} games of {int(results['players'].iloc[0])} players with seats and "
               f"powers rotated, the strongest strategy was {best[0]} (win rate {best[1]['win_rate']:.3g}, "
               f"95 % CI {best[1]['ci95'][0]:.3g}..{best[1]['ci95'][1]:.3g}) and {powers}. {seat_sentence} "
               + (f"Flagged as out of balance: {', '.join(f'{r.factor} {r.level} ({r.flag})' for r in flagged.itertuples())}."
                  if len(flagged) else "Nothing is flagged as out of balance at this sample size.")
               + (" " + ending_sentence(ended, vp_label) if ended else ""))
    return body, summary


def ending_table(ended: dict) -> str:
    """The end reasons' table (`tournament.endings`) and the seats eliminated per game."""
    rows = [(r["reason"], r["games"], html.sig(r["share"]), html.interval(*r["ci95"])) for r in ended["reasons"]]
    out = "<h4>How the games ended</h4>" + html.table(rows, ["end reason", "games", "share", "95% CI"])
    gone = ended["eliminated"]
    if gone:
        out += (f"<p>Seats eliminated per game: {gone['mean']:.3g} (95 % CI {html.interval(*gone['ci95'])}); "
                f"{100 * gone['none']:.3g} % of the games ended with every seat still in play.</p>")
    return out


def ending_sentence(ended: dict, vp_label: str) -> str:
    """The summary's line on how games ended: the commonest end reason with its interval, and
    what a turn cap means for the win rates above (COE-25.3: a simulator setting, not a rule)."""
    top = ended["reasons"][0]
    text = (f"{100 * top['share']:.3g} % of the games ended by {top['reason']} "
            f"(95 % CI {100 * top['ci95'][0]:.3g}..{100 * top['ci95'][1]:.3g} %)")
    if top["reason"] == "turn_cap":
        text += f": {tournament.turn_cap_note(vp_label)}, so the win rates above measure that"
    return text + "."


def tiles_section(engine: Any, data: Any, experiments: list[tv.Experiment], size: ReportSize, folder: Path,
                  rel: str) -> tuple[list[str], str]:
    costs = engine.asset_costs(data)
    levels = [e.strategy for e in experiments]
    cur = experiments[0].currency
    say(f"tile values: {len(experiments)} skill level(s) ({', '.join(levels)}) x {experiments[0].blocks} blocks of "
        f"{2 * len(experiments[0].tiles) + 1 + len(experiments[0].grants)} arms")
    values, resources = tv.measure(experiments, costs, jobs=size.jobs, quiet=False)
    files = tv.write_outputs(folder, values, resources)
    values, resources = tv.one_row_each(values), tv.one_row_each(resources, "resource")   # per side: `asset (power)`
    assets = tv.by_asset(values)
    noun = engine.INFO.assets
    body = [f"<h3>Values and fair prices of {noun}, by skill level</h3>",
            (f"<p>Skill levels measured: <strong>{html_lib.escape(', '.join(levels))}</strong> (every seat plays "
            "the level; the tuned level appears once a tuned strategy exists; the random baseline too with "
            "<code>--skill random,&lt;default&gt;,&lt;default&gt;-tuned</code>). Causal value: the focal seat takes "
            "the asset at its first legal opportunity vs never, same dice, focal seat and powers rotated, "
            f"{experiments[0].blocks} blocks per level. A fair price in {cur} = current cost in {cur} equivalents + "
            f"value / value of one {unit_name(cur)} (from the grant experiments), with a bootstrap interval over blocks. It is "
            f"given only where one {unit_name(cur)} is clearly worth something at that level (its interval excludes zero); "
            f"otherwise the price is <em>{NOT_IDENTIFIABLE}</em> and the note gives the blocks that would settle "
            "it. The verdict comes from the interval of fair price minus current cost: above zero under-priced, "
            "below zero over-priced, else fair. A negative fair price means the asset harms its owner even when "
            "free. An asset whose value changes sign between levels (both intervals clear of zero on opposite "
            "sides, or opposite point estimates with differing verdicts) is <em>skill-dependent</em>: a "
            "statement about the players, not a balance finding. The observational column compares owners with "
            "non-owners in unchanged games and is biased (strong positions acquire more).</p>")]
    body += [html.figure(f"{rel}/{f.name}", f"values of {noun} by skill level, sorted by effect")
             for f in files if f.name.startswith("tile_values") and f.suffix == ".png"]
    settings = GAME_SIZES.get(experiments[0].game, FALLBACK_SIZE).value_overrides
    if settings:
        body.append("<p>The value experiments run with <code>" + html_lib.escape(", ".join(settings)) + "</code>: a "
                    "setting of the experiment's design, not a rules change (see the game's engine docs).</p>")
    prices = [f for f in files if f.name.startswith("fair_prices")]
    body += ([html.figure(f"{rel}/{f.name}", "fair price against current cost") for f in prices] if prices else
             [f"<p>No fair price could be given at any skill level (see the value of {cur} below).</p>"])
    body.append("<h4>Verdicts by asset, skill levels side by side (sorted by mean effect)</h4>"
                + html.table([(r["tile"], *[_cell(r, lv) for lv in levels], r["finding"] or "none", r["sign_changes"])
                              for _, r in assets.iterrows()],
                             ["asset", *[f"{lv}: d win [95% CI], verdict" for lv in levels], "finding", "sign changes"]))
    by_level = {e.strategy: e for e in experiments}
    for level, group in values.groupby("strategy", sort=False):
        group = group.set_index("tile").loc[[t for t in assets["tile"] if t in set(group["tile"])]].reset_index()
        body.append(f"<h4>Skill level {html_lib.escape(level)}: values of {noun}</h4>"
                    + _level_table(group, cur, engine.INFO.vp_label)
                    + settle_command(by_level[level], group, bool(size.tiles)))
    body.append("<h4>Value of resources (win rate per unit), by skill level</h4>"
                + html.table([(r.strategy, r.resource, r.dose, html.sig(r.win_per_unit),
                               html.interval(r.ci_low, r.ci_high), r.blocks, _measured(r))
                              for r in resources.itertuples()],
                             ["skill level", "resource", "dose", "win rate per unit", "95% CI", "blocks",
                              "clearly non-zero"]))
    return body, tiles_summary(assets, resources, levels, experiments[0].blocks, cur, noun)


def _level_table(group: pd.DataFrame, cur: str = "gold", vp_label: str = "VP") -> str:
    """One skill level's tiles; without a price at this level, the reason once above the table
    and no price columns."""
    def observed(r: Any) -> str:
        return f"{html.sig(_get(r, 'obs_win_owned'))} / {html.sig(_get(r, 'obs_win_not_owned'))}"

    head = ["asset", "d win", "95% CI", f"d {vp_label}", "cost"]
    verdicts = group["verdict"] if "verdict" in group else pd.Series("", index=group.index)
    if len(group) and (verdicts == NOT_IDENTIFIABLE).all():
        rows = [(r.tile, html.sig(r.d_win), html.interval(r.d_win_low, r.d_win_high), html.sig(r.d_vp), r.cost,
                 observed(r)) for r in group.itertuples()]
        return (f"<p>No fair prices at this level, {NOT_IDENTIFIABLE}: {html_lib.escape(_price_notes(group))}.</p>"
                + html.table(rows, [*head, "observational win owned / not (biased)"]))
    rows = [(r.tile, html.sig(r.d_win), html.interval(r.d_win_low, r.d_win_high), html.sig(r.d_vp), r.cost,
             html.sig(_get(r, "current_cost_gold")), html.sig(_get(r, "fair_price_gold")),
             html.interval(_get(r, "fair_price_low"), _get(r, "fair_price_high")), _short(getattr(r, "verdict", "")),
             getattr(r, "price_note", ""), observed(r)) for r in group.itertuples()]
    return html.table(rows, [*head, f"cost ({cur} eq.)", f"fair price ({cur})", "fair price 95% CI", "verdict", "note",
                             "observational win owned / not (biased)"])


def _price_notes(group: pd.DataFrame) -> str:
    """The level's note on its currency; per side where the sides' notes differ (each side has its
    own value of money; a side's rows are named `asset (power)`, `tile_value.one_row_each`)."""
    notes = group.assign(side=group["tile"].str.extract(r"\((\w+)\)$", expand=False)).drop_duplicates("price_note")
    if len(notes) == 1:
        return str(notes["price_note"].iloc[0])
    return "; ".join(f"{r.side}: {r.price_note}" if isinstance(r.side, str) else r.price_note
                     for r in notes.itertuples())


def settle_command(experiment: tv.Experiment, group: pd.DataFrame, restricted: bool) -> str:
    """Where a level's prices are not identifiable and the blocks that would settle the value of
    one unit of currency are known: the command that measures this level again with that many
    blocks (the same seed, players, overrides and variant files, and the tiles where the report
    measured only some; with sides, the most any side needs), and how many times this level's
    games it plays, so that a reader can act on "about N blocks would settle it"."""
    if "settle_blocks" not in group or "verdict" not in group:
        return ""
    needed = group["settle_blocks"][(group["verdict"] == NOT_IDENTIFIABLE) & group["settle_blocks"].notna()]
    if needed.empty:
        return ""
    blocks = max(int(needed.max()), experiment.blocks + 1)
    args = ["empires", "tile-value", experiment.game, "--strategy", experiment.strategy,
            "--players", str(experiment.players), "--blocks", str(blocks), "--seed", str(experiment.seed),
            *(["--tiles", ",".join(experiment.tiles)] if restricted else []),
            *(x for v in experiment.variants for x in ("--variant", str(v))),
            *(x for o in experiment.overrides for x in ("--set", o)), "--jobs", "2"]
    command = shlex.join(args)
    return (f"<p>To settle it at this level: <code>{html_lib.escape(command)}</code> "
            f"({blocks / experiment.blocks:.1f} times this level's games).</p>")


def _measured(r: Any) -> str:
    """Whether a resource's value is clearly non-zero, and if not what would settle it."""
    if r.measured:
        return "yes"
    if not math.isnan(r.settle_blocks):
        return f"no: about {int(r.settle_blocks)} blocks would settle its sign"
    return "no: the grant changed no game's winner" if r.ci_low == r.ci_high == 0 else "no"


def _cell(asset: pd.Series, level: str) -> str:
    """One asset at one level: its value with interval, and the price verdict or 'no price'."""
    verdict = asset[f"verdict {level}"]
    return (f"{html.sig(asset[f'd_win {level}'])} {html.interval(asset[f'low {level}'], asset[f'high {level}'])}, "
            + ("no price" if verdict in ("", NOT_IDENTIFIABLE) else verdict))


def _short(verdict: str) -> str:
    return "no price (not identifiable)" if verdict == NOT_IDENTIFIABLE else verdict


def _get(row: Any, name: str) -> float:
    return getattr(row, name, float("nan"))


def tiles_summary(assets: pd.DataFrame, resources: pd.DataFrame, levels: list[str], blocks: int,
                  cur: str = "gold", noun: str = "tiles") -> str:
    """Each asset once, with its verdict per skill level; skill-dependent ones apart."""
    def verdicts(r: pd.Series) -> str:
        return ", ".join(f"{lv}: {r[f'verdict {lv}'] or 'no price'}" for lv in levels)

    parts = [f"Values of {noun} at skill levels {', '.join(levels)} ({blocks} blocks each)."]
    for finding in ("under-priced", "over-priced", "mixed verdicts"):
        hits = assets[assets["finding"] == finding]
        if len(hits):
            listed = "; ".join(f"{r['tile']} ({verdicts(r)})" for _, r in hits.iterrows())
            parts.append(f"{finding.capitalize()}: {listed}.")
    dependent = assets[assets["skill_dependent"]]
    if len(dependent):
        parts.append("Skill-dependent (the value changes sign between levels; not a balance finding): "
                     + "; ".join(f"{r['tile']} ({r['sign_changes']})" for _, r in dependent.iterrows()) + ".")
    gold = resources[resources["resource"] == cur]
    unpriced = [r.strategy for r in gold.itertuples() if not r.measured]
    if unpriced:
        parts.append(f"No fair prices at {', '.join(unpriced)}: one {unit_name(cur)} is not clearly worth anything there "
                     f"({NOT_IDENTIFIABLE}).")
    rest = int((assets["finding"] == "").sum())
    which = f"All {rest}" if rest == len(assets) else f"{rest} other"
    parts.append(f"{which} asset{'s are' if rest != 1 else ' is'} consistent with the current cost or not "
                 "identifiable at every level." if rest else "")
    return " ".join(p for p in parts if p)


@dataclass
class Playable:
    """A game with a full engine, its data and its checked plans (nothing has run yet)."""

    engine: Any
    data: Any
    tournament: runner.Plan
    tiles: list[tv.Experiment]
    size: ReportSize                      # the report's size resolved for this game


def prepare(game: str, size: ReportSize) -> Playable:
    """Load and check everything a playable game's section needs, so bad input fails at once."""
    engine = games.load(game)
    size = size.for_game(game, engine.INFO)
    data = games.load_data(game, engine, size.overrides, size.variants)
    experiments = tile_experiments(game, engine, data, size) if has_assets(engine) else []
    return Playable(engine, data, tournament_plan(game, engine, data, size), experiments, size)


def robustness_pass(game: str, playable: Playable, size: ReportSize, results: pd.DataFrame,
                    folder: Path) -> tuple[str, list[robustness.Finding]]:
    """The section's findings with their verdicts (analyses.robustness): the tournament replayed
    under each perturbation of the ASSUMED data, smaller, same seed; the runs' win rates in
    `robustness.csv`. Returns the findings table and the findings."""
    groups = robustness.groups(playable.data)
    rests_on = robustness.rests_on(groups)
    by_asset = folder / "tiles" / "by_asset.csv"
    assets = pd.read_csv(by_asset, keep_default_na=False) if by_asset.exists() else None
    found = robustness.findings(results, imbalances(results), rests_on) + robustness.asset_findings(assets, rests_on)
    games_each = size.robustness_games
    plan = robustness.perturbations(playable.data) if games_each else []
    smaller = replace(size, games=games_each)

    def play(p: robustness.Perturbation) -> pd.DataFrame:
        data = robustness.load(playable.data, p)
        return runner.run(tournament_plan(game, playable.engine, data, smaller), jobs=size.jobs, quiet=True)

    started = time.monotonic()
    perturbed = robustness.replay(plan, play, say)
    if plan:
        say(f"robustness: {len(plan)} perturbations in {time.monotonic() - started:.0f}s")
    robustness.numbers(robustness.rates(results), perturbed, plan).to_csv(folder / "robustness.csv", index=False)
    judged = robustness.judge(found, perturbed, "the robustness pass is off (--robust-games 0)" if not games_each else
                              "no perturbation is defined for this game's ASSUMED values (analyses.robustness)")
    games_run = playable.tournament.design.whole_blocks(games_each) if games_each else 0
    return robustness.findings_table(judged, plan, games_run), judged


def game_section(game: str, page: battle_odds.OddsPage | None, size: ReportSize, out: Path,
                 playable: Playable | None) -> Section:
    body = odds_section(game, page)
    summaries = [page.summary] if page else []
    meta: dict[str, Any] = {"seed": size.seed}
    if playable is not None:
        data, size = playable.data, playable.size
        meta.update(runner.provenance(data, playable.engine))
        say(f"{game}: tournament, tile values, questions, robustness")
        folder = out / game / "tournament"
        results = play_tournament(playable.tournament, size, folder)
        part, text = tournament_section(game, results, folder, f"{game}/tournament")
        body += part
        summaries.append(text)
        if size.audit_games and has_audit(playable.engine):
            say(f"{game}: player audit, {size.audit_games} games")
            text, part = players_section.report_section(playable.engine, data, size.players, size.audit_games,
                                                        size.seed, out / game / "players", f"{game}/players",
                                                        size.jobs)
            body += part
            summaries.append(text)
        if playable.tiles:
            part, text = tiles_section(playable.engine, data, playable.tiles, size, out / game / "tiles",
                                       f"{game}/tiles")
            body += part
            summaries.append(text)
        if size.extra_games and game in EXTRAS:
            say(f"{game}: its own questions, {size.extra_games} games per cell")
            questions = out / game / "questions"
            questions.mkdir(parents=True, exist_ok=True)
            changed = user_overrides(data)
            if changed:
                body.append(overrides_note(list(changed)))
            for module in EXTRAS[game]:
                say(f"{game}: {module}")
                text, part = importlib.import_module(module).report_section(
                    questions, size.extra_games, size.seed, size.jobs,
                    overrides=override_texts(changed))
                body += [rebase(fragment, f"{game}/questions") for fragment in part]
                summaries.append(text)
        table, found = robustness_pass(game, playable, size, results, out / game)
        write_headline(game, results, out / game, report_provenance(size, {game: playable})[game], found)
    else:
        from sim.core.data import load_game_data
        data = load_game_data(game)
        meta.update(code_version=code_version(), rules_edition=data.rules_edition, data_hash=data.hash)
        summaries.append("No full-game engine yet: odds and scoring only.")
        found = [robustness.Finding("odds and scoring (the odds page)", "odds", "", "",
                                    robustness.rests_on(robustness.groups(data)),
                                    note="no full-game engine to replay")]
        table = robustness.findings_table(found, [], 0)
    meta.pop("assumed", None)
    body.insert(0, table)
    body.append(html.provenance(meta, robustness.groups_table(robustness.groups(data))))
    return Section(game, games.title(game), " ".join(summaries), body)


def overrides_note(changed: list[str]) -> str:
    """The game's own questions (`EXTRAS`) play the report's `--set` / `--variant` too, each arm's
    own paths on top (an edition, a swept value): said above them, so that a reader knows which
    value an arm that varies an overridden path played."""
    paths = ", ".join(html_lib.escape(path) for path in changed)
    return (f"<p><strong>Note:</strong> the sections below play this report's overrides ({paths}) in every game; "
            f"where a section varies a path itself (an edition, a variant, a swept value), its arm's value holds "
            f"for that arm.</p>")


def rebase(fragment: str, folder: str) -> str:
    """A fragment written for its own folder, its relative links and images made relative to
    the index (a section module names its files as they lie in the folder it was given)."""
    return re.sub(r'(src|href)="(?![a-z]+:|/|#)([^"]+)"', lambda m: f'{m[1]}="{folder}/{m[2]}"', fragment)


_started = time.monotonic()      # reset by build_report: `say` prints the time since


def say(message: str) -> None:
    """Progress of a long report on stderr, with the seconds since the report began, so a long
    run shows where its time goes (the runner adds a bar on a terminal, ETA lines in a log)."""
    print(f"report: [{time.monotonic() - _started:.0f} s] {message}", file=sys.stderr, flush=True)


def file_hash(path: str | Path) -> str:
    """SHA-256 (first 16 hex digits) of a file's bytes: which variant file exactly was used."""
    return hashlib.sha256(Path(path).read_bytes()).hexdigest()[:16]


def report_provenance(size: ReportSize, playable: dict[str, Playable]) -> dict[str, dict[str, Any]]:
    """Per played game: seed, settings, overrides, variant files with their hashes, code and engine
    versions, rules edition and data hash."""
    variants = {str(v): file_hash(v) for v in size.variants}
    out = {}
    for game, p in playable.items():
        settings = {k: v for k, v in p.size.__dict__.items() if k not in ("overrides", "variants", "only")}
        prov = runner.provenance(p.data, p.engine)
        out[game] = {"seed": size.seed, "settings": settings, "overrides": prov["overrides"], "variants": variants,
                     **{k: prov[k] for k in ("code_version", "engine_version", "rules_edition", "data_hash")}}
    return out


def provenance_header(size: ReportSize, playable: dict[str, Playable]) -> str:
    """The box at the top of the index: what was run, on which rules, with which code."""
    rows = [("tiles", ", ".join(size.tiles) if size.tiles else "every tile"),
            ("skill levels", ", ".join(size.tile_strategies) + f" ({DEFAULT}: the game's default strategy, where present)"),
            ("seed", size.seed), ("worker processes", size.jobs),
            ("scale of each game's default share (--scale)", f"{size.scale:g}")]
    for game, prov in report_provenance(size, playable).items():
        title = games.title(game)
        own = playable[game].size
        changes = [f"{k} = {v}" for k, v in prov["overrides"].items()]
        rows += [(f"{title}: games per tournament, players, tile blocks per experiment",
                  f"{own.games}, {own.players}, {own.tile_blocks}"),
                 (f"{title}: games per perturbed tournament (robustness pass)", own.robustness_games or "off"),
                 (f"{title}: rules", "default rules" if not changes else "variant: " + "; ".join(changes)),
                 (f"{title}: variant files", ", ".join(f"{f} (sha256 {h})" for f, h in prov["variants"].items()) or "none"),
                 (f"{title}: data hash, rules edition", f"{prov['data_hash']}, {prov['rules_edition']}"),
                 (f"{title}: engine version", prov["engine_version"])]
    rows.append(("code version", code_version()))
    return ('<div class="prov"><strong>What this report is of</strong>'
            + html.table(rows, ["setting", "value"])
            + "<p>Overrides and variant files apply to the games the report plays; the odds pages use each "
              "game's default data.</p></div>")


def write_headline(game: str, results: pd.DataFrame, folder: Path, provenance: dict[str, Any],
                   found: list[robustness.Finding]) -> Path:
    """`<game>/headline.json`: the section's headline numbers with intervals, for `--compare`,
    and the findings with their robustness verdicts."""
    def table(name: str) -> pd.DataFrame | None:
        path = folder / "tiles" / name
        return pd.read_csv(path) if path.exists() else None

    rows = headline.numbers(results, table("tile_values.csv"), table("resource_values.csv"),
                            seats_move_in_order=not games.load(game).INFO.turn_order)
    return headline.write(folder, game, games.title(game), rows, provenance, robustness.as_json(found))


def comparison(base_dir: Path, base: dict[str, dict], out: Path) -> str:
    """Write compare.html and compare.json into the report folder; the index's link to them."""
    comparisons = {}
    for game, old in base.items():
        new = json.loads((out / game / headline.FILE).read_text("utf-8"))
        comparisons[game] = (old, new, headline.compare(old, new))
    (out / "compare.html").write_text(headline.page(base_dir, comparisons), encoding="utf-8")
    (out / "compare.json").write_text(json.dumps({"base": str(base_dir), "games": {
        g: {"base": headline.settings_line(b), "new": headline.settings_line(n), "rows": rows}
        for g, (b, n, rows) in comparisons.items()}}, indent=2) + "\n", encoding="utf-8")
    return f'<p><a href="compare.html">Headline numbers against the report in {html_lib.escape(str(base_dir))}</a></p>'


def check_tiles(size: ReportSize, playable: dict[str, Playable]) -> None:
    """`--tiles` may name the assets of several games (each game values its own); a name no
    played game has is refused."""
    known = {t for p in playable.values() if has_assets(p.engine) for t in p.engine.asset_costs(p.data)}
    for name in size.tiles or ():
        if name not in known:
            raise UserError(f"--tiles {name}: no played game has this asset; allowed: {', '.join(sorted(known))}")


def playable_games(size: ReportSize) -> tuple[str, ...]:
    """The games the report plays: every registered game package, or those of `--game`. Data
    overrides and variant files belong to one game's data, so they need a single game."""
    known = tuple(g for g in games.PACKAGES if g in games.names())
    for name in size.only or ():
        if name not in known:
            raise UserError(f"--game {name}: not a game the toolkit can play; allowed: {', '.join(known)}")
    chosen = tuple(g for g in known if size.only is None or g in size.only)
    if len(chosen) > 1:
        for flag, given in (("--set", size.overrides), ("--variant", size.variants)):
            if given:
                raise UserError(f"{flag} applies to one game's data; name the game with --game "
                                f"(one of {', '.join(chosen)})")
    return chosen


def build_report(out: Path, size: ReportSize, compare_with: Path | None = None) -> Path:
    """Write `out/index.html` with every game's section; return its path. Everything is checked
    first; the report is built in a temporary folder beside `out` and swapped in when complete."""
    playable = {game: prepare(game, size) for game in playable_games(size)}
    check_tiles(size, playable)
    base = headline.read_report(compare_with, tuple(playable)) if compare_with is not None else None
    global _started
    with staged_folder(out) as folder:
        _started = time.monotonic()
        say("odds pages")
        pages = {Path(p.path).parts[0]: p for p in battle_odds.build_pages(folder, quick=size.quick)}
        say("odds pages done")
        sections = []
        for game in games.PACKAGES:
            if game in pages or game in playable:
                sections.append(game_section(game, pages.get(game), size, folder, playable.get(game)))
                runner.release_workers()      # the next game's work in fresh workers, not this game's caches
        toc = "".join(f'<li><a href="#{s.game}">{html_lib.escape(s.title)}</a></li>' for s in sections)
        body = [provenance_header(size, playable),
                html.summary("Balance report: odds, win rates by power, seat and strategy with 95 % intervals, "
                             "tile values and fair prices, flagged imbalances, and the assumptions behind them."),
                comparison(compare_with, base, folder) if base is not None else "", f"<ul>{toc}</ul>"]
        for s in sections:
            body.append(f'<h2 id="{s.game}">{html_lib.escape(s.title)}</h2>{html.summary(s.summary)}' + "".join(s.body))
        (folder / "index.html").write_text(html.page("empires-lab balance report", "\n".join(body)), encoding="utf-8")
        say("report done")
    return out / "index.html"
