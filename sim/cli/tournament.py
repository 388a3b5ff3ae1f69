"""`empires tournament <game>`, `empires analyse RUN_DIR`, `empires compare <game> A B --sprt`.

Tournaments play balanced blocks of games (sim.core.design) through the runner
(sim.core.runner) into a run folder (sim.core.store) that `--resume` can finish; `analyse`
turns a run folder into tables, intervals, ratings and plots (analyses.tournament); `compare`
plays paired blocks until a sequential test decides (sim.core.sprt).
"""

from __future__ import annotations

import argparse
import math
import sys
from datetime import datetime, timezone
from pathlib import Path

from sim import games
from sim.cli import game_verb
from sim.cli.common import (add_json, add_overrides, add_seed, emit_json, in_folder, int_in, name_list, out_folder,
                            print_table, real_in)
from sim.core import runner, sprt
from sim.core.contract import strategy_sides
from sim.core.design import balanced, paired
from sim.core.errors import one_of, require
from sim.core.metadata import code_version
from sim.core.random import MAX_SEED
from sim.core.store import RunStore, now

VERBS = {
    "tournament": "balanced multi-strategy tournaments: parallel, resumable, cluster-ready",
    "compare": "sequential (SPRT) comparison of two strategies on paired blocks",
}
RUN_SETTINGS = ("players", "strategies", "games", "seed", "overrides", "variants", "batch_size", "out")


def register(groups: dict) -> None:
    root = groups["_root"]
    for verb, text in VERBS.items():
        game_verb(groups, verb, text)
    for game in games.names():
        _tournament_parser(groups["tournament"], game)
        _compare_parser(groups["compare"], game)
    if "analyse" not in root.choices:
        parser = root.add_parser("analyse", help="win rates, ratings, imbalances and plots of a run folder",
                                 description="win rates, ratings, imbalances and plots of a run folder")
        parser.add_argument("run_dir", type=in_folder, metavar="RUN_DIR", help="a folder written by `empires tournament`")
        add_json(parser)
        parser.set_defaults(handler=analyse_command)


def _add_execution(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--jobs", type=int_in(1, 4096, "jobs"), default=1,
                        help="worker processes (loky) or local Dask workers (default 1)")
    parser.add_argument("--backend", choices=runner.BACKENDS, default="loky",
                        help="loky: processes on this machine; dask: a local Dask cluster")
    parser.add_argument("--scheduler", metavar="ADDR", help="a running Dask scheduler, e.g. tcp://10.0.0.5:8786")
    parser.add_argument("--batch-size", type=int_in(1, 10**7, "batch size"), metavar="G",
                        help="games per batch (default: whole blocks, about 200 games)")
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    add_json(parser)


def _tournament_parser(group, game: str) -> None:
    parser = group.add_parser(game, help=f"{game} tournament", description=VERBS["tournament"])
    parser.add_argument("--players", type=int_in(name="players"), help="players per game (default: one per strategy)")
    parser.add_argument("--strategies", metavar="A,B,...", help="strategies, repeated to fill the seats")
    parser.add_argument("--games", type=int_in(1, 10**9, "games"),
                        help="number of games, rounded up to whole blocks (default 1000)")
    parser.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), help="root seed (default 1)")
    parser.add_argument("--out", type=out_folder, metavar="RUN_DIR",
                        help="new run folder (default runs/<game>-s<seed>-<time>)")
    parser.add_argument("--resume", type=in_folder, metavar="RUN_DIR",
                        help="finish an interrupted run (its own settings apply)")
    add_overrides(parser)
    parser.set_defaults(overrides=None, variants=None)
    _add_execution(parser)
    parser.set_defaults(handler=tournament_command, run_game=game)


def _compare_parser(group, game: str) -> None:
    parser = group.add_parser(game, help=f"compare two {game} strategies", description=VERBS["compare"])
    parser.add_argument("a", metavar="A", help="candidate strategy")
    parser.add_argument("b", metavar="B", help="baseline strategy")
    parser.add_argument("--sprt", action="store_true", required=True, help="sequential probability ratio test")
    parser.add_argument("--players", type=int_in(name="players"), help="players per game (default: fewest allowed)")
    parser.add_argument("--elo0", type=real_in(name="Elo"), default=0.0, help="H0 in Elo (default 0)")
    parser.add_argument("--elo1", type=real_in(name="Elo"), default=20.0, help="H1 in Elo (default 20)")
    parser.add_argument("--p0", type=real_in(0, 1, "share"), help="H0 as A's expected share of wins (overrides --elo0)")
    parser.add_argument("--p1", type=real_in(0, 1, "share"), help="H1 as A's expected share of wins (overrides --elo1)")
    parser.add_argument("--alpha", type=real_in(name="rate"), default=0.05, help="false H1 rate (default 0.05)")
    parser.add_argument("--beta", type=real_in(name="rate"), default=0.05, help="false H0 rate (default 0.05)")
    parser.add_argument("--max-games", type=int_in(1, 10**9, "games"), default=20_000,
                        help="stop undecided after this many games (default 20000)")
    add_seed(parser)
    add_overrides(parser)
    _add_execution(parser)
    parser.set_defaults(handler=compare_command, run_game=game)


def tournament_command(args: argparse.Namespace) -> int:
    engine = games.load(args.run_game)
    plan, store = _resume(args, engine) if args.resume else _start(args, engine)
    try:
        results = runner.run(plan, store, args.jobs, args.backend, args.scheduler, args.quiet)
    except BaseException as exc:
        if not store.manifest["batches_done"] and not args.resume:
            store.discard()  # e.g. an unreachable --scheduler: leave no empty run behind
        elif isinstance(exc, KeyboardInterrupt):
            sys.stderr.write(f"empires: finished batches are kept; continue with --resume {store.folder}\n")
        raise
    store.note(finished=now())
    from analyses.tournament import summarise
    summary = summarise(results)
    if args.json:
        emit_json({"run_dir": str(store.folder), **{k: store.manifest[k] for k in ("game", "seed", "players")},
                   "blocks": store.manifest["blocks"], **summary, "provenance": manifest_provenance(store)})
        return 0
    print(f"{args.run_game}: {summary['games']} games, {store.manifest['players']} players, seed {plan.seed}, "
          f"{store.manifest['blocks']} blocks of {plan.design.block_size}  -> {store.folder}")
    _print_levels(summary, engine.INFO.vp_label)
    return 0


def _start(args: argparse.Namespace, engine) -> tuple[runner.Plan, RunStore]:
    """A new run: validate the request, build the balanced design, create the run folder."""
    game = args.run_game
    require(args.strategies is not None, "--strategies is required (comma-separated strategy names)")
    strategies = name_list(args.strategies, "--strategies", "STRATEGY", engine.INFO.strategies)
    players = max(engine.INFO.min_players, len(strategies)) if args.players is None else args.players
    data = games.load_data(game, engine, args.overrides or (), args.variants or (), strategies)
    design = balanced(engine.INFO.powers, players, strategies, games.strategies(game, engine, data),
                      engine.INFO.min_players, engine.INFO.max_players, strategy_sides(engine, data))
    seed = 1 if args.seed is None else args.seed
    n = design.whole_blocks(args.games or 1000)
    plan = runner.Plan(module=games.module_path(game), seed=seed, design=design, games=n,
                       batch_size=args.batch_size or runner.default_batch_size(design, n, args.jobs), data=data)
    stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S")
    return plan, runner.new_run(args.out or Path("runs") / f"{game}-s{seed}-{stamp}", game, plan, engine)


def _resume(args: argparse.Namespace, engine) -> tuple[runner.Plan, RunStore]:
    """An interrupted run: its own settings, the same data, checked folder."""
    game = args.run_game
    given = [f"--{k.replace('_', '-')}" for k in RUN_SETTINGS if getattr(args, k) not in (None, [])]
    require(not given, f"--resume takes the run's own settings; drop {', '.join(given)}")
    store = RunStore.open(args.resume)
    require(store.manifest["game"] == game,
            f"--resume {args.resume}: the folder holds a {store.manifest['game']!r} run, not {game!r}")
    plan = runner.resumed_plan(store, games.load_data(game, engine, store.manifest.get("overrides") or {}), engine)
    store.note(resumed=[*store.manifest.get("resumed", []), now()])
    if store.manifest.get("code_version") != code_version():
        sys.stderr.write(f"empires: warning: run started with code {store.manifest.get('code_version')}, "
                         f"resumed with {code_version()}\n")
    return plan, store


def _print_levels(summary: dict, vp_label: str) -> None:
    for key in ("by_strategy", "by_power", "by_seat"):
        rows = [(name, v["n"], v["win_rate"], f"{v['ci95'][0]:.4f}..{v['ci95'][1]:.4f}", v["mean_vp"], v["mean_rank"])
                for name, v in summary[key].items()]
        print()
        print_table(rows, [key[3:], "n", "win rate", "95 % CI", f"mean {vp_label}", "mean rank"])


def manifest_provenance(store: RunStore) -> dict:
    """Seed, code version, rules edition, data hash, overrides and ASSUMED values of a run."""
    keys = ("seed", "code_version", "engine_version", "rules_edition", "data_hash", "overrides", "assumed")
    return {k: store.manifest.get(k) for k in keys}


def analyse_command(args: argparse.Namespace) -> int:
    from analyses.tournament import analyse
    store = RunStore.open(args.run_dir)
    require(store.manifest["games_done"] > 0, f"{args.run_dir}: the run has no finished games yet")
    result = analyse(store.results(), Path(args.run_dir) / "analysis")
    if args.json:
        emit_json({"run_dir": str(args.run_dir), "complete": store.complete, **result.as_json(),
                   "provenance": manifest_provenance(store)})
        return 0
    if not store.complete:
        print(f"note: partial run ({store.manifest['games_done']} of {store.manifest['games']} games)")
    print(f"{store.manifest['game']}: {result.summary['games']} games  ({args.run_dir})")
    _print_levels(result.summary, games.load(store.manifest["game"]).INFO.vp_label)
    seat0 = result.first_seat
    print(f"\nfirst-seat advantage: {seat0['advantage']:+.4f} "
          f"(95 % {seat0['advantage_ci95'][0]:+.4f}..{seat0['advantage_ci95'][1]:+.4f}, n {seat0['n']})")
    print("\nPlackett-Luce effects (log-worth, sum to zero per factor; 95 % CI clustered by block)")
    print_table([(r.factor, r.level, r.effect, f"{r.ci_low:+.3f}..{r.ci_high:+.3f}") for r in result.ratings.itertuples()],
                ["factor", "level", "effect", "95 % CI"])
    flagged = result.flags[result.flags["flagged"]]
    print(f"\nimbalances (Holm-adjusted p < 0.05 over {len(result.flags)} seat/power tests): "
          + (", ".join(f"{r.factor} {r.level} ({r.win_rate:.3f} vs {r.expected:.3f})" for r in flagged.itertuples())
             or "none"))
    print(f"tables and plots: {args.run_dir / 'analysis'}")
    return 0


def compare_command(args: argparse.Namespace) -> int:
    game = args.run_game
    engine = games.load(game)
    data = games.load_data(game, engine, args.overrides, args.variants, (args.a, args.b))
    known = games.strategies(game, engine, data)
    for name in (args.a, args.b):
        if name not in known:
            raise one_of("strategy", name, known)
    require(args.a != args.b, f"compare: A and B are both {args.a!r}; give two different strategies")
    players = max(2, engine.INFO.min_players) if args.players is None else args.players
    require(engine.INFO.min_players <= players <= engine.INFO.max_players and players >= 2,
            f"--players {players} is out of range; allowed {max(2, engine.INFO.min_players)}..{engine.INFO.max_players}")
    s0 = args.p0 if args.p0 is not None else sprt.elo_to_score(args.elo0)
    s1 = args.p1 if args.p1 is not None else sprt.elo_to_score(args.elo1)
    test = sprt.Sprt(s0, s1, args.alpha, args.beta)
    design = paired(engine.INFO.powers, players, args.a, args.b, strategy_sides(engine, data))
    blocks = max(1, math.ceil(args.max_games / design.block_size))
    batch_blocks = max(1, (args.batch_size or design.block_size) // design.block_size)
    plan = runner.Plan(module=games.module_path(game), seed=args.seed, design=design,
                       games=blocks * design.block_size, batch_size=batch_blocks * design.block_size,
                       data=data)

    def consume(table) -> bool:
        return any(test.add(score) is not None for score in sprt.block_scores(table, args.a, args.b))

    runner.play_until(plan, consume, args.jobs, args.backend, args.scheduler, args.quiet)
    decision = test.decision
    used = len(test.scores) * design.block_size
    mean = sum(test.scores) / len(test.scores)
    payload = {"game": game, "a": args.a, "b": args.b, "players": players, "seed": args.seed,
               "decision": decision or "undecided", "games": used, "blocks": len(test.scores),
               "block_size": design.block_size, "score": mean, "llr": test.llr,
               "bounds": [test.lower, test.upper], "h0_score": s0, "h1_score": s1,
               "alpha": args.alpha, "beta": args.beta, "max_games": plan.games,
               "provenance": {"seed": args.seed, **runner.provenance(plan.data, engine)}}
    if args.json:
        emit_json(payload)
        return 0
    verdict = {"H1": f"{args.a} is stronger (accept H1", "H0": "no gain (accept H0",
               None: "undecided at the game cap (no bound crossed"}[decision] + \
        f"; measured score of {args.a} {mean:.4f}, H0 score {s0:.4f}, H1 score {s1:.4f})"
    print(f"{game} {args.a} vs {args.b}, {players} players: {verdict}")
    print(f"games {used} ({len(test.scores)} paired blocks of {design.block_size}); score of {args.a} {mean:.4f}; "
          f"LLR {test.llr:.3f} in [{test.lower:.3f}, {test.upper:.3f}]")
    return 0
