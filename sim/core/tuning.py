"""Tuned strategies: a strategy's parameters searched with Optuna, the skill ladder's top rung.

A tuning searches the numeric parameters of one strategy table (those with both `min` and `max`
in the game's strategies data; integers as integers, floats rounded to four decimals; booleans
and lists are left as they are) for the candidate that scores best against a field of
strategies; `span` < 1 searches each parameter only within that fraction of its range either
side of its starting value (a local search; still inside the bounds). Every trial plays the same
games: the candidate in one seat of a balanced design (sim.core.design: the lineup candidate +
field rotated over the seats, crossed with every power), the same root seed and the same blocks
(common random numbers), so two trials differ only by their parameters. A game scores the
candidate's share of the win (shared first places split); the objective is the mean over blocks.

Blocks are reported to Optuna as they finish (step = block index) and Optuna's Wilcoxon pruner
stops a trial whose paired block scores are clearly below the best trial's (a signed-rank test,
p < PRUNE_P). The sampler is TPE; its seed for the k-th trial derives from the tuning seed and k,
and trial 0 plays the starting parameters, so a tuning is a function of its settings: the same
seed gives the same tuned table, and a run resumed after an interruption continues as the
uninterrupted run would have (a trial cut short counts as failed and is played again).

The run folder holds `tuning.json` (the settings and the data's provenance), `study.db` (the
Optuna study, SQLite), and once all trials are done `trials.csv` and `tuned.toml`: the tuned
parameters as a named strategy (`[strategies.NAME]` with `base`, sim.core.data), loadable with
`--variant` or shipped in a game's data folder, with its provenance as `_` keys -- the settings,
code and engine version, data hash, the best trial's score with a 95 % interval over blocks, and a
check on fresh games (a different root seed) of the tuned against the starting parameters.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pandas as pd

from sim import games
from sim.core import runner
from sim.core.contract import strategy_sides
from sim.core.data import BASE, NAME_PATTERN, STRATEGIES, GameData
from sim.core.design import Design, bound, fill_lineup
from sim.core.errors import require
from sim.core.metadata import code_version
from sim.core.random import seed_sequence
from sim.core.stats import mean_interval
from sim.core.store import atomic_write

SETTINGS = "tuning.json"
STUDY = "study.db"
TRIALS = "trials.csv"
TUNED = "tuned.toml"
STUDY_NAME = "tuning"
PRUNE_P = 0.1              # Optuna's default threshold of the Wilcoxon pruner
PRUNE_AFTER_BLOCKS = 2     # blocks a trial plays before it may be pruned (Optuna's default)
DECIMALS = 4               # float parameters are rounded to this many decimals before they are played


@dataclass(frozen=True)
class Param:
    """One searched parameter of a strategy table and its bounds."""

    name: str
    low: float
    high: float
    integer: bool

    def suggest(self, trial: Any) -> int | float:
        if self.integer:
            return trial.suggest_int(self.name, int(self.low), int(self.high))
        return self.played(trial.suggest_float(self.name, self.low, self.high))

    def around(self, start: float, span: float) -> Param:
        """The parameter searched within `span` of its range either side of its start, inside its
        bounds (span 1: the whole range)."""
        reach = span * (self.high - self.low)
        low, high = max(self.low, start - reach), min(self.high, start + reach)
        if self.integer:
            low, high = math.ceil(low), math.floor(high)
        return Param(self.name, low, high, self.integer)

    def played(self, value: Any) -> int | float:
        """The value as the candidate plays it: floats rounded to DECIMALS, inside the bounds."""
        if self.integer:
            return int(value)
        return min(max(round(float(value), DECIMALS), self.low), self.high)


@dataclass(frozen=True)
class Settings:
    """What a tuning is asked to do; `overrides` are the data overrides (flat paths, variant files
    included) every game of the tuning plays with."""

    game: str
    strategy: str
    against: tuple[str, ...]
    trials: int
    games_per_trial: int
    seed: int
    name: str
    overrides: Mapping[str, Any]
    params: tuple[str, ...] = ()
    span: float = 1.0

    def to_json(self) -> dict[str, Any]:
        return {**asdict(self), "against": list(self.against), "params": list(self.params),
                "overrides": dict(self.overrides)}

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Settings:
        return cls(**{**data, "against": tuple(data["against"]), "params": tuple(data["params"])})


def tunable(data: GameData, strategy: str) -> list[Param]:
    """The numeric parameters of a strategy table with both bounds (booleans excluded)."""
    prefix = f"{STRATEGIES}.{strategy}."
    out = []
    for key, value in data.get(f"{STRATEGIES}.{strategy}").items():
        leaf = data.leaves.get(prefix + key)
        if leaf is None or isinstance(value, bool) or not isinstance(value, (int, float)):
            continue
        if leaf.low is not None and leaf.high is not None and leaf.high > leaf.low:
            out.append(Param(key, leaf.low, leaf.high, isinstance(value, int)))
    return out


class Tuning:
    """A tuning's games: the design, the data, the parameters and how a candidate scores."""

    def __init__(self, settings: Settings) -> None:
        s = self.settings = settings
        self.engine = games.load(s.game)
        info = self.engine.INFO
        self.data = games.load_data(s.game, self.engine, s.overrides, (), (s.strategy, *s.against))
        require(isinstance(self.data, GameData) and STRATEGIES in self.data.tree,
                f"tune: game {s.game!r} has no strategy tables to tune")
        games.check_strategies(s.game, self.engine, self.data, (s.strategy, *s.against))
        require(s.strategy in self.data.strategies,
                f"--strategy {s.strategy!r}: only a strategy with a parameter table can be tuned; "
                f"allowed: {', '.join(self.data.strategies)}")
        taken = (*info.strategies, *self.data.strategies, *s.against)
        require(bool(NAME_PATTERN.fullmatch(s.name)) and s.name not in taken,
                f"--name {s.name!r}: the tuned strategy needs a new name of letters, digits, '-' and '_' "
                f"(not one of {', '.join(dict.fromkeys(taken))})")
        players = 1 + len(s.against)
        require(info.min_players <= players <= info.max_players,
                f"--against: {len(s.against)} strategies make {players}-player games; {info.name} allows "
                f"{info.min_players}..{info.max_players} players (1 seat for the candidate)")
        found = tunable(self.data, s.strategy)
        by_name = {p.name: p for p in found}
        for name in s.params:
            require(name in by_name, f"--params: {name!r} is not a tunable parameter of {s.strategy}; "
                                     f"allowed: {', '.join(by_name)}")
        require(0 < s.span <= 1, f"--span {s.span}: use a fraction of each parameter's range, 0 < span <= 1")
        table = self.data.get(f"{STRATEGIES}.{s.strategy}")
        self.params = [p.around(table[p.name], s.span) for p in ([by_name[n] for n in s.params] if s.params else found)]
        require(bool(self.params), f"--strategy {s.strategy!r}: no numeric parameter with bounds to tune")
        self.base = self.data.base_of(s.strategy)
        root = games.load_data(s.game, self.engine).get(f"{STRATEGIES}.{self.base}")   # without overrides
        self.fixed = {k: v for k, v in table.items() if v != root[k] and k not in {p.name for p in self.params}}
        self.start = {p.name: table[p.name] for p in self.params}
        self.design = Design(powers=tuple(info.powers), lineups=(fill_lineup((s.name, *s.against), players),),
                             sides=bound(strategy_sides(self.engine, self.data)))
        self.blocks = max(1, -(-s.games_per_trial // self.design.block_size))

    def definition(self, values: Mapping[str, Any]) -> dict[str, Any]:
        """The candidate as a named strategy: its base, the fixed differences, the values tried."""
        return {BASE: self.base, **self.fixed, **values}

    def candidate_data(self, values: Mapping[str, Any]) -> Any:
        prefix = f"{STRATEGIES}.{self.settings.name}."
        defined = {prefix + k: v for k, v in self.definition(values).items()}
        return games.load_data(self.settings.game, self.engine, {**self.settings.overrides, **defined}, (),
                               (self.settings.strategy, *self.settings.against))

    def play(self, values: Mapping[str, Any], seed: int, jobs: int = 1,
             consume: Callable[[pd.Series], bool] = lambda scores: False) -> pd.Series:
        """The candidate's score per block (block order); `consume` sees each batch's blocks and
        stops the games by returning True."""
        n = self.blocks * self.design.block_size
        plan = runner.Plan(module=games.module_path(self.settings.game), seed=seed, design=self.design, games=n,
                           batch_size=runner.default_batch_size(self.design, n, jobs, whole_blocks=True),
                           data=self.candidate_data(values))
        parts: list[pd.Series] = []

        def take(table: pd.DataFrame) -> bool:
            parts.append(candidate_scores(table, self.settings.name))
            return consume(parts[-1])

        runner.play_until(plan, take, jobs)
        return pd.concat(parts)


def candidate_scores(table: pd.DataFrame, name: str) -> pd.Series:
    """Per block (in block order): the mean over its games of `name`'s share of the win (1 for a
    sole win, 1/k for a first place shared by k players, 0 otherwise)."""
    winners = table.groupby("game_index")["winner"].transform("sum")
    share = np.where((table["strategy"] == name) & table["winner"], 1.0 / winners.clip(lower=1), 0.0)
    per_game = pd.Series(share, index=table.index).groupby(table["game_index"]).sum()
    block = table.groupby("game_index")["block"].first()
    return per_game.groupby(block).mean().sort_index()


def create(folder: str | Path, settings: Settings) -> Tuning:
    """Check the settings, then create the run folder with its settings and an empty study."""
    tuning = Tuning(settings)
    folder = Path(folder)
    require(not folder.exists() or folder.is_dir() and not any(folder.iterdir()),
            f"--out {folder}: exists and is not empty; use --resume {folder} or another --out")
    folder.mkdir(parents=True, exist_ok=True)
    manifest = {"format": "empires-tuning/1", "settings": settings.to_json(), **provenance(tuning)}
    atomic_write(folder / SETTINGS, lambda tmp: tmp.write_text(json.dumps(manifest, indent=2), "utf-8"))
    _optuna().create_study(study_name=STUDY_NAME, storage=_storage(folder), direction="maximize")
    return tuning


def reopen(folder: str | Path) -> Tuning:
    """The tuning of a run folder, refused if the engine or the data changed since it started."""
    folder = Path(folder)
    path = folder / SETTINGS
    require(path.is_file() and (folder / STUDY).is_file(), f"--resume {folder}: not a tuning folder "
                                                             f"(no {SETTINGS} and {STUDY})")
    manifest = json.loads(path.read_text("utf-8"))
    tuning = Tuning(Settings.from_json(manifest["settings"]))
    now = provenance(tuning)
    for key in ("engine_version", "data_hash"):
        require(now[key] == manifest[key], f"--resume {folder}: the {key.replace('_', ' ')} changed since the "
                                           f"tuning started ({manifest[key]} -> {now[key]}); start a new tuning")
    return tuning


def provenance(tuning: Tuning) -> dict[str, Any]:
    return {"code_version": code_version(), "engine_version": tuning.engine.INFO.engine_version,
            "data_hash": tuning.data.hash, "overrides": rules_overrides(tuning.settings.overrides)}


def rules_overrides(overrides: Mapping[str, Any]) -> dict[str, Any]:
    """The overrides a tuning's games were played under other than strategy tables (a rules
    edition, a variant, a price): a tuned table is best under those rules only, so they travel
    with it. The strategy tables are the named ones of `_against` and the tuned one itself."""
    return {key: overrides[key] for key in sorted(overrides) if not key.startswith(STRATEGIES + ".")}


def run(folder: str | Path, tuning: Tuning, jobs: int = 1,
        progress: Callable[[Any], None] = lambda trial: None) -> dict[str, Any]:
    """Play the trials still to do (`progress` sees each finished one), then write trials.csv and
    tuned.toml; returns the summary written to tuned.toml."""
    optuna = _optuna()
    folder, s = Path(folder), tuning.settings
    finished = (optuna.trial.TrialState.COMPLETE, optuna.trial.TrialState.PRUNED)
    while True:
        study = _study(folder, s.seed, len(_trials(folder, finished)))
        done = study.get_trials(deepcopy=False, states=finished)
        if len(done) >= s.trials:
            break
        if not done and not study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.WAITING,)):
            study.enqueue_trial(tuning.start, user_attrs={"start": True})    # the starting parameters first
        study.optimize(lambda trial: _objective(trial, tuning, jobs), n_trials=1, catch=())
        progress(study.trials[-1])
    return finish(folder, tuning, study, jobs)


def _objective(trial: Any, tuning: Tuning, jobs: int) -> float:
    values = {p.name: p.suggest(trial) for p in tuning.params}

    def consume(scores: pd.Series) -> bool:
        for block, score in scores.items():
            trial.report(float(score), int(block))
        return trial.should_prune()

    scores = tuning.play(values, tuning.settings.seed, jobs, consume)
    trial.set_user_attr("games", len(scores) * tuning.design.block_size)
    if len(scores) < tuning.blocks:
        raise _optuna().TrialPruned()
    return float(scores.mean())


def finish(folder: Path, tuning: Tuning, study: Any, jobs: int) -> dict[str, Any]:
    """trials.csv, and tuned.toml: the best trial's parameters as a named strategy with its
    provenance, and the tuned against the starting parameters on fresh games."""
    optuna = _optuna()
    s = tuning.settings
    rows = [{"trial": t.number, "state": t.state.name.lower(), "score": t.value,
             "mean_of_blocks_played": np.mean(list(t.intermediate_values.values())) if t.intermediate_values else None,
             "blocks": len(t.intermediate_values), "games": t.user_attrs.get("games"),
             "start": bool(t.user_attrs.get("start")),
             **{p.name: p.played(t.params[p.name]) for p in tuning.params if p.name in t.params}}
            for t in study.get_trials(deepcopy=False)]
    atomic_write(folder / TRIALS, lambda tmp: pd.DataFrame(rows).to_csv(tmp, index=False))
    best = study.best_trial
    values = {p.name: p.played(best.params[p.name]) for p in tuning.params}
    score, low, high = mean_interval([best.intermediate_values[b] for b in sorted(best.intermediate_values)])
    check_seed = int(seed_sequence(s.seed, 0, "tuning-check").generate_state(1, np.uint64)[0] >> np.uint64(1))
    tuned, start = tuning.play(values, check_seed, jobs), tuning.play(tuning.start, check_seed, jobs)
    check, check_low, check_high = mean_interval(tuned)
    gain, gain_low, gain_high = mean_interval(tuned - start)
    pruned = len(study.get_trials(deepcopy=False, states=(optuna.trial.TrialState.PRUNED,)))
    complete = (optuna.trial.TrialState.COMPLETE,)
    summary = {
        "tuned_from": s.strategy, "against": list(s.against), "players": tuning.design.players,
        "trials": s.trials, "trials_pruned": pruned, "games_per_trial": tuning.blocks * tuning.design.block_size,
        "block_size": tuning.design.block_size, "seed": s.seed, "searched": [p.name for p in tuning.params],
        "span": s.span,
        **provenance(tuning), "fair_share": 1 / tuning.design.players,
        "best_trial": best.number, "score": score, "score_ci95": [low, high],
        "start_score": next(t.value for t in study.get_trials(deepcopy=False, states=complete)
                            if t.user_attrs.get("start")),
        "check_seed": check_seed, "check_score": check, "check_score_ci95": [check_low, check_high],
        "check_start_score": float(start.mean()), "check_gain_ci95": [gain_low, gain_high],
        "check_gain": gain}
    text = tuned_toml(s.name, tuning.definition(values), summary, command_line(s))
    atomic_write(folder / TUNED, lambda tmp: tmp.write_text(text, "utf-8"))
    return {"name": s.name, **summary, "parameters": values}


def command_line(s: Settings) -> str:
    """The `empires tune` command of these settings, its rules overrides as `--set` flags."""
    return (f"empires tune {s.game} --strategy {s.strategy} --against {','.join(s.against)} "
            f"--trials {s.trials} --games-per-trial {s.games_per_trial} --seed {s.seed} --name {s.name} "
            f"--span {s.span}" + (f" --params {','.join(s.params)}" if s.params else "")
            + "".join(f" --set '{key}={_toml(value)}'" for key, value in rules_overrides(s.overrides).items()))


def tuned_toml(name: str, definition: Mapping[str, Any], summary: Mapping[str, Any], command: str) -> str:
    """A named strategy table with its provenance as `_` keys (comments to the data loader)."""
    lines = [f"# Tuned strategy {name}, written by: {command}",
             "# Load it with --variant FILE, or ship it in the game's data folder (docs/tuning.md).",
             f"[{STRATEGIES}.{name}]"]
    lines += [f"_{key} = {_toml(value)}" for key, value in summary.items()]
    lines += [f"{key} = {_toml(value)}" for key, value in definition.items()]
    return "\n".join(lines) + "\n"


def _toml(value: Any) -> str:
    if isinstance(value, float) and math.isnan(value):
        return "nan"
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{json.dumps(str(k))} = {_toml(v)}" for k, v in value.items()) + "}"
    return json.dumps(value)


def _trials(folder: Path, states: Sequence[Any]) -> list[Any]:
    return _optuna().load_study(study_name=STUDY_NAME, storage=_storage(folder)).get_trials(deepcopy=False,
                                                                                           states=states)


def _study(folder: Path, seed: int, done: int) -> Any:
    """The study with a sampler seeded for its next trial (the k-th: seed and k decide it)."""
    optuna = _optuna()
    sampler_seed = int(seed_sequence(seed, done, "tuning-sampler").generate_state(1)[0])
    return optuna.load_study(study_name=STUDY_NAME, storage=_storage(folder),
                             sampler=optuna.samplers.TPESampler(seed=sampler_seed),
                             pruner=optuna.pruners.WilcoxonPruner(p_threshold=PRUNE_P,
                                                                  n_startup_steps=PRUNE_AFTER_BLOCKS))


def _storage(folder: Path) -> str:
    return f"sqlite:///{(folder / STUDY).resolve()}"


def _optuna() -> ModuleType:
    """Optuna, quiet (a line per trial is the command's to print)."""
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    warnings.filterwarnings("ignore", category=optuna.exceptions.ExperimentalWarning)
    return optuna
