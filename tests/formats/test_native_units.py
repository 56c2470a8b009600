"""Native files: one unit per metric, duplicate files, compressed CSV, 64-bit numbers."""

from __future__ import annotations

import gzip

import polars as pl
import pytest

from tuibench.analysis.compare import Analysis
from tuibench.ingest.formats import read_file
from tuibench.ingest.load import load
from tuibench.model.units import common_unit

HEADER = "benchmark,metric,iteration,value,unit\n"


def write(path, rows: list[tuple]) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(HEADER + "".join(",".join(map(str, r)) + "\n" for r in rows))


def values(rs, system: str, metric: str) -> list[float]:
    s = rs.samples.filter((pl.col("system") == system) & (pl.col("metric") == metric))
    return s.sort("iteration")["value"].to_list()


@pytest.mark.parametrize(
    ("units", "target", "factors"),
    [
        (["ms", "s"], "ms", {"ms": 1.0, "s": 1000.0}),
        (["us", "µs", "ns"], "ns", {"us": 1000.0, "µs": 1000.0, "ns": 1.0}),
        (["min", "s"], "s", {"min": 60.0, "s": 1.0}),
        (["KiB", "B", "MB"], "B", {"KiB": 1024.0, "B": 1.0, "MB": 1e6}),
        (["GiB", "MiB"], "MiB", {"GiB": 1024.0, "MiB": 1.0}),
        (["GB/s", "MB/s", "KiB/sec"], "KiB/sec", {"GB/s": 1e9 / 1024, "MB/s": 1e6 / 1024,
                                                  "KiB/sec": 1.0}),
        (["us/op", "ns/op"], "ns/op", {"us/op": 1000.0, "ns/op": 1.0}),
    ],
)  # fmt: skip
def test_common_unit_is_the_finest_and_factors_are_exact(units, target, factors):
    got_target, got = common_unit(units)
    assert got_target == target
    assert got == pytest.approx(factors, rel=1e-12)


@pytest.mark.parametrize("units", [["ms", "furlong"], ["ms", "MB"], ["MB/s", "ms"], ["x", "y"]])
def test_units_that_do_not_convert(units):
    assert common_unit(units) is None


def test_time_units_of_one_metric_are_converted_between_systems(tmp_path):
    write(
        tmp_path / "base" / "a.csv", [("b", "t", i, v, "s") for i, v in enumerate([1, 1.1, 1.05])]
    )
    write(
        tmp_path / "new" / "a.csv",
        [("b", "t", i, v, "ms") for i, v in enumerate([990, 1010, 1000])],
    )
    rs = load([tmp_path])
    assert rs.problems == []
    assert values(rs, "base", "t") == [1000.0, 1100.0, 1050.0]
    assert values(rs, "new", "t") == [990.0, 1010.0, 1000.0]
    assert rs.metrics.select("unit", "better").rows() == [("ms", "lower")]
    row = Analysis(rs).compare("base").rows.filter(pl.col("system") == "new")
    assert row["center"][0] == pytest.approx(1000.0)
    assert row["change"][0] == pytest.approx(1000 / 1050 - 1)  # not -99.9 %


def test_rates_in_one_file_with_two_units_are_converted(tmp_path):
    write(tmp_path / "s" / "a.csv", [("b", "bw", 0, 0.5, "GB/s"), ("b", "bw", 1, 480, "MB/s")])
    rs = load([tmp_path / "s"])
    assert rs.problems == []
    assert values(rs, "s", "bw") == [500.0, 480.0]
    assert rs.metrics.select("unit", "better").rows() == [("MB/s", "higher")]


def test_units_that_do_not_convert_are_a_problem_and_give_no_row(tmp_path):
    write(
        tmp_path / "base" / "a.csv",
        [("b", "x", i, 3, "furlong") for i in range(3)] + [("b", "t", 0, 1, "s")],
    )
    write(
        tmp_path / "new" / "a.csv",
        [("b", "x", i, 3, "parsec") for i in range(3)] + [("b", "t", 0, 1, "s")],
    )
    rs = load([tmp_path])
    [problem] = rs.problems
    assert "'x'" in problem.reason and "do not convert" in problem.reason
    assert "furlong in " in problem.reason and "parsec in " in problem.reason
    assert str(tmp_path / "base" / "a.csv") in problem.reason
    assert set(rs.samples["metric"].cast(pl.String)) == {"t"}
    rows = Analysis(rs).compare("base").rows
    assert set(rows["metric"]) == {"t"}  # no verdict at all for x


def test_the_same_results_in_two_files_are_a_problem_naming_both(tmp_path):
    rows = [("b", "t", i, v, "ms") for i, v in enumerate([10, 11, 12])]
    write(tmp_path / "base" / "run.csv", rows)
    # the same numbers written differently (10.0): not a byte copy (tests/core/test_copies.py)
    write(tmp_path / "base" / "run-copy.csv", [(*r[:3], float(r[3]), r[4]) for r in rows])
    write(tmp_path / "new" / "run.csv", [(*r[:3], r[3] + 1, r[4]) for r in rows])
    rs = load([tmp_path])
    [problem] = rs.problems
    # files in natural order: run-copy.csv is first, run.csv's samples are left out
    assert problem.path == str(tmp_path / "base" / "run.csv")
    assert f"the same results as {tmp_path / 'base' / 'run-copy.csv'} (" in problem.reason
    assert "and 2 more" in problem.reason and "left out" in problem.reason
    assert values(rs, "base", "t") == [10.0, 11.0, 12.0]  # counted once


def test_the_same_iteration_with_other_values_is_not_called_the_same_results(tmp_path):
    """Two runs numbering their iterations alike are no copy: the problem says the keys are
    the same and the values are not, names both files and which one was kept."""
    write(tmp_path / "base" / "run1.csv", [("b", "t", 0, 10, "ms"), ("b", "t", 0, 10.2, "ms")])
    write(tmp_path / "base" / "run2.csv", [("b", "t", 0, 12, "ms"), ("b", "t", 0, 12.1, "ms")])
    write(tmp_path / "new" / "run1.csv", [("b", "t", 0, 11, "ms"), ("b", "t", 0, 11.1, "ms")])
    rs = load([tmp_path])
    [problem] = rs.problems
    assert problem.path == str(tmp_path / "base" / "run2.csv")
    assert "the same results" not in problem.reason
    assert problem.reason.startswith(
        "the same system, benchmark, metric and iteration as "
        f"{tmp_path / 'base' / 'run1.csv'} (b t, iteration 0 of base), with different "
        "values: this file's samples of those were left out and that file's kept"
    )
    assert "give each run its own iteration numbers or folder" in problem.reason
    assert sorted(values(rs, "base", "t")) == [10.0, 10.2]  # run1.csv's, once


def test_a_file_giving_some_keys_the_same_values_and_some_not(tmp_path):
    """Counted per key: the example is a key whose values differ."""
    rows = [("b", "t", i, v, "ms") for i, v in enumerate([10, 11, 12])]
    write(tmp_path / "base" / "a.csv", rows)
    write(tmp_path / "base" / "b.csv", [*rows[:2], ("b", "t", 2, 13, "ms")])
    write(tmp_path / "new" / "a.csv", [(*r[:3], r[3] + 1, r[4]) for r in rows])
    [problem] = load([tmp_path]).problems
    assert problem.path == str(tmp_path / "base" / "b.csv")
    assert "(b t, iteration 2 of base and 2 more), with different values in 1 of them:" in (
        problem.reason
    )


def test_the_real_mmtests_runs_given_as_one_system_are_not_the_same_results(fixtures_dir):
    """5.8-vanilla's and 5.8-patched's parse-results TSVs (different bytes and values) under
    one folder given as a system: one iteration each, numbered alike."""
    real = fixtures_dir / "mmtests-real"
    rs = load([real / "json-export", real / "tsv"])
    twice = [p for p in rs.problems if "left out" in p.reason]
    assert len(twice) == 10  # 5 iterations x 2 tests
    for p in twice:
        assert "5.8-vanilla" in p.path and "5.8-patched" in p.reason
        assert "with different values:" in p.reason and "the same results" not in p.reason


def test_compressed_csv_and_tsv_are_read_decompressed(tmp_path):
    text = HEADER + "b,t,0,1.5,ms\nb,t,1,2.5,ms\n"
    (tmp_path / "r.csv.gz").write_bytes(gzip.compress(text.encode()))
    (tmp_path / "r.tsv.gz").write_bytes(gzip.compress(text.replace(",", "\t").encode()))
    for name in ("r.csv.gz", "r.tsv.gz"):
        result = read_file(tmp_path / name)
        assert result.format == "native" and result.problems == []
        assert result.frame["value"].to_list() == [1.5, 2.5]


def test_iteration_or_sample_beyond_64_bits_is_a_problem_and_the_rest_loads(tmp_path):
    p = tmp_path / "r.csv"
    p.write_text(
        "benchmark,metric,iteration,sample,value\n"
        "b,t,0,0,1.5\n"
        "b,t,99999999999999999999,0,2\n"
        "b,t,1,-18446744073709551616,3\n"
        "b,t,1,1,4\n"
    )
    result = read_file(p)
    assert [(x.line, x.reason) for x in result.problems] == [
        (3, "row skipped: iteration '99999999999999999999' does not fit a 64-bit integer "
            "(at most ±9223372036854775807)"),
        (4, "row skipped: sample '-18446744073709551616' does not fit a 64-bit integer "
            "(at most ±9223372036854775807)"),
    ]  # fmt: skip
    assert result.frame.select("iteration", "sample", "value").rows() == [(0, 0, 1.5), (1, 1, 4.0)]


def test_a_folder_whose_file_names_its_systems_is_no_system(tmp_path):
    folder = tmp_path / "all"
    folder.mkdir()
    (folder / "tidy.csv").write_text(
        "system,benchmark,metric,value\nbase,b,t,1\nbase,b,t,2\nnew,b,t,3\nnew,b,t,4\n"
    )
    rs = load([folder])
    assert rs.problems == [] and rs.system_names == ["base", "new"]  # no system "all"
