"""Names that read the same but differ (normalisation, invisible characters, look-alike
blanks) are a problem naming both, and stay apart; bytes that are not UTF-8 are a problem."""

from __future__ import annotations

import gzip
import json
import unicodedata

import polars as pl
import pytest

from tuibench.cli import main
from tuibench.ingest import small_files
from tuibench.ingest.load import load
from tuibench.ingest.lookalikes import collisions

NFC = unicodedata.normalize("NFC", "café")
NFD = unicodedata.normalize("NFD", "café")
ZWSP = "\u200b"


def _system(root, name: str, rows: list[tuple[str, str]], file: str = "d.csv") -> None:
    folder = root / name
    folder.mkdir(parents=True, exist_ok=True)
    lines = ["benchmark,metric,iteration,value"]
    lines += [f"{b},{m},{i},{1 + i / 10}" for b, m in rows for i in range(3)]
    (folder / file).write_text("\n".join(lines) + "\n", encoding="utf-8")


def _lookalike_problems(rs) -> list[str]:
    return [str(p) for p in rs.problems if "reads the same as" in p.reason]


def test_collisions_of_each_kind():
    names = ["base", "base" + ZWSP, NFC, NFD, "a b", "a\xa0b", "a\u3000b", "tag\U000e0041", "tag"]
    names += ["soft\xadhyphen", "softhyphen", "cafe", "a  b", "\u3164x", "x"]
    got = collisions(names)
    assert got == [
        ["base", "base" + ZWSP],
        [NFC, NFD],
        ["a b", "a\xa0b", "a\u3000b"],
        ["tag\U000e0041", "tag"],
        ["soft\xadhyphen", "softhyphen"],
        ["\u3164x", "x"],
    ]
    assert collisions(["cafe", "café", "a  b", "a b", "A"]) == []  # these read differently


@pytest.mark.parametrize("batched", [True, False])
def test_systems_benchmarks_and_metrics_that_read_the_same(tmp_path, monkeypatch, batched):
    monkeypatch.setattr(small_files, "BATCHED", batched)
    root = tmp_path / "r"
    _system(root, "base", [("run", "time"), ("a b", "t")])
    _system(root, "base" + ZWSP, [("run", "time"), ("a\xa0b", "t")])
    _system(root, NFC, [("run", "time"), ("run", "ti" + ZWSP + "me")])
    _system(root, NFD, [("run", "time")])
    rs = load([root])
    assert sorted(rs.system_names) == sorted(["base", "base" + ZWSP, NFC, NFD])  # as written
    assert set(rs.samples["benchmark"].cast(pl.String).unique()) == {"run", "a b", "a\xa0b"}
    found = _lookalike_problems(rs)
    assert len(found) == 4, found
    for words in (
        r"system 'base\u200b' reads the same as 'base'",
        r"benchmark 'a\xa0b' reads the same as 'a b'",
        r"metric 'ti\u200bme' reads the same as 'time'",
    ):
        assert sum(words in p for p in found) == 1, words
    accents = [p for p in found if "normalisation" in p]
    assert len(accents) == 1 and r"'cafe\u0301'" in accents[0] and r"'caf\xe9'" in accents[0]
    assert all("kept apart" in p for p in found)


def test_no_problem_for_names_that_read_differently(tmp_path):
    root = tmp_path / "r"
    _system(root, "base", [("cafe", "t"), ("café", "t"), ("x y", "t")])
    _system(root, "new", [("cafe", "t"), ("x  y", "t")])
    assert _lookalike_problems(load([root])) == []


def test_report_shows_invisible_characters_escaped(tmp_path, capsys):
    root = tmp_path / "r"
    _system(root, "base", [("run", "time")])
    _system(root, "base" + ZWSP, [("run\u2060", "time")])
    assert main(["report", str(root)]) == 0
    out, err = capsys.readouterr()
    assert r"base\u200b" in out and r"run\u2060" in out
    assert not any(unicodedata.category(c) == "Cf" for c in out + err)
    assert "reads the same as" in err


def _latin1_csv(path) -> None:
    text = "benchmark,metric,iteration,value\nok,t,0,1\ncafé,t,0,1.5\ncafé,t,1,1.6\n"
    path.write_bytes(text.encode("latin-1"))


@pytest.mark.parametrize("batched", [True, False])
@pytest.mark.parametrize("kind", ["csv", "csv.gz", "jsonl", "crlf"])
def test_bytes_that_are_not_utf8_are_a_problem(tmp_path, monkeypatch, batched, kind):
    monkeypatch.setattr(small_files, "BATCHED", batched)
    folder = tmp_path / "r" / "base"
    folder.mkdir(parents=True)
    if kind == "jsonl":
        rows = [{"benchmark": "ok", "metric": "t", "value": 1}]
        rows += [
            {"benchmark": "café", "metric": "t", "value": 1.5 + i, "iteration": i} for i in (0, 1)
        ]
        text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
        (folder / "d.jsonl").write_bytes(text.encode("latin-1"))
    else:
        _latin1_csv(folder / "d.csv")
        if kind == "csv.gz":
            data = (folder / "d.csv").read_bytes()
            (folder / "d.csv").unlink()
            (folder / "d.csv.gz").write_bytes(gzip.compress(data))
        elif kind == "crlf":
            (folder / "d.csv").write_bytes((folder / "d.csv").read_bytes().replace(b"\n", b"\r\n"))
    rs = load([tmp_path / "r"])
    undecodable = [p for p in rs.problems if "not valid UTF-8" in p.reason]
    assert len(undecodable) == 1, rs.problems
    assert undecodable[0].line == (2 if kind == "jsonl" else 3)
    assert "0xE9" in undecodable[0].reason
    assert "caf\ufffd" in set(rs.samples["benchmark"].cast(pl.String))  # the rest still loads
    assert rs.samples.height == 3


def test_valid_utf8_is_no_problem(tmp_path):
    root = tmp_path / "r"
    _system(root, "base", [("café ☕", "t")])
    assert not [p for p in load([root]).problems if "UTF-8" in p.reason]
