"""Small native files parsed in batches load exactly as when read one by one."""

from __future__ import annotations

import polars as pl
import pytest

from tuibench.ingest import small_files
from tuibench.ingest.load import load

H = "benchmark,metric,value,unit\n"


def _tree(root):
    files = {
        # two headers (two groups), CRLF endings, a missing final newline
        "a/iter-0/x.csv": H + "b1,t,1,ms\nb1,t,2,ms\nb2,t,5,ms\n",
        "a/iter-0/y.csv": H + "b1,t,3,ms\nb1,t,4,ms",
        "a/iter-1/x.csv": H.replace("\n", "\r\n") + "b1,t,1.5,ms\r\nb2,t,6,ms\r\n",
        "a/iter-1/z.tsv": "benchmark\tmetric\tvalue\nb3\tt\t7\n",
        "a/iter-1/w.tsv": "benchmark\tmetric\tvalue\nb3\tt\t8\n",
        # bad rows: more than the listed number, in two files of one group
        "b/bad1.csv": H
        + "".join(
            f"b1,t,{v},ms\n" for v in ["x", "1", "nan", "2", "", "y", "z", "3", "w", "v", "u"]
        ),
        "b/bad2.csv": H + "b1,t,q,ms\n,t,1,ms\nb1,,1,ms\nb1,t,1,s\n",
        # header only; ragged rows; a file with its own system column naming others
        "b/empty.csv": H,
        "b/ragged.csv": H + "b1,t\nb1,t,9,ms,extra\n",
        "c/sys.csv": "system,benchmark,metric,value\n,b1,t,1\nother,b1,t,2\nzeta,b1,t,3\n",
        "c/iter-2/plain.csv": "benchmark,metric,value,iteration\nb1,t,4,7\nb1,t,5,x\n",
        # not batched: quotes, a BOM, leading blank line, blank lines inside, not UTF-8
        "c/quoted.csv": H + '"b,1",t,1,ms\n',
        "c/bom.csv": "\ufeff" + H + "b1,t,1,ms\n",
        "c/lead.csv": "\n" + H + "b1,t,1,ms\n",
        "c/blank.csv": H + "b1,t,1,ms\n\nb1,t,2,ms\n",
    }
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode())
    (root / "c" / "latin.csv").write_bytes(H.encode() + b"caf\xe9,t,1,ms\n")
    return root


def _one_by_one(monkeypatch, root):
    with monkeypatch.context() as m:
        m.setattr(small_files.SmallFiles, "take", lambda self, i, unit, data: False)
        return load([root])


def _same(a, b):
    assert a.samples.equals(b.samples)
    assert a.metrics.equals(b.metrics)
    assert a.system_names == b.system_names
    assert [(s.name, s.path) for s in a.systems] == [(s.name, s.path) for s in b.systems]
    assert [str(p) for p in a.problems] == [str(p) for p in b.problems]
    got = [
        (f.path, f.system, f.format, f.samples, f.benchmarks, f.metrics, f.iterations)
        for f in a.files
    ]
    want = [
        (f.path, f.system, f.format, f.samples, f.benchmarks, f.metrics, f.iterations)
        for f in b.files
    ]
    assert got == want
    assert [[str(p) for p in f.problems] for f in a.files] == [
        [str(p) for p in f.problems] for f in b.files
    ]


def test_batches_load_exactly_as_file_by_file(tmp_path, monkeypatch):
    root = _tree(tmp_path)
    taken = []
    real_parse = small_files.SmallFiles.parse

    def parse(self):
        batches, leftovers = real_parse(self)
        taken.extend(len(b.index) for b in batches)
        return batches, leftovers

    monkeypatch.setattr(small_files.SmallFiles, "parse", parse)
    batched = load([root])
    assert sum(taken) == 11  # the quoted, BOM, leading-blank, blank-line, Latin-1 files: not
    _same(batched, _one_by_one(monkeypatch, root))
    assert "other" in batched.system_names and "zeta" in batched.system_names
    assert any("3 more bad rows" in str(p) for p in batched.problems)


def test_a_group_polars_cannot_parse_as_one_is_read_file_by_file(tmp_path, monkeypatch):
    root = _tree(tmp_path)
    monkeypatch.setattr(small_files.native, "read_many", lambda *a: None)
    _same(load([root]), _one_by_one(monkeypatch, root))


@pytest.mark.parametrize("files", [1, 7, 40])
def test_many_files_in_one_iteration_pool_in_file_order(tmp_path, monkeypatch, files):
    for j in range(files):
        # the same benchmark in every file, with a big file in the middle (read alone)
        rows = 2 if j != files // 2 else small_files.SMALL // 8
        text = H + "".join(f"b,t,{j}.{k % 10},ms\n" for k in range(rows))
        (tmp_path / "s" / "iter-0").mkdir(parents=True, exist_ok=True)
        (tmp_path / "s" / "iter-0" / f"f{j}.csv").write_text(text)
    (tmp_path / "r").mkdir()
    (tmp_path / "r" / "d.csv").write_text(H + "b,t,1,ms\n")
    batched = load([tmp_path])
    _same(batched, _one_by_one(monkeypatch, tmp_path))
    values = batched.samples.filter(pl.col("system") == "s")["value"].to_list()
    assert [int(v) for v in values] == sorted(int(v) for v in values)  # file order kept
