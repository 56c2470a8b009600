"""CSV/TSV exports: fields with CR or LF are quoted, and no cell runs as a spreadsheet formula.

Read back with Python's csv module (as a spreadsheet would import it) and checked on the
raw bytes.
"""

from __future__ import annotations

import csv
import io
import json

import pytest

from tuibench.cli import main
from tuibench.output.export import render
from tuibench.present.tables import Table

# Names a spreadsheet would run as formulas, or that split a row when written raw.
FORMULAS = ['=HYPERLINK("http://x","y")', "+1+2", "-2+3", "@SUM(A1:A9)", "\tcmd", "\rcmd"]
SPLITTERS = ["cr\rinside", "lf\ninside", "crlf\r\ninside", 'quote"inside', "comma,inside"]
NUMBERS = ["-3.5", "-1e-3", "+2", "-.5", "12"]


def _table() -> Table:
    names = FORMULAS + SPLITTERS + NUMBERS
    rows = [[n, -3.5, -1e-3, None, True, 7] for n in names]
    return Table("t", ["name", "a", "b", "c", "d", "e"], rows)


def _read(text: str, delimiter: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text, newline=""), delimiter=delimiter))


@pytest.mark.parametrize("fmt,delimiter", [("csv", ","), ("tsv", "\t")])
def test_every_row_reads_back_whole(fmt, delimiter):
    text = render(_table(), fmt)
    rows = _read(text, delimiter)
    assert len(rows) == 1 + len(FORMULAS + SPLITTERS + NUMBERS)
    assert all(len(r) == 6 for r in rows)
    names = [r[0] for r in rows[1:]]
    assert names[: len(FORMULAS)] == ["'" + n for n in FORMULAS]
    assert names[len(FORMULAS) : -len(NUMBERS)] == SPLITTERS  # exact, only quoted
    assert names[-len(NUMBERS) :] == NUMBERS  # numbers keep their sign, no prefix
    assert {tuple(r[1:]) for r in rows[1:]} == {("-3.5", "-0.001", "", "true", "7")}


@pytest.mark.parametrize("fmt,delimiter", [("csv", ","), ("tsv", "\t")])
def test_raw_bytes_quote_cr_and_lf(fmt, delimiter):
    text = render(_table(), fmt)
    assert f'"cr\rinside"{delimiter}' in text
    assert f'"lf\ninside"{delimiter}' in text
    assert f'"crlf\r\ninside"{delimiter}' in text
    assert f'"quote""inside"{delimiter}' in text
    assert f'"\'\rcmd"{delimiter}' in text
    # Outside quotes, no CR at all and every LF ends a row.
    outside = "".join(part for i, part in enumerate(text.split('"')) if i % 2 == 0)
    assert "\r" not in outside
    assert outside.count("\n") == 1 + len(FORMULAS + SPLITTERS + NUMBERS)
    # A number is written as it is, never behind a quote mark.
    assert f"{delimiter}-3.5{delimiter}-0.001{delimiter}" in text
    assert "'-3.5" not in text and "'-1e-3" not in text


def test_report_csv_of_hostile_names(tmp_path, capsys):
    """The whole path: names from a result file, `report --format csv|tsv`."""
    for system, shift in (("=base", 0.0), ("@new", 1.0)):
        folder = tmp_path / "r" / system
        folder.mkdir(parents=True)
        with open(folder / "d.jsonl", "w") as fh:
            for it in range(3):
                for bench in ("=cmd|' /C calc'!A0", "plain"):
                    row = {"benchmark": bench, "metric": "t\rx", "iteration": it}
                    fh.write(json.dumps({**row, "value": -5 - it * 0.1 - shift}) + "\n")
    for fmt, delimiter in (("csv", ","), ("tsv", "\t")):
        assert main(["report", str(tmp_path / "r"), "--format", fmt]) == 0
        rows = list(
            csv.DictReader(io.StringIO(capsys.readouterr().out, newline=""), delimiter=delimiter)
        )
        assert len(rows) == 4
        assert {r["benchmark"] for r in rows} == {"'=cmd|' /C calc'!A0", "plain"}
        assert {r["metric"] for r in rows} == {"t\rx"}
        assert {r["system"] for r in rows} == {"'=base", "'@new"}
        assert all(float(r["center"]) < 0 for r in rows)  # negative numbers stay numbers
