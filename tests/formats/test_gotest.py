"""Go `testing` benchmark text (benchstat input)."""

from __future__ import annotations

import gzip
import shutil
import tempfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tuibench.ingest.formats import read_file
from tuibench.ingest.formats.text_readers import gotest

DATA = Path(__file__).parents[1] / "data" / "gotest"
NAME = "Go benchmark text"


def values(result, benchmark: str, metric: str) -> list[float]:
    f = result.frame
    return f.filter((f["benchmark"] == benchmark) & (f["metric"] == metric))["value"].to_list()


def column(result, benchmark: str, metric: str, name: str) -> set:
    f = result.frame
    return set(f.filter((f["benchmark"] == benchmark) & (f["metric"] == metric))[name].to_list())


def test_go_test_output_loads_every_pair_of_every_line():
    r = read_file(DATA / "go-bench.txt")
    assert r.format == NAME
    assert r.problems == []
    assert set(r.frame["benchmark"]) == {"Encode/size=1k", "Decode", "Render"}
    assert values(r, "Encode/size=1k", "ns/op") == [2875, 2901, 2860]
    assert values(r, "Encode/size=1k", "MB/s") == [356.17, 352.98, 358.04]
    assert values(r, "Encode/size=1k", "B/op") == [1152, 1152, 1152]
    assert values(r, "Encode/size=1k", "allocs/op") == [2, 2, 2]
    assert values(r, "Decode", "ns/op") == [1043, 1051]
    assert values(r, "Render", "frames/op") == [59.5, 60.25]
    assert values(r, "Render", "ns/op") == [10234567, 10198765]
    assert column(r, "Encode/size=1k", "MB/s", "unit") == {"MB/s"}
    assert column(r, "Encode/size=1k", "MB/s", "better") == {"higher"}
    assert column(r, "Decode", "allocs/op", "better") == {"lower"}
    assert column(r, "Render", "frames/op", "better") == {"unknown"}  # a custom unit
    # the file is one iteration; each line one sample in file order
    assert r.frame["iteration"].null_count() == r.frame.height
    assert r.frame["sample"].null_count() == r.frame.height
    assert r.metadata == {
        "goos": "linux",
        "goarch": "amd64",
        "pkg": "example.com/codec",
        "cpu": "Intel(R) Core(TM) i7-8650U CPU @ 1.90GHz",
    }


def test_unit_lines_set_direction_and_config_blocks_are_kept():
    r = read_file(DATA / "config-blocks.txt")
    assert r.problems == []
    assert values(r, "Render", "frames/op") == [59.5, 60.25, 58.0]
    assert column(r, "Render", "frames/op", "better") == {"higher"}  # Unit ... better=higher
    assert column(r, "Render", "ns/op", "better") == {"lower"}  # assume=... only
    assert r.metadata["note"] == "before the patch"
    assert r.metadata["note@line 10"] == "after the patch"
    assert r.metadata["goarch"] == "amd64"
    assert r.metadata["goarch@line 13"] == "arm64"


def test_several_packages_in_one_file_keep_their_benchmarks_apart():
    r = read_file(DATA / "multi-pkg.txt")
    assert r.problems == []
    assert values(r, "codec/Encode", "ns/op") == [1200]
    assert values(r, "internal/store/Encode", "ns/op") == [800]
    # `-4` is the GOMAXPROCS suffix, `n=-1` is part of the name
    assert values(r, "internal/store/Put/n=-1", "ns/op") == [900]
    assert r.metadata["pkg@line 7"] == "example.com/app/internal/store"


def test_malformed_lines_are_problems_with_their_line_and_the_rest_loads():
    r = read_file(DATA / "malformed.txt")
    assert r.format == NAME
    by_line = {p.line: p.reason for p in r.problems}
    assert set(by_line) == {3, 4, 5, 6, 9, 11}
    assert "has no unit" in by_line[3]
    assert "'fast'" in by_line[4] and "not a number" in by_line[4]
    assert "iteration count" in by_line[5] and "'many'" in by_line[5]
    assert "Failing" in by_line[6] and "FAIL" in by_line[6]
    assert "sideways" in by_line[9]
    assert "finite" in by_line[11]
    assert values(r, "Good", "ns/op") == [1500, 1520]
    assert values(r, "Good", "B/op") == [64, 64]
    assert values(r, "OddFields", "ns/op") == [1500]  # the pair before the fault
    assert set(r.frame["benchmark"]) == {"Good", "OddFields"}


def test_gzipped_file_reads_the_same(tmp_path):
    plain = read_file(DATA / "go-bench.txt")
    packed = tmp_path / "go-bench.txt.gz"
    with open(DATA / "go-bench.txt", "rb") as src, gzip.open(packed, "wb") as dst:
        shutil.copyfileobj(src, dst)
    r = read_file(packed)
    assert r.format == NAME
    assert r.frame.equals(plain.frame)


def test_text_without_results_is_not_go(tmp_path):
    prose = "Benchmarking is fun\nBenchmarkFoo\nPASS\nok  \texample.com/x\t0.1s\n"
    assert not gotest.sniff(tmp_path / "x.txt", prose)
    p = tmp_path / "notes.txt"
    p.write_text(prose)
    assert read_file(p).format != NAME


def test_sniff_needs_one_valid_result_line_and_read_reports_the_rest(tmp_path):
    p = tmp_path / "bench.txt"
    p.write_text("BenchmarkB-8  100  x ns/op\nBenchmarkA-8  100  12 ns/op\n")
    assert gotest.sniff(p, p.read_text())
    assert not gotest.sniff(p, "BenchmarkB-8  100  x ns/op\n")
    r = read_file(p)
    assert [pr.line for pr in r.problems] == [1]
    assert values(r, "A", "ns/op") == [12]


def test_no_result_at_all_is_a_problem(tmp_path):
    p = tmp_path / "bench.txt"
    p.write_text("goos: linux\nBenchmarkB-8  100  x ns/op\n")
    r = gotest.read(p)
    assert r.frame.height == 0
    assert any("no Go benchmark results" in pr.reason for pr in r.problems)


# ---------------------------------------------------------------- properties

UNITS = ["ns/op", "B/op", "allocs/op", "MB/s", "frames/op", "ops"]
names = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,8}(/[a-z]{1,4}=[0-9a-z]{1,3}){0,2}", fullmatch=True)
line = st.tuples(
    names,
    st.sampled_from(["", "-1", "-8", "-64"]),
    st.integers(min_value=1, max_value=10**9),
    st.lists(
        st.tuples(
            st.floats(min_value=0, max_value=1e15, allow_nan=False, allow_infinity=False),
            st.sampled_from(UNITS),
        ),
        min_size=1,
        max_size=4,
        unique_by=lambda p: p[1],
    ),
)


def render(lines) -> str:
    out = ["goos: linux", "goarch: amd64", "pkg: example.com/p"]
    for name, procs, n, pairs in lines:
        out.append(f"Benchmark{name}{procs}\t{n}\t" + "\t".join(f"{v!r} {u}" for v, u in pairs))
    out += ["PASS", "ok  \texample.com/p\t1.0s"]
    return "\n".join(out) + "\n"


def reader_did_not_crash(result) -> bool:
    return not any(p.reason.startswith("could not be read (") for p in result.problems)


@settings(max_examples=50, deadline=None)
@given(st.lists(line, min_size=1, max_size=8))
def test_every_generated_sample_comes_back(lines):
    with tempfile.TemporaryDirectory() as tmp:
        p = Path(tmp) / "bench.txt"
        p.write_text(render(lines))
        r = read_file(p)
    assert r.format == NAME
    assert r.problems == []
    # Several GOMAXPROCS values for one name keep it (no suffix is 1): `A/cpu:8`.
    procs = {}
    for n, suffix, _, _ in lines:
        procs.setdefault(n, set()).add(int(suffix[1:] or 1))
    named = {
        (n, s): f"{n}/cpu:{int(s[1:] or 1)}" if len(procs[n]) > 1 else n for n, s, _, _ in lines
    }
    expected = sorted((named[n, s], u, v) for n, s, _, pairs in lines for v, u in pairs)
    got = sorted(zip(r.frame["benchmark"], r.frame["metric"], r.frame["value"], strict=True))
    assert got == expected


@settings(max_examples=50, deadline=None)
@given(st.lists(line, min_size=1, max_size=5), st.data())
def test_corrupted_text_never_breaks_the_reader(lines, data):
    text = render(lines)
    cut = data.draw(st.integers(min_value=0, max_value=len(text)))
    junk = data.draw(st.text(max_size=30))
    at = data.draw(st.integers(min_value=0, max_value=len(text)))
    for variant in (text[:cut], text[:at] + junk + text[at:], junk):
        with tempfile.TemporaryDirectory() as tmp:
            p = Path(tmp) / "bench.txt"
            p.write_text(variant, encoding="utf-8", errors="surrogatepass")
            r = read_file(p)
            assert reader_did_not_crash(r)
            if gotest.sniff(p, variant):
                assert reader_did_not_crash(gotest.read(p))


# ---------------------------------------------------------------- real go test output


def problems_by_line(r) -> dict[int, str]:
    return {p.line: p.reason for p in r.problems}


@pytest.mark.parametrize("name", ["go-test-nested.txt", "go-test-nested-v.txt"])
def test_real_nested_packages_are_named_relative_to_the_module(name):
    r = read_file(DATA / name)
    assert r.format == NAME
    assert set(r.frame["benchmark"]) == {"Join", "codec/json/Encode", "internal/store/Encode"}
    lines = (DATA / name).read_text().splitlines()
    want = [float(ln.split()[2]) for ln in lines if ln.startswith("BenchmarkEncode-2")]
    got = values(r, "codec/json/Encode", "ns/op") + values(r, "internal/store/Encode", "ns/op")
    assert got == want
    assert column(r, "internal/store/Encode", "keys/op", "better") == {"unknown"}
    assert column(r, "codec/json/Encode", "MB/s", "better") == {"higher"}


def test_real_benchmark_failing_on_its_first_call_is_a_problem():
    r = read_file(DATA / "go-test-nested.txt")
    assert problems_by_line(r) == {
        17: "benchmark codec/json/Decode failed and has no result (go test printed "
        "'--- FAIL'): json_test.go:18: decoder not wired up yet"
    }
    r = read_file(DATA / "fail-first.txt")
    got = problems_by_line(r)
    assert set(got) == {1, 7, 9}
    assert got[1].startswith("benchmark First failed") and got[1].endswith("fails at once")
    assert got[7].startswith("benchmark Later has no result") and got[7].endswith("fails later")
    assert values(r, "OK", "ns/op") == [0.2788, 0.4035]


def test_real_verbose_skip_is_a_problem_with_its_reason():
    r = read_file(DATA / "go-test-nested-v.txt")
    got = problems_by_line(r)
    assert got[32] == (
        "benchmark internal/store/Put was skipped: no result (go test printed '--- SKIP'): "
        "store_test.go:14: needs a database"
    )
    assert got[19].endswith("decoder not wired up yet")  # -v logs before the FAIL line
    r = read_file(DATA / "skip-verbose.txt")
    assert [p.line for p in r.problems] == [7]
    assert "Skipped was skipped" in r.problems[0].reason
    assert values(r, "OK", "ns/op") == [0.2607]


def test_module_root_of_common_hosts():
    assert gotest._relative_package("github.com/org/repo") == ""
    assert gotest._relative_package("github.com/org/repo/internal/x") == "internal/x"
    assert gotest._relative_package("golang.org/x/net/http2") == "http2"
    assert gotest._relative_package("example.com/shop/codec") == "codec"
    assert gotest._relative_package("mymod/sub") == "sub"


# ---------------------------------------------------------------- -cpu 1,2,4 (GOMAXPROCS)


def benchstat_rows(path: Path) -> dict[tuple[str, str], list[float]]:
    """The rows benchstat makes of one file, by its documented rules: the default row
    projection `.fullname` keeps the `-N` GOMAXPROCS suffix (go prints none for 1), one
    row per name and unit, every result line one sample. benchstat itself needs the
    module proxy to be installed, so its rules are applied here to the raw text."""
    rows: dict[tuple[str, str], list[float]] = {}
    for line in path.read_text().splitlines():
        fields = line.split()
        if not line.startswith("Benchmark") or len(fields) < 4:
            continue
        for value, unit in zip(fields[2::2], fields[3::2], strict=True):
            rows.setdefault((fields[0], unit), []).append(float(value))
    return rows


@pytest.mark.parametrize("name", ["cpu-1-2-4.txt", "cpu-1-2-4-again.txt"])
def test_cpu_settings_stay_apart_as_benchstat_keeps_them(name):
    r = read_file(DATA / "cpu" / name)
    assert r.format == NAME and r.problems == []
    expected = {}
    for (full, unit), vals in benchstat_rows(DATA / "cpu" / name).items():
        base, _, procs = full.removeprefix("Benchmark").partition("-")
        expected[f"{base}/cpu:{procs or 1}", unit] = vals
    assert len(expected) == 3 * 3 * 4  # 3 names x 3 settings x 4 units (MB/s or keys/op)
    f = r.frame
    got = f.group_by("benchmark", "metric").agg("value")
    assert {(b, m): v for b, m, v in got.iter_rows()} == pytest.approx(expected)
    assert all(len(v) == 5 for v in expected.values())  # -count 5: 5 samples per row
    assert column(r, "Parallel/cpu:4", "MB/s", "better") == {"higher"}
    assert column(r, "Map/cpu:2", "keys/op", "better") == {"unknown"}


def test_cpu_settings_form_a_scaling_family():
    from tuibench.analysis.series.scaling import families

    r = read_file(DATA / "cpu" / "cpu-1-2-4.txt")
    fam = families(sorted(set(r.frame["benchmark"])))
    spin = fam.filter(fam["family"] == "Spin/cpu:*")
    assert spin["value"].to_list() == [1.0, 2.0, 4.0]
    assert set(spin["parameter"]) == {"cpu"}


def test_a_single_cpu_setting_is_dropped_from_the_name():
    r = read_file(DATA / "cpu" / "cpu-4.txt")
    assert r.problems == []
    assert set(r.frame["benchmark"]) == {"Spin", "Parallel", "Map"}
    assert len(values(r, "Spin", "ns/op")) == 5


def test_cpu_settings_of_one_system_in_several_files_stay_apart(tmp_path):
    """`go test -cpu 2 > a.txt; go test -cpu 4 > b.txt` in one system: two benchmarks per
    name, as one file with `-cpu 2,4` gives, not one benchmark with two iterations."""
    from tuibench.ingest.load import load

    for system, files in {"a": ["cpu-2.txt", "cpu-4.txt"], "b": ["cpu-1-2-4.txt"]}.items():
        (tmp_path / system).mkdir()
        for name in files:
            shutil.copy(DATA / "cpu" / name, tmp_path / system / name)
    rs = load([tmp_path])
    data = rs.samples
    spin = data.filter(
        (data["system"].cast(str) == "a")
        & data["benchmark"].cast(str).str.starts_with("Spin")
        & (data["metric"].cast(str) == "ns/op")
    )
    counts = dict(spin.group_by(spin["benchmark"].cast(str)).len().rows())
    assert counts == {"Spin/cpu:2": 5, "Spin/cpu:4": 5}
    raw = {
        f"Spin/cpu:{n}": [
            float(line.split()[2])
            for line in (DATA / "cpu" / f"cpu-{n}.txt").read_text().splitlines()
            if line.startswith(f"BenchmarkSpin-{n} ")
        ]
        for n in (2, 4)
    }
    for name, values in raw.items():
        got = spin.filter(spin["benchmark"].cast(str) == name)["value"].to_list()
        assert sorted(got) == sorted(values)
    # A name run with one setting in every file of its system keeps its short name.
    one = load([tmp_path / "a" / "cpu-4.txt"])
    assert "Spin" in set(one.samples["benchmark"].cast(str))


def test_bytes_that_are_not_utf8_are_a_problem(tmp_path):
    """A Latin-1 name in Go's output: read (as U+FFFD), and said, never silently."""
    path = tmp_path / "bench.txt"
    path.write_bytes(b"goos: linux\nBenchmarkCaf\xe9-8   1000   1234 ns/op\n")
    r = read_file(path)
    assert set(r.frame["benchmark"]) == {"Caf\ufffd"}
    assert [p.reason.split(":")[0] for p in r.problems] == ["not valid UTF-8"]
    assert read_file(DATA / "go-bench.txt").problems == []  # and only then
