"""The watcher: files appearing, growing, half-written and removed; inotify and polling."""

from __future__ import annotations

import os
import threading
import time
from pathlib import Path

import pytest

from tuibench.ingest import watch
from tuibench.ingest.load import load
from tuibench.ingest.watch import Change, Tracker, Watcher, end_marker, snapshot, system_namer

DATA = Path(__file__).parent.parent / "data"

GO_HEAD = "goos: linux\ngoarch: amd64\npkg: example.com/x\n"
GO_LINE = "BenchmarkSpin-2   \t  1000\t  {} ns/op\n"
GBENCH_HEAD = '{\n  "context": {\n    "date": "2024-01-01",\n    "num_cpus": 2\n  },\n'


def go_text(values, end="PASS\nok  \texample.com/x\t1.2s\n"):
    return GO_HEAD + "".join(GO_LINE.format(v) for v in values) + end


def gbench_text(values, closed=True):
    rows = ",\n".join(
        '    {"name": "BM_x", "run_name": "BM_x", "run_type": "iteration", "repetitions": 3,'
        f' "repetition_index": {i}, "threads": 1, "iterations": 100, "real_time": {v},'
        f' "cpu_time": {v}, "time_unit": "ns"}}'
        for i, v in enumerate(values)
    )
    text = GBENCH_HEAD + '  "benchmarks": [\n' + rows
    return text + "\n  ]\n}\n" if closed else text + ",\n"


def write(path: Path, text: str, age: float = 60.0) -> None:
    """Write `text`; its modification time `age` seconds ago (old files are complete)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    t = time.time() - age
    os.utime(path, (t, t))


# -- end markers ------------------------------------------------------------------------
def test_end_markers_of_real_files(tmp_path):
    assert end_marker(str(DATA / "gotest" / "go-bench.txt")) is True
    assert end_marker(str(DATA / "gbench" / "new_format.json")) is True
    cut = tmp_path / "cut.json"
    cut.write_text((DATA / "gbench" / "new_format.json").read_text()[:-20])
    assert end_marker(str(cut)) is False
    go = tmp_path / "go.txt"
    go.write_text(go_text([100, 110], end=""))
    assert end_marker(str(go)) is False
    go.write_text(go_text([100, 110], end="FAIL\texample.com/x\t0.2s\n"))
    assert end_marker(str(go)) is True
    go.write_text(go_text([100, 110], end="PASS\n"))  # `ok` may follow: stability decides
    assert end_marker(str(go)) is None
    csv = tmp_path / "x.csv"
    csv.write_text("benchmark,metric,value\n")
    assert end_marker(str(csv)) is None


def test_pyperf_complete_when_it_parses(tmp_path):
    text = '{"benchmarks":[{"runs":[{"values":[1.0,2.0]}]}],"metadata":{},"version":"1.0"}'
    p = tmp_path / "py.json"
    p.write_text(text[:40])
    assert end_marker(str(p)) is False
    p.write_text(text)
    assert end_marker(str(p)) is True


# -- the tracker: a fake clock, real files ------------------------------------------------
def test_new_file_is_applied_once_stable(tmp_path):
    write(tmp_path / "a" / "old.csv", "benchmark,metric,value\nb,m,1\n")
    tracker = Tracker(snapshot([tmp_path]), now=0.0)
    assert not tracker.pending
    new = tmp_path / "a" / "new.csv"
    write(new, "benchmark,metric,value\nb,m,2\n", age=0)
    assert not tracker.look(snapshot([tmp_path]), now=1.0)  # first look: not yet
    assert str(new) not in tracker.complete()  # a load does not read it
    assert not tracker.look(snapshot([tmp_path]), now=1.2)  # unchanged only 0.2 s
    change = tracker.look(snapshot([tmp_path]), now=1.6)
    assert change.added == [str(new)] and not tracker.pending
    assert str(new) in tracker.complete()


def test_half_written_file_is_not_read_until_stable(tmp_path):
    """A file growing at every look is never complete; once it stops it is."""
    root = tmp_path / "runs"
    write(root / "base" / "r.csv", "benchmark,metric,value\nb,m,1\nb,m,1\n")
    write(root / "new" / "r.csv", "benchmark,metric,value\nb,m,1\nb,m,1\n")
    tracker = Tracker(snapshot([root]), now=0.0)
    f = root / "new" / "r2.csv"
    text = "benchmark,metric,value\n"
    for i in range(6):  # written a line each 0.4 s, looked at every 0.4 s
        text += f"b,m,{i + 2}\n"
        f.write_text(text)
        os.utime(f, ns=(i * 10**9, i * 10**9))
        assert not tracker.look(snapshot([root]), now=i * 0.4)
    rs = load([root], complete=tracker.complete())
    assert str(f) not in {os.path.abspath(x.path) for x in rs.files}
    change = tracker.look(snapshot([root]), now=6 * 0.4 + 0.5)
    assert change.added == [str(f)]
    rs = load([root], complete=tracker.complete())
    assert str(f) in {os.path.abspath(x.path) for x in rs.files}


def test_grown_file_is_read_up_to_its_complete_size(tmp_path):
    """Go output appended to: until its end marker comes again, the load reads what was
    complete, not the half-written benchmark line."""
    root = tmp_path / "runs"
    write(root / "base" / "go.txt", go_text([100, 101, 99]))
    write(root / "new" / "go.txt", go_text([120, 119, 121]))
    tracker = Tracker(snapshot([root]), now=0.0)
    grown = root / "new" / "go.txt"
    with open(grown, "a") as fh:
        fh.write(GO_HEAD + GO_LINE.format(130) + "BenchmarkSpin-2  \t  10")  # cut mid-line
    assert not tracker.look(snapshot([root]), now=1.0)
    assert not tracker.look(snapshot([root]), now=5.0)  # stable, but no end marker yet
    assert tracker.complete()[str(grown)] == len(go_text([120, 119, 121]))
    rs = load([root], complete=tracker.complete())
    values = rs.samples.filter(rs.samples["system"] == "new")["value"].to_list()
    assert sorted(values) == [119.0, 120.0, 121.0]
    first = len(go_text([120, 119, 121]))
    assert any(f"only its first {first} bytes were read" in p.reason for p in rs.problems)
    with open(grown, "a") as fh:
        fh.write("0\t  131 ns/op\nPASS\nok  \texample.com/x\t1.0s\n")
    change = tracker.look(snapshot([root]), now=5.1)  # the marker: complete at once
    assert change.grew == [str(grown)]
    rs = load([root], complete=tracker.complete())
    assert len(rs.samples.filter(rs.samples["system"] == "new")) == 5


def test_producer_file_without_marker_waits_for_quiet(tmp_path):
    root = tmp_path / "runs"
    write(root / "base" / "g.json", gbench_text([10, 11, 12]))
    tracker = Tracker(snapshot([root]), now=0.0)
    half = root / "new" / "g.json"
    write(half, gbench_text([10, 11], closed=False), age=0)
    assert not tracker.look(snapshot([root]), now=0.0)
    assert not tracker.look(snapshot([root]), now=watch.SETTLE + 0.1)  # stable is not enough
    assert tracker.look(snapshot([root]), now=watch.QUIET_OPEN + 0.1).added == [str(half)]


def test_half_written_at_start_is_held(tmp_path):
    """Started while a producer writes: its open file is not in the first load."""
    root = tmp_path / "runs"
    write(root / "base" / "g.json", gbench_text([10, 11, 12]))
    write(root / "new" / "g.json", gbench_text([10, 11, 12]))
    half = root / "new" / "g2.json"
    write(half, gbench_text([10], closed=False), age=0)
    tracker = Tracker(snapshot([root]), now=0.0)
    assert set(tracker.complete()) == {str(root / "base" / "g.json"), str(root / "new" / "g.json")}


def test_iteration_folder_arrives_whole(tmp_path):
    root = tmp_path / "runs"
    for it in (1, 2):
        write(root / "base" / f"iter-{it}" / "a.csv", "benchmark,metric,value\nb,m,1\n")
        write(root / "new" / f"iter-{it}" / "a.csv", "benchmark,metric,value\nb,m,1\n")
    tracker = Tracker(snapshot([root]), now=0.0)
    a, b = root / "new" / "iter-3" / "a.csv", root / "new" / "iter-3" / "b.csv"
    write(a, "benchmark,metric,value\nb,m,1\n", age=0)
    tracker.look(snapshot([root]), now=0.0)
    write(b, "benchmark,metric,value\nb,m,1\n", age=0)
    assert not tracker.look(snapshot([root]), now=0.6)  # a is stable, b is not: neither
    change = tracker.look(snapshot([root]), now=1.2)
    assert change.added == [str(a), str(b)]
    assert change.iterations == [str(root / "new" / "iter-3")]
    namer = system_namer([(str(root / "new"), "new"), (str(root / "base"), "base")], [root])
    assert change.summary(namer) == "+2 files: 1 new iteration of new"


def test_a_file_appearing_after_the_last_look_is_not_read(tmp_path):
    """A load racing a writer: a file the watcher has not judged yet is not read."""
    root = tmp_path / "runs"
    write(root / "base" / "a.csv", "benchmark,metric,value\nb,m,1\n")
    write(root / "new" / "a.csv", "benchmark,metric,value\nb,m,2\n")
    tracker = Tracker(snapshot([root]), now=0.0)
    write(root / "new" / "b.csv", "benchmark,metric,value\nb,m,", age=0)  # half a row
    rs = load([root], complete=tracker.complete())
    assert len(rs.files) == 2 and not rs.problems


def test_links_to_folders_inside_are_walked_once(tmp_path):
    root = tmp_path / "runs"
    write(root / "base" / "a.csv", "benchmark,metric,value\nb,m,1\n")
    (root / "alias").symlink_to(root / "base")
    (root / "base" / "loop").symlink_to(root)
    (root / "out").symlink_to(tmp_path)  # outside: not entered
    files = snapshot([root])
    assert str(root / "base" / "a.csv") in files
    assert not [p for p in files if "/out/" in p or "/loop/" in p]


def test_removed_and_summary_words(tmp_path):
    root = tmp_path / "runs"
    write(root / "base" / "a.csv", "benchmark,metric,value\nb,m,1\n")
    write(root / "base" / "b.csv", "benchmark,metric,value\nb,m,1\n")
    write(root / "new" / "a.csv", "benchmark,metric,value\nb,m,1\n")
    tracker = Tracker(snapshot([root]), now=0.0)
    (root / "base" / "a.csv").unlink()
    (root / "base" / "b.csv").unlink()
    change = tracker.look(snapshot([root]), now=0.0)  # a removal needs no settling
    namer = system_namer([(str(root / "base"), "base")], [root])
    assert change.summary(namer) == "2 removed (base)"
    write(root / "later" / "x.csv", "benchmark,metric,value\nb,m,1\n", age=0)
    tracker.look(snapshot([root]), now=1.0)
    change = tracker.look(snapshot([root]), now=2.0)
    assert change.summary(namer) == "+1 file: 1 file in later"  # a new system's folder


def test_merge_keeps_each_path_once():
    one = Change(added=["a"], grew=["b"])
    two = Change(grew=["a", "b"], removed=["c"])
    both = one.merge(two)
    assert both.added == ["a"] and both.grew == ["b"] and both.removed == ["c"]


# -- the thread: inotify and polling --------------------------------------------------------
@pytest.mark.parametrize("mode", ["inotify", "poll"])
def test_watcher_notices_appearing_growing_removed(tmp_path, mode):
    root = tmp_path / "runs"
    write(root / "base" / "go.txt", go_text([100, 101]))
    got: list[Change] = []
    seen = threading.Event()

    def on_change(change: Change) -> None:
        got.append(change)
        seen.set()

    watcher = Watcher([root], on_change, mode=mode)
    watcher.start()
    try:
        assert watcher.ready.wait(10)
        assert watcher.mode == mode  # inotify works here: no fallback

        def wait(what: str) -> Change:
            seen.clear()
            start = time.monotonic()
            assert seen.wait(10), f"{what} not noticed ({mode})"
            took = time.monotonic() - start
            assert took < 10
            return got[-1]

        new = root / "new" / "go.txt"
        new.parent.mkdir()
        new.write_text(go_text([120, 121]))  # with its end marker: complete at once
        assert wait("a new file").added == [str(new)]
        with open(new, "a") as fh:
            fh.write(go_text([122]))
        assert wait("a grown file").grew == [str(new)]
        new.unlink()
        assert wait("a removed file").removed == [str(new)]
    finally:
        watcher.stop()


def test_watcher_falls_back_to_polling(tmp_path, monkeypatch):
    """Where inotify cannot watch (watchfiles fails), the watcher polls."""
    import watchfiles

    def broken(*args, **kwargs):
        raise OSError("inotify watch limit reached")

    monkeypatch.setattr(watchfiles, "watch", broken)
    watcher = Watcher([tmp_path], lambda change: None, mode="inotify")
    watcher.start()
    try:
        assert watcher.ready.wait(10)
        assert watcher.mode == "poll"
    finally:
        watcher.stop()


def test_mode_from_environment(monkeypatch, tmp_path):
    monkeypatch.setenv(watch.WATCH_ENV, "poll")
    assert watch.watch_mode([tmp_path]) == "poll"
    monkeypatch.setenv(watch.WATCH_ENV, "off")
    assert watch.watch_mode([tmp_path]) == "off"
    monkeypatch.delenv(watch.WATCH_ENV)
    assert watch.watch_mode([tmp_path]) in ("inotify", "poll")
