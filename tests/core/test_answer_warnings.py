"""Warnings travel with the verdict: a verdict that per-iteration medians do not confirm, a
throughput judged lower-is-better, two iterations on a side, and what chance alone flags at
this many comparisons are said on the answer's lines and header in every shared form."""

from __future__ import annotations

import re

import pytest

from tuibench.analysis.compare import Analysis
from tuibench.cli import main
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions
from tuibench.output.rendering import render_shareable
from tuibench.output.shareable import Shareable
from tuibench.present.answer import answer_lines, build_answer


@pytest.fixture
def results(tmp_path, make_warned):
    return make_warned(tmp_path)


def rows_of(cmp) -> dict:
    return {r["metric"]: r for r in cmp.rows.iter_rows(named=True) if not r["is_reference"]}


def test_the_data_holds_each_case(results):
    cmp = Analysis(load([results])).compare("base")
    rows = rows_of(cmp)
    assert rows["tput-32"]["verdict"] == "better" and rows["tput-32"]["better"] == "lower"
    assert rows["two"]["verdict"] == "worse" and rows["two"]["iterations"] == 2
    assert rows["bursty"]["verdict"] == "worse" and rows["bursty"]["robust"] is False
    robust = [r["robust"] for m, r in rows.items() if m != "bursty"]
    assert all(robust)


HEADER = [
    "! 1 not robust: with per-iteration medians the verdict differs",
    "2it 1 from two iterations on a side: a wide interval, a weak test",
    "dir 1 named like a throughput but judged lower-is-better",
    f"23 comparisons: about {0.05 * 23:.1f} expected by chance at alpha 0.05",
]


def test_the_answer_says_each_warning(results):
    cmp = Analysis(load([results])).compare("base")
    answer = build_answer(cmp)
    marks = {c.metric: c.flags for c in answer.systems[0].changes}
    assert marks == {"tput-32": ("direction",), "two": ("two",), "bursty": ("fragile",)}
    text = answer_lines(answer)
    assert text[1:5] == [f"  {line}" for line in HEADER]
    assert any(re.search(r"app bursty .* worse  !$", line) for line in text)
    assert any(re.search(r"app two .* worse  2it$", line) for line in text)
    assert any(re.search(r"dbench tput-32 .* better  dir$", line) for line in text)


def test_under_fdr_chance_is_not_said(results):
    cmp = Analysis(load([results])).compare("base", AnalysisOptions(fdr=True))
    assert "expected by chance" not in "\n".join(answer_lines(build_answer(cmp)))


@pytest.mark.parametrize("fmt", ["markdown", "text", "latex", "html"])
def test_every_shared_form_carries_the_warnings(results, fmt):
    cmp = Analysis(load([results])).compare("base")
    out = render_shareable(Shareable(cmp, "t"), fmt)
    for line in HEADER:
        assert line in out, line
    if fmt == "html":
        assert re.search(r'app bursty</a>.*?<span class="flags">!</span>', out)
        assert re.search(r'dbench tput-32</a>.*?<span class="flags">dir</span>', out)


def test_the_text_report_says_them_first(results, capsys):
    assert main(["report", str(results)]) == 0
    head = capsys.readouterr().out.split("\n\n")[0].splitlines()
    # base sorts first by its name: the report says so, then the warnings
    # The counts as the other formats give them, then the warnings
    assert head[-5:] == [
        "patched vs base: ▼2 worse · ▲1 better · 20 same",
        *(f"  {line}" for line in HEADER),
    ]
