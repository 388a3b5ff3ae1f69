"""The experiment runner: many games of one game engine, in batches, on any number of workers.

A run is a `Plan` -- engine module path, root seed, design, number of games, batch size and
the component data. Batch b holds games `b*batch_size .. (b+1)*batch_size - 1`; a worker
imports the engine by its path and plays the batch. Game g's randomness comes only from
`stream(seed, design.block(g), purpose)`, so the results table is the same whatever the number
of workers, the batch size or the backend (joblib's loky processes, or Dask distributed through
joblib's Dask backend); rows are sorted by game and seat when batches are put together.

Finished batches go to a `RunStore` as they arrive, so an interrupted run loses at most the
batches in flight and `resume` finishes it with exactly the table an uninterrupted run gives.
This module knows no game: it receives the engine's module path.
"""

from __future__ import annotations

import contextlib
import importlib
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any, TypeVar

import numpy as np
import pandas as pd

from sim.core.design import Design
from sim.core.errors import UserError, one_of
from sim.core.metadata import code_version, result_metadata
from sim.core.progress import progress
from sim.core.replay import read_games
from sim.core.seating import RESULT_COLUMNS, Seating
from sim.core.store import RunStore, concat

BACKENDS = ("loky", "dask")
TARGET_BATCH_GAMES = 200
T = TypeVar("T")
LOGGED_SLICE_GAMES = 100  # at most, per slice of `play_logged` (its progress steps)
LISTED_BATCH_GAMES = 512  # at most, per engine call of `play_listed`: a lockstep engine fills its batches


@dataclass(frozen=True)
class Plan:
    """What to play: `games` games of the engine at `module` under `design`."""

    module: str
    seed: int
    design: Design
    games: int
    batch_size: int
    data: Any = None

    @property
    def batches(self) -> int:
        return -(-self.games // self.batch_size)

    def batch_range(self, batch: int) -> range:
        return range(batch * self.batch_size, min((batch + 1) * self.batch_size, self.games))


def provenance(data: Any, engine: ModuleType) -> dict[str, Any]:
    """Code version, engine version, rules edition, data hash, overrides and ASSUMED values."""
    info = engine.INFO
    if data is None or not hasattr(data, "hash"):
        return {"code_version": code_version(), "engine_version": info.engine_version,
                "rules_edition": info.rules_edition, "data_hash": None, "overrides": {}, "assumed": {}}
    meta = result_metadata(data, None, info.assumed_prefixes)
    return {"engine_version": info.engine_version,
            **{key: meta[key] for key in ("code_version", "rules_edition", "data_hash", "overrides", "assumed")}}


def new_run(folder: str | Path, game: str, plan: Plan, engine: ModuleType) -> RunStore:
    """A run folder whose manifest says everything needed to finish, check or reproduce the run."""
    design = plan.design
    return RunStore.create(folder, {
        "game": game, "module": plan.module, "seed": plan.seed, "players": design.players,
        "strategies": list(design.strategies), "design": design.to_dict(), "games": plan.games,
        "blocks": plan.games // design.block_size, "batch_size": plan.batch_size,
        "batches_total": plan.batches, **provenance(plan.data, engine)})


def resumed_plan(store: RunStore, data: Any, engine: ModuleType) -> Plan:
    """The plan of an interrupted run; refuses an engine version or data that no longer match
    the run's (the finished batches would not mix with new ones)."""
    manifest = store.manifest
    version = engine.INFO.engine_version
    if manifest.get("engine_version") != version:
        raise UserError(f"{store.folder}: the run was played by engine version {manifest.get('engine_version')} "
                        f"of {manifest.get('game')!r}, this is version {version}; start a new run")
    data_hash = getattr(data, "hash", None)
    if data_hash != manifest.get("data_hash"):
        raise UserError(f"{store.folder}: the game data changed since the run started "
                        f"(hash {data_hash} vs {manifest.get('data_hash')}); start a new run")
    return Plan(module=manifest["module"], seed=manifest["seed"], design=Design.from_dict(manifest["design"]),
                games=manifest["games"], batch_size=manifest["batch_size"], data=data)


def default_batch_size(design: Design, games: int, jobs: int, whole_blocks: bool = False) -> int:
    """At most about TARGET_BATCH_GAMES games, and about 8 batches per worker or more so that the
    last round of batches leaves no worker idle for long: whole blocks where a block is smaller
    than that, part of a block where it is larger (a tile-value block of every arm and seat
    rotation holds hundreds or thousands of games; five such blocks as five batches kept one of
    two workers idle a third of the last round). The table does not depend on the batch size,
    but a caller that scores each batch's blocks as it arrives (`play_until`: the tuner's
    pruning) needs `whole_blocks`."""
    per_worker = max(1, games // max(1, 8 * jobs))
    target = min(TARGET_BATCH_GAMES, per_worker)
    if design.block_size > target and not whole_blocks:
        return target
    return max(1, round(target / design.block_size)) * design.block_size


def play_batch(plan: Plan, batch: int) -> pd.DataFrame:
    """Play one batch (runs in a worker) in one engine call: every arm's games of the batch
    together, so an engine that plays games in lockstep fills its batch. The engine sees each
    game's block as its stream key (arms share it: common random numbers) and returns rows in
    the order of the games given (checked)."""
    engine = importlib.import_module(plan.module)
    games, size = plan.batch_range(batch), plan.design.block_size
    blocks, seatings, arms = [], [], []
    for arm, seating in enumerate(plan.design.arms):
        mine = [g // size for g in range(games.start + (arm - games.start) % size, games.stop, size)]
        blocks += mine
        seatings += [seating] * len(mine)
        arms += [arm] * len(mine)
    table = engine.play_games(plan.seed, blocks, seatings, plan.data)
    missing = [c for c in RESULT_COLUMNS if c not in table.columns]
    if missing:
        raise RuntimeError(f"{plan.module}.play_games returned no {missing} columns")
    seats = [s.players for s in seatings]
    block = np.repeat(np.array(blocks, dtype=np.int64), seats)
    expected = pd.DataFrame({"game_index": block, "seat": [q for n in seats for q in range(n)],
                             "power": [x for s in seatings for x in s.powers],
                             "strategy": [x for s in seatings for x in s.strategies]})
    table = table.reset_index(drop=True)
    if len(table) != len(expected) or not table[list(expected.columns)].astype(expected.dtypes).equals(expected):
        raise RuntimeError(f"{plan.module}.play_games must return one row per seat, games in the order given")
    arm = np.repeat(np.array(arms, dtype=np.int64), seats)
    table["block"], table["arm"], table["game_index"] = block, arm, block * size + arm
    return concat([table])


@contextlib.contextmanager
def parallel_backend(backend: str, jobs: int, scheduler: str | None) -> Iterator[int | None]:
    """Set up joblib for the backend; yields the n_jobs for `execute` (None: in this process)."""
    import joblib
    if scheduler is None and backend == "loky":
        yield None if jobs == 1 else jobs
        return
    if backend not in BACKENDS:
        raise one_of("--backend", backend, BACKENDS)
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise UserError("--backend dask needs the 'distributed' package (pip install 'dask[distributed]')") from None
    with contextlib.ExitStack() as stack:
        if scheduler is not None:
            try:
                client = stack.enter_context(Client(scheduler, timeout="10s"))
            except (OSError, TimeoutError, ValueError) as exc:
                raise UserError(f"--scheduler {scheduler}: cannot connect ({exc})") from None
        else:
            cluster = stack.enter_context(LocalCluster(n_workers=jobs, threads_per_worker=1, processes=True,
                                                       host="127.0.0.1", dashboard_address=None))
            client = stack.enter_context(Client(cluster))
        stack.enter_context(joblib.parallel_config(backend="dask"))
        yield max(1, len(client.scheduler_info().get("workers", {})) or jobs)


def release_workers() -> None:
    """Stop joblib's reusable loky workers, so that the next work starts in fresh processes.

    A loky worker lives for the whole program and keeps what each game it played left behind
    (its players' odds and side tables, its imports), which no other game reads. Reused over
    several games -- a balance report plays all four in turn -- a worker grew from about 230 MB to
    620 MB, past loky's leak limit (300 MB above its size after its first task), and was stopped
    mid-run with the warning "A worker stopped while some jobs were given to the executor". A
    caller that moves to another game calls this; results do not change (each batch depends only
    on its seeds), and the next run starts its workers again."""
    from joblib.externals.loky import get_reusable_executor
    get_reusable_executor().shutdown(wait=True)     # starts no worker where none is running


def execute(plan: Plan, batches: Sequence[int], n_jobs: int | None) -> Iterator[tuple[int, pd.DataFrame]]:
    """(batch, table) for each batch, in order of completion, inside `parallel_backend`."""
    import joblib
    if n_jobs is None:
        for batch in batches:
            yield batch, play_batch(plan, batch)
        return
    tasks = (joblib.delayed(_tagged)(plan, b) for b in batches)
    yield from joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)


def _tagged(plan: Plan, batch: int) -> tuple[int, pd.DataFrame]:
    return batch, play_batch(plan, batch)


def run(plan: Plan, store: RunStore | None = None, jobs: int = 1, backend: str = "loky",
        scheduler: str | None = None, quiet: bool = True) -> pd.DataFrame:
    """Play every batch not yet in `store` and return the whole results table."""
    pending = store.pending() if store is not None else list(range(plan.batches))
    done_games = plan.games - sum(len(plan.batch_range(b)) for b in pending)
    tables: list[pd.DataFrame] = []
    with parallel_backend(backend, jobs, scheduler) as n_jobs, \
            progress(plan.games, quiet, initial=done_games, smoothing=0.1) as bar:
        for batch, table in execute(plan, pending, n_jobs):
            if store is not None:
                store.write_part(batch, table)
            else:
                tables.append(table)
            bar.update(len(plan.batch_range(batch)))
    return store.results() if store is not None else concat(tables)


def play_until(plan: Plan, consume: Callable[[pd.DataFrame], bool], jobs: int = 1, backend: str = "loky",
               scheduler: str | None = None, quiet: bool = True) -> int:
    """Feed batch tables to `consume` in batch order until it returns True; batches run in rounds
    of 2 x jobs. Returns the number of batches consumed. What `consume` sees (and so a sequential
    test's decision) does not depend on jobs or backend."""
    width = 2 * jobs
    used = 0
    with parallel_backend(backend, jobs, scheduler) as n_jobs, progress(plan.games, quiet) as bar:
        for start in range(0, plan.batches, width):
            batches = range(start, min(start + width, plan.batches))
            results = dict(execute(plan, batches, n_jobs))
            for batch in batches:
                used += 1
                bar.update(len(plan.batch_range(batch)))
                if consume(results[batch]):
                    return used
    return used


def play_listed(module: str, seed: int, games: Sequence[tuple[int, Seating]], data: Any = None, jobs: int = 1,
                quiet: bool = True, log: str | Path | None = None) -> pd.DataFrame:
    """Play explicit (game index, seating) pairs -- orders a `Design` cannot express, such as
    `empires play`'s rotation where each game is its own stream key -- in batches on `jobs` loky
    workers; rows sorted by game and seat, the same for any `jobs`. With `log`, each batch writes
    its games' log to a part in a temporary folder, and the parts are joined into `log` in the
    order of `games` once all are played: the same file for any `jobs`."""
    rounds = max(1, -(-len(games) // (jobs * LISTED_BATCH_GAMES)))
    size = max(1, -(-len(games) // (jobs * rounds)))  # equal batches, a whole number per worker
    batches = [games[start: start + size] for start in range(0, len(games), size)]
    tables: list[pd.DataFrame] = []
    with contextlib.ExitStack() as stack:
        parts: list[Path | None] = [None] * len(batches)
        if log is not None:
            folder = Path(stack.enter_context(tempfile.TemporaryDirectory()))
            parts = [folder / f"{i}.jsonl" for i in range(len(batches))]
        with parallel_backend("loky", jobs, None) as n_jobs, progress(len(games), quiet) as bar:
            for played, table in _listed_tables(module, seed, batches, data, n_jobs, parts):
                tables.append(table)
                bar.update(played)
        if log is not None:
            with open(log, "wb") as out:
                for part in parts:
                    with open(part, "rb") as fh:
                        shutil.copyfileobj(fh, out)
    return concat(tables)


def play_logged(module: str, seed: int, games: Sequence[tuple[int, Seating]], data: Any, jobs: int,
                read: Callable[[pd.DataFrame, Iterable[tuple[dict, list[dict]]]], T], quiet: bool = True) -> list[T]:
    """Play (game index, seating) pairs with their event logs -- what an analysis that reads the
    logs needs -- in contiguous slices of `games` (at least two a worker, so that one long slice
    idles no worker long, and at most LOGGED_SLICE_GAMES games, so that progress shows), on
    `jobs` loky workers (none for `jobs` 1), and return `read(table, logged)` of each slice, in
    the order of `games`: `table` the slice's results and `logged` its (head, events) games in
    that order, read from a log the worker writes to a temporary folder and removes. `read` runs
    where the slice was played, so it must be a module-level function (or a partial of one).
    Each game depends only on its own streams, so the slices' results put together are the same
    for any `jobs`."""
    size = max(1, min(-(-len(games) // (2 * jobs)), LOGGED_SLICE_GAMES))
    slices = [games[start: start + size] for start in range(0, len(games), size)]
    out: list[T] = []
    with progress(len(games), quiet) as bar:
        if jobs == 1 or len(slices) < 2:
            parts = (_logged_slice(module, seed, part, data, read) for part in slices)
        else:
            import joblib
            parts = joblib.Parallel(n_jobs=jobs, return_as="generator")(
                joblib.delayed(_logged_slice)(module, seed, part, data, read) for part in slices)
        for result in parts:                  # to the end: a joblib generator left unfinished warns
            bar.update(len(slices[len(out)]))
            out.append(result)
    return out


def _logged_slice(module: str, seed: int, games: Sequence[tuple[int, Seating]], data: Any,
                  read: Callable[[pd.DataFrame, Iterable[tuple[dict, list[dict]]]], T]) -> T:
    indices, seatings = zip(*games)
    engine = importlib.import_module(module)
    with tempfile.TemporaryDirectory() as tmp:
        log = Path(tmp) / "games.jsonl"
        table = engine.play_games(seed, list(indices), list(seatings), data, log=log)
        return read(table, read_games(log))


def _listed_tables(module: str, seed: int, batches: Sequence[Sequence[tuple[int, Seating]]], data: Any,
                   n_jobs: int | None, logs: Sequence[Path | None]) -> Iterator[tuple[int, pd.DataFrame]]:
    """(games, table) of each batch, in order of completion; batch i writes its log to `logs[i]`."""
    import joblib
    if n_jobs is None:
        yield from (_play_list(module, seed, batch, data, part) for batch, part in zip(batches, logs))
        return
    tasks = (joblib.delayed(_play_list)(module, seed, batch, data, part) for batch, part in zip(batches, logs))
    yield from joblib.Parallel(n_jobs=n_jobs, return_as="generator_unordered")(tasks)


def _play_list(module: str, seed: int, batch: Sequence[tuple[int, Seating]], data: Any,
               log: Path | None = None) -> tuple[int, pd.DataFrame]:
    """One engine call (runs in a worker, which imports the engine by its path)."""
    indices, seatings = zip(*batch)
    engine = importlib.import_module(module)
    return len(batch), engine.play_games(seed, list(indices), list(seatings), data, log=log)
