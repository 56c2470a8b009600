"""The HTML report as a document: complete, self-contained, escaped, bounded at scale."""

from __future__ import annotations

import re
from html.parser import HTMLParser

import numpy as np
import pytest

from tuibench.analysis.compare import Analysis
from tuibench.cli import main
from tuibench.ingest.load import load
from tuibench.output import html_report
from tuibench.output.rendering import render_shareable
from tuibench.output.shareable import Shareable

HOSTILE = "\x1b[31m<script>alert(1)</script>"


class Outline(HTMLParser):
    """Counts what the checks need: table rows by section, figures, svgs, ids, links."""

    def __init__(self) -> None:
        super().__init__()
        self.stack: list[str] = []
        self.ids: list[str] = []
        self.rows_in_table = 0
        self.figures: list[str] = []
        self.svgs = 0
        self.links: list[str] = []
        self.scripts = 0
        self.in_rows = False
        self.text: list[str] = []
        self.aria_sort = 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if "id" in a:
            self.ids.append(a["id"])
        if tag == "table" and a.get("id") == "rows":
            self.in_rows = True
        if tag == "tr" and self.in_rows and "class" in a:
            self.rows_in_table += 1
        if tag == "figure":
            self.figures.append(a["id"])
        if tag == "svg":
            self.svgs += 1
        if tag == "a":
            self.links.append(a.get("href", ""))
        if tag == "script":
            self.scripts += 1
        if "aria-sort" in a:
            self.aria_sort += 1

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_rows = False

    def handle_data(self, data):
        self.text.append(data)


def outline(text: str) -> Outline:
    o = Outline()
    o.feed(text)
    o.close()
    return o


def make_results(root, make_system, metrics: int = 3, hostile: bool = False):
    rng = np.random.default_rng(3)
    for system, slow in (("base", 0.0), ("patched", 0.06)):
        rows = []
        for k in range(metrics):
            bench = HOSTILE if hostile and k == 0 else f"suite/b{k}"
            factor = slow if k % 2 == 0 else 0.0  # every other metric regresses
            for i in range(4):
                for v in 10 * (1 + factor) * (1 + rng.normal(0, 0.01, 5)):
                    rows.append((bench, "time", i, round(v, 5), "ms"))
        make_system(root, system, rows)
    return root


@pytest.fixture
def cmp(tmp_path, make_system):
    root = make_results(tmp_path / "r", make_system, hostile=True)
    return Analysis(load([str(root)])).compare("base")


def test_complete_and_self_contained(cmp):
    text = render_shareable(Shareable(cmp, "", facts=[("results", "r")]), "html")
    assert text.startswith("<!doctype html>")
    o = outline(text)
    for section in ("answer", "systems", "table", "plots"):
        assert section in o.ids
    assert o.rows_in_table == cmp.rows.height
    assert len(o.figures) == o.svgs == 3  # one plot per metric
    assert o.aria_sort == 10  # every heading of the table sorts
    assert all(link.startswith("#") for link in o.links)  # links stay in the page
    assert all(link[1:] in o.ids for link in o.links)
    # Nothing is fetched: no external script, style, font or image; and a policy says so.
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)
    assert "@import" not in text and "url(" not in text
    assert "default-src 'none'" in text
    head = "".join(o.text)
    for fact in ("systems", "reference", "alpha", "test", "results", "tuibench"):
        assert fact in head


def test_verdicts_in_words_and_names_escaped(cmp):
    text = render_shareable(Shareable(cmp, ""), "html")
    assert "\x1b" not in text and "<script>alert" not in text
    assert "\\x1b[31m&lt;script&gt;alert(1)&lt;/script&gt;" in text
    words = "".join(outline(text).text)
    assert "patched vs base: ▼2 worse · ▲0 better · 1 same" in words
    assert words.count("worse") >= 2 + 2  # in the answer and in the table, as words


def test_plots_are_bounded_at_scale(tmp_path, make_system, monkeypatch):
    root = make_results(tmp_path / "r", make_system, metrics=8)
    cmp = Analysis(load([str(root)])).compare("base")
    monkeypatch.setattr(html_report, "MAX_PLOTS", 5)
    text = html_report.html_report(Shareable(cmp, ""))
    o = outline(text)
    assert o.rows_in_table == cmp.rows.height  # the table keeps every row
    assert len(o.figures) == o.svgs == 5
    worse = {r["benchmark"] for r in cmp.rows.iter_rows(named=True) if r["verdict"] == "worse"}
    assert len(worse) == 4
    plotted = [m for m in re.findall(r'<figure id="m-(\d+)"', text)]
    assert {f"suite/b{i}" for i in map(int, plotted)} >= worse  # regressions first
    assert "Plots for 5 of 8 metrics" in text and "4 of the 4 with a significant change" in text


def test_the_plots_take_every_significant_change_not_the_answers_few(
    tmp_path, make_system, monkeypatch
):
    """The answer lists a few changes per system; the plots were chosen among those, then
    by name: with more changes than listed, most went without a plot while the note said
    the significant ones came first. They are now chosen among every significant change."""
    root = make_results(tmp_path / "r", make_system, metrics=24)  # 12 regress
    cmp = Analysis(load([str(root)])).compare("base")
    monkeypatch.setattr(html_report, "MAX_PLOTS", 14)
    monkeypatch.setattr(html_report, "LISTED_PER_SYSTEM", 3)
    text = html_report.html_report(Shareable(cmp, ""))
    worse = {r["benchmark"] for r in cmp.rows.iter_rows(named=True) if r["verdict"] == "worse"}
    assert len(worse) == 12
    plotted = {f"suite/b{i}" for i in map(int, re.findall(r'<figure id="m-(\d+)"', text))}
    assert plotted >= worse
    assert "12 of the 12 with a significant change, the worst first, then others" in text


def test_report_cli_writes_the_page(tmp_path, make_system):
    root = make_results(tmp_path / "r", make_system)
    out = tmp_path / "out" / "report.html"
    assert main(["report", str(root), "--format", "html", "--output", str(out)]) == 0
    assert out.read_text().startswith("<!doctype html>")


def test_a_change_from_one_iteration_reads_not_counted(tmp_path, make_system):
    # One iteration a side, 5 % slower with samples that agree: significant on the samples,
    # but not counted (not trusted); the answer must not read like a counted regression.
    rng = np.random.default_rng(3)
    for system, level in (("base", 1.0), ("patched", 1.05)):
        rows = [("b", "time", 0, level * (1 + 0.001 * x), "s") for x in rng.standard_normal(20)]
        make_system(tmp_path, system, rows)
    cmp = Analysis(load([str(tmp_path)])).compare("base")
    (row,) = cmp.rows.filter(~cmp.rows["is_reference"]).iter_rows(named=True)
    assert row["significant"] and row["single_iteration"]
    text = render_shareable(Shareable(cmp, ""), "html")
    item = re.search(r'<li class="single">.*?</li>', text)
    assert item is not None and "(one iteration, not counted)" in item.group(0)
    assert '<span aria-hidden="true">~</span> worse' in item.group(0)
    assert '<li class="worse">' not in text


def test_limited_answers_list_what_a_limit_lists(tmp_path, make_system):
    """The page builds one answer without a limit (the plots' choice) and lists the first
    changes of it: the same as an answer built with the limit."""
    from dataclasses import asdict

    from tuibench.present.answer import build_answer, limited

    root = make_results(tmp_path / "r", make_system, metrics=24)
    cmp = Analysis(load([str(root)])).compare("base")
    assert asdict(limited(build_answer(cmp), 3)) == asdict(build_answer(cmp, limit=3))
