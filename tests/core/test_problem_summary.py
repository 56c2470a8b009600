"""Past a few hundred problems: the first ones listed, the rest counted by kind."""

from __future__ import annotations

from tuibench.cli import main
from tuibench.model.problems import Problem
from tuibench.present.problem_summary import LISTED, SUMMARISE_FROM, problem_kinds, summarise


def test_a_few_problems_are_all_listed():
    problems = [Problem(f"f{i}.csv", "cannot be read") for i in range(SUMMARISE_FROM)]
    summary = summarise(problems)
    assert summary.listed == problems and summary.lines() == []


def test_kinds_drop_the_specifics():
    reasons = [
        "row skipped: value 'abc' is not a number",
        "row skipped: iteration 12 is not a whole number",
        "order must be a whole number, not 'x'",
        'order must be a whole number, not "y"',
        "no data rows (only a header, or empty)",
    ]
    assert problem_kinds(reasons).to_list() == [
        "row skipped",
        "row skipped",
        "order must be a whole number, not …",
        "order must be a whole number, not …",
        "no data rows (only a header, or empty)",
    ]


def test_many_problems_are_counted_by_kind():
    problems = [Problem(f"e{i}.csv", "no data rows (only a header, or empty)") for i in range(900)]
    problems += [
        Problem(f"r{i}.csv", f"row skipped: value '{i}' is not a number") for i in range(90)
    ]
    problems += [Problem(f"k{i}.csv", f"kind {chr(65 + i)}\x1b: detail") for i in range(20)]
    summary = summarise(problems)
    assert summary.total == 1010 and summary.listed == problems[:LISTED]
    assert summary.kinds[:2] == [
        ("no data rows (only a header, or empty)", 900),
        ("row skipped", 90),
    ]
    # Controls in a kind are escaped (names are data); 20 kinds of one problem each: the
    # ten beyond the twelve shown are counted together.
    assert all("\x1b" not in k for k, _ in summary.kinds)
    assert (summary.other_kinds, summary.other_count) == (10, 10)
    lines = summary.lines()
    assert lines[0].startswith(f"1010 problems: the first {LISTED} are listed")
    assert lines[1] == "  900 × no data rows (only a header, or empty)"
    assert lines[-1] == "   10 × 10 other kinds"


def test_report_summarises_problems_on_stderr(tmp_path, make_system, capsys):
    root = tmp_path / "results"
    for s in ("a", "b"):
        make_system(root, s, [("x", "t", i, 10 + i % 3 + (s == "b"), "s") for i in range(4)])
        for i in range(200):
            pad = " " * (2 * i + (s == "b"))  # no two alike: copies are a problem too
            (root / s / f"empty{i}.csv").write_text(f"benchmark,metric,value{pad}\n")
    assert main(["report", str(root)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == LISTED + 2
    assert sum(line.startswith("tuibench: problem: ") for line in err) == LISTED
    assert err[-1] == "tuibench:   400 × no data rows (only a header, or empty)"
    capsys.readouterr()
    assert main(["inspect", str(root)]) == 0  # inspect lists every one
    assert capsys.readouterr().out.count("no data rows") == 400
