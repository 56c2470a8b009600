"""Names are data: control characters in a result file never reach the terminal raw.

Every human-facing output of `report` (text, Markdown, LaTeX, HTML), `inspect` and the
problems on stderr show them escaped; JSON and CSV keep the exact names.
"""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest

from tuibench.cli import main

# ESC sequences that switch to the alternate screen, copy to the clipboard (OSC 52) and set
# the window title, BEL, CR, LF, TAB, DEL and an 8-bit CSI.
BENCH = "be\x1b[?1049hnch"
OSC52 = "osc\x1b]52;c;aGVsbG8=\x07x"
METRIC = "ti\rme\n\tx"
C1_METRIC = "b\x07el\x7f\x9b"
UNIT = "m\x1bs"
SYSTEM = "pat\x1b]0;TITLE\x07ched"
BAD_FILE = "bad\x1b[31m.csv"
RAW = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")  # LF separates lines; TAB is checked apart


def write_hostile(root: Path) -> Path:
    """Two systems whose benchmark, metric, unit, system and file names carry controls."""
    for system, shift in (("base", 0.0), (SYSTEM, 1.0)):
        folder = root / system
        folder.mkdir(parents=True)
        with open(folder / "data.jsonl", "w") as fh:
            for it in range(3):
                for bench in (BENCH, OSC52):
                    for metric in (METRIC, C1_METRIC):
                        for s in range(3):
                            value = 10 + it * 0.1 + s * 0.01 + shift
                            row = {"benchmark": bench, "metric": metric, "iteration": it}
                            fh.write(json.dumps({**row, "value": value, "unit": UNIT}) + "\n")
        # A row the reader skips, its value holding an 8-bit CSI: a problem of this file
        # that quotes it. (An ESC would make the file binary data, set aside unnamed.)
        (folder / BAD_FILE).write_text("benchmark,metric,value\nx,y,bad\x9b[2J\n")
    return root


@pytest.fixture
def hostile(tmp_path) -> Path:
    return write_hostile(tmp_path / "results")


def assert_clean(text: str) -> None:
    assert not RAW.search(text), repr(RAW.search(text))
    assert "\t" not in text


@pytest.mark.parametrize("extra", [[], ["--series"], ["--stats", "min,max"]])
@pytest.mark.parametrize("fmt", ["text", "markdown", "latex", "html"])
def test_report_human_formats_escape_names(hostile, capsys, fmt, extra):
    if extra == ["--stats", "min,max"] and fmt != "text":
        pytest.skip("--stats adds rows to the text layout only")
    assert main(["report", str(hostile), "--format", fmt, *extra]) == 0
    out, err = capsys.readouterr()
    assert_clean(out)
    assert_clean(err)
    assert "x1b]52;c;aGVsbG8=" in out  # shown, as text
    assert "x1b]0;TITLE" in out or extra == ["--series"]  # (a one-step series may name none)
    assert "x1b[31m.csv" in err  # the bad file's problem, on stderr


def test_report_text_shows_the_escapes_literally(hostile, capsys):
    main(["report", str(hostile)])
    out = capsys.readouterr().out
    assert r"be\x1b[?1049hnch ti\x0dme\x0a\x09x (m\x1bs)" in out
    assert r"b\x07el\x7f\x9b" in out
    assert r"pat\x1b]0;TITLE\x07ched" in out


def test_json_keeps_exact_names(hostile, capsys):
    assert main(["report", str(hostile), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert {r["benchmark"] for r in doc["rows"]} == {BENCH, OSC52}
    assert {r["metric"] for r in doc["rows"]} == {METRIC, C1_METRIC}
    assert {r["unit"] for r in doc["rows"]} == {UNIT}
    assert doc["systems"] == ["base", SYSTEM]
    assert any(BAD_FILE in p["path"] for p in doc["problems"])


@pytest.mark.parametrize("fmt", ["csv", "tsv"])
def test_csv_keeps_exact_names(hostile, capsys, fmt):
    assert main(["report", str(hostile), "--format", fmt]) == 0
    out = capsys.readouterr().out
    rows = list(csv.DictReader(io.StringIO(out), delimiter="," if fmt == "csv" else "\t"))
    assert {r["benchmark"] for r in rows} == {BENCH, OSC52}
    assert {r["metric"] for r in rows} == {METRIC, C1_METRIC}
    assert {r["system"] for r in rows} == {"base", SYSTEM}


def test_inspect_escapes_names(hostile, capsys):
    assert main(["inspect", str(hostile)]) == 0
    out, err = capsys.readouterr()
    assert_clean(out)
    assert_clean(err)
    assert r"pat\x1b]0;TITLE\x07ched" in out
    assert r"bad\x1b[31m.csv" in out


def test_problem_str_escapes_path_and_reason():
    from tuibench.model.problems import Problem

    p = Problem("/r/a\x1b]52;c;eA==\x07", "value 'x\x9b' bad", line=3, where="k\r")
    assert str(p) == r"/r/a\x1b]52;c;eA==\x07:3 (at k\x0d): value 'x\x9b' bad"
    assert p.to_dict()["path"] == "/r/a\x1b]52;c;eA==\x07"  # JSON keeps it exact


def test_unknown_reference_message_escapes_names(hostile, capsys):
    assert main(["report", str(hostile), "--reference", "nope\x1b[2J"]) == 2
    err = capsys.readouterr().err
    assert_clean(err)
    assert r"pat\x1b]0;TITLE\x07ched" in err
