"""`empires tune GAME`: a strategy's parameters searched with Optuna (sim.core.tuning), written as
a new named strategy (`tuned.toml`) in a run folder that `--resume` can finish."""

from __future__ import annotations

import argparse
import sys
from datetime import datetime, timezone
from pathlib import Path

from sim import games
from sim.cli import game_verb
from sim.cli.common import add_json, add_overrides, emit_json, int_in, print_table, strategy_list
from sim.core.errors import require
from sim.core.random import MAX_SEED

TEXT = "tune a strategy's parameters (Optuna) into a new named strategy: the skill ladder's top rung"
SETTINGS = {"strategy": "--strategy", "against": "--against", "trials": "--trials",      # what --resume refuses
            "games_per_trial": "--games-per-trial", "seed": "--seed", "out": "--out", "name": "--name",
            "overrides": "--set", "variants": "--variant", "params": "--params", "span": "--span"}


def register(groups: dict) -> None:
    group = game_verb(groups, "tune", TEXT)
    for game in games.names():
        parser = group.add_parser(game, help=f"tune a {game} strategy", description=TEXT)
        parser.add_argument("--strategy", metavar="NAME", help="the strategy to tune (default: the game's "
                                                               "default strategy)")
        parser.add_argument("--against", metavar="A,B,...", help="the field, one seat each; the candidate takes "
                                                                 "one more seat (default: the game's lineup)")
        parser.add_argument("--trials", type=int_in(1, 10**5, "trials"), help="trials in all (default 30)")
        parser.add_argument("--games-per-trial", type=int_in(1, 10**7, "games per trial"),
                            help="games per trial, rounded up to whole blocks (default 200)")
        parser.add_argument("--seed", type=int_in(0, MAX_SEED, "seed"), help="root seed (default 1)")
        parser.add_argument("--name", help="name of the tuned strategy (default: <strategy>-tuned)")
        parser.add_argument("--params", metavar="P,Q,...", help="search only these parameters (default: every "
                                                                "numeric parameter with bounds)")
        parser.add_argument("--span", type=_span, help="search each parameter within this fraction of its range "
                                                       "either side of its start (default 1: the whole range)")
        parser.add_argument("--out", type=Path, metavar="RUN_DIR",
                            help="new run folder (default runs/<game>-tune-<name>-s<seed>-<time>)")
        parser.add_argument("--resume", type=Path, metavar="RUN_DIR",
                            help="finish an interrupted tuning (its own settings apply)")
        parser.add_argument("--jobs", type=int_in(1, 4096, "jobs"), default=1, help="worker processes (default 1)")
        add_overrides(parser)
        parser.set_defaults(overrides=None, variants=None)
        add_json(parser)
        parser.set_defaults(handler=command)


def command(args: argparse.Namespace) -> int:
    from sim.core import tuning

    if args.resume:
        given = [flag for key, flag in SETTINGS.items() if getattr(args, key) not in (None, [])]
        require(not given, f"--resume takes the tuning's own settings; drop {', '.join(given)}")
        folder = args.resume
        job = tuning.reopen(folder)
    else:
        settings = _settings(args)
        folder = args.out or Path("runs") / (f"{args.game}-tune-{settings.name}-s{settings.seed}-"
                                             f"{datetime.now(timezone.utc).strftime('%Y%m%dT%H%M%S')}")
        job = tuning.create(folder, settings)
    try:
        summary = tuning.run(folder, job, args.jobs, progress=(lambda trial: None) if args.json else _progress)
    except KeyboardInterrupt:
        sys.stderr.write(f"empires: finished trials are kept; continue with --resume {folder}\n")
        raise
    if args.json:
        emit_json({"run_dir": str(folder), **summary})
        return 0
    s = job.settings
    print(f"{s.game}: {s.strategy} tuned into {s.name} against {', '.join(s.against)} "
          f"({summary['trials']} trials, {summary['trials_pruned']} pruned, {summary['games_per_trial']} games each, "
          f"seed {s.seed})  -> {Path(folder) / tuning.TUNED}")
    print_table([("start", "", summary["start_score"], "", summary["check_start_score"]),
                 (f"best (trial {summary['best_trial']})", "", summary["score"],
                  f"{summary['score_ci95'][0]:.4f}..{summary['score_ci95'][1]:.4f}", summary["check_score"])],
                ["parameters", "", "score", "95 % CI", "score on fresh games"])
    print(f"gain on fresh games {summary['check_gain']:+.4f} (95 % {summary['check_gain_ci95'][0]:+.4f}.."
          f"{summary['check_gain_ci95'][1]:+.4f}); a fair share is {summary['fair_share']:.4f}")
    print_table([(k, v) for k, v in summary["parameters"].items()], ["parameter", "tuned value"])
    return 0


def _settings(args: argparse.Namespace):
    """The settings of a new tuning from the flags (checked by sim.core.tuning.Tuning)."""
    from sim.core.tuning import Settings

    engine = games.load(args.game)
    info = engine.INFO
    strategy = args.strategy or info.default_strategy
    against = strategy_list(info, args.against, "--against")
    data = games.load_data(args.game, engine, args.overrides or (), args.variants or (), (strategy, *against))
    params = tuple(p.strip() for p in args.params.split(",") if p.strip()) if args.params is not None else ()
    require(args.params is None or bool(params), f"--params {args.params!r}: name at least one parameter")
    return Settings(game=args.game, strategy=strategy, against=tuple(against), trials=args.trials or 30,
                    games_per_trial=args.games_per_trial or 200, seed=1 if args.seed is None else args.seed,
                    name=args.name or f"{strategy}-tuned", overrides=dict(getattr(data, "overrides", {})),
                    params=params, span=1.0 if args.span is None else args.span)


def _span(text: str) -> float:
    """An argparse type: a fraction 0 < span <= 1."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number")
    if not 0 < value <= 1:
        raise argparse.ArgumentTypeError(f"{value} is out of range; allowed 0 < span <= 1")
    return value


def _progress(trial) -> None:
    """One line per finished trial: its state and its mean over the blocks it played."""
    blocks = list(trial.intermediate_values.values())
    mean = f"{sum(blocks) / len(blocks):.4f}" if blocks else "-"
    sys.stderr.write(f"trial {trial.number}: {trial.state.name.lower()}, mean score {mean} over {len(blocks)} blocks\n")
