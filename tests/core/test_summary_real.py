"""The per-system summary on real producers' output: A/A pairs contain 1, and a rate Go
derives from a time (MB/s beside ns/op, both rounded as printed) is one measurement."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import polars as pl
import pytest

from tuibench import stats
from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load

DATA = Path(__file__).resolve().parents[1] / "data"


def _summary(path: Path, reference: str) -> dict[str, dict]:
    cmp = Analysis(load([path])).compare(reference)
    return {r["system"]: r for r in cmp.summary().iter_rows(named=True)}


def test_go_aa_pair_contains_one_and_counts_mb_per_s_once():
    analysis = Analysis(load([DATA / "gotest" / "aa"]))
    dup = analysis.duplicates.sort("benchmark")
    benches = ["CRC32", "Copy", "Deflate", "SHA256/1KiB", "SHA256/64B", "SHA256/64KiB"]
    assert sorted(dup["benchmark"].to_list()) == sorted(benches)
    # ns/op comes after MB/s in natural order: it is the one left out.
    assert set(dup["metric"]) == {"ns/op"} and set(dup["duplicate_of"]) == {"MB/s"}
    s = analysis.compare("first").summary().row(0, named=True)
    assert s["left_out_reasons"]["duplicate"] == 6
    assert s["geomean_ci_low"] < 1 < s["geomean_ci_high"]
    # The rounding is why: the centred logs of MB/s and ns/op are opposite only to the
    # printed digits, further apart than the 10^-6 an exact match allowed.
    it = analysis.iterations.with_columns(
        pl.col(c).cast(pl.String) for c in ("benchmark", "metric")
    )
    worst = 0.0
    for b in benches:
        z = {}
        for m in ("ns/op", "MB/s"):
            v = np.log(it.filter((pl.col("benchmark") == b) & (pl.col("metric") == m))["mean_raw"])
            z[m] = v.to_numpy() - v.mean()
        worst = max(worst, float(np.abs(z["ns/op"] + z["MB/s"]).max()))
    assert worst > 1e-5


def test_mmtests_real_aa_contains_one_and_the_real_change_does_not():
    s = _summary(DATA / "mmtests-real" / "runs" / "stream.json", "5.8-vanilla")
    aa, changed = s["5.9-vanilla"], s["5.8-patched"]
    assert aa["geomean_ci_low"] < 1 < aa["geomean_ci_high"]
    # Add-1 and Triad-1 lost 8 % of their bandwidth in 5.8-patched (the fixture's README).
    assert changed["geomean_ci_high"] < 1


def test_rounded_derived_metric_is_a_duplicate_and_an_independent_one_is_not(tmp_path, make_system):
    rng = np.random.default_rng(3)

    def g3(x: float) -> float:
        return float(f"{x:.3g}")

    for system in ("a", "b"):
        rows = []
        for i in range(4):
            for _ in range(5):
                t = 2.0 * (1 + rng.normal(0, 0.05))
                rows += [
                    ("bench", "time", i, g3(t), "s"),
                    ("bench", "rate", i, g3(1000 / t), "ops/s"),  # the time, again
                    ("bench", "other", i, g3(t * (1 + rng.normal(0, 0.03))), "s"),
                ]
        make_system(tmp_path, system, rows)
    dup = Analysis(load([tmp_path])).duplicates
    assert dup.rows() == [("bench", "time", "rate")]


@pytest.mark.parametrize(
    ("x", "digits", "quantum"),
    [(3666.0, 4, 1.0), (17.46, 4, 0.01), (3000.0, 1, 1000.0), (0.25, 2, 0.01), (1228.37, 6, 0.01)],
)
def test_printed_digits_and_quantum(x, digits, quantum):
    assert stats.significant_digits(np.array([x]))[0] == digits
    assert stats.printed_quantum(np.array([x]))[0] == pytest.approx(quantum)


def test_digits_of_full_floats_zero_and_nan():
    d = stats.significant_digits(np.array([1 / 3, 0.0, np.nan, -2.5]))
    assert d[0] >= 15 and d[1] == 0 and d[2] == 17 and d[3] == 2


def test_each_duplicate_names_the_earliest_metric_and_layouts_must_match(tmp_path, make_system):
    """Three metrics that are one measurement: the later two name the first in natural
    order. A copy of it measured in other iterations (another layout) pairs with none."""
    rng = np.random.default_rng(5)
    for system in ("a", "b"):
        rows = []
        for i in range(4):
            for _ in range(5):
                t = 2.0 * (1 + rng.normal(0, 0.05))
                rows += [
                    ("bench", "time", i, t, "s"),
                    ("bench", "rate", i, 1000 / t, "ops/s"),
                    ("bench", "rate2", i, 2000 / t, "ops/s"),
                ]
                if i < 3:  # the same numbers, one iteration fewer
                    rows.append(("bench", "short", i, 3 * t, "s"))
        make_system(tmp_path, system, rows)
    dup = Analysis(load([tmp_path])).duplicates.sort("metric")
    assert dup.rows() == [("bench", "rate2", "rate"), ("bench", "time", "rate")]
