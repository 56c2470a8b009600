"""Large Google Benchmark files are read entry by entry: the same rows, problems and
errors as parsing the whole file, at every chunk boundary."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest

from tuibench.ingest import formats
from tuibench.ingest.formats import json_stream, read_file

DATA = Path(__file__).resolve().parents[1] / "data" / "gbench"


def _read(path, monkeypatch, stream: bool, chunk: int = 8 * 2**20):
    with monkeypatch.context() as m:
        m.setattr(formats, "STREAM_BYTES", 0 if stream else 2**62)
        m.setattr(json_stream, "CHUNK", chunk)
        return read_file(path)


def _same(a, b):
    assert a.format == b.format
    assert a.frame.equals(b.frame)
    assert [str(p) for p in a.problems] == [str(p) for p in b.problems]
    assert a.metadata == b.metadata
    assert a.notes == b.notes


def _files(fixtures: Path | None = None):
    files = sorted(DATA.rglob("*.json"))
    return files


@pytest.mark.parametrize("path", _files(), ids=lambda p: p.name)
@pytest.mark.parametrize("chunk", [1, 7, 4096])
def test_streamed_files_read_as_parsed_whole(path, chunk, monkeypatch):
    _same(_read(path, monkeypatch, True, chunk), _read(path, monkeypatch, False))


def test_real_google_benchmark_output(fixtures_dir, monkeypatch):
    for path in sorted((fixtures_dir / "gbench").glob("*.json")):
        _same(_read(path, monkeypatch, True, 5), _read(path, monkeypatch, False))


DOC = {
    "context": {"host_name": "h", "num_cpus": 2},
    "benchmarks": [
        {
            "name": "BM_a",
            "run_type": "iteration",
            "iterations": 10,
            "real_time": 1.5,
            "cpu_time": 12345678901234567890,
            "time_unit": "ns",
        },
        {
            "name": "BM_b",
            "run_type": "iteration",
            "iterations": 1,
            "real_time": float("nan"),
            "cpu_time": 2,
            "time_unit": "us",
            "items_per_second": float("inf"),
        },
        17,
    ],
    "after": {"x": [1, 2, 3]},
}


@pytest.mark.parametrize(
    "text, streamed",
    [
        (json.dumps(DOC), True),
        (json.dumps(DOC, indent=4), True),
        (json.dumps(DOC)[:-9], True),  # truncated after the list
        (json.dumps(DOC)[:120], True),  # truncated inside an entry
        (json.dumps(DOC) + " x", True),  # extra data
        (json.dumps(DOC).replace('"BM_b"', "BM_b"), True),  # invalid inside an entry
        (json.dumps({"benchmarks": DOC["benchmarks"], "context": {}}), False),  # not this order
        (json.dumps({"context": [], "benchmarks": []}), False),
        (json.dumps({"context": {}, "benchmarks": []}), True),
        (json.dumps({"context": {}, "benchmarks": {}}), False),
        ("[1, 2]", False),
    ],
)
@pytest.mark.parametrize("chunk", [1, 3, 64])
def test_odd_and_broken_json(tmp_path, monkeypatch, text, streamed, chunk):
    path = tmp_path / "run.json"
    path.write_text(text)
    calls = []
    real = json_stream._items

    def items(r, fh):
        calls.append(1)
        return real(r, fh)

    monkeypatch.setattr(json_stream, "_items", items)
    a = _read(path, monkeypatch, True, chunk)
    assert bool(calls) == streamed
    _same(a, _read(path, monkeypatch, False))


def test_gzipped_large_file_streams(tmp_path, monkeypatch):
    path = tmp_path / "run.json.gz"
    with gzip.open(path, "wt") as fh:
        json.dump(DOC, fh)
    _same(_read(path, monkeypatch, True, 2), _read(path, monkeypatch, False))
