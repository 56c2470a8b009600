"""A reload reads only new or changed files and gives what a fresh load gives."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
from polars.testing import assert_frame_equal

from tuibench.ingest.incremental import Loader
from tuibench.ingest.load import load
from tuibench.ingest.reuse import cache

DATA = Path(__file__).resolve().parents[1] / "data"
TSV = DATA / "mmtests-real" / "tsv"
GO = DATA / "gotest" / "go-bench.txt"


def same(a, b) -> None:
    """Every number and every word of two ResultSets."""
    for name in ("samples", "metrics", "notes"):
        assert_frame_equal(getattr(a, name), getattr(b, name), check_exact=True)
    assert a.problems == b.problems
    assert a.files == b.files
    assert a.systems == b.systems
    assert a.set_aside == b.set_aside
    assert (a.configured_reference, a.first_by_name) == (b.configured_reference, b.first_by_name)


def fresh(root: Path):
    cache.turn_off()  # a fresh read of every file, nothing from the cache
    try:
        return load([root])
    finally:
        cache._off = False


@pytest.fixture
def results(tmp_path: Path) -> Path:
    """Two mmtests systems in iter-N folders, and a Go system of one file."""
    root = tmp_path / "results"
    shutil.copytree(TSV, root)
    (root / "go").mkdir()
    shutil.copy(GO, root / "go" / "bench.txt")
    return root


def _new_iteration(system: Path, n: int) -> None:
    """iter-n: iter-1's files with every value 1 % higher (not a byte copy)."""
    (system / f"iter-{n}").mkdir()
    for f in (system / "iter-1").iterdir():
        lines = []
        for line in f.read_text().splitlines():
            cells = line.split("\t")  # op, ..., sample, value, ...
            cells[4] = f"{float(cells[4]) * 1.01:.2f}"
            lines.append("\t".join(cells))
        (system / f"iter-{n}" / f.name).write_text("\n".join(lines) + "\n")


def test_nothing_changed_reads_nothing(results):
    loader = Loader([results])
    first = loader.load()
    assert loader.read_count > 0
    assert loader.load() is first


def test_new_mmtests_iteration(results):
    loader = Loader([results])
    before = loader.load()
    _new_iteration(results / "5.8-patched", 2)
    after = loader.load()
    assert loader.read_count == 2  # the two files of the new folder
    same(after, fresh(results))
    assert after.samples.height > before.samples.height


def test_appended_go_file(results):
    loader = Loader([results])
    loader.load()
    go = results / "go" / "bench.txt"
    text = go.read_text()
    extra = "BenchmarkDecode-8 \t 1000000\t 1060 ns/op\t 0 B/op\t 0 allocs/op\n"
    go.write_text(text.replace("PASS\n", extra + "PASS\n"))
    after = loader.load()
    assert loader.read_count == 1
    same(after, fresh(results))
    decode = after.samples.filter(after.samples["benchmark"].cast(str) == "Decode")
    assert 1060.0 in decode["value"].to_list()


def test_removed_file_and_new_system(results):
    loader = Loader([results])
    loader.load()
    os.remove(results / "5.8-vanilla" / "iter-1" / "stream.tsv")
    shutil.copytree(results / "5.8-patched", results / "5.9")
    _new_iteration(results / "5.9", 2)
    after = loader.load()
    # The new system's six files, and the file left beside the removed one (a reader may
    # read a file's neighbours, so a change in its folder reads it again).
    assert loader.read_count == 7
    same(after, fresh(results))
    assert "5.9" in after.system_names


def test_touched_file_is_read_again(results):
    loader = Loader([results])
    loader.load()
    go = results / "go" / "bench.txt"
    st = go.stat()
    os.utime(go, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000))
    loader.load()
    assert loader.read_count == 1


def test_first_load_from_the_cache_then_a_reload(results, monkeypatch):
    """A first load found in the cache has read no file: the next reload reads every file
    once, and gives what a fresh load gives."""
    from tuibench.ingest.reuse import load_cache

    monkeypatch.setattr(load_cache, "MIN_SAMPLES", 0)
    load([results])  # stored
    loader = Loader([results])
    loader.load()
    assert loader.read_count == 0
    _new_iteration(results / "5.8-vanilla", 2)
    after = loader.load()
    files = [p for p in results.rglob("*") if p.is_file()]
    assert loader.read_count == len(files) == 11  # every file again: none was kept
    same(after, fresh(results))


def test_a_changed_neighbour_reads_the_file_again(tmp_path):
    """mmtests' TSVs take their direction from a shellpack.yaml beside or above them."""
    root = tmp_path / "results"
    shutil.copytree(DATA / "mmtests" / "netperf-real" / "5.8-vanilla", root / "a")
    loader = Loader([root])
    before = loader.load()
    assert set(before.metrics["better"].drop_nulls()) == {"higher"}
    yaml = root / "a" / "shellpack.yaml"
    text = yaml.read_text().replace(
        "STREAM\n  units: MBITS_PER_SECOND", "STREAM\n  units: TIME_MSECONDS"
    )
    yaml.write_text(text)  # udpstream: lower is better
    after = loader.load()
    assert loader.read_count == 2
    same(after, fresh(root))
    assert set(after.metrics["better"].drop_nulls()) == {"lower"}  # the yaml was read again


def test_reads_past_the_budget_are_read_again(results, monkeypatch):
    """Readers' rows past `KEPT_ROWS` are not kept: a full reload reads those files again,
    and still gives what a fresh load gives."""
    from tuibench.ingest import incremental

    loader = Loader([results])
    loader.load()
    kept_all = len(loader._reads)
    monkeypatch.setattr(incremental, "KEPT_ROWS", 0)
    loader = Loader([results])
    loader.load()
    assert kept_all > 0 and not loader._reads
    os.remove(results / "5.8-vanilla" / "iter-1" / "stream.tsv")
    after = loader.load()
    assert loader.read_count == kept_all - 1  # every file left, none kept
    same(after, fresh(results))
