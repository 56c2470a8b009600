"""Reopening changed results reads only the changed files, and loads what a fresh load does."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from tests.core.test_incremental import _new_iteration, fresh, same
from tuibench.ingest import load as load_module
from tuibench.ingest.load import load
from tuibench.ingest.reuse import file_reads

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def reads(monkeypatch) -> list[str]:
    """The files a reader read (the paths, in order)."""
    seen: list[str] = []
    real = load_module.read_file

    def counting(path):
        seen.append(str(path))
        return real(path)

    monkeypatch.setattr(load_module, "read_file", counting)
    return seen


def every_file(folder: Path) -> list[str]:
    return sorted(str(p) for p in folder.rglob("*") if p.is_file())


def test_adding_a_system_reads_only_its_files(stored_results, reads):
    load([stored_results])
    assert sorted(reads) == every_file(stored_results)  # every file, once
    reads.clear()
    shutil.copytree(stored_results / "5.8-patched", stored_results / "5.9")
    _new_iteration(stored_results / "5.9", 2)
    rs = load([stored_results])
    assert sorted(reads) == every_file(stored_results / "5.9")
    same(rs, fresh(stored_results))
    assert "5.9" in rs.system_names


def test_a_changed_file_is_read_again_the_others_not(stored_results, reads):
    load([stored_results])
    reads.clear()
    go = stored_results / "go" / "bench.txt"
    extra = "BenchmarkDecode-8 \t 1000000\t 1060 ns/op\t 0 B/op\t 0 allocs/op\n"
    go.write_text(go.read_text().replace("PASS\n", extra + "PASS\n"))
    rs = load([stored_results])
    assert reads == [str(go)]
    same(rs, fresh(stored_results))
    assert 1060.0 in rs.samples["value"].to_list()


def test_a_file_beside_reads_its_folder_again(stored_results, reads):
    """Readers read files beside theirs: a change in the folder reads its files again."""
    load([stored_results])
    reads.clear()
    (stored_results / "5.8-vanilla" / "iter-1" / "notes.txt").write_text("rerun after reboot\n")
    rs = load([stored_results])
    assert reads and all("5.8-vanilla/iter-1" in p for p in reads)
    same(rs, fresh(stored_results))


def test_removed_files_are_forgotten(stored_results, reads):
    load([stored_results])
    os.remove(stored_results / "5.8-vanilla" / "iter-1" / "stream.tsv")
    rs = load([stored_results])
    same(rs, fresh(stored_results))
    reads.clear()
    shutil.copy(
        DATA / "mmtests-real" / "tsv" / "5.8-vanilla" / "iter-1" / "stream.tsv",
        stored_results / "5.8-vanilla" / "iter-1" / "stream.tsv",
    )
    load([stored_results])
    assert str(stored_results / "5.8-vanilla" / "iter-1" / "stream.tsv") in reads


@pytest.mark.parametrize("damage", ["truncated", "flipped"])
def test_a_bad_entry_reads_every_file(stored_results, reads, cache_folder, damage):
    load([stored_results])
    (entry,) = cache_folder.glob("reads-*.tbc")
    data = bytearray(entry.read_bytes())
    if damage == "truncated":
        data = data[: len(data) // 2]
    else:
        data[len(data) // 2] ^= 0x01
    entry.write_bytes(bytes(data))
    for e in cache_folder.glob("load-*.tbc"):
        e.unlink()
    reads.clear()
    rs = load([stored_results])
    assert sorted(reads) == every_file(stored_results)
    same(rs, fresh(stored_results))


def test_a_file_that_grew_while_read_is_not_kept(stored_results, reads, cache_folder, monkeypatch):
    go = stored_results / "go" / "bench.txt"
    real = load_module.read_file  # the fixture's, which counts

    def growing(path):
        if path == go:
            with open(go, "a") as fh:
                fh.write("BenchmarkLate-2   \t   20000\t        99.0 ns/op\n")
        return real(path)

    monkeypatch.setattr(load_module, "read_file", growing)
    first = load([stored_results])
    assert any("grew from" in p.reason for p in first.problems)
    monkeypatch.setattr(load_module, "read_file", real)
    for e in cache_folder.glob("load-*.tbc"):
        e.unlink()
    reads.clear()
    rs = load([stored_results])
    assert reads == [str(go)]  # read again, whole now
    assert not any("grew from" in p.reason for p in rs.problems)
    same(rs, fresh(stored_results))


def test_a_result_that_cannot_be_decoded_is_read_again(
    stored_results, reads, cache_folder, monkeypatch
):
    load([stored_results])
    for e in cache_folder.glob("load-*.tbc"):
        e.unlink()
    monkeypatch.setattr(file_reads, "_decode", lambda data: 1 / 0)
    reads.clear()
    rs = load([stored_results])
    assert sorted(reads) == every_file(stored_results)
    same(rs, fresh(stored_results))


def test_the_explorers_first_load_reads_only_changed_files_unless_the_cache_is_off(
    stored_results, monkeypatch
):
    """The explorer loads through incremental.Loader: its first load uses the reads an
    earlier process kept, and with the cache off (--no-cache) trusts none of them."""
    from tuibench.ingest.incremental import Loader

    load([stored_results])  # keeps every file's read
    go = stored_results / "go" / "bench.txt"
    extra = "BenchmarkDecode-8 \t 1000000\t 1060 ns/op\t 0 B/op\t 0 allocs/op\n"
    go.write_text(go.read_text().replace("PASS\n", extra + "PASS\n"))
    loader = Loader([stored_results])
    same(loader.load(), fresh(stored_results))
    assert loader.read_count == 1  # the Go file alone
    monkeypatch.setenv("TUIBENCH_NO_CACHE", "1")
    off = Loader([stored_results])
    same(off.load(), fresh(stored_results))
    assert off.read_count > 1  # every file its reader's


@pytest.mark.parametrize("later", [False, True])
def test_reads_held_by_the_explorers_loader_are_kept_as_read_ones_are(
    stored_results, cache_folder, later
):
    """The explorer's Loader holds its reads anyway: they are encoded when stored (after
    its first screen with `later`), and the entry is the one a plain load writes."""
    from tuibench.ingest.incremental import Loader

    load([stored_results])
    (entry,) = cache_folder.glob(f"{file_reads.KIND}-*.tbc")
    plain = entry.read_bytes()
    for stored in cache_folder.glob("*.tbc"):  # the load's entry too: read every file
        stored.unlink()
    loader = Loader([stored_results])
    rs = loader.load(later=later)
    assert entry.exists() != later  # written by the load, or left for later
    loader.write_unwritten()
    assert entry.read_bytes() == plain
    assert loader.unwritten == []
    same(rs, fresh(stored_results))
    again = Loader([stored_results])
    same(again.load(), fresh(stored_results))
    assert again.read_count == 0  # every file from the kept reads


@pytest.fixture
def encoded(monkeypatch) -> list[object]:
    """The reads encoded for the cache's entry."""
    seen: list[object] = []
    real = file_reads._encode

    def counting(result):
        seen.append(result)
        return real(result)

    monkeypatch.setattr(file_reads, "_encode", counting)
    return seen


def test_a_load_too_small_to_store_encodes_no_read(tmp_path, cache_folder, encoded, reads):
    """Its entry is never written (load_cache.MIN_SAMPLES): encoding each file's read for
    it took 11 ms of a 0.4 s report on sample_runs/."""
    root = tmp_path / "results"
    shutil.copytree(DATA / "mmtests-real" / "tsv", root)
    assert load([root]).samples.height and reads
    assert encoded == []
    assert not list(cache_folder.glob(f"{file_reads.KIND}-*.tbc"))


def test_reads_held_below_the_threshold_are_encoded_when_stored(
    tmp_path, cache_folder, encoded, reads, monkeypatch
):
    """A load stored for its number of files holds its few rows' reads as read: they are
    encoded once, when the entry is written, and the next load reads no file."""
    from tuibench.ingest.reuse import load_cache

    monkeypatch.setattr(load_cache, "MIN_FILES", 1)
    root = tmp_path / "results"
    shutil.copytree(DATA / "mmtests-real" / "tsv", root)
    first = load([root])
    assert len(encoded) == len(reads) > 1  # each read once, at `store`
    for e in cache_folder.glob("load-*.tbc"):
        e.unlink()
    reads.clear()
    same(load([root]), first)
    assert reads == []
