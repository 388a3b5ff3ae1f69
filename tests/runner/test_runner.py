"""The same seed gives the same results table however the games are run."""

import pandas as pd
import pytest

from sim import games
from sim.core import runner
from sim.core.design import balanced
from tests.runner import toygame

MODULE = games.module_path("toy")


def plan(batch_size: int, games_: int = 96, players: int = 3, seed: int = 11) -> runner.Plan:
    design = balanced(toygame.POWERS, players, ["strong", "random", "weak"], toygame.STRATEGIES, 2, 4)
    return runner.Plan(module=MODULE, seed=seed, design=design, games=games_, batch_size=batch_size)


@pytest.fixture(scope="module")
def reference() -> pd.DataFrame:
    return runner.run(plan(batch_size=96))


def test_reference_table_has_one_row_per_game_and_seat(reference):
    assert len(reference) == 96 * 3
    assert list(reference["game_index"].unique()) == list(range(96))
    assert (reference.groupby("game_index")["winner"].sum() >= 1).all()
    assert (reference["block"] == reference["game_index"] // 12).all()


@pytest.mark.parametrize("batch_size", [1, 7, 12, 50])
def test_batch_size_does_not_change_the_table(reference, batch_size):
    pd.testing.assert_frame_equal(runner.run(plan(batch_size)), reference)


def test_two_loky_workers_give_the_same_table(reference):
    pd.testing.assert_frame_equal(runner.run(plan(batch_size=10), jobs=2), reference)


def _worker_pids(jobs: int = 2) -> set[int]:
    import joblib
    return set(joblib.Parallel(n_jobs=jobs)(joblib.delayed(toygame.pid_after_a_pause)() for _ in range(4)))


def _loky_workers() -> list:
    import multiprocessing
    from joblib.externals.loky.backend.process import LokyProcess
    return [p for p in multiprocessing.active_children() if isinstance(p, LokyProcess)]


def _whole_pool(jobs: int = 2) -> set[int]:
    """The pool's process ids once every worker has taken a task (a worker may still be starting
    when the first tasks are done)."""
    pids: set[int] = set()
    for _ in range(20):
        pids |= _worker_pids(jobs)
        if len(pids) >= jobs:
            break
    return pids


def test_released_workers_are_replaced_by_fresh_ones_and_the_table_is_unchanged(reference):
    """A report moving to the next game starts fresh workers, not ones holding the last game's caches."""
    before = _whole_pool()
    assert len(before) == 2 and _worker_pids() <= before   # loky reuses its workers between calls...
    runner.release_workers()
    assert not _loky_workers()
    after = _worker_pids()
    assert after and not after & before                   # ...until they are released
    runner.release_workers()
    runner.release_workers()
    assert not _loky_workers()                            # a release with no worker running starts none
    pd.testing.assert_frame_equal(runner.run(plan(batch_size=10), jobs=2), reference)


def test_dask_cluster_on_loopback_gives_the_same_table(reference):
    distributed = pytest.importorskip("distributed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None) as cluster:
        table = runner.run(plan(batch_size=10), scheduler=cluster.scheduler_address)
    pd.testing.assert_frame_equal(table, reference)


def test_local_dask_backend_gives_the_same_table(reference):
    pytest.importorskip("distributed")
    pd.testing.assert_frame_equal(runner.run(plan(batch_size=24), jobs=1, backend="dask"), reference)


def test_games_of_a_block_share_their_dice():
    """CRN: random and random2 have equal bonuses, so arms that only swap them replay the same
    game seat for seat -- possible only because the whole block uses the same dice."""
    design = balanced(toygame.POWERS, 2, ["random", "random2"], toygame.STRATEGIES, 2, 4)
    table = runner.run(runner.Plan(module=MODULE, seed=3, design=design, games=4 * design.block_size, batch_size=5))
    k = len(toygame.POWERS)
    for arm in range(k):  # arm q and arm k + q: same powers per seat, strategies swapped
        left = table[table["arm"] == arm].set_index(["block", "seat"])
        right = table[table["arm"] == k + arm].set_index(["block", "seat"])
        assert (left["strategy"] != right["strategy"]).all()
        pd.testing.assert_series_equal(left["vp"], right["vp"])
    by_block = table[table["arm"] == 0].groupby("block")["vp"].apply(tuple)
    assert by_block.nunique() > 1  # other blocks, other dice


def test_default_batches_are_whole_small_blocks():
    p = plan(12)
    for games_, jobs in ((96, 1), (10_000, 2)):
        assert runner.default_batch_size(p.design, games_, jobs) % p.design.block_size == 0


def test_default_batches_split_a_large_block_so_every_worker_gets_many_batches():
    """Five tile-value blocks of 2,331 games on 2 workers: five whole-block batches would leave a
    worker idle for a third of the last round; parts of blocks give each worker 8 batches or more."""
    from types import SimpleNamespace
    design = SimpleNamespace(block_size=2331)
    size = runner.default_batch_size(design, 5 * 2331, 2)
    assert size <= runner.TARGET_BATCH_GAMES and -(-5 * 2331 // size) >= 8 * 2
    assert runner.default_batch_size(design, 5 * 2331, 2, whole_blocks=True) == 2331    # scored block by block


def test_the_core_runner_imports_no_game():
    import subprocess
    import sys
    code = ("import sys, sim.core.runner, sim.core.store, sim.core.design, sim.core.ratings, sim.core.sprt; "
            "print(sorted(m for m in sys.modules if m.startswith('sim.') and not m.startswith(('sim.core', 'sim.compiled'))))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_an_engine_must_return_rows_in_the_order_of_the_games(monkeypatch):
    """The runner plays all arms of a batch in one engine call and assigns arms by position, so
    an engine that reorders its rows is refused with a clear error instead of mislabelled."""
    honest = toygame.play_games
    p = plan(batch_size=12)
    assert len(runner.play_batch(p, 0)) == 12 * 3
    monkeypatch.setattr(toygame, "play_games", lambda *a, **k: honest(*a, **k).iloc[::-1])
    with pytest.raises(RuntimeError, match="in the order given"):
        runner.play_batch(p, 0)
