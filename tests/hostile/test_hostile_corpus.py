"""Hostile results folders (corpus.py), loaded and reported in process: no exception
escapes, every file is read or a problem names it, and the exit status is a documented one.
Then the races: files deleted, replaced or grown between discovery and reading.

Examples are few and derandomized under CI (`CI=true`) so that the run is the same and
stays within its minute; locally each run tries new ones.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from tests.hostile import corpus
from tuibench.cli import main
from tuibench.ingest import load as load_module
from tuibench.ingest.load import load

CI = os.environ.get("CI", "").lower() == "true"
SETTINGS = settings(
    max_examples=20 if CI else 30,
    deadline=None,
    derandomize=CI,
    database=None if CI else settings.default.database,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
DOCUMENTED = {0, 2}  # 0, or 2 with a line saying why; 1 only with --fail-on-regression


def _report(args: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(args)
    return code, out.getvalue(), err.getvalue()


def _named(rs) -> set[str]:
    """Every path a file record or a problem names (a problem may name two files)."""
    named = {f.path for f in rs.files} | {a.path for a in rs.set_aside}
    for p in rs.problems:
        named.add(p.path)
        named.update(w for w in p.reason.split() if "/" in w)
    return named


def _check_folder(root: Path, written: list[Path]) -> None:
    rs = load([str(root)])
    named = _named(rs)
    missing = [p for p in written if str(p) not in named and not _named_in(p, rs)]
    assert not missing, f"read by nothing and named by no problem: {missing}"
    for fmt, gate in (("json", []), ("text", ["--fail-on-regression"])):
        code, out, err = _report(["report", str(root), "--format", fmt, *gate])
        assert code in DOCUMENTED | ({1} if gate else set()), err[-2000:]
        assert "internal error" not in err and "Traceback" not in err, err[-2000:]
        if code == 0 and fmt == "json":
            assert isinstance(json.loads(out)["rows"], list)
        if code == 2:
            assert err.strip().splitlines()[-1].startswith("tuibench: "), err[-500:]


def _named_in(path: Path, rs) -> bool:
    """A file named inside a problem's reason or by a folder's problem above it."""
    text = str(path)
    return any(
        text in p.reason or (p.path and text.startswith(p.path.rstrip("/") + "/"))
        for p in rs.problems
    )


@SETTINGS
@given(files=corpus.results_folder())
def test_hostile_folders_load_and_report(files):
    with tempfile.TemporaryDirectory(prefix="hostile.") as tmp:
        root = Path(tmp) / "results"
        root.mkdir()
        written = corpus.write(root, files)
        _check_folder(root, written)


@SETTINGS
@given(names=corpus.text_names, content=corpus.file_contents)
def test_a_hostile_file_beside_good_systems(names, content):
    """One hostile file among two good systems: the good ones still compare."""
    with tempfile.TemporaryDirectory(prefix="hostile.") as tmp:
        root = Path(tmp) / "results"
        for s in ("base", "new"):
            (root / s).mkdir(parents=True)
            rows = "".join(f"b,t,{i},{10 + i % 3 + (s == 'new')}\n" for i in range(6))
            (root / s / "good.csv").write_text("benchmark,metric,iteration,value\n" + rows)
        stem = names[:60] if corpus._fits_a_path(names[:60]) else "odd"
        path = root / "new" / f"{stem}.{content[0]}"
        path.write_bytes(content[1])
        _check_folder(root, [path, root / "base" / "good.csv"])
        _code, out, _err = _report(["report", str(root), "--format", "json"])
        rows = [r for r in json.loads(out)["rows"] if (r["benchmark"], r["metric"]) == ("b", "t")]
        assert [r["system"] for r in rows] == ["base", "new"]


# -- races -----------------------------------------------------------------------------
def _good_folder(root: Path, n: int) -> list[Path]:
    paths = []
    for s in ("base", "new"):
        for i in range(n):
            path = root / s / f"iter-{i}" / "r.csv"
            path.parent.mkdir(parents=True, exist_ok=True)
            k = len(paths)  # no two files alike: byte copies are a problem of their own
            path.write_text(
                "benchmark,metric,value\n" + "".join(f"b,t,{10 + j}.{k}\n" for j in range(5))
            )
            paths.append(path)
    return paths


def _after_discovery(monkeypatch, change) -> None:
    """Run `change` in a helper thread right after discovery, before any file is read."""
    real = load_module.discover

    def discover_then_change(paths):
        found = real(paths)
        helper = threading.Thread(target=change)
        helper.start()
        helper.join()
        return found

    monkeypatch.setattr(load_module, "discover", discover_then_change)


@pytest.mark.parametrize("how", ["deleted", "emptied", "garbage", "folder", "renamed"])
def test_file_changed_between_discovery_and_reading(tmp_path, monkeypatch, how):
    root = tmp_path / "results"
    paths = _good_folder(root, 4)
    victim = paths[5]

    def change():
        if how == "deleted":
            victim.unlink()
        elif how == "emptied":
            victim.write_bytes(b"")
        elif how == "garbage":
            victim.write_bytes(b"\x00\xff" * 1000)
        elif how == "folder":
            victim.unlink()
            victim.mkdir()
        else:
            victim.rename(victim.with_name("moved.csv"))

    _after_discovery(monkeypatch, change)
    rs = load([str(root)])
    # A problem names it, or (turned into bytes of no format) it is set aside as such.
    assert [p.path for p in rs.problems] + [a.path for a in rs.set_aside] == [str(victim)]
    assert rs.samples.height == 5 * (len(paths) - 1)
    monkeypatch.undo()  # what is there now, reported
    code, _out, err = _report(["report", str(root), "--format", "json"])
    assert code == 0 and "internal error" not in err


@pytest.mark.parametrize("fmt", ["csv", "go"])
def test_file_grown_while_read(tmp_path, fmt):
    """A helper thread appends to a file while it loads: it is read (up to some size) or a
    problem names it; nothing else is lost and the load ends."""
    root = tmp_path / "results"
    _good_folder(root, 3)
    grown = root / "new" / ("grown.csv" if fmt == "csv" else "go-bench.txt")
    if fmt == "csv":
        head, line = "benchmark,metric,value\n", "g,t,1.5\n"
    else:
        head, line = "goos: linux\n", "BenchmarkG-8 \t 100 \t 1.5 ns/op\n"
    grown.write_text(head + line * 1000)
    stop = threading.Event()
    chunk = (line * 2_000).encode()

    def grow():
        with open(grown, "ab") as fh:
            while not stop.is_set() and fh.tell() < 4 * 2**20:  # bounded: read it all too
                fh.write(chunk)
                fh.flush()

    helper = threading.Thread(target=grow, daemon=True)
    helper.start()
    try:
        rs = load([str(root)])
    finally:
        stop.set()
        helper.join()
    assert str(grown) in _named(rs)
    assert rs.samples.filter(rs.samples["benchmark"] == "b").height == 30
    with open(grown, "r+b") as fh:  # a last line cut in the middle is a problem, not a crash
        fh.truncate(os.path.getsize(grown) - 3)
    code, _out, err = _report(["report", str(root), "--format", "json"])
    assert code == 0 and "internal error" not in err
