"""The cache of loaded results: used when nothing changed, never trusted otherwise."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.core.test_incremental import fresh, same
from tuibench import cli
from tuibench.ingest.load import load
from tuibench.ingest.reuse import cache, load_cache

DATA = Path(__file__).resolve().parents[1] / "data"


def entries(folder: Path, kind: str = "load") -> list[Path]:
    return sorted(folder.glob(f"{kind}-*.tbc")) if folder.exists() else []


def test_reopen_reads_the_entry(stored_results, cache_folder, monkeypatch):
    first = load([stored_results])
    assert len(entries(cache_folder)) == 1
    calls = []
    monkeypatch.setattr(
        load_cache, "decode", lambda b, real=load_cache.decode: calls.append(1) or real(b)
    )
    again = load([stored_results])
    assert calls == [1]
    same(again, first)
    # A file's problems are the very objects of the whole list (`inspect` relies on it).
    ids = {id(p) for p in again.problems}
    assert all(id(p) in ids for f in again.files for p in f.problems)


def test_stale_entry_is_not_read(stored_results, cache_folder):
    load([stored_results])
    go = stored_results / "go" / "bench.txt"
    go.write_text(go.read_text().replace(" 1043 ns/op", " 9999 ns/op"))
    rs = load([stored_results])
    assert 9999.0 in rs.samples["value"].to_list()
    same(rs, fresh(stored_results))
    assert len(entries(cache_folder)) == 2  # the old key's entry ages out


@pytest.mark.parametrize("damage", ["truncated", "flipped", "foreign"])
def test_bad_entry_is_ignored_and_rebuilt(stored_results, cache_folder, damage):
    first = load([stored_results])
    (entry,) = entries(cache_folder)
    data = bytearray(entry.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 2]
    elif damage == "flipped":
        data[-100] ^= 0x01
    else:  # written by other code: another version in the header
        data[8] ^= 0xFF
    entry.write_bytes(bytes(data))
    again = load([stored_results])
    same(again, first)
    assert entry.read_bytes() != bytes(data)  # rebuilt
    assert cache._checked(entry.read_bytes(), bytes.fromhex(entry.stem.split("-")[1]))


def test_no_cache_writes_nothing(stored_results, cache_folder):
    cli.main(["report", "--no-cache", str(stored_results)])
    assert entries(cache_folder, "*") == []
    cache._off = False
    cli.main(["report", str(stored_results)])
    assert len(entries(cache_folder)) == 1


@pytest.mark.parametrize("parser", ["explorer_parser", "decide_parser"])
def test_the_explorer_and_decide_take_no_cache_too(parser, stored_results):
    getattr(cli, parser)().parse_args([str(stored_results), "--no-cache"])
    assert not cache.enabled()


def test_env_turns_it_off(stored_results, cache_folder, monkeypatch):
    monkeypatch.setenv("TUIBENCH_NO_CACHE", "1")
    load([stored_results])
    assert entries(cache_folder, "*") == []


def test_nothing_written_into_the_results(stored_results, monkeypatch):
    before = sorted(p for p in stored_results.rglob("*"))
    monkeypatch.setenv("TUIBENCH_CACHE_DIR", str(stored_results / ".cache"))
    load([stored_results])
    load([stored_results])
    assert sorted(p for p in stored_results.rglob("*")) == before


def test_bound_drops_the_oldest(tmp_path):
    store = cache.Store(tmp_path, max_bytes=10_000)
    keys = [cache.digest(i) for i in range(4)]
    for i, k in enumerate(keys):
        assert store.put("t", k, bytes([i]) * 900)
        os.utime(store._path("t", k), ns=(i * 10**9, i * 10**9))  # used in this order
    store.max_bytes = 3100  # three entries
    store.get("t", keys[1])  # used now: kept
    store.put("t", cache.digest("new"), b"x" * 900)
    assert store.get("t", keys[0]) is None and store.get("t", keys[2]) is None
    assert store.get("t", keys[1]) == bytes([1]) * 900
    assert store.get("t", keys[3]) == bytes([3]) * 900
    assert sum(p.stat().st_size for p in tmp_path.glob("*.tbc")) <= 3100


def test_entry_of_another_user_is_not_read(tmp_path, monkeypatch):
    store = cache.Store(tmp_path)
    k = cache.digest("k")
    store.put("t", k, b"payload")
    monkeypatch.setattr(os, "getuid", lambda: os.geteuid() + 1)
    assert store.get("t", k) is None


def test_leftover_temporary_files_go(tmp_path):
    """A write cut short (the process killed) leaves a temporary file: removed once old."""
    old, new = tmp_path / ".load-x.tbc.1.tmp", tmp_path / ".load-y.tbc.2.tmp"
    old.write_bytes(b"x")
    new.write_bytes(b"x")
    os.utime(old, ns=(0, 0))
    cache.Store(tmp_path).put("t", cache.digest(1), b"payload")
    assert not old.exists() and new.exists()


def test_no_home_no_cache(stored_results, monkeypatch):
    """Without a home folder (a bare service account) loading works, uncached."""
    monkeypatch.delenv("XDG_CACHE_HOME")
    monkeypatch.delenv("HOME", raising=False)
    monkeypatch.setattr(Path, "home", classmethod(lambda cls: (_ for _ in ()).throw(RuntimeError)))
    assert not cache.enabled()
    assert load([stored_results]).samples.height > 0


def test_a_changed_neighbour_is_a_new_key(tmp_path, monkeypatch):
    """A shellpack.yaml beside mmtests' TSVs is set aside, yet read by their reader."""
    monkeypatch.setattr(load_cache, "MIN_SAMPLES", 0)
    root = tmp_path / "results"
    shutil.copytree(DATA / "mmtests" / "netperf-real" / "5.8-vanilla", root / "a")
    load([root])
    yaml = root / "a" / "shellpack.yaml"
    text = yaml.read_text().replace(
        "STREAM\n  units: MBITS_PER_SECOND", "STREAM\n  units: TIME_MSECONDS"
    )
    yaml.write_text(text)  # udpstream: lower is better
    same(load([root]), fresh(root))


def test_an_entry_in_parts_is_the_entry_joined(tmp_path):
    """`put` of parts (bytes and buffers, written one after another) stores exactly what
    `put` of the joined bytes stores, and is read back whole."""
    import numpy as np

    values = np.arange(5, dtype=np.float64)
    parts = [b"head", memoryview(b"middle"), values.data]
    joined = b"head" + b"middle" + values.tobytes()
    store = cache.Store(tmp_path)
    assert store.put("t", cache.digest("parts"), parts)
    assert store.put("t", cache.digest("joined"), joined)
    assert store.get("t", cache.digest("parts")) == joined
    header = cache._HEADER.size
    got = [p.read_bytes()[header:] for p in sorted(tmp_path.glob("*.tbc"))]
    assert got == [joined, joined]
    assert not cache.Store(tmp_path, max_bytes=len(joined)).put("t", cache.digest(2), parts)


def test_the_code_version_covers_every_module_of_the_package(tmp_path, monkeypatch):
    """An entry holds analysed numbers (the screen entry: the comparison's summary): code
    that computes them otherwise must make it foreign. The version hashed only ingest/
    (this module's parent, as it moved there): a summary of older analysis code, without
    a column the new code reads, was trusted and crashed the explorer."""
    import tuibench

    root = cache.package_root()
    assert root == Path(tuibench.__file__).resolve().parent
    copy = tmp_path / "tuibench"
    shutil.copytree(root, copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(cache, "package_root", lambda: copy)

    def fresh() -> bytes:
        cache.code_version.cache_clear()
        cache.code_digest.cache_clear()
        return cache.code_version()

    before = fresh()
    summary = copy / "analysis" / "compare" / "summary.py"
    summary.write_text(summary.read_text() + "\n# another computation\n")
    assert fresh() != before
    monkeypatch.undo()
    fresh()
