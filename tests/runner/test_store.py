"""Run folders: atomic parts, kill-and-resume gives the uninterrupted table, bad folders refused."""

import json
import os
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pandas as pd
import pytest
from hypothesis import given, settings, strategies as st

from sim.cli import main
from sim.core.errors import UserError
from sim.core.store import BUILT_FILES, RunStore, staged_folder
from tests.cli import exit_code

ROOT = Path(__file__).resolve().parents[2]
ARGS = ["--players", "2", "--strategies", "strong,random", "--games", "320", "--seed", "9",
        "--batch-size", "8", "--quiet"]
CHILD = ("import sys; from sim import games; games.register('toy', 'tests.runner.toygame'); "
         "from sim.cli import main; sys.exit(main(sys.argv[1:]))")


def parts(folder: Path) -> list[Path]:
    return sorted((folder / "parts").glob("part-*.parquet"))


def test_killed_run_resumes_to_exactly_the_uninterrupted_table(tmp_path, monkeypatch):
    killed = tmp_path / "killed"
    env = {**os.environ, "TOYGAME_SLEEP": "0.02"}
    child = subprocess.Popen([sys.executable, "-c", CHILD, "tournament", "toy", *ARGS, "--out", str(killed)],
                             cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    while len(parts(killed)) < 3 and child.poll() is None:
        time.sleep(0.05)
    child.send_signal(signal.SIGKILL)
    _, err = child.communicate()
    assert child.returncode == -signal.SIGKILL, err.decode()
    store = RunStore.open(killed)
    assert 3 <= store.manifest["games_done"] < 320 and store.pending()

    monkeypatch.delenv("TOYGAME_SLEEP", raising=False)
    assert main(["tournament", "toy", "--resume", str(killed), "--quiet", "--jobs", "2"]) == 0
    assert main(["tournament", "toy", *ARGS, "--out", str(tmp_path / "whole")]) == 0
    resumed, whole = RunStore.open(killed), RunStore.open(tmp_path / "whole")
    assert resumed.complete and resumed.manifest["finished"] and resumed.manifest["resumed"]
    pd.testing.assert_frame_equal(resumed.results(), whole.results())


def test_ctrl_c_keeps_finished_batches_and_says_how_to_resume(tmp_path, monkeypatch):
    run = tmp_path / "interrupted"
    env = {**os.environ, "TOYGAME_SLEEP": "0.02"}
    child = subprocess.Popen([sys.executable, "-c", CHILD, "tournament", "toy", *ARGS, "--jobs", "2",
                              "--out", str(run)], cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))   # as at a terminal,
    # even when the suite runs in a background job (which starts its children with Ctrl-C ignored)
    while len(parts(run)) < 2 and child.poll() is None:
        time.sleep(0.05)
    child.send_signal(signal.SIGINT)
    _, err = child.communicate()
    assert child.returncode == 130, err.decode()
    assert f"--resume {run}" in err.decode()
    monkeypatch.delenv("TOYGAME_SLEEP", raising=False)
    assert main(["tournament", "toy", "--resume", str(run), "--quiet"]) == 0
    assert RunStore.open(run).complete


def test_resume_refuses_a_foreign_or_corrupt_folder(tmp_path, capsys):
    (tmp_path / "empty").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "manifest.json").write_text(json.dumps({"format": "something-else"}))
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "manifest.json").write_text("{not json")
    for folder in ("empty", "other", "broken", "missing"):
        assert exit_code(["tournament", "toy", "--resume", str(tmp_path / folder)]) == 2
        assert exit_code(["analyse", str(tmp_path / folder)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 8 and all(line.startswith("empires") and ": error: " in line for line in err)
    assert sum("folder" in line and "does not exist" in line for line in err) == 2   # "missing", by argparse


def test_a_damaged_part_or_another_game_is_refused(tmp_path, capsys):
    run = tmp_path / "run"
    assert main(["tournament", "toy", *ARGS, "--games", "16", "--out", str(run)]) == 0
    manifest = json.loads((run / "manifest.json").read_text())
    (run / "manifest.json").write_text(json.dumps({**manifest, "game": "struggle"}))
    assert main(["tournament", "toy", "--resume", str(run)]) == 2
    (run / "manifest.json").write_text(json.dumps(manifest))
    parts(run)[0].write_bytes(b"PAR1 garbage")
    with pytest.raises(UserError, match="unreadable part file"):
        RunStore.open(run)
    err = capsys.readouterr().err
    assert "holds a 'struggle' run, not 'toy'" in err


def test_resume_takes_the_runs_own_settings_and_out_refuses_a_used_folder(tmp_path, capsys):
    run = tmp_path / "run"
    assert main(["tournament", "toy", *ARGS, "--games", "16", "--out", str(run)]) == 0
    assert main(["tournament", "toy", "--resume", str(run), "--seed", "3"]) == 2
    assert main(["tournament", "toy", *ARGS, "--out", str(run)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert "drop --seed" in err[0] and "use --resume" in err[1]


def test_parts_are_written_whole_and_the_manifest_tracks_them(tmp_path):
    run = tmp_path / "run"
    assert main(["tournament", "toy", *ARGS, "--games", "40", "--out", str(run)]) == 0
    manifest = json.loads((run / "manifest.json").read_text())
    assert manifest["batches_done"] == list(range(manifest["batches_total"])) == list(range(5))
    assert manifest["games_done"] == 40 and manifest["game"] == "toy" and manifest["seed"] == 9
    assert manifest["rules_edition"] == "toy dice race 1" and manifest["code_version"]
    assert not list(run.rglob("*.tmp"))
    assert [len(pd.read_parquet(p)) for p in parts(run)] == [16] * 5


@settings(max_examples=10)
@given(st.sets(st.integers(0, 4)))
def test_resume_after_losing_any_set_of_batches_rebuilds_the_same_table(lost):
    with tempfile.TemporaryDirectory() as tmp:
        run = Path(tmp) / "run"
        args = ["tournament", "toy", *ARGS, "--games", "40", "--quiet"]
        assert main([*args, "--out", str(run)]) == 0
        whole = RunStore.open(run).results()
        for batch in lost:
            parts(run)[[int(p.stem.split("-")[1]) for p in parts(run)].index(batch)].unlink()
        assert len(RunStore.open(run).pending()) == len(lost)
        assert main(["tournament", "toy", "--resume", str(run), "--quiet"]) == 0
        pd.testing.assert_frame_equal(RunStore.open(run).results(), whole)


def dead_pid() -> int:
    """The id of a process that has exited."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    return int(done.stdout)


def test_a_staged_folder_replaces_the_old_one_only_when_complete(tmp_path):
    out = tmp_path / "report"
    with staged_folder(out) as folder:
        (folder / "index.html").write_text("one")
    (out / "README.md").write_text("not the build's")
    with pytest.raises(RuntimeError), staged_folder(out) as folder:
        (folder / "index.html").write_text("half")
        raise RuntimeError("interrupted")
    assert (out / "index.html").read_text() == "one" and sorted(p.name for p in tmp_path.iterdir()) == ["report"]
    with staged_folder(out) as folder:
        (folder / "page.html").write_text("two")
    assert sorted(p.name for p in out.iterdir()) == [BUILT_FILES, "README.md", "page.html"]  # index.html was the build's


def test_what_a_killed_build_left_is_tidied_by_the_next(tmp_path):
    """Killed mid-build: its unfinished folder goes. Killed between the two renames of the swap:
    the old folder is put back before the next build starts."""
    out, pid = tmp_path / "report", dead_pid()
    (tmp_path / f".report.new-{pid}").mkdir()
    (tmp_path / f".report.old-{pid}").mkdir()
    (tmp_path / f".report.old-{pid}" / "index.html").write_text("old")
    with staged_folder(out) as folder:
        assert (out / "index.html").read_text() == "old"
        (folder / "index.html").write_text("new")
    assert (out / "index.html").read_text() == "new" and sorted(p.name for p in tmp_path.iterdir()) == ["report"]
