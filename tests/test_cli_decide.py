"""`tuibench decide`: exit codes a benchmark loop can act on (0 stop, 1 regression, 3 run
more), the fixed-sample last look, and its formats."""

from __future__ import annotations

import json

import numpy as np
import pytest

from tuibench.cli import main


def _suite(tmp_path, make_system, iterations: int, slower: float, noise: float, seed: int = 1):
    """base and new: metric `b m` (seconds, lower is better), `new` slower by `slower`."""
    rng = np.random.default_rng(seed)
    root = tmp_path / "results"
    for system, factor in (("base", 1.0), ("new", 1.0 + slower)):
        rows = [
            ("b", "m", i, 10 * factor * np.exp(noise * rng.standard_normal()), "s")
            for i in range(iterations)
        ]
        make_system(root, system, rows)
    return root


def _json(capsys) -> dict:
    return json.loads(capsys.readouterr().out)


def test_few_iterations_are_undecided_exit_3(tmp_path, make_system, capsys):
    root = _suite(tmp_path, make_system, 3, 0.0, 0.01)
    assert main(["decide", str(root), "--format", "json"]) == 3
    doc = _json(capsys)
    (row,) = doc["rows"]
    assert row["verdict"] == "undecided" and row["pairs"] == 3
    assert row["ratio_low"] is None and row["ratio_high"] is None  # no bound yet
    assert row["more_iterations"] >= 1
    assert doc["counts"]["undecided"] == 1


def test_a_decided_regression_exits_1(tmp_path, make_system, capsys):
    root = _suite(tmp_path, make_system, 10, 0.10, 0.005)
    assert main(["decide", str(root), "--format", "json"]) == 1
    (row,) = _json(capsys)["rows"]
    assert row["verdict"] == "worse" and row["ratio_low"] > 1
    assert row["more_iterations"] is None and row["final"] is False


def test_same_within_the_margin_exits_0(tmp_path, make_system, capsys):
    root = _suite(tmp_path, make_system, 10, 0.0, 0.002)
    assert main(["decide", str(root), "--threshold", "1"]) == 0
    out = capsys.readouterr().out
    assert "same within ±1 %" in out


def test_the_reference_can_be_chosen(tmp_path, make_system, capsys):
    root = _suite(tmp_path, make_system, 10, 0.10, 0.005)
    assert main(["decide", str(root), "--reference", "new", "--format", "json"]) == 0
    (row,) = _json(capsys)["rows"]
    assert row["system"] == "base" and row["verdict"] == "better"
    assert main(["decide", str(root), "--reference", "nope"]) == 2


def test_max_iterations_gives_a_final_fixed_sample_verdict(tmp_path, make_system, capsys):
    root = _suite(tmp_path, make_system, 4, 0.0, 0.01, seed=3)
    assert main(["decide", str(root), "--format", "json"]) == 3
    before = _json(capsys)["rows"][0]
    # 1 % noise over 4 pairs: the t interval reaches past ±2 %, and no more will come.
    assert main(["decide", str(root), "--format", "json", "--max-iterations", "4"]) == 4
    row = _json(capsys)["rows"][0]
    assert row["final"] is True and row["verdict"] == "inconclusive"
    # Not reached yet: the sequential answer stands.
    assert main(["decide", str(root), "--format", "json", "--max-iterations", "5"]) == 3
    assert _json(capsys)["rows"][0] == before


def test_final_interval_is_the_paired_t_interval(tmp_path, make_system, capsys):
    from scipy import stats

    root = _suite(tmp_path, make_system, 5, 0.0, 0.01, seed=4)
    main(["decide", str(root), "--format", "json", "--max-iterations", "5", "--threshold", "1"])
    row = _json(capsys)["rows"][0]
    if not row["final"]:
        pytest.skip("decided before the last look with this seed")
    rng = np.random.default_rng(4)
    x = [10 * np.exp(0.01 * rng.standard_normal()) for _ in range(5)]
    y = [10 * np.exp(0.01 * rng.standard_normal()) for _ in range(5)]
    d = np.log(y) - np.log(x)
    lo, hi = stats.t.interval(0.95, 4, loc=d.mean(), scale=stats.sem(d))
    assert row["ratio_low"] == pytest.approx(np.exp(lo), rel=1e-9)
    assert row["ratio_high"] == pytest.approx(np.exp(hi), rel=1e-9)


def _last_look(tmp_path, make_system, base, new, extra=()):
    """`b m` in seconds, one value per iteration; `extra`: more rows for both systems."""
    root = tmp_path / "results"
    make_system(root, "base", [("b", "m", i, v, "s") for i, v in enumerate(base)] + list(extra))
    make_system(root, "new", [("b", "m", i, v, "s") for i, v in enumerate(new)] + list(extra))
    return root


def _t_interval(base, new):
    from scipy import stats

    d = np.log(new) - np.log(base)
    return stats.t.interval(0.95, len(d) - 1, loc=d.mean(), scale=stats.sem(d))


def test_a_last_look_past_the_margin_is_inconclusive_exit_4(tmp_path, make_system, capsys):
    base, new = [10.0, 10.0, 10.0], [10.5, 9.8, 10.6]
    lo, hi = _t_interval(base, new)
    assert lo < 0 < hi and hi > np.log1p(0.02)  # neither a change nor within ±2 %
    root = _last_look(tmp_path, make_system, base, new)
    args = ["decide", str(root), "--max-iterations", "3", "--iteration-value", "mean"]
    assert main([*args, "--format", "json"]) == 4
    out, err = capsys.readouterr()
    doc = json.loads(out)
    (row,) = doc["rows"]
    assert row["verdict"] == "inconclusive" and row["final"] is True and row["within"] is None
    assert row["ratio_low"] == pytest.approx(np.exp(lo), rel=1e-9)
    assert row["ratio_high"] == pytest.approx(np.exp(hi), rel=1e-9)
    assert doc["counts"]["inconclusive"] == 1 and doc["counts"]["same"] == 0
    assert "1 inconclusive" in err and "same" not in err
    for fmt in ("text", "markdown"):
        assert main([*args, "--format", fmt]) == 4
        text = capsys.readouterr().out
        assert "inconclusive at 3 iterations (fixed-sample, last look)" in text
        assert "vs base: 1 inconclusive" in text and "same within" not in text


def test_a_last_look_is_same_only_within_the_margin(tmp_path, make_system, capsys):
    base, new = [10.0, 10.0, 10.0, 10.0], [10.05, 9.97, 10.02, 9.99]
    lo, hi = _t_interval(base, new)
    assert np.log1p(-0.02) < lo < 0 < hi < np.log1p(0.02)
    root = _last_look(tmp_path, make_system, base, new)
    args = ["decide", str(root), "--iteration-value", "mean", "--format", "json"]
    assert main(args) == 3  # the sequence alone cannot tell yet at 4 pairs
    assert _json(capsys)["rows"][0]["verdict"] == "undecided"
    assert main([*args, "--max-iterations", "4"]) == 0
    (row,) = _json(capsys)["rows"]
    assert row["verdict"] == "same" and row["final"] is True
    assert row["within"] == pytest.approx(0.02)  # the margin, not the interval's bound
    assert main([*args, "--max-iterations", "4", "--threshold", "0.1"]) == 4
    assert _json(capsys)["rows"][0]["verdict"] == "inconclusive"


def test_undecided_metrics_run_more_before_an_inconclusive_stop(tmp_path, make_system, capsys):
    short = [("b", "k", i, 5.0 + i / 10, "s") for i in range(2)]  # below the maximum
    root = _last_look(tmp_path, make_system, [10.0] * 3, [10.5, 9.8, 10.6], short)
    args = ["decide", str(root), "--max-iterations", "3", "--iteration-value", "mean"]
    assert main([*args, "--format", "json"]) == 3
    verdicts = {r["metric"]: r["verdict"] for r in _json(capsys)["rows"]}
    assert verdicts == {"m": "inconclusive", "k": "undecided"}


def test_a_metric_on_one_side_does_not_block(tmp_path, make_system, capsys):
    root = _suite(tmp_path, make_system, 10, 0.0, 0.002)
    with open(root / "new" / "data.csv", "a") as f:
        f.write("b,only-new,0,1.0,s\n")
    assert main(["decide", str(root), "--format", "json"]) == 0
    rows = _json(capsys)["rows"]
    assert {r["metric"]: r["verdict"] for r in rows} == {"m": "same", "only-new": "n/a"}
    assert next(r for r in rows if r["metric"] == "m")["reason"] is None  # only n/a says why
    only = next(r for r in rows if r["metric"] == "only-new")
    assert only["reason"] == "the reference has no results for this metric"
    assert only["pairs"] == 0


def test_formats_escape_names(tmp_path, make_system, capsys):
    root = tmp_path / "results"
    for system, shift in (("base", 0.0), ("new", 0.01)):
        (root / system).mkdir(parents=True)
        with open(root / system / "data.jsonl", "w") as fh:
            for i in range(3):
                row = {"benchmark": "b\x1b]0;x\x07|y", "metric": "m_1", "iteration": i}
                fh.write(json.dumps({**row, "value": 10 + i / 100 + shift, "unit": "s"}) + "\n")
    assert main(["decide", str(root)]) == 3
    text = capsys.readouterr().out
    assert "\x1b" not in text and "\\x1b" in text and "undecided: about" in text
    assert main(["decide", str(root), "--format", "markdown"]) == 3
    md = capsys.readouterr().out
    assert "\\|y" in md and "m\\_1" in md and "\x07" not in md
    assert main(["decide", str(root), "--format", "json"]) == 3
    assert _json(capsys)["rows"][0]["benchmark"] == "b\x1b]0;x\x07|y"  # JSON keeps names


def test_bad_options_are_usage_errors(tmp_path, make_system, capsys):
    root = _suite(tmp_path, make_system, 3, 0.0, 0.01)
    bad_options = (
        ["--max-iterations", "0"],
        ["--threshold", "0"],
        ["--format", "csv"],
        ["--seed", "-1"],  # checked as report checks it, when the command line is read
        ["--subselections", "1e3"],
    )
    for bad in bad_options:
        with pytest.raises(SystemExit) as exc:
            main(["decide", str(root), *bad])
        assert exc.value.code == 2
    assert main(["decide", str(tmp_path / "missing")]) == 2


def test_a_single_system_is_an_error(tmp_path, make_system, capsys):
    make_system(tmp_path / "results", "base", [("b", "m", i, 10.0 + i, "s") for i in range(5)])
    assert main(["decide", str(tmp_path / "results")]) == 2
    assert "needs a second system" in capsys.readouterr().err


def test_pairs_by_position_up_to_the_shorter_side(tmp_path, make_system, capsys):
    from tuibench.stats.sequential import half_width

    base = [10.0, 10.2, 9.9, 10.1]
    new = [11.0, 10.9, 11.3, 11.1, 50.0, 60.0]  # the last two wait for their pairs
    root = tmp_path / "results"
    make_system(root, "base", [("b", "m", i, v, "s") for i, v in enumerate(base)])
    make_system(root, "new", [("b", "m", i, v, "s") for i, v in enumerate(new)])
    main(["decide", str(root), "--format", "json", "--iteration-value", "mean"])
    (row,) = _json(capsys)["rows"]
    d = np.log(new[:4]) - np.log(base)
    hw = half_width(4, d.var(), 0.05)
    assert row["pairs"] == 4
    assert row["change"] == pytest.approx(np.expm1(d.mean()), rel=1e-12)
    assert row["ratio_low"] == pytest.approx(np.exp(d.mean() - hw), rel=1e-9)
    assert row["ratio_high"] == pytest.approx(np.exp(d.mean() + hw), rel=1e-9)


def test_a_non_positive_value_is_not_applicable(tmp_path, make_system, capsys):
    root = tmp_path / "results"
    make_system(root, "base", [("b", "m", i, 1.0 + i, "s") for i in range(6)])
    make_system(root, "new", [("b", "m", i, float(i), "s") for i in range(6)])  # a 0
    assert main(["decide", str(root), "--format", "json"]) == 0
    (row,) = _json(capsys)["rows"]
    assert row["verdict"] == "n/a" and row["pairs"] == 6 and row["change"] is None
    assert row["reason"].startswith("this system's values are not all positive")


def test_n_a_rows_count_their_iterations_and_say_why(tmp_path, make_system, capsys):
    import re

    rng = np.random.default_rng(5)
    root = tmp_path / "results"
    for system, zero in (("base", 0.0), ("new", 1.0)):  # `zero`: the reference's is all 0
        rows = [("b", "delta", i, -5 + 0.1 * rng.standard_normal(), "ms") for i in range(5)]
        rows += [
            ("b", "zero", i, zero * (1 + 0.01 * rng.standard_normal()), "ms") for i in range(5)
        ]
        make_system(root, system, rows)
    assert main(["decide", str(root), "--format", "json"]) == 0
    doc = _json(capsys)
    rows = {r["metric"]: r for r in doc["rows"]}
    assert {m: (r["verdict"], r["pairs"]) for m, r in rows.items()} == {
        "delta": ("n/a", 5),
        "zero": ("n/a", 5),
    }
    needs = "(the ratio of geometric means needs positive values)"
    assert rows["delta"]["reason"] == f"neither side's values are all positive {needs}"
    assert rows["zero"]["reason"] == f"the reference's values are not all positive {needs}"
    assert doc["counts"]["n/a"] == 2
    for fmt in ("text", "markdown"):
        main(["decide", str(root), "--format", fmt])
        out = capsys.readouterr().out
        cells = r"\W+".join(["delta", "new", "5", "n/a", "n/a: neither side's values"])
        assert re.search(cells, out) and out.count(needs) == 2
    # report gives neither a ratio (delta keeps an arithmetic change): no contradiction
    main(["report", str(root), "--format", "json"])
    said = {r["metric"]: r for r in _json(capsys)["rows"] if r["system"] == "new"}
    assert said["delta"]["ratio"] is None and said["zero"]["ratio"] is None
    assert "reference centre is zero" in said["zero"]["note"]


def test_a_single_pair_at_the_last_look_says_so(tmp_path, make_system, capsys):
    root = tmp_path / "results"
    make_system(root, "base", [("b", "m", i, 10.0 + i / 10, "s") for i in range(3)])
    make_system(root, "new", [("b", "m", 0, 10.0, "s")])
    main(["decide", str(root), "--format", "json", "--max-iterations", "3"])
    (row,) = _json(capsys)["rows"]
    assert (row["verdict"], row["pairs"]) == ("n/a", 1)
    assert row["reason"] == "a single pair of iterations at the last look: no interval"
