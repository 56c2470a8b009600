"""Exports that stand alone: words, gains with intervals, p; real fields; honest file modes."""

from __future__ import annotations

import csv
import io
import os
import re
import stat

import numpy as np
import pytest

from tuibench.analysis.best import best_systems
from tuibench.analysis.compare import Analysis
from tuibench.cli import main
from tuibench.ingest.load import load
from tuibench.output.export import md_escape
from tuibench.output.rendering import render_shareable
from tuibench.output.shareable import Shareable, system_lines
from tuibench.output.writing import file_in_the_way, write_atomic
from tuibench.tui.view.export_files import format_of, refusal, resolve, with_extension


@pytest.fixture
def results(tmp_path, make_system):
    rng = np.random.default_rng(7)
    for system, slow in (("base", 0.0), ("patched", 0.05), ("same", 0.0)):
        rows = []
        for i in range(5):
            for v in 10 * (1 + slow) * (1 + rng.normal(0, 0.01, 8)):
                rows.append(("app/start", "time", i, round(v, 5), "ms"))
            for v in 500 * (1 + slow) * (1 + rng.normal(0, 0.01, 8)):
                rows.append(("app/io", "tput", i, round(v, 3), "MB/s"))
        make_system(tmp_path / "r", system, rows)
    return tmp_path / "r"


@pytest.fixture
def cmp(results):
    return Analysis(load([str(results)])).compare("base")


def test_per_system_line_counts_every_verdict(cmp):
    lines = system_lines(cmp)
    assert sorted(line.split(" vs ")[0] for line in lines) == ["patched", "same"]
    for line in lines:
        system = line.split(" vs ")[0]
        verdicts = [r["verdict"] for r in cmp.rows.iter_rows(named=True) if r["system"] == system]
        for word, glyph in (("worse", "▼"), ("better", "▲")):
            assert f"{glyph}{verdicts.count(word)} {word}" in line
        assert f"{verdicts.count('same')} same" in line
    assert "patched vs base: ▼1 worse · ▲1 better · 0 same" in lines


def test_markdown_holds_words_gain_interval_and_p(cmp):
    text = render_shareable(Shareable(cmp, "Comparison"), "markdown")
    assert text.startswith("**Comparison**\n\n")
    assert "\npatched vs base: ▼1 worse · ▲1 better" in text
    rows = {r["metric"] + "/" + r["system"]: r for r in cmp.rows.iter_rows(named=True)}
    for key, r in rows.items():
        if r["is_reference"]:
            continue
        cell = rf"\| {re.escape(r['metric'])} \| {re.escape(r['system'])}( ★)? \|"
        line = next(ln for ln in text.splitlines() if re.search(cell, ln))
        cells = [c.strip() for c in line.strip("|").split("|")]
        assert cells[-1] == r["verdict"], key
        # The gain, by hand: positive = better, so lower-is-better times flip the change.
        ref = rows[f"{r['metric']}/base"]["center"]
        gain = (r["center"] / ref - 1) * (-1 if r["better"] == "lower" else 1)
        shown = re.match(r"([+-][\d.]+)% \[([+-][\d.]+)%, ([+-][\d.]+)%\]", cells[5])
        assert shown, cells[5]
        centre, lo, hi = (float(g) for g in shown.groups())
        assert centre == pytest.approx(gain * 100, abs=0.051)
        assert lo <= centre <= hi
        assert float(cells[6]) == pytest.approx(r["p_welch"], rel=1e-3, abs=1e-4)
    assert "positive = better" in text and "Welch" in text
    # The best system of a metric (analysis/best.py) is marked after its name.
    best = best_systems(cmp)
    assert best  # patched is clearly best somewhere
    for (bench, metric), system in best.items():
        assert f"| {md_escape(bench)} | {md_escape(metric)} | {md_escape(system)} ★ |" in text


def test_csv_and_tsv_are_the_report_fields(results, cmp, capsys):
    for fmt, sep in (("csv", ","), ("tsv", "\t")):
        text = render_shareable(Shareable(cmp, "x"), fmt)
        assert main(["report", str(results), "--format", fmt]) == 0
        assert capsys.readouterr().out == text
        rows = list(csv.DictReader(io.StringIO(text), delimiter=sep))
        assert len(rows) == cmp.rows.height
        assert [float(r["center"]) for r in rows] == cmp.rows["center"].to_list()


def test_report_markdown_stands_alone(results, capsys):
    assert main(["report", str(results), "--format", "markdown"]) == 0
    out = capsys.readouterr().out
    assert "patched vs base: ▼1 worse" in out and "| worse |" in out and "gain [95% CI]" in out


def test_written_files_get_normal_modes(tmp_path):
    umask = os.umask(0o022)
    try:
        new = write_atomic(tmp_path / "a" / "new.md", "x")
        assert stat.S_IMODE(new.stat().st_mode) == 0o644
        new.chmod(0o600)
        write_atomic(new, "y", overwrite=True)
        assert new.read_text() == "y" and stat.S_IMODE(new.stat().st_mode) == 0o600
        with pytest.raises(FileExistsError):
            write_atomic(new, "z")
    finally:
        os.umask(umask)
    assert [p.name for p in (tmp_path / "a").iterdir()] == ["new.md"]  # no temporary left


def test_a_file_in_the_way_is_named(tmp_path):
    (tmp_path / "f").write_text("x")
    target = tmp_path / "f" / "deeper" / "t.csv"
    assert file_in_the_way(target) == tmp_path / "f"
    with pytest.raises(NotADirectoryError, match="is a file, not a folder"):
        write_atomic(target, "x")
    assert "is a file, not a folder" in refusal(resolve(str(target)), [])
    assert file_in_the_way(tmp_path / "new" / "t.csv") is None


@pytest.mark.parametrize(
    "name, fmt",
    [
        ("x.md", "markdown"),
        ("x.MARKDOWN", "markdown"),
        ("out/t.csv", "csv"),
        ("t.tsv", "tsv"),
        ("r.htm", "html"),
        ("r.html", "html"),
        ("t.tex", "latex"),
        ("t.txt", "text"),
        ("t.json", "json"),
        ("t.data", None),
        ("t", None),
    ],
)
def test_format_of_a_typed_name(name, fmt):
    assert format_of(name) == fmt
    if fmt is not None:
        assert with_extension(name, fmt) == name


def test_a_single_iteration_change_says_it_is_not_counted(cmp):
    import dataclasses

    from tuibench.output.shareable import verdict_words

    row = {"verdict": "better", "significant": True, "is_reference": False}
    assert verdict_words({**row, "single_iteration": False}, cmp) == "better"
    single = {**row, "single_iteration": True}
    assert verdict_words(single, cmp) == "better (one iteration, not counted)"
    trusted = dataclasses.replace(
        cmp, options=dataclasses.replace(cmp.options, trust_single_iteration=True)
    )
    assert verdict_words(single, trusted) == "better"
