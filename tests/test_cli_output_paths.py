"""`report --output` never writes into the results nor over a file that was read (exit 2)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tuibench.cli import main
from tuibench.output.paths import refusal, resolve


@pytest.fixture
def results(tmp_path, make_system) -> Path:
    root = tmp_path / "results"
    for system, value in (("base", 10.0), ("new", 11.0)):
        make_system(root, system, [("b", "m", i, value + i / 10) for i in range(3)])
    return root


def _refused(capsys, args, target: Path, before: bytes | None) -> None:
    assert main(["report", *args]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tuibench: will not write ")
    assert len(err.strip().splitlines()) == 1
    if before is None:
        assert not target.exists()
    else:
        assert target.read_bytes() == before


def test_output_over_the_input_file_is_refused(tmp_path, results, capsys):
    main(["report", str(results), "--format", "csv"])
    tidy = tmp_path / "all.csv"
    tidy.write_text(capsys.readouterr().out)
    before = tidy.read_bytes()
    _refused(capsys, [str(tidy), "--format", "csv", "--output", str(tidy)], tidy, before)


def test_output_over_the_input_file_given_relative_is_refused(results, capsys, monkeypatch):
    data = results / "base" / "data.csv"
    before = data.read_bytes()
    monkeypatch.chdir(results / "base")
    _refused(capsys, ["data.csv", "--output", "./data.csv"], data, before)


def test_output_inside_the_results_folder_is_refused(results, capsys):
    target = results / "base" / "table.txt"
    _refused(capsys, [str(results), "--output", str(target)], target, None)
    target = results / "new.txt"
    _refused(capsys, [str(results), "--output", str(target)], target, None)


def test_output_through_a_link_into_the_results_is_refused(tmp_path, results, capsys):
    (tmp_path / "link").symlink_to(results / "base")
    target = results / "base" / "t.txt"
    _refused(capsys, [str(results), "--output", str(tmp_path / "link" / "t.txt")], target, None)


def test_output_over_a_hard_link_of_a_file_read_is_refused(tmp_path, results, capsys):
    data = results / "new" / "data.csv"
    hard = tmp_path / "hard.csv"
    os.link(data, hard)
    before = data.read_bytes()
    _refused(capsys, [str(results), "--output", str(hard)], hard, before)


def test_output_over_a_file_a_result_links_to_is_refused(tmp_path, results, capsys):
    outside = tmp_path / "outside.csv"
    (results / "new" / "data.csv").rename(outside)
    (results / "new" / "data.csv").symlink_to(outside)
    before = outside.read_bytes()
    assert main(["report", str(results), "--output", str(outside)]) == 2
    problem, refused = capsys.readouterr().err.strip().splitlines()
    assert "outside the given folders; not read" in problem  # the link is not followed
    assert refused == (
        f"tuibench: will not write {outside}: {results / 'new' / 'data.csv'} in the results "
        "links to it: tuibench never writes over results"
    )
    assert outside.read_bytes() == before


def test_output_that_is_a_folder_or_empty_is_refused(tmp_path, results, capsys):
    _refused(capsys, [str(results), "--output", str(tmp_path)], tmp_path / "x", None)
    assert main(["report", str(results), "--output", ""]) == 2
    assert "empty file name" in capsys.readouterr().err


def test_output_elsewhere_is_written(tmp_path, results, capsys):
    target = tmp_path / "out" / "table.txt"
    assert main(["report", str(results), "--output", str(target)]) == 0
    assert "Comparison against base" in target.read_text()
    assert not list(results.rglob("table.txt"))


def test_refusal_is_shared_with_the_explorer():
    from tuibench.tui.view import export_files

    assert export_files.refusal is refusal and export_files.resolve is resolve
