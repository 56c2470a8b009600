"""Discovery and loading: layouts, ordering, overrides, and bad files as problems."""

from __future__ import annotations

import os

import numpy as np
import polars as pl
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tuibench.ingest.config import infer_better
from tuibench.ingest.formats import native
from tuibench.ingest.load import _changes, load


def _csv(path, text):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_natural_order_and_system_toml_order(tmp_path, make_system):
    for name in ("linux-6.10", "linux-6.9", "linux-6.11"):
        make_system(tmp_path, name, [("b", "t", 0, 1.0)])
    assert load([tmp_path]).system_names == ["linux-6.9", "linux-6.10", "linux-6.11"]
    (tmp_path / "linux-6.11" / "system.toml").write_text('order = 0\ndescription = "new"\n')
    rs = load([tmp_path])
    assert rs.system_names == ["linux-6.11", "linux-6.9", "linux-6.10"]
    assert rs.system("linux-6.11").description == "new"


def test_iter_folders_and_files_as_iterations(tmp_path):
    for it in (0, 3):
        _csv(
            tmp_path / "a" / "deep" / f"iter-{it}" / "x.csv",
            f"benchmark,metric,value\nb,t,1\nb,t,2{'.0' if it else ''}\n",  # not a copy
        )
    _csv(tmp_path / "b" / "run1.csv", "benchmark,metric,value\nb,t,1\n")
    _csv(tmp_path / "b" / "run2.csv", "benchmark,metric,value\nb,t,3\nb,t,4\n")
    s = load([tmp_path]).samples
    a = s.filter(pl.col("system") == "a")
    assert sorted(set(a["iteration"])) == [0, 3]
    assert a.filter(pl.col("iteration") == 3)["sample"].to_list() == [0, 1]
    b = s.filter(pl.col("system") == "b")
    assert b["iteration"].to_list() == [0, 1, 1]


def test_several_paths_each_one_system(tmp_path, make_system):
    make_system(tmp_path / "x", "old", [("b", "t", 0, 1.0)])
    make_system(tmp_path / "y", "new", [("b", "t", 0, 2.0)])
    rs = load([tmp_path / "x" / "old", tmp_path / "y" / "new"])
    assert rs.system_names == ["new", "old"]
    assert rs.samples.height == 2


def test_single_tidy_file_with_system_column(tmp_path):
    f = _csv(
        tmp_path / "all.csv",
        "system,benchmark,metric,iteration,value\ns1,b,t,0,1\ns1,b,t,1,2\ns2,b,t,0,3\n",
    )
    rs = load([f])
    assert rs.system_names == ["s1", "s2"]
    pq = tmp_path / "all.parquet"
    pl.read_csv(f).write_parquet(pq)
    assert load([pq]).samples.height == 3


def test_tsv_jsonl_parquet(tmp_path):
    _csv(tmp_path / "s" / "a.tsv", "benchmark\tmetric\tvalue\tunit\nb\tt\t1.5\tms\n")
    _csv(tmp_path / "s" / "a.jsonl", '{"benchmark": "c", "metric": "t", "value": 2}\n')
    pl.DataFrame({"benchmark": ["d"], "metric": ["t"], "value": [3.0]}).write_parquet(
        tmp_path / "s" / "a.parquet"
    )
    rs = load([tmp_path])
    assert sorted(rs.samples["benchmark"]) == ["b", "c", "d"]
    assert rs.problems == []


@pytest.mark.parametrize("batched", [True, False])
def test_parquet_named_with_glob_characters_and_mixed_case_columns(tmp_path, monkeypatch, batched):
    """A file name is a name, not a pattern ("run[1]" once failed: no file matches it), and
    headers are matched as in CSV (stripped, any case); small files read together or alone."""
    from tuibench.ingest import small_files

    monkeypatch.setattr(small_files, "BATCHED", batched)
    (tmp_path / "s").mkdir()
    frame = pl.DataFrame({" Benchmark": ["d", "d"], "METRIC": ["t", "t"], "Value": [3.0, 4.0]})
    for k, name in enumerate(("run[1].parquet", "run*.parquet", "run?.parquet")):
        frame.with_columns(pl.col("Value") + k).write_parquet(tmp_path / "s" / name)
    rs = load([tmp_path])
    assert rs.problems == []
    assert rs.samples.height == 6 and set(rs.samples["benchmark"]) == {"d"}
    if batched:  # the batch takes them too (their names are no patterns there either)
        from tuibench.ingest.discover import discover

        units = discover([tmp_path]).units
        small = small_files.SmallFiles()
        assert all(small.take(i, u, u.path.read_bytes()) for i, u in enumerate(units))


def test_overrides_and_direction_inference(tmp_path, make_system):
    make_system(
        tmp_path,
        "s",
        [
            ("pgbench/ro", "tps", 0, 5.0, ""),
            ("pgbench/ro", "lat", 0, 1, "ms"),
            ("x", "bw", 0, 1.0, "MB/s"),
            ("x", "score", 0, 1.0, ""),
        ],
    )
    (tmp_path / "tuibench.toml").write_text(
        '[metrics."pgbench/*:tps"]\nbetter = "higher"\nunit = "tx/s"\n'
        '[metrics."score"]\nbetter = "higher"\nmean = "amean"\n'
    )
    m = load([tmp_path]).metrics
    got = {
        (r["benchmark"], r["metric"]): (r["unit"], r["better"], r["mean_kind"])
        for r in m.iter_rows(named=True)
    }
    assert got[("pgbench/ro", "tps")] == ("tx/s", "higher", "hmean")
    assert got[("pgbench/ro", "lat")] == ("ms", "lower", "amean")
    assert got[("x", "bw")] == ("MB/s", "higher", "hmean")
    assert got[("x", "score")] == (None, "higher", "amean")


@pytest.mark.parametrize(
    "unit,metric,want",
    [
        ("ops/s", "x", "higher"),
        ("MB/s", "x", "higher"),
        ("tps", "x", "higher"),
        ("ops", "x", "higher"),
        (None, "bytes_per_second", "higher"),
        ("ns", "x", "lower"),
        ("ns/op", "x", "lower"),
        ("allocs/op", "x", "lower"),
        ("s", "time", "lower"),
        ("MiB", "rss", "lower"),
        ("B/op", "x", "lower"),
        # Nothing says which way is better: unknown, never a guess.
        (None, "time", None),
        (None, "loops", None),
        ("widgets/op", "x", None),
        ("", "score", None),
    ],
)
def test_infer_better(unit, metric, want):
    assert infer_better(unit, metric) == want


def test_bad_native_files_are_problems_and_the_rest_loads(tmp_path, make_system):
    make_system(tmp_path, "good", [("b", "t", 0, 1.0), ("b", "t", 0, 2.0)])
    bad = tmp_path / "bad"
    _csv(bad / "missing.csv", "benchmark,value\nb,1\n")
    _csv(bad / "nonnum.csv", "benchmark,metric,value\nb,t,1\nb,t,fast\nb,t,3\n")
    _csv(bad / "empty.csv", "")
    _csv(bad / "header_only.csv", "benchmark,metric,value\n")
    _csv(bad / "garbage.json", '{"benchmarks": [1, 2')
    (bad / "blob.bin").write_bytes(bytes(range(256)) * 4)
    rs = load([tmp_path])
    text = "\n".join(str(p) for p in rs.problems)
    assert "missing.csv:1: missing required column(s): metric" in text
    assert "nonnum.csv:3: row skipped: value 'fast' is not a number" in text
    assert "empty.csv: empty file" in text
    assert "header_only.csv: no data rows" in text
    assert "garbage.json:1: truncated JSON" in text
    assert "blob.bin" not in text  # no results, and says nothing wrong: set aside
    assert [(a.kind, a.reason) for a in rs.set_aside if a.path.endswith("blob.bin")] == [
        ("binary", "binary data in no known format (not Parquet or JSON)")
    ]
    assert rs.samples.filter(pl.col("system") == "good").height == 2
    assert rs.samples.filter(pl.col("system") == "bad")["value"].to_list() == [1.0, 3.0]


def test_unreadable_file_and_symlink_loop(tmp_path, make_system):
    make_system(tmp_path, "s", [("b", "t", 0, 1.0)])
    locked = _csv(tmp_path / "s" / "locked.csv", "benchmark,metric,value\nb,t,1\n")
    os.chmod(locked, 0)
    os.symlink(tmp_path, tmp_path / "s" / "loop")
    try:
        rs = load([tmp_path])
    finally:
        os.chmod(locked, 0o644)
    text = "\n".join(str(p) for p in rs.problems)
    assert "loop: symbolic link loop" in text
    if os.geteuid() != 0:  # root reads anything
        assert "permission denied" in text
    assert rs.samples.height >= 1


def test_nothing_loaded(tmp_path):
    rs = load([tmp_path / "nope"])
    assert rs.empty and "no such file or folder" in str(rs.problems[0])
    (tmp_path / "empty").mkdir()
    assert load([tmp_path / "empty"]).empty


def test_nothing_is_written_into_the_results(tmp_path, make_system):
    make_system(tmp_path, "a", [("b", "t", 0, 1.0)])
    before = sorted(p for p in tmp_path.rglob("*"))
    load([tmp_path])
    assert sorted(p for p in tmp_path.rglob("*")) == before


def test_huge_single_lines_are_problems_not_hangs(tmp_path, make_system):
    make_system(tmp_path, "s", [("b", "t", 0, 1.0)])
    (tmp_path / "s" / "huge.txt").write_text("x" * 20_000_000)
    (tmp_path / "s" / "huge.json").write_text("[" + "1," * 5_000_000 + "1]")
    (tmp_path / "s" / "cut.json").write_text('{"benchmarks": [' + '{"name": "a"},' * 200_000)
    rs = load([tmp_path])
    text = "\n".join(str(p) for p in rs.problems)
    assert "huge.txt" not in text  # text of no known format: set aside, not a problem
    assert [a.kind for a in rs.set_aside if a.path.endswith("huge.txt")] == ["text"]
    assert "huge.json: a JSON list: not a result file" in text
    assert "cut.json:1: truncated JSON" in text
    assert rs.samples.height == 1


@settings(max_examples=80, deadline=None)
@given(
    st.lists(
        st.tuples(st.sampled_from(["a", "b", " a", None]), st.sampled_from([1, 2]), st.booleans()),
        max_size=40,
    ),
    st.integers(1, 7),
)
def test_changes_a_chunk_at_a_time_against_a_plain_loop(rows, chunk):
    """Text with nulls, integers, and integers with nulls; the text also as Categorical
    codes (names as the loader holds them)."""
    rows = [(t, i, None if n else i) for t, i, n in rows]
    frame = pl.DataFrame(rows, schema=["t", "i", "n"], orient="row")
    want = [i > 0 and rows[i] != rows[i - 1] for i in range(len(rows))]
    assert _changes(frame, chunk).tolist() == want
    coded = frame.with_columns(pl.col("t").cast(pl.Categorical))
    assert _changes(coded, chunk).tolist() == want


def test_rows_come_out_in_natural_order_whatever_order_the_file_has(tmp_path):
    """Runs of rows in scrambled order, names in natural order (bench-2 before bench-10),
    samples numbered by row order: against a plain sort of the same rows."""
    rng = np.random.default_rng(3)
    rows = [
        (s, f"bench-{b}", m, it, float(rng.normal(10, 1)))
        for s in ("sys-b", "sys-a")
        for b in (10, 2, 1)
        for m in ("time", "cpu")
        for it in (3, 0, 1)
        for _ in range(4)
    ]
    runs = [rows[i : i + 4] for i in range(0, len(rows), 4)]
    scrambled = [runs[i] for i in rng.permutation(len(runs))]
    flat = [r for run in scrambled for r in run]
    path = tmp_path / "all.csv"
    pl.DataFrame(
        flat, schema=["system", "benchmark", "metric", "iteration", "value"], orient="row"
    ).write_csv(path)
    rs = load([path])
    natural = {"sys-a": 0, "sys-b": 1}
    order = sorted(
        range(len(flat)),
        key=lambda i: (
            natural[flat[i][0]],
            int(flat[i][1].split("-")[1]),
            flat[i][2],
            flat[i][3],
            i,  # samples keep their file order inside an iteration
        ),
    )
    got = rs.samples.select(pl.all().cast(pl.String)).rows()
    want, seen = [], {}
    for i in order:
        s, b, m, it, v = flat[i]
        k = seen[(s, b, m, it)] = seen.get((s, b, m, it), -1) + 1
        want.append((s, b, m, str(it), str(k), str(v)))
    assert got == want
    assert rs.samples.schema["benchmark"] == pl.Enum(["bench-1", "bench-2", "bench-10"])


@pytest.mark.parametrize("categorical", [False, True])
def test_directions_and_blank_names_cleaned_once_per_value(tmp_path, categorical):
    """`better` in any case and names with blanks come out as row-by-row text work would
    give them (stripped, lowercased), though the work is done once per distinct value."""
    better = ["Lower", "HIGHER", " lower", "", None, "higher", "lower"]
    bench = [" a", "a", "b ", "b", " c ", "c", "a"]
    df = pl.DataFrame(
        {
            "benchmark": bench,
            "metric": ["m", "n", "m", "n", "m", "n", "m"],
            "value": [1.0, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0],
            "better": better,
        }
    )
    if categorical:
        df = df.with_columns(pl.col("benchmark", "better").cast(pl.Categorical))
    path = tmp_path / "r.parquet"
    df.write_parquet(path)
    raw = pl.read_parquet(path)
    if not categorical:
        raw = raw.with_columns(pl.col(pl.String).cast(pl.Categorical))
    got = native._validate(path, raw, 0, []).frame
    assert got["benchmark"].cast(pl.String).to_list() == [s.strip() for s in bench]
    want = [None if b is None or b == "" else b.strip().lower() for b in better]
    assert got["better"].cast(pl.String).to_list() == want


def test_bad_directions_decided_per_value_keep_rows_without_one():
    """Only the row whose direction is neither lower nor higher is skipped; rows with none
    (null or empty) stay."""
    raw = pl.DataFrame(
        {
            "benchmark": ["k"] * 5,
            "metric": ["t"] * 5,
            "value": ["1", "2", "3", "4", "5"],
            "better": [None, "Lower", "", "Sideways", " HIGHER "],
        }
    )
    frame, bad = native._checked(raw, 1)
    assert frame["value"].to_list() == [1.0, 2.0, 3.0, 5.0]
    assert frame["better"].cast(pl.String).to_list() == [None, "lower", None, "higher"]
    assert bad["__line"].to_list() == [4] and bad["better"].cast(pl.String).to_list() == [
        "Sideways"
    ]


def test_catalogue_in_columns_as_the_loop_per_metric_gives_it():
    """Without overrides the catalogue is built in columns; an override that matches nothing
    takes the loop per metric: same rows, same problems."""
    from tuibench.ingest.config import Override
    from tuibench.ingest.load import _catalogue

    rng = np.random.default_rng(5)
    n = 400
    names = [f"m{i}" for i in range(8)] + ["ops_per_sec", "latency", "throughput"]
    runs = pl.DataFrame(
        {
            "benchmark": [f"b{i}" for i in rng.integers(0, 30, n)],
            "metric": list(rng.choice(names, n)),
            "unit": list(rng.choice(["s", "ms", "MB/s", "", "x/op", None], n)),  # type: ignore[arg-type]
            "better": list(rng.choice(["lower", "higher", "unknown", None, None, None], n)),  # type: ignore[arg-type]
        }
    )
    runs = runs.with_columns(
        pl.col("benchmark").cast(pl.Enum(sorted(set(runs["benchmark"])))),
        pl.col("metric").cast(pl.Enum(sorted(set(runs["metric"])))),
        pl.col("unit", "better").cast(pl.Categorical),
    )
    by_columns, by_loop = [], []
    got = _catalogue(runs, [], by_columns)
    want = _catalogue(runs, [Override("no-such-metric")], by_loop)
    assert got.equals(want) and got.height > 100
    assert [p.to_dict() for p in by_columns] == [p.to_dict() for p in by_loop]
    assert by_columns  # some metric is marked both ways
    assert set(got["better"].drop_nulls()) == {"lower", "higher"}


@pytest.mark.parametrize("long_integer", [False, True])
def test_json_lines_in_columns_as_record_by_record(long_integer):
    """The single file's JSON Lines frame, built a column per group of keys, is the frame
    of the records `_jsonl_rows` makes one by one: rows, order, columns, types, problems."""
    lines = [
        '{"benchmark":"k","metric":"t","value":1,"unit":"s"}',
        '{"Benchmark":"K","metric":"t","value":2.5,"better":"Lower","iteration":1}',
        "{not json",
        "[1, 2]",
        "",
        '{"benchmark":"k","metric":"t","value":NaN,"x":{"y":[1, true]}}',
        '{"benchmark":"k","metric":"t","value":1e400,"flag":false,"u":null}',
        '{"benchmark":"a","BENCHMARK":"b","metric":"t","value":3}',
        '{"benchmark":"k","metric":"t","value":"4","__line":"99"}',
        '{"benchmark":"k","metric":"t","value":-0.0}',
        "{}",
        '{"benchmark":"k","metric":"t","value":1,"unit":"s"}',
        '{"metric":"t","benchmark":"k","value":0.1}',
    ]
    if long_integer:
        lines.append('{"benchmark":"k","metric":"t","value":1,"iteration":123456789012345678901}')
    body = "\n".join(lines) + "\n"
    rows, bad = native._jsonl_rows(body, 3)
    want = pl.DataFrame(rows, infer_schema_length=None)
    got, got_bad = native._read_jsonl(body, 3)
    assert got_bad == bad and len(bad) == 2
    assert got.columns == want.columns
    assert got.equals(want), (got, want)
    # A lone surrogate cannot be stored either way: the file is a problem ("cannot be parsed").
    surrogate = '{"benchmark":"\\ud800","metric":"t","value":1}\n'
    with pytest.raises(ValueError):
        pl.DataFrame(native._jsonl_rows(surrogate, 1)[0])
    with pytest.raises(ValueError):
        native._read_jsonl(surrogate, 1)
