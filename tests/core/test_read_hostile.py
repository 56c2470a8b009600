"""Reading hostile inputs: decompression bombs, odd file names and leading junk in native
files. (Large inputs are measured by benchmarks/bench_memory.py, not here.)"""

from __future__ import annotations

import gzip
import json

import pytest

from tuibench.ingest.formats import base
from tuibench.ingest.load import load

CSV = "benchmark,metric,value\nb,t,1\nb,t,2\n"


@pytest.fixture
def small_ceiling(monkeypatch):
    """A 1 MiB floor so that bombs in tests stay small; the ratio and the rule are real."""
    monkeypatch.setattr(base, "DECOMPRESSED_FLOOR", 2**20)
    return 2**20


def _gz(path, data: bytes):
    with gzip.open(path, "wb", compresslevel=9) as fh:
        fh.write(data)
    return path


def _reasons(rs) -> dict[str, str]:
    return {p.path.rsplit("/", 1)[-1]: p.reason for p in rs.problems}


def test_decompression_limit_rule():
    assert base.decompressed_limit(1000) == base.DECOMPRESSED_FLOOR
    assert base.decompressed_limit(10 * 2**20) == 500 * 2**20  # 50 times the size
    assert base.decompressed_limit(10 * 2**30) == base.DECOMPRESSED_CEILING


def test_gzip_bombs_are_problems_and_the_rest_loads(tmp_path, small_ceiling):
    folder = tmp_path / "a"
    folder.mkdir()
    (folder / "good.csv").write_text(CSV)
    entry = {"name": "BM_x", "run_type": "iteration", "iterations": 1, "real_time": 1.0}
    gbench = json.dumps({"context": {}, "benchmarks": [entry] * 40_000}).encode()
    assert len(gbench) > 2 * small_ceiling
    _gz(folder / "bomb.json.gz", gbench)
    _gz(folder / "bomb.txt", b"BenchmarkX-8 1 1 ns/op\n" * 100_000)  # go test output, renamed
    _gz(folder / "bomb.csv.gz", CSV.encode() + b"b,t,1\n" * 400_000)
    rs = load([tmp_path])
    assert rs.samples.height == 2
    reasons = _reasons(rs)
    assert set(reasons) == {"bomb.json.gz", "bomb.txt", "bomb.csv.gz"}
    for name, reason in reasons.items():
        limit = base.decompressed_limit((folder / name).stat().st_size)
        assert reason.startswith(f"gzip file expands past {limit // 2**20} MiB"), reason


def test_gzip_within_the_limit_reads_like_the_plain_file(tmp_path, small_ceiling):
    plain = tmp_path / "p" / "data.csv"
    plain.parent.mkdir()
    plain.write_text(CSV + "b,t,x\n")
    packed = _gz(tmp_path / "data.csv.gz", plain.read_bytes())
    a, b = load([plain]), load([packed])
    assert a.samples.equals(b.samples)
    assert [(p.line, p.reason) for p in a.problems] == [
        (4, "row skipped: value 'x' is not a number")
    ]
    assert [(p.line, p.reason) for p in b.problems] == [(p.line, p.reason) for p in a.problems]


def test_damaged_gzip_is_a_problem(tmp_path):
    data = gzip.compress(CSV.encode() * 1000)
    (tmp_path / "cut.csv.gz").write_bytes(data[: len(data) // 2])
    rs = load([tmp_path / "cut.csv.gz"])
    assert rs.samples.height == 0
    assert len(rs.problems) == 1


@pytest.mark.parametrize("name", ["a[1]*?.csv", "~x.csv", "{a,b}.csv"])
def test_file_names_are_not_patterns(tmp_path, name):
    (tmp_path / name).write_text(CSV)
    (tmp_path / "a1x.csv").write_text("benchmark,metric,value\nother,t,5\n")
    rs = load([tmp_path / name])
    assert rs.samples["benchmark"].to_list() == ["b", "b"] and not rs.problems


def test_leading_blank_lines_and_byte_order_mark_keep_line_numbers(tmp_path):
    f = tmp_path / "lead.csv"
    f.write_bytes(b"\xef\xbb\xbf\n  \nbenchmark,metric,value\nb,t,1\nb,t,zz\n")
    rs = load([f])
    assert rs.samples.height == 1
    assert [(p.line, p.reason) for p in rs.problems] == [
        (5, "row skipped: value 'zz' is not a number")
    ]


def test_xz_bomb_is_capped_like_gzip(tmp_path, small_ceiling):
    import lzma

    path = tmp_path / "bomb.json.xz"
    path.write_bytes(lzma.compress(b'{"context": {}, "benchmarks": [' + b" " * 3 * 2**20 + b"]}"))
    rs = load([path])
    limit = base.decompressed_limit(path.stat().st_size)
    assert [p.reason for p in rs.problems] == [
        f"xz file expands past {limit // 2**20} MiB (50 times its size, at most 1 GiB): "
        "not read, as a guard against decompression bombs"
    ]


def test_native_file_larger_than_free_memory_is_one_problem(tmp_path, monkeypatch):
    from tuibench.ingest.formats import native
    from tuibench.util import memory_limits

    path = tmp_path / "big.csv"
    path.write_text(CSV * 100)
    monkeypatch.setattr(memory_limits, "address_space_left", lambda: None)
    monkeypatch.setattr(memory_limits, "available_memory", lambda: 1000 * native.MEMORY_PER_BYTE)
    rs = load([path])
    assert rs.samples.height == 0
    [problem] = rs.problems
    assert problem.path == str(path)
    assert problem.reason.startswith("too large to load here: it would need about 0.0 GiB")
    monkeypatch.setattr(memory_limits, "available_memory", lambda: None)  # unknown: try
    assert load([path]).samples.height == 200
