"""`tuibench report --series` in every format, and its regression gate."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pytest

from tuibench.analysis.series.changepoints import CHANGE_COLUMNS
from tuibench.cli import EXIT_OK, EXIT_REGRESSION, main
from tuibench.output.formats import FORMATS


@pytest.fixture
def series(tmp_path, make_system):
    """build-1 .. build-6: `parse` gets 6 % slower at build-4, `render` at build-6 only."""
    rng = np.random.default_rng(4)
    for i in range(1, 7):
        rows = []
        for it in range(5):
            noise = 1 + 0.01 * rng.standard_normal(2)
            rows.append(("app/parse", "time", it, 10 * (1.06 if i >= 4 else 1) * noise[0], "s"))
            rows.append(("app/render", "time", it, 5 * (1.06 if i == 6 else 1) * noise[1], "s"))
        make_system(tmp_path, f"build-{i}", rows)
    return tmp_path


def _run(capsys, *args):
    code = main(["report", *map(str, args)])
    captured = capsys.readouterr()
    _run.err = captured.err
    return code, captured.out


def test_json_lists_each_change_point(series, capsys):
    code, out = _run(capsys, series, "--series", "--format", "json")
    assert code == EXIT_OK
    doc = json.loads(out)
    assert doc["systems"] == [f"build-{i}" for i in range(1, 7)]
    assert doc["metrics_tested"] == 2
    steps = {(c["benchmark"], c["system"], c["previous"]) for c in doc["changes"]}
    assert steps == {("app/parse", "build-4", "build-3"), ("app/render", "build-6", "build-5")}
    for c in doc["changes"]:
        assert list(c) == CHANGE_COLUMNS
        assert c["verdict"] == "worse" and c["gain"] < 0
        assert c["gain_ci_low"] < c["gain"] < c["gain_ci_high"]
    assert {r["system"] for r in doc["ranking"]} == set(doc["systems"])
    ranks = {r["benchmark"]: r["ranking"] for r in doc["metric_rankings"]}
    fast, slow = ranks["app/parse"].split(" > ")
    assert sorted(fast.strip("{}").split(", ")) == ["build-1", "build-2", "build-3"]
    assert sorted(slow.strip("{}").split(", ")) == ["build-4", "build-5", "build-6"]
    assert ranks["app/render"].endswith("> build-6")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_names_the_steps(series, capsys, fmt):
    code, out = _run(capsys, series, "--series", "--format", fmt)
    assert code == EXIT_OK
    assert "build-4" in out and "build-6" in out and "app/parse" in out
    if fmt in ("csv", "tsv"):
        rows = list(csv.reader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
        assert rows[0] == CHANGE_COLUMNS and len(rows) == 3


def test_fail_on_regression_gates_a_worse_last_system(series, capsys):
    code, _ = _run(capsys, series, "--series", "--fail-on-regression")
    assert code == EXIT_REGRESSION
    assert "1 worse level(s) starting at the last system" in _run.err
    # Without render, the only step is at build-4: not the newest build, so no failure.
    code, _ = _run(capsys, series, "--series", "--fail-on-regression", "--benchmark", "app/parse")
    assert code == EXIT_OK


def test_no_change_points_says_so(tmp_path, make_system, capsys):
    for i in range(1, 5):
        make_system(tmp_path, f"s{i}", [("b", "time", it, 1 + 0.001 * it, "s") for it in range(4)])
    code, out = _run(capsys, tmp_path, "--series")
    assert code == EXIT_OK
    assert "No change points among 1 tested metric(s)." in out
