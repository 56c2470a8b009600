"""An mmtests op whose lower-is-better mark contradicts its throughput name is of unknown
direction in every format, until --sub-heading or tuibench.toml settles it.

No real extract in tests/data/mmtests-real has such an op (hackbench's ops are times,
stream's are marked Higher), so the case is built from the real three-run stream extract
(`runs/stream.json`, from `extract-mmtests.pl -n 5.8-vanilla,5.8-patched,5.9-vanilla`):
its structure and values are kept, the module becomes dbench4, its `Add-1` op `tput-1`,
and `_PreferredVal` `Lower`, as a whole-test dbench extract writes it. In the real data
5.8-patched has 8 % less bandwidth on Add-1 (tput-1 here) and on Triad-1, nothing else.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest

from tuibench.cli import main

REAL = Path(__file__).parents[1] / "data" / "mmtests-real" / "runs" / "stream.json"


def _extract(tmp_path: Path, preferred: str = "Lower") -> Path:
    modules = json.loads(REAL.read_text())
    for m in modules:
        m["_ModuleName"], m["_PreferredVal"] = "ExtractShellpackdbench4", preferred
        data = m["_ResultData"]
        m["_ResultData"] = {("tput-1" if k == "Add-1" else k): v for k, v in data.items()}
    path = tmp_path / "dbench4.json"
    path.write_text(json.dumps(modules))
    return path


def _report(capsys, path: Path, fmt: str, *extra: str) -> str:
    main(["report", str(path), "--format", fmt, *extra])
    return capsys.readouterr().out


def _json_rows(capsys, path: Path) -> dict[tuple[str, str], dict]:
    doc = json.loads(_report(capsys, path, "json"))
    return {(r["metric"], r["system"]): r for r in doc["rows"]}


def test_the_contradiction_is_unknown_in_json_and_csv(tmp_path, capsys):
    path = _extract(tmp_path)
    rows = _json_rows(capsys, path)
    tput = rows[("tput-1", "5.8-patched")]
    assert tput["better"] is None and tput["gain"] is None
    assert tput["significant"] and tput["verdict"] == "changed"  # 8 % less, not "better"
    assert "its name says throughput" in tput["note"] and "--sub-heading" in tput["note"]
    assert "nothing says" not in tput["note"]  # mmtests said something: the note says what
    # An op whose name says nothing keeps mmtests' mark: Triad-1 is "better" (lower).
    assert rows[("Triad-1", "5.8-patched")]["better"] == "lower"
    assert rows[("Triad-1", "5.8-patched")]["verdict"] == "better"
    table = list(csv.DictReader(io.StringIO(_report(capsys, path, "csv"))))
    got = {(r["metric"], r["system"]): r for r in table}
    assert got[("tput-1", "5.8-patched")]["better"] == ""
    assert got[("tput-1", "5.8-patched")]["verdict"] == "changed"


def test_the_contradiction_is_unknown_in_text_markdown_and_html(tmp_path, capsys):
    path = _extract(tmp_path)
    text = _report(capsys, path, "text")
    line = next(x for x in text.splitlines() if "tput-1" in x)
    assert "?  -8.33%?" in line and "★" not in line
    assert "★" in next(x for x in text.splitlines() if "Triad-1" in x)  # the control
    assert "Direction unknown for dbench4 tput-1: mmtests marks" in text
    md = _report(capsys, path, "markdown")
    md_rows = [x for x in md.splitlines() if "| tput-1 |" in x]
    assert len(md_rows) == 3 and not any("★" in x or "better" in x for x in md_rows)
    assert "| changed |" in md_rows[1]
    assert "Direction unknown for dbench4 tput-1" in md
    html = _report(capsys, path, "html")
    html_rows = [x for x in html.splitlines() if x.startswith("<tr") and "tput-1" in x]
    assert len(html_rows) == 3 and not any("★" in x for x in html_rows)
    assert 'class="changed"' in html_rows[1] and "its name says throughput" in html_rows[1]


def test_the_contradiction_is_unknown_in_the_explorers_tables(tmp_path):
    from tuibench.analysis.compare import Analysis
    from tuibench.ingest.load import load
    from tuibench.present.tables import detail_table, summary_table

    cmp = Analysis(load([_extract(tmp_path)])).compare("5.8-vanilla")
    detail = detail_table(cmp, "dbench4", "tput-1")  # the explorer's metric view
    assert not any("★" in str(c) for row in detail.rows for c in row)
    assert [row[4] for row in detail.rows] == ["reference", "changed", "same"]
    assert any("its name says throughput" in n for n in detail.notes)
    group = summary_table(cmp)  # the explorer's group view
    tput = next(row for row in group.rows if "tput-1" in str(row[1]))
    assert not any("★" in str(c) for c in tput)


@pytest.mark.parametrize(
    ("toml", "preferred"),
    [
        ('[metrics."dbench4:tput-*"]\nbetter = "higher"\n', "Lower"),  # tuibench.toml
        ("", "Higher"),  # extracted with --sub-heading tput: mmtests marks it Higher
    ],
)
def test_toml_or_sub_heading_settles_it(tmp_path, capsys, toml, preferred):
    path = _extract(tmp_path, preferred)
    if toml:
        (tmp_path / "tuibench.toml").write_text(toml)
    rows = _json_rows(capsys, tmp_path if toml else path)
    tput = rows[("tput-1", "5.8-patched")]
    assert tput["better"] == "higher" and tput["verdict"] == "worse"
    assert "direction unknown" not in (tput["note"] or "")
    assert "Direction unknown" not in _report(capsys, tmp_path if toml else path, "text")
