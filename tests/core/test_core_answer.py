"""The answer (present/answer.py) against counts, orders and intervals computed by hand."""

from __future__ import annotations

import math

import polars as pl
import pytest

from tuibench.analysis.compare import Analysis, Comparison
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions
from tuibench.present.answer import (
    Answer,
    answer_lines,
    build_answer,
    change_text,
    counts_text,
)

ITERATION = [1.0, 1.01, 0.99, 1.005, 0.995]
SAMPLE = [0.998, 1.0, 1.002]

# metric -> (unit, better, base value, factor per system)
METRICS = {
    ("db/read", "tps"): ("tx/s", "higher", 41000.0, {"patched": 0.93, "tuned": 1.02}),
    ("db/read", "latency"): ("ms", "lower", 0.195, {"patched": 1.12, "tuned": 0.97}),
    ("db/write", "tps"): ("tx/s", "higher", 9800.0, {"patched": 1.05, "tuned": 1.0}),
    ("startup", "time"): ("s", "lower", 4.81, {"patched": 1.0, "tuned": 0.9}),
    ("web/render", "latency"): ("ms", "lower", 12.5, {"patched": 1.03, "tuned": 1.0}),
}


def write_results(root, systems=("base", "patched", "tuned")):
    for order, system in enumerate(systems):
        folder = root / system
        folder.mkdir(parents=True)
        (folder / "system.toml").write_text(f"order = {order}\n")
        lines = ["benchmark,metric,iteration,sample,value,unit,better"]
        for (bench, metric), (unit, better, base, factors) in METRICS.items():
            centre = base * factors.get(system, 1.0)
            for i, si in enumerate(ITERATION):
                for j, sj in enumerate(SAMPLE):
                    lines.append(f"{bench},{metric},{i},{j},{centre * si * sj:.9g},{unit},{better}")
        (folder / "results.csv").write_text("\n".join(lines) + "\n")
    return root


@pytest.fixture(scope="module")
def comparison(tmp_path_factory) -> Comparison:
    root = write_results(tmp_path_factory.mktemp("answer") / "results")
    rs = load([str(root)])
    return Analysis(rs).compare("base")


def gain_by_hand(r: dict) -> float | None:
    if r["better"] == "higher":
        return r["change"]
    if r["better"] == "lower":
        return -r["change"]
    return None


def test_counts_match_a_plain_loop(comparison):
    answer = build_answer(comparison)
    for a in answer.systems:
        worse = better = same = 0
        for r in comparison.rows.iter_rows(named=True):
            if r["system"] != a.system:
                continue
            worse += r["verdict"] == "worse"
            better += r["verdict"] == "better"
            same += r["verdict"] == "same"
        assert (a.worse, a.better, a.same, a.other, a.unknown) == (worse, better, same, 0, 0)
        assert a.worse + a.better + a.same == len(METRICS)
    patched = next(a for a in answer.systems if a.system == "patched")
    assert (patched.worse, patched.better) == (3, 1)  # tps, latency, web latency; write tps


def test_systems_best_first_by_the_summary(comparison):
    answer = build_answer(comparison)
    summary = comparison.summary().sort("geomean_ratio", descending=True)
    assert [a.system for a in answer.systems] == summary["system"].to_list()
    assert answer.systems[0].system == "tuned"
    for a in answer.systems:
        row = comparison.summary().filter(pl.col("system") == a.system).row(0, named=True)
        assert a.geomean == row["geomean_ratio"]
        assert (a.geomean_low, a.geomean_high) == (row["geomean_ci_low"], row["geomean_ci_high"])


def test_changes_worst_first_with_gain_and_interval(comparison):
    answer = build_answer(comparison)
    patched = next(a for a in answer.systems if a.system == "patched")
    rows = [
        r
        for r in comparison.rows.iter_rows(named=True)
        if r["system"] == "patched" and r["significant"]
    ]
    worse = sorted((r for r in rows if r["verdict"] == "worse"), key=gain_by_hand)
    better = sorted((r for r in rows if r["verdict"] == "better"), key=lambda r: -gain_by_hand(r))
    expected = worse + better
    assert [(c.benchmark, c.metric) for c in patched.changes] == [
        (r["benchmark"], r["metric"]) for r in expected
    ]
    assert patched.listed_total == len(expected) and patched.more == 0
    for c, r in zip(patched.changes, expected, strict=True):
        gain = gain_by_hand(r)
        assert c.size == pytest.approx(gain)
        lo, hi = r["ratio_ci_low"] - 1, r["ratio_ci_high"] - 1
        if r["better"] == "lower":
            lo, hi = -hi, -lo
        assert (c.low, c.high) == (pytest.approx(lo), pytest.approx(hi))
        assert c.low <= c.size <= c.high
        assert c.p == r["p_welch"]
        assert c.verdict == r["verdict"]
    # db/read latency is 12 % slower: the worst, about -12 % of gain (lower is better)
    first = patched.changes[0]
    assert (first.benchmark, first.metric) == ("db/read", "latency")
    assert first.size == pytest.approx(-0.12, abs=0.005)


def test_change_instead_of_gain(comparison):
    gains = build_answer(comparison)
    changes = build_answer(comparison, percent="change")
    for a, b in zip(gains.systems, changes.systems, strict=True):
        # the same items in the same (severity) order; only the sign convention differs
        assert [c.name for c in a.changes] == [c.name for c in b.changes]
        for g, c in zip(a.changes, b.changes, strict=True):
            r = comparison.rows.filter(
                (pl.col("system") == a.system)
                & (pl.col("benchmark") == g.benchmark)
                & (pl.col("metric") == g.metric)
            ).row(0, named=True)
            assert c.size == pytest.approx(r["change"])
            assert (c.low, c.high) == (
                pytest.approx(r["ratio_ci_low"] - 1),
                pytest.approx(r["ratio_ci_high"] - 1),
            )


def test_limit_keeps_the_worst_and_counts_the_rest(comparison):
    full = build_answer(comparison)
    short = build_answer(comparison, limit=1)
    for a, b in zip(full.systems, short.systems, strict=True):
        assert b.changes == a.changes[:1]
        assert b.listed_total == a.listed_total
        assert b.more == a.listed_total - len(b.changes)


def hand_comparison(rows: list[dict]) -> Comparison:
    """A comparison built from a few rows by hand (base is the reference)."""
    frame = pl.DataFrame(rows, infer_schema_length=None)
    return Comparison(reference="base", systems=["base", "new"], rows=frame)


def row(metric, system, better, change, verdict, significant, iterations=3, p=0.01):
    ref = system == "base"
    return {
        "benchmark": "b",
        "metric": metric,
        "unit": "s",
        "better": better,
        "system": system,
        "is_reference": ref,
        "iterations": iterations,
        "change": 0.0 if ref else change,
        "gain": None
        if better is None
        else (0.0 if ref else change * (1 if better == "higher" else -1)),
        "single_iteration": iterations == 1,
        "ratio": 1.0 if ref else 1 + change,
        "ratio_ci_low": None if ref else 1 + change - 0.01,
        "ratio_ci_high": None if ref else 1 + change + 0.01,
        "p_welch": None if ref else p,
        "p_adjusted": None if ref else p,
        "significant": significant,
        "verdict": "reference" if ref else verdict,
    }


def test_unknown_direction_and_single_iteration_counted_apart():
    rows = []
    for metric, better, change, verdict, sig, its in [
        ("a", "lower", 0.2, "worse", True, 3),
        ("b", None, 0.3, "changed", True, 3),  # direction unknown: never called worse
        ("c", "higher", 0.0, "same", False, 1),  # one iteration on this side
        ("d", "lower", -0.1, "better", True, 3),
    ]:
        rows.append(row(metric, "base", better, 0, "reference", False))
        rows.append(row(metric, "new", better, change, verdict, sig, its))
    answer = build_answer(hand_comparison(rows))
    (a,) = answer.systems
    # the single-iteration metric is not counted as the same (not trusted by default)
    assert (a.worse, a.better, a.same, a.unknown, a.single_iteration) == (1, 1, 0, 1, 1)
    assert [(c.metric, c.verdict) for c in a.changes] == [
        ("a", "worse"),
        ("b", "changed"),
        ("d", "better"),
    ]
    unknown = a.changes[1]
    # no gain without a direction: the signed change stands in, with its interval
    assert (unknown.size, unknown.low, unknown.high) == pytest.approx((0.3, 0.29, 0.31))
    assert change_text(unknown) == "? b b  +30.0% [+29.0%, +31.0%]  p 0.010  changed"
    assert unknown.glyph == "?"  # as the tables mark it; ◆ marks a change point
    text = counts_text(a, answer.reference)
    assert text == (
        "new vs base: ▼1 worse · ▲1 better · 0 same · 1 of unknown direction · "
        "1 from one iteration, not counted"
    )
    assert change_text(a.changes[0]) == "▼ b a  -20.0% [-21.0%, -19.0%]  p 0.010  worse"


def test_a_change_seen_on_one_iteration_is_listed_after_those_that_count():
    rows = []
    for metric, change, its in [("big", -0.5, 1), ("small", -0.1, 3), ("mid", -0.2, 3)]:
        rows.append(row(metric, "base", "lower", 0, "reference", False))
        rows.append(row(metric, "new", "lower", change, "better", True, its))
    (a,) = build_answer(hand_comparison(rows)).systems
    assert a.better == 2  # the single-iteration one is not counted...
    # ...so it follows those that are, though its gain is the largest, marked ~, not ▲
    assert [(c.metric, c.counted, c.glyph) for c in a.changes] == [
        ("mid", True, "▲"),
        ("small", True, "▲"),
        ("big", False, "~"),
    ]
    assert a.changes[2].meaning == "single"
    assert change_text(a.changes[2]) == (
        "~ b big  +50.0% [+49.0%, +51.0%]  p 0.010  better  (one iteration, not counted)"
    )
    # Trusted (--trust-single-iteration), it counts and takes its place by size.
    cmp = hand_comparison(rows)
    cmp.options = AnalysisOptions(trust_single_iteration=True)
    (t,) = build_answer(cmp).systems
    assert [c.metric for c in t.changes] == ["big", "mid", "small"]
    assert change_text(t.changes[0]).endswith("better  (one iteration)")
    assert t.changes[0].glyph == "▲"


def test_text_escapes_names_from_data():
    rows = [
        row("\x1b[31mred", "base", "lower", 0, "reference", False),
        row("\x1b[31mred", "new", "lower", 0.2, "worse", True),
    ]
    lines = answer_lines(build_answer(hand_comparison(rows)))
    assert not any("\x1b" in line for line in lines)
    assert any("\\x1b[31mred" in line for line in lines)


def test_one_system_says_so():
    answer = Answer("base", 0.05, False, None, "gain", [])
    assert answer_lines(answer) == ["Only base: nothing to compare it with."]


def test_sizes_are_finite_or_none(comparison):
    for a in build_answer(comparison).systems:
        for c in a.changes:
            for x in (c.size, c.low, c.high, c.p):
                assert x is None or math.isfinite(x)


def test_a_geomean_without_interval_says_why_in_a_few_words():
    import dataclasses

    from tuibench.analysis.compare.summary import NO_INTERVAL
    from tuibench.present.answer import SystemAnswer, geomean_text

    fields = {f.name: None for f in dataclasses.fields(SystemAnswer)}
    a = SystemAnswer(**{**fields, "geomean": 1.014, "geomean_note": NO_INTERVAL["aligned"]})
    assert geomean_text(a) == "geomean 1.014 (no interval: uneven runs)"
    a = dataclasses.replace(a, geomean_low=1.0, geomean_high=1.02, geomean_note=None)
    assert geomean_text(a) == "geomean 1.014 [1.000, 1.020]"


def test_trusted_single_iterations_are_counted_among_the_others(tmp_path, make_system):
    """With --trust-single-iteration a one-iteration metric is worse, better or same like
    the others: the line says it is among them, and the counts add up to the metrics."""
    from tuibench.analysis.compare import Analysis
    from tuibench.ingest.load import load
    from tuibench.model.options import AnalysisOptions
    from tuibench.present.answer import build_answer, counts_text

    for system, slow in (("base", 1.0), ("new", 1.1)):
        rows = [("app", "run", i, 10.0 + 0.01 * (i % 3), "ms") for i in range(5)]
        rows += [("lib", "once", 0, 5.0 * slow + 0.01 * j, "ms") for j in range(4)]
        make_system(tmp_path, system, rows)
    rs = load([tmp_path])
    trusted = Analysis(rs, AnalysisOptions(trust_single_iteration=True)).compare("base")
    (a,) = build_answer(trusted).systems
    assert a.worse + a.better + a.same == 2 and a.single_iteration == 1
    assert counts_text(a, "base").endswith("· 1 of these from one iteration")
    (a,) = build_answer(Analysis(rs).compare("base")).systems
    assert a.worse + a.better + a.same == 1
    assert counts_text(a, "base").endswith("· 1 from one iteration, not counted")


def test_ranking_places_never_read_the_same_geomean():
    """#2 and #3 read 0.994 and 0.994: more decimals until the places read apart."""
    from tuibench.present.answer import ranking_items

    items = ranking_items([("v1", 1.01), ("ref", 1.0), ("v3", 0.99412), ("v2", 0.99391)], "ref")
    assert [what for _, _, what in items] == ["1.0100", "reference", "0.9941", "0.9939"]
    items = ranking_items([("v1", 1.01), ("ref", 1.0), ("v3", 0.994)], "ref")
    assert [what for _, _, what in items] == ["1.010", "reference", "0.994"]
