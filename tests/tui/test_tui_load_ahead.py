"""Small results' first open: a child process loads, analyses and stores the first screen
while the explorer imports Textual; the explorer then reopens that entry."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tui.test_tui_reopen import DATA, OPTIONS, assert_same_comparisons, entries
from tuibench.analysis.compare.stored import Restored
from tuibench.tui.view import load_ahead
from tuibench.tui.view.reopen import Reopen

pytestmark = pytest.mark.skipif(
    not hasattr(os, "fork") or load_ahead._cores() < 2, reason="forks only with two cores"
)

# As the command line does, in a process of its own (a test runner's has threads).
CHILD = """
import sys, time
from tuibench.model.options import AnalysisOptions, ViewOptions
from tuibench.tui.view import load_ahead
load_ahead.FORK_UP_TO = int(sys.argv[2])
paths, options = [sys.argv[1]], AnalysisOptions()
load_ahead.start(paths, options, ViewOptions())
print(len(load_ahead._child))
clock = time.monotonic()
load_ahead.wait(paths, options)
print(time.monotonic() - clock)
"""


@pytest.fixture
def results(tmp_path: Path) -> Path:
    root = tmp_path / "results"
    shutil.copytree(DATA, root)
    return root


def files_of(root: Path) -> dict[str, tuple[int, int]]:
    return {str(p): (p.stat().st_size, p.stat().st_mtime_ns) for p in root.rglob("*")}


def run_child(root: Path, fork_up_to: int = load_ahead.FORK_UP_TO) -> list[str]:
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(root), str(fork_up_to)],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert out.returncode == 0 and not out.stderr, out.stderr  # the child said nothing
    return out.stdout.split()


def test_the_child_stores_the_first_screen_as_the_explorer_would(results, cache_folder):
    before = files_of(results)
    forked, waited = run_child(results)
    assert forked == "1" and float(waited) < load_ahead.WAIT_UP_TO  # it told, in time
    assert files_of(results) == before  # nothing written into the results
    assert len(entries(cache_folder)) == 1
    reopen = Reopen([results], OPTIONS)
    restored = reopen.restored()
    assert restored is not None
    _, analysis = restored
    assert isinstance(analysis, Restored)
    assert_same_comparisons(analysis, results, OPTIONS)  # every reference's, as computed


PICTURED = """
import sys
from tuibench.cli.commands import _picture
from tuibench.model.options import AnalysisOptions, ViewOptions
from tuibench.tui.content.picture import decoded
from tuibench.tui.view import load_ahead
paths, options = sys.argv[1:], AnalysisOptions()
load_ahead.start(paths, options, ViewOptions(), _picture)
payload = load_ahead.picture(paths, options)
picture = decoded(payload) if payload else None
print(type(picture).__name__, len(picture.systems) if picture else 0)
load_ahead.wait(paths, options)
"""


@pytest.mark.parametrize(
    ("systems", "expected"),
    [(["base", "patched", "tuned"], ["Picture", "3"]), (["base"], ["NoneType", "0"])],
)
def test_the_child_sends_the_picture_before_the_entry(results, cache_folder, systems, expected):
    """Where the first screen is the answer, the child sends its picture, then writes the
    entry; with one system it says at once that none comes, and writes the entry too."""
    paths = [str(results / name) for name in systems]
    out = subprocess.run(
        [sys.executable, "-c", PICTURED, *paths], capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 0 and not out.stderr, out.stderr
    assert out.stdout.split() == expected
    assert len(entries(cache_folder)) == 1


def test_waiting_without_asking_for_the_picture_reads_past_it(monkeypatch):
    """`wait` alone (no `picture` before it) reads past the picture's words to the child's
    last word: a healthy child is not killed, its entry not lost; a cut picture ends it."""
    for words, killed in [
        (load_ahead.NO_PICTURE + load_ahead.READY, False),
        (load_ahead.PICTURE + load_ahead._LENGTH.pack(3) + b"abc" + load_ahead.SKIPPED, False),
        (load_ahead.PICTURE + load_ahead._LENGTH.pack(9) + b"abc", True),
    ]:
        read, write = os.pipe()
        os.write(write, words)
        os.close(write)
        kills: list[int] = []
        monkeypatch.setattr(load_ahead.os, "kill", lambda pid, _sig, k=kills: k.append(pid))
        monkeypatch.setattr(load_ahead, "_reap", lambda pid: None)
        key = (("somewhere",), OPTIONS)
        monkeypatch.setitem(load_ahead._child, key, load_ahead._Child(12345, read))
        load_ahead.wait(["somewhere"], OPTIONS)
        assert kills == ([12345] if killed else [])


def test_larger_results_are_left_to_the_explorer(results, cache_folder):
    forked, _ = run_child(results, fork_up_to=0)
    assert forked == "1"  # it looked, found them too large and wrote nothing
    assert not entries(cache_folder)
    assert Reopen([results], OPTIONS).restored() is None


def test_no_child_without_the_cache(results, cache_folder, monkeypatch):
    monkeypatch.setenv("TUIBENCH_NO_CACHE", "1")
    forked, _ = run_child(results)
    assert forked == "0" and not entries(cache_folder)


def test_a_child_too_slow_is_not_waited_for_and_ends(monkeypatch):
    """Past WAIT_UP_TO the explorer loads itself; the child, which would only hold the
    results a second time, is killed and reaped."""
    import signal
    import time

    monkeypatch.setattr(load_ahead, "WAIT_UP_TO", 0.2)
    slow = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    read, write = os.pipe()
    key = (("somewhere",), OPTIONS)
    clock = time.monotonic()  # the wait's deadline runs from the child's start
    monkeypatch.setitem(load_ahead._child, key, load_ahead._Child(slow.pid, read))
    monkeypatch.setattr(load_ahead, "_reap", lambda pid: None)  # Popen reaps it here
    load_ahead.wait(["somewhere"], OPTIONS)
    assert 0.2 <= time.monotonic() - clock < 5
    assert slow.wait(10) == -signal.SIGKILL
    assert key not in load_ahead._child
    os.close(write)
