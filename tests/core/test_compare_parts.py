"""A comparison computed in parts of the rows (analysis/compare/parts) equals the one made
in a single pass, bit for bit: NaN and null cells, tied and constant samples, metrics only
one system has, one iteration, every reference, with and without a threshold."""

from __future__ import annotations

import dataclasses
import itertools
from pathlib import Path

import numpy as np
import pytest
from polars.testing import assert_frame_equal

from tuibench.analysis.compare import Analysis
from tuibench.analysis.compare.parts import rows
from tuibench.analysis.compare.parts.numbers import part_bounds
from tuibench.ingest.load import load
from tuibench.model.options import DEFAULT_ANALYSIS

SYSTEMS = ("a", "b", "c")


def _lines(system: str, k: int, rng: np.random.Generator) -> list[str]:
    """System number `k`'s results: per metric, iterations x samples from `values(n)`."""
    lines = ["benchmark,metric,iteration,value,unit,better"]

    def add(bench, metric, its, n, values, unit="ms", better="lower"):
        for i in range(its):
            lines.extend(f"{bench},{metric},{i},{v},{unit},{better}" for v in values(n))

    for j in range(30):  # ordinary metrics, some changed
        centre = 10 * (1 + 0.05 * k * (j % 3 == 0))
        add(f"b{j % 4}", f"m{j}", 4, 3, lambda n, c=centre: c + rng.normal(0, 0.3, n))
    add("ties", "rounded", 4, 5, lambda n: np.round(rng.normal(5 + k, 1, n)))
    add("ties", "constant", 3, 3, lambda n: np.full(n, 7.0))
    add("ties", "zero", 3, 2, lambda n: np.zeros(n))  # a zero centre
    add("one", "iteration", 1, 4, lambda n: 3 + rng.normal(0, 0.1, n))
    add("one", "sample", 1, 1, lambda n: np.array([2.0 + k]))
    add("unknown", "dir", 3, 3, lambda n: 4 + k + rng.normal(0, 0.2, n), "", "")
    add("tput", "ops", 3, 3, lambda n: 100 - k + rng.normal(0, 1, n), "ops/s", "higher")
    if system in ("a", "c"):  # metrics one system has, and one two systems have
        add("only", system, 3, 3, lambda n: rng.normal(1, 0.1, n))
    if system in ("b", "c"):
        add("two", "systems", 2, 3, lambda n: rng.normal(1 + k / 10, 0.1, n))
    return lines


def _write(root: Path) -> Path:
    rng = np.random.default_rng(7)
    for k, system in enumerate(SYSTEMS):
        (root / system).mkdir(parents=True)
        (root / system / "results.csv").write_text("\n".join(_lines(system, k, rng)) + "\n")
    return root


@pytest.mark.parametrize("threshold", [None, 2.0])
def test_parts_give_the_same_rows_as_one_pass(tmp_path, monkeypatch, threshold):
    rs = load([_write(tmp_path / "results")])
    options = dataclasses.replace(DEFAULT_ANALYSIS, threshold=threshold)
    whole, parted = Analysis(rs, options), Analysis(rs, options)
    rows_of = {}
    for size, analysis in ((10**9, whole), (1, parted), (7, parted)):
        monkeypatch.setattr(rows, "PART_ROWS", size)
        for ref in SYSTEMS:
            analysis._shifts.pop(ref, None)  # the shift made again, beside the parts
            cmp = analysis.compare(ref)
            rows_of[size, ref] = cmp.full_rows()
    first = rows_of[10**9, "a"]
    assert first.height > 3 * 30 and first["p_welch"].null_count() > 0  # NaN became null
    assert first["change"].null_count() > 0 and first["note"].null_count() < first.height
    for ref in SYSTEMS:
        for size in (1, 7):
            assert_frame_equal(rows_of[size, ref], rows_of[10**9, ref], check_exact=True)


def test_parts_are_cut_between_metrics_only():
    m = np.repeat(np.arange(50), np.random.default_rng(1).integers(1, 5, 50))
    for size in (1, 2, 3, 10, 1000):
        bounds = list(part_bounds(m, size))
        assert bounds[0][0] == 0 and bounds[-1][1] == len(m)
        assert all(hi == lo2 for (_, hi), (lo2, _) in itertools.pairwise(bounds))
        for lo, hi in bounds:
            assert hi > lo and (lo == 0 or m[lo] != m[lo - 1])
            assert hi - lo <= max(size, np.bincount(m).max())
    assert list(part_bounds(np.zeros(0, dtype=np.int64), 10)) == [(0, 0)]


def test_an_analysis_whose_samples_are_freed_lets_go_of_its_iterations(tmp_path):
    """The explorer's analysis (`samples_read`, no figures kept) keeps no iterations once
    made, and compares as one that keeps them."""
    rs = load([_write(tmp_path / "results")])
    kept, freed = Analysis(rs), Analysis(rs, samples_read=lambda _: None)
    assert kept.iterations.height > 0 and freed.iterations.height == 0
    assert Analysis(rs, keep_figures=True, samples_read=lambda _: None).iterations.height > 0
    for ref in SYSTEMS:
        a, b = kept.compare(ref), freed.compare(ref)
        assert_frame_equal(b.full_rows(), a.full_rows(), check_exact=True)
        assert_frame_equal(b.summary(), a.summary(), check_exact=True)
