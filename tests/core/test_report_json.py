"""`report --format json` is strict JSON: undefined numbers are null, never NaN or Infinity."""

from __future__ import annotations

import json

import numpy as np

from tuibench.analysis.compare import Analysis
from tuibench.cli import main
from tuibench.ingest.load import load
from tuibench.output.export import report_document, report_json


def _reject(name: str):
    raise AssertionError(f"not JSON: {name}")


def _undefined_numbers(tmp_path, make_system):
    """A harmonic-mean metric with a non-positive sample (no centre, NaN iteration value)
    and a metric the reference has once (no interval, no test)."""
    rng = np.random.default_rng(3)
    for system in ("base", "new"):
        rows = []
        for i in range(4):
            for v in 200 * (1 + rng.normal(0, 0.02, 6)):
                rows.append(("io", "tput", i, v if (system, i) != ("new", 2) else -1.0, "MB/s"))
            for v in 5 * (1 + rng.normal(0, 0.02, 6)):
                rows.append(("cpu", "time", i, v, "s"))
        rows.append(("once", "time", 0, 1.5, "s"))
        make_system(tmp_path, system, rows)
    return tmp_path


def test_report_json_is_strict_json_with_null_for_undefined(tmp_path, make_system, capsys):
    root = _undefined_numbers(tmp_path, make_system)
    assert main(["report", str(root), "--format", "json"]) in (0, 1)
    text = capsys.readouterr().out
    doc = json.loads(text, parse_constant=_reject)  # byte-level: no NaN/Infinity tokens
    tput = next(r for r in doc["rows"] if r["system"] == "new" and r["metric"] == "tput")
    assert tput["center"] is None and None in tput["iteration_values"]
    once = next(r for r in doc["rows"] if r["benchmark"] == "once" and r["system"] == "new")
    assert once["p_welch"] is None and once["ci_low"] is None


def test_report_json_holds_what_the_standard_encoder_wrote(tmp_path, make_system):
    """Same values and key order as `json.dumps(..., indent=2)` used to give; the document
    indented as it was, the rows one per line."""
    root = _undefined_numbers(tmp_path, make_system)
    (root / "base" / "bad.csv").write_text('benchmark,metric,value\nx,"y\\"",zz\n')
    rs = load([root])
    assert rs.problems
    cmp = Analysis(rs).compare("base")
    text = report_json(cmp, rs.problems)
    # allow_nan=False: the document itself holds no NaN or infinity either.
    old = json.dumps(report_document(cmp, rs.problems), indent=2, allow_nan=False)
    assert json.loads(text, parse_constant=_reject) == json.loads(old)
    assert list(json.loads(text)["rows"][0]) == list(json.loads(old)["rows"][0])
    assert text.splitlines()[:3] == old.splitlines()[:3]
    # One line per row (and per summary row), indented inside the document.
    lines = text.splitlines()
    rows = lines[lines.index('  "rows": [') + 1 : lines.index('  "summary": [') - 1]
    assert len(rows) == len(cmp.rows) and all(r.startswith('    {"benchmark":') for r in rows)


def test_report_json_with_line_separators_in_names(tmp_path, make_system):
    """Names holding U+2028, U+2029 or U+0085 (which polars writes raw, and which Python's
    splitlines splits at) stay inside their row: the document parses, one row per line."""
    for system in ("base", "new"):
        rows = [(f"a\u2028b\x85c\u2029{i % 2}", "time", i, 1.0 + i, "s") for i in range(4)]
        make_system(tmp_path, system, rows)
    rs = load([tmp_path])
    cmp = Analysis(rs).compare("base")
    text = report_json(cmp, rs.problems)
    doc = json.loads(text)
    assert {r["benchmark"] for r in doc["rows"]} == {f"a\u2028b\x85c\u2029{i}" for i in (0, 1)}
    lines = text.split("\n")
    rows = lines[lines.index('  "rows": [') + 1 : lines.index('  "summary": [') - 1]
    assert len(rows) == len(cmp.rows) == 4


def test_rows_made_a_few_at_a_time_are_the_same_document(tmp_path, make_system, monkeypatch):
    """Rows past ROWS_AT_ONCE are made in pieces (in a thread ahead of the writer): the
    text is the one made in one piece, separators at the joins included."""
    from tuibench.output import export

    root = _undefined_numbers(tmp_path, make_system)
    rs = load([root])
    cmp = Analysis(rs).compare("base")
    whole = report_json(cmp, rs.problems)
    for at_once in (1, 2, 5):
        monkeypatch.setattr(export, "ROWS_AT_ONCE", at_once)
        assert cmp.rows.height > at_once
        assert report_json(cmp, rs.problems) == whole
    assert json.loads(whole)["rows"]
