"""`tuibench report`: every format, the JSON contract, exit codes; and the core stays headless."""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys

import numpy as np
import pytest

from tuibench.cli import main

JSON_ROW_KEYS = {
    "benchmark",
    "metric",
    "unit",
    "better",
    "mean_kind",
    "system",
    "is_reference",
    "iterations",
    "samples",
    "iteration_values",
    "center",
    "ci_low",
    "ci_high",
    "change",
    "p_welch",
    "significant",
    "verdict",
    "note",
}


@pytest.fixture
def results(tmp_path, make_system):
    rng = np.random.default_rng(5)
    for system, slow in (("base", 0.0), ("patched", 0.05)):
        rows = []
        for i in range(5):
            for v in 10 * (1 + slow) * (1 + rng.normal(0, 0.01, 8)):
                rows.append(("app/[bold]start", "time", i, round(v, 5), "ms"))
            for v in 500 * (1 + rng.normal(0, 0.01, 8)):
                rows.append(("app/io", "tput", i, round(v, 3), "MB/s"))
        make_system(tmp_path, system, rows)
    (tmp_path / "base" / "broken.csv").write_text("benchmark,metric,value\nx,y,zz\n")
    return tmp_path


def run(capsys, *args):
    code = main(["report", *map(str, args)])
    out, err = capsys.readouterr()
    return code, out, err


def test_text_is_the_mmtests_layout(results, capsys):
    code, out, err = run(capsys, results)
    assert code == 0
    lines = out.splitlines()
    header = next(
        line for line in lines if line.startswith("  ") and "base" in line and "patched" in line
    )
    assert header.index("base") < header.index("patched")  # reference first
    start = next(line for line in lines if "[bold]start" in line)
    assert start.startswith("Amean")
    assert "(   0.00%)" in start and start.rstrip().endswith("%*")  # a significant change
    io_line = next(line for line in lines if "app/io" in line)
    assert io_line.startswith("Hmean")
    assert any("Welch" in line for line in lines)  # the marks are explained
    assert "broken.csv:2: row skipped: value 'zz' is not a number" in err


def test_json_contract(results, capsys):
    code, out, _ = run(capsys, results, "--format", "json", "--reference", "patched")
    assert code == 0
    doc = json.loads(out)
    assert {"reference", "alpha", "systems", "rows", "problems"} <= set(doc)
    assert doc["reference"] == "patched" and doc["systems"][0] == "patched"
    for row in doc["rows"]:
        assert set(row) >= JSON_ROW_KEYS
        assert row["better"] in ("lower", "higher") and row["mean_kind"] in ("amean", "hmean")
        assert row["verdict"] in ("reference", "better", "worse", "same")
        assert len(row["iteration_values"]) == row["iterations"]
        assert (row["p_welch"] is None) == row["is_reference"]
    base_time = next(r for r in doc["rows"] if r["system"] == "base" and r["metric"] == "time")
    assert base_time["verdict"] == "better" and base_time["change"] < 0
    assert doc["problems"][0]["line"] == 2


@pytest.mark.parametrize("fmt", ["text", "csv", "tsv", "markdown", "latex", "json", "html"])
def test_every_format_holds_the_table(results, capsys, fmt):
    code, out, _ = run(capsys, results, "--format", fmt)
    assert code == 0 and out.strip()
    assert "[bold]start" in out.replace("\\_", "_") or "[bold]start" in out
    if fmt in ("csv", "tsv"):
        rows = list(csv.DictReader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
        assert len(rows) == 4 and set(rows[0]) >= JSON_ROW_KEYS
    if fmt == "html":
        assert "<table" in out and 'class="worse"' in out and out.startswith("<!doctype html>")
    if fmt == "latex":
        assert "\\begin{tabular}" in out and "\\%" in out
    if fmt == "markdown":
        assert out.count("|---") >= 1


def test_filters_and_only_significant(results, capsys):
    _, out, _ = run(capsys, results, "--format", "json", "--metric", "tput")
    assert {r["metric"] for r in json.loads(out)["rows"]} == {"tput"}
    _, out, _ = run(capsys, results, "--format", "json", "--benchmark", "app/io")
    assert {r["benchmark"] for r in json.loads(out)["rows"]} == {"app/io"}
    _, out, _ = run(capsys, results, "--format", "json", "--only-significant")
    assert {r["metric"] for r in json.loads(out)["rows"]} == {"time"}


def test_exit_codes(results, capsys, tmp_path):
    assert run(capsys, results, "--fail-on-regression")[0] == 1
    assert run(capsys, results, "--fail-on-regression", "--reference", "patched")[0] == 0
    code, _, err = run(capsys, results, "--reference", "nope")
    assert code == 2 and "unknown reference" in err
    code, _, err = run(capsys, tmp_path / "missing")
    assert code == 2 and "no such file or folder" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    code, _, err = run(capsys, empty)
    assert code == 2 and "nothing could be loaded" in err


def test_a_mistyped_system_path_is_a_usage_error(results, capsys):
    # Loading around it would compare the other systems alone and pass a CI gate.
    code, out, err = run(capsys, results / "base", results / "patchd", "--fail-on-regression")
    assert (code, out) == (2, "")
    assert "no such file or folder" in err and "patchd" in err
    assert run(capsys, results / "base", results / "patched", "--fail-on-regression")[0] == 1
    code, _, err = main(["inspect", str(results / "nope")]), *capsys.readouterr()
    assert code == 2 and "no such file or folder" in err
    with pytest.raises(SystemExit) as exc:
        main(["report", str(results), "--alpha", "2"])
    assert exc.value.code == 2


def test_output_file(results, capsys, tmp_path_factory):
    target = tmp_path_factory.mktemp("out") / "report.md"  # outside the results folder
    code, out, err = run(capsys, results, "--format", "markdown", "--output", target)
    assert code == 0 and out == "" and str(target) in err
    assert target.read_text().startswith("**Comparison against base**")


def test_core_and_report_do_not_import_textual(results):
    code = (
        "import sys, tuibench.ingest.load, tuibench.analysis.compare, "
        "tuibench.output.export\n"
        "from tuibench.cli import main\n"
        f"rc = main(['report', {str(results)!r}, '--format', 'json'])\n"
        "assert 'textual' not in sys.modules, 'textual was imported'\n"
        "sys.exit(rc)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert proc.returncode == 0, proc.stderr
