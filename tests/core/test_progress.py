"""Progress of long steps (sim.core.progress): off a terminal, a log line every few percent with
an ETA; nothing when quiet."""

import re

from sim.core import progress


def test_off_a_terminal_a_line_every_step_with_elapsed_time_and_eta(capsys):
    with progress.progress(200, quiet=False) as bar:   # pytest's stderr is not a terminal
        for _ in range(200):
            bar.update(1)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 100 // progress.LOG_STEP
    assert all(re.fullmatch(r" +\d+% \(\d+/200 games\), \S+ elapsed, ETA \S+", line) for line in lines)
    assert lines[0].lstrip().startswith(f"{progress.LOG_STEP}%") and lines[-1].lstrip().startswith("100%")


def test_a_resumed_step_counts_from_where_it_was_and_big_updates_print_once(capsys):
    with progress.progress(100, quiet=False, initial=50) as bar:
        bar.update(50)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1 and "(100/100 games)" in lines[0]


def test_quiet_prints_nothing(capsys):
    with progress.progress(10, quiet=True) as bar:
        bar.update(10)
    assert capsys.readouterr().err == ""


def test_durations_are_short():
    assert [progress.duration(s) for s in (4.4, 65, 3725)] == ["4s", "1m05s", "1h02m"]
