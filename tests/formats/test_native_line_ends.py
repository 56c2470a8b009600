"""Native CSV/TSV with LF, CRLF or old Mac (CR alone) line ends load the same rows.

CR alone was read as one header line and "no data rows" once polars parsed the files
itself; Python's text files had taken every line end.
"""

from __future__ import annotations

import gzip

import polars as pl
import pytest

from tuibench.ingest import small_files
from tuibench.ingest.formats import read_file
from tuibench.ingest.load import load

ENDS = {"lf": "\n", "crlf": "\r\n", "cr": "\r"}


def _text(sep: str, end: str, lead: str = "") -> str:
    rows = [["benchmark", "metric", "iteration", "value", "unit"]]
    rows += [
        [f"b{k}", "t", str(i), f"{1 + i / 10 + k:.2f}", "ms"] for k in range(2) for i in range(3)
    ]
    rows.append(["b0", "t", "0", "oops", "ms"])  # a bad row: its line number must be right
    return lead + "".join(sep.join(r) + end for r in rows)


def _write(root, name: str, sep: str, end: str, lead: str = "", gz: bool = False) -> None:
    for system, shift in (("base", 0), ("new", 1)):
        folder = root / system
        folder.mkdir(parents=True, exist_ok=True)
        data = _text(sep, end, lead).replace("1.", f"{1 + shift}.").encode()
        if gz:
            (folder / (name + ".gz")).write_bytes(gzip.compress(data))
        else:
            (folder / name).write_bytes(data)


def _loaded(root):
    rs = load([root])
    cols = ["system", "benchmark", "metric", "iteration", "sample", "value"]
    samples = rs.samples.select(cols).with_columns(pl.col(c).cast(pl.String) for c in cols[:3])
    problems = sorted((p.path.rsplit("/", 1)[-1], p.line, p.reason) for p in rs.problems)
    return samples.sort(cols), problems


@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize(
    "name,sep,lead,gz",
    [
        ("d.csv", ",", "", False),
        ("d.tsv", "\t", "", False),
        ("d.csv", ",", "\ufeff", False),
        ("d.csv", ",", "END END", False),  # blank lines before the header
        ("d.csv", ",", "", True),
    ],
)
def test_the_same_rows_whatever_the_line_ends(tmp_path, monkeypatch, batched, name, sep, lead, gz):
    monkeypatch.setattr(small_files, "BATCHED", batched)
    got = {}
    for kind, end in ENDS.items():
        root = tmp_path / kind
        _write(root, name, sep, end, lead.replace("END", end), gz)
        got[kind] = _loaded(root)
    samples, problems = got["lf"]
    assert samples.height == 12
    blank = 2 if "END" in lead else 0
    assert [(p[1], p[2]) for p in problems] == [
        (8 + blank, "row skipped: value 'oops' is not a number")
    ] * 2
    for kind in ("crlf", "cr"):
        assert got[kind][0].equals(samples), kind
        assert got[kind][1] == problems, kind


def test_cr_alone_read_by_the_reader(tmp_path):
    path = tmp_path / "d.csv"
    path.write_bytes(_text(",", "\r").encode())
    result = read_file(path)
    assert result.frame.height == 6
    assert result.frame["value"].to_list()[:3] == [1.0, 1.1, 1.2]


def test_a_cr_inside_a_quoted_name_of_an_lf_file_is_kept(tmp_path):
    path = tmp_path / "d.csv"
    path.write_bytes(b'benchmark,metric,value\n"a\rb",t,1\n"a\rb",t,2\n')
    result = read_file(path)
    assert result.frame["benchmark"].cast(pl.String).to_list() == ["a\rb", "a\rb"]


def test_json_lines_with_cr_alone(tmp_path):
    path = tmp_path / "d.jsonl"
    rows = [f'{{"benchmark": "b", "metric": "t", "value": {v}}}' for v in (1, 2, 3)]
    path.write_bytes("\r".join(rows).encode() + b"\r")
    assert read_file(path).frame["value"].to_list() == [1.0, 2.0, 3.0]
