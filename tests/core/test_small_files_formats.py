"""Small Parquet and JSON Lines batches, and JSON readers' rows gathered into one frame, load
exactly as reading every file on its own (small_files.BATCHED = False) does."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest

from tuibench.ingest import collect, small_files
from tuibench.ingest import load as load_module
from tuibench.ingest.formats import base, native
from tuibench.ingest.load import load

REPO = Path(__file__).resolve().parents[2]
FIXTURES = REPO.parent / "shared" / "fixtures"  # absent from a fresh clone: skipped

HYPERFINE = {
    "results": [
        {"command": "make", "times": [1.0, 1.5, 1.25], "exit_codes": [0, 2, 0]},
        {"command": "make", "times": [1.1], "exit_codes": [0]},
        {"command": "ls", "times": [0.1, "x"], "exit_codes": [0, 0]},
    ]
}
GBENCH_MEANS_ONLY = {
    "context": {"host_name": "box", "num_cpus": 8},
    "benchmarks": [
        {
            "name": "BM_a_mean",
            "run_name": "BM_a",
            "run_type": "aggregate",
            "aggregate_name": "mean",
            "repetitions": 3,
            "real_time": 10.0,
            "cpu_time": 9.0,
            "time_unit": "us",
        }
    ],
}
PYPERF = {
    "version": "1.0",
    "metadata": {"hostname": "box", "name": "bm", "unit": "second"},
    "benchmarks": [{"runs": [{"values": [0.5, 0.25]}, {"values": [0.75, float("nan")]}]}],
}
JSONL_GOOD = '{"benchmark":"k","metric":"t","value":1,"unit":"s"}\n'


def _jsonl(*records: str) -> str:
    return "".join(r + "\n" for r in records)


def _truncated(obj) -> str:
    text = json.dumps(obj)
    return text[: text.index('"real_time"')]


def _parquet(path, **columns):
    path.parent.mkdir(parents=True, exist_ok=True)
    pl.DataFrame(columns).write_parquet(path)


def _write(root, files: dict[str, object]) -> None:
    for name, content in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        elif isinstance(content, str):
            path.write_text(content)
        else:
            path.write_text(json.dumps(content))


def _bad_tree(root):
    """Each kind of file the batches take, with what can go wrong in them."""
    good = {"benchmark": ["p", "p", "q"], "metric": ["t"] * 3, "value": [1.0, 2.0, 3.0]}
    for it in range(3):
        _parquet(root / "a" / f"iter-{it}" / "net.parquet", **good, unit=["ms"] * 3)
    _parquet(root / "a" / "iter-1" / "bad.parquet", **{**good, "value": [1.0, float("nan"), 2]})
    _parquet(  # another schema: the value as text, with a bad one; upper-case names
        root / "a" / "iter-2" / "text.parquet",
        BENCHMARK=["p", "p"],
        Metric=["t", "t"],
        value=["1.5", "x"],
        sample=["0", "1.5"],
    )
    _parquet(root / "a" / "iter-0" / "empty.parquet", **{k: v[:0] for k, v in good.items()})
    _parquet(root / "a" / "nocol.parquet", benchmark=["p"], value=[1.0])
    _parquet(  # rows that name other systems, and rows that name none (the folder's)
        root / "b" / "sys.parquet", **good, system=["zeta", None, "other"]
    )
    _parquet(root / "b" / "mine.parquet", **good, system=[None, None, None])
    whole = (root / "a" / "iter-0" / "net.parquet").read_bytes()
    _write(
        root,
        {
            "a/iter-2/truncated.parquet": whole[: len(whole) // 2],
            "a/iter-0/k.jsonl": _jsonl(
                '{"benchmark":"k","metric":"t","value":1,"unit":"s","sample":0}',
                "{not json",
                "[1, 2]",
                '{"benchmark":"k","metric":"t","value":"x"}',
                "",
                '{"benchmark":"k","metric":"t","value":2.5,"better":"Lower","iteration":1}',
                '{"Benchmark":" k ","metric":"t","value":3,"iteration":1.5}',
            ),
            "a/iter-1/k.jsonl": JSONL_GOOD * 3 + '{"benchmark":"k","metric":"t","value":1e400}\n',
            "a/iter-1/nested.jsonl": '{"benchmark":"k","metric":"t","value":1}\n{oops\n'.replace(
                '"value":1', '"value":1,"x":{"y":[1]}'
            ),
            "a/iter-2/novalue.jsonl": _jsonl('{"benchmark":"k","metric":"t","v":1}'),
            "a/iter-2/dunder.jsonl": _jsonl(
                '{"benchmark":"k","metric":"t","value":1,"__file":"x"}'
            ),
            "a/iter-2/many.jsonl": "".join(
                f'{{"benchmark":"k","metric":"t","value":"bad{j}"}}\n' for j in range(14)
            ),
            "a/iter-0/wide.csv": "benchmark,metric,value\nc,t,1\nc,t,oops\n",
            "a/empty.jsonl": "",
            "a/zero.csv": b"",
            "a/h/run1.json": HYPERFINE,
            "a/h/run2.json": HYPERFINE,
            "a/h/surrogate.json": {"results": [{"command": "odd \ud800", "times": [1.0]}]},
            "a/g/means.json": GBENCH_MEANS_ONLY,
            "a/g/truncated.json": _truncated(GBENCH_MEANS_ONLY),
            "a/pyperf.json": PYPERF,
            "b/other.jsonl": _jsonl(
                '{"system":"yonder","benchmark":"k","metric":"t","value":1}',
                '{"benchmark":"k","metric":"t","value":2}',
            ),
            "b/iter-0/mixed.csv": "system,benchmark,metric,value\nother,m,t,1\n,m,t,2\n",
            # loose files at the top: each is a system named after the file
            "loose.json": HYPERFINE,
            "loose.jsonl": JSONL_GOOD,
        },
    )
    _parquet(root / "loose.parquet", **good)
    return root


def _one_by_one(monkeypatch, paths):
    with monkeypatch.context() as m:
        m.setattr(small_files, "BATCHED", False)
        return load(paths)


def _same(a, b):
    """Frame by frame, file by file, problem by problem."""
    assert a.samples.equals(b.samples)
    assert a.metrics.equals(b.metrics)
    assert a.notes.equals(b.notes)
    assert a.systems == b.systems  # names, order, paths, metadata
    assert a.problems == b.problems  # paths, line numbers, locations, reasons, in order
    assert len(a.files) == len(b.files)
    for fa, fb in zip(a.files, b.files, strict=True):
        assert fa == fb


def _counting(monkeypatch):
    """How many files went to read_file, and how many got a frame of their own."""
    counts = {"read": 0, "framed": 0}
    read_file, tag = load_module.read_file, collect.Collector._tag

    def counted_read(path):
        counts["read"] += 1
        return read_file(path)

    def counted_tag(self, *args):
        counts["framed"] += 1
        return tag(self, *args)

    monkeypatch.setattr(load_module, "read_file", counted_read)
    monkeypatch.setattr(collect.Collector, "_tag", counted_tag)
    return counts


def test_sample_runs_load_as_file_by_file(monkeypatch):
    counts = _counting(monkeypatch)
    batched = load([REPO / "sample_runs"])
    assert counts == {"read": 21, "framed": 0}  # the JSON files; their rows in one frame
    alone = _one_by_one(monkeypatch, [REPO / "sample_runs"])
    assert counts["read"] == 21 + len(alone.files)
    _same(batched, alone)
    assert batched.samples.height > 0 and not batched.problems


def test_bad_files_load_as_file_by_file(tmp_path, monkeypatch):
    root = _bad_tree(tmp_path)
    counts = _counting(monkeypatch)
    batched = load([root])
    framed = counts["framed"]
    alone = _one_by_one(monkeypatch, [root])
    _same(batched, alone)
    # batched: only the files a batch cannot take have a frame of their own
    assert 0 < framed < counts["framed"] - framed
    problems = [str(p) for p in batched.problems]
    for expected in (
        "k.jsonl:2: invalid JSON",
        "k.jsonl:3: a JSON Lines record must be an object",
        "k.jsonl:4: row skipped: value 'x' is not a number",
        "k.jsonl:7: row skipped: iteration '1.5' is not a whole number",
        "bad.parquet:1: row skipped",
        "text.parquet:1: row skipped",
        "empty.parquet: no data rows",
        "nocol.parquet:1: missing required column(s): metric",
        "many.jsonl: 9 more bad rows skipped",
        "truncated.json:1: truncated JSON",
        "zero.csv: empty file",
        "surrogate.json (at results): some names hold characters that are not valid Unicode",
    ):
        assert any(expected in p for p in problems), expected
    assert {"zeta", "other", "yonder", "loose"} <= set(batched.system_names)
    assert batched.notes.height > 0  # hyperfine failures, Google Benchmark means only


def test_fixtures_load_as_file_by_file(monkeypatch):
    if not FIXTURES.is_dir():
        pytest.skip("no shared fixtures")
    folders = ["examples", "gbench", "pyperf", "gotest-real", *_mmtests_folders()]
    for name in folders:
        path = FIXTURES / name
        _same(load([path]), _one_by_one(monkeypatch, [path]))
    paths = [FIXTURES / "examples" / "pyperf_minimal_ref.json", FIXTURES / "gbench"]
    _same(load(paths), _one_by_one(monkeypatch, paths))


def _mmtests_folders() -> list[str]:
    return [f"mmtests-real/{p.name}" for p in (FIXTURES / "mmtests-real").iterdir() if p.is_dir()]


@pytest.mark.parametrize("broken", ["read_parquet_many", "read_jsonl_many", "read_many"])
def test_a_batch_that_fails_is_read_file_by_file(tmp_path, monkeypatch, broken):
    root = _bad_tree(tmp_path)

    def fail(*args):
        raise pl.exceptions.ComputeError("no")

    with monkeypatch.context() as m:
        m.setattr(native, broken, fail)
        batched = load([root])
    _same(batched, _one_by_one(monkeypatch, [root]))


def test_large_json_rows_get_their_own_frame(tmp_path, monkeypatch):
    one = {"results": [{"command": "x", "times": [1.0]}]}
    _write(tmp_path, {"s/a.json": HYPERFINE, "s/b.json": one, "t/c.json": HYPERFINE})
    monkeypatch.setattr(base, "COLUMNS_ROWS", 3)  # HYPERFINE has 5 rows, `one` 1
    counts = _counting(monkeypatch)
    batched = load([tmp_path])
    assert counts["framed"] == 2
    _same(batched, _one_by_one(monkeypatch, [tmp_path]))


def test_a_record_polars_cannot_store_sends_its_batch_file_by_file(tmp_path, monkeypatch):
    _write(
        tmp_path,
        {
            "a/x.jsonl": _jsonl('{"benchmark":"b\\ud800","metric":"t","value":1}'),
            "a/y.jsonl": JSONL_GOOD,
        },
    )
    batched = load([tmp_path])
    _same(batched, _one_by_one(monkeypatch, [tmp_path]))
    assert batched.samples.height == 1
    assert "surrogates not allowed" in str(batched.problems[0])
