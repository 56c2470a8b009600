"""The answer lists changes by the size they certainly have (the bound of the interval nearest
zero), worst first; a change of unknown direction shows its signed change with its interval
everywhere the answer appears."""

from __future__ import annotations

import re

import numpy as np
import pytest

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.output.rendering import render_shareable
from tuibench.output.shareable import Shareable
from tuibench.present.answer import answer_lines, build_answer

# app/<name>: (factor of patched against base, noise between iterations, unit)
METRICS = {
    "noisy": (1.16, 0.07, "ms"),  # large but uncertain
    "sure": (1.08, 0.005, "ms"),  # smaller, certain
    "mid": (1.11, 0.01, "ms"),
    "better": (0.90, 0.005, "ms"),
    "odd": (1.09, 0.01, ""),  # no unit: direction unknown
    "odd2": (0.95, 0.005, ""),
}


@pytest.fixture
def results(tmp_path, make_system):
    rng = np.random.default_rng(3)
    for system in ("base", "patched"):
        rows = []
        for name, (factor, noise, unit) in METRICS.items():
            f = factor if system == "patched" else 1.0
            for i in range(6):
                level = 100 * f * (1 + rng.normal(0, noise))
                for v in level * (1 + rng.normal(0, 0.002, 4)):
                    rows.append(("app", name, i, round(v, 5), unit))
        make_system(tmp_path, system, rows)
    return tmp_path


def by_hand(cmp) -> list[tuple[str, str]]:
    """(verdict, metric) of the significant rows in the expected order, one row at a time."""
    group = {"worse": 0, "changed": 1, "better": 2}
    listed = []
    for r in cmp.rows.iter_rows(named=True):
        if r["is_reference"] or not r["significant"] or r["verdict"] not in group:
            continue
        lo, hi = r["ratio_ci_low"] - 1, r["ratio_ci_high"] - 1
        sure = min(abs(lo), abs(hi)) if lo * hi > 0 else 0.0
        listed.append((group[r["verdict"]], -sure, r["verdict"], r["metric"]))
    return [(v, m) for *_, v, m in sorted(listed)]


def test_the_noisy_change_is_large_but_uncertain(results):
    cmp = Analysis(load([results])).compare("base")
    rows = {r["metric"]: r for r in cmp.rows.iter_rows(named=True) if not r["is_reference"]}
    assert [rows[m]["verdict"] for m in ("noisy", "sure", "mid")] == ["worse"] * 3
    assert [rows[m]["verdict"] for m in ("odd", "odd2")] == ["changed"] * 2
    # the noisy one is the largest change, and the least certain
    sure = {m: rows[m]["ratio_ci_low"] - 1 for m in ("noisy", "sure", "mid")}
    assert rows["noisy"]["change"] > rows["mid"]["change"] > rows["sure"]["change"]
    assert sure["noisy"] < sure["sure"]


@pytest.mark.parametrize("percent", ["gain", "change"])
def test_changes_are_listed_by_their_certain_size(results, percent):
    cmp = Analysis(load([results])).compare("base")
    answer = build_answer(cmp, percent=percent)
    (patched,) = answer.systems
    assert [(c.verdict, c.metric) for c in patched.changes] == by_hand(cmp)
    assert patched.changes[0].metric != "noisy"


def test_unknown_direction_shows_the_signed_change_and_interval(results):
    cmp = Analysis(load([results])).compare("base")
    rows = {r["metric"]: r for r in cmp.rows.iter_rows(named=True) if not r["is_reference"]}
    odd = rows["odd"]
    want = (
        f"{odd['change'] * 100:+.1f}% [{(odd['ratio_ci_low'] - 1) * 100:+.1f}%, "
        f"{(odd['ratio_ci_high'] - 1) * 100:+.1f}%]"
    )
    assert want.startswith("+")
    text = "\n".join(answer_lines(build_answer(cmp)))
    assert f"? app odd  {want}  p" in text
    assert "n/a" not in text
    assert "?: nothing says which way is better" in text
    page = render_shareable(Shareable(cmp, "t"), "html")
    item = re.search(r'<li class="changed">.*?app odd.*?</li>', page)
    assert item and f'<span class="size">{want}</span>' in item.group(0)
