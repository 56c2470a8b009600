"""`tuibench inspect`: what was read, per system and file, and every problem."""

from __future__ import annotations

from tuibench.cli import main


def test_inspect_lists_files_formats_and_problems(tmp_path, make_system, capsys):
    make_system(tmp_path, "a", [("b", "t", i, 1.0 + i) for i in range(3)])
    (tmp_path / "a" / "system.toml").write_text('description = "the base"\n')
    (tmp_path / "a" / "notes.dat").write_text("hello\n")
    assert main(["inspect", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "a — the base" in out
    assert "data.csv" in out and "native: 1 benchmark(s), 1 metric(s), 3 iteration(s)" in out
    assert "set aside, not results\n" in out
    assert f"  {tmp_path / 'a' / 'notes.dat'}: unknown: text in no known result format" in out
    assert f"  {tmp_path / 'a' / 'system.toml'}: read as settings, not results" in out
    assert out.strip().endswith(
        "1 system(s), 1 file(s), 3 sample(s), 0 problem(s), 1 set aside "
        "(1 file not results: 1 unknown)"  # system.toml: listed under settings, not counted
    )


def test_inspect_exits_2_when_nothing_is_read(tmp_path, capsys):
    (tmp_path / "s").mkdir()
    (tmp_path / "s" / "x.json").write_text("{")
    assert main(["inspect", str(tmp_path)]) == 2
    assert "truncated JSON" in capsys.readouterr().out


def test_inspect_over_the_real_fixtures(fixtures_dir, capsys):
    paths = [fixtures_dir / d for d in ("gbench", "pyperf", "examples")]
    assert main(["inspect", *map(str, paths)]) == 0
    out = capsys.readouterr().out
    for name in ("Google Benchmark JSON", "pyperf JSON", "hyperfine JSON"):
        assert name in out


def test_inspect_counts_a_multi_run_files_iterations_per_system(fixtures_dir, capsys):
    """mmtests' --json-export holds 3 runs of 5 iterations: not 15 iterations."""
    export = fixtures_dir / "mmtests-real" / "json-export"
    assert main(["inspect", str(export)]) == 0
    out = capsys.readouterr().out
    assert (
        "    mmtests: 1 benchmark(s), 4 metric(s), 5 iteration(s) per system, 3 systems, "
        "300 sample(s) in all\n"
    ) in out


def test_inspect_gives_a_range_when_the_systems_iterations_differ(tmp_path, capsys):
    rows = [("a", i) for i in range(4)] + [("b", i) for i in range(5)]
    text = "".join(f"{s},b,t,{i},{1.0 + i},ms\n" for s, i in rows)
    (tmp_path / "runs.csv").write_text("system,benchmark,metric,iteration,value,unit\n" + text)
    (tmp_path / "one.csv").write_text("benchmark,metric,iteration,value\nb,u,0,1\nb,u,1,2\n")
    assert main(["inspect", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "native: 1 benchmark(s), 1 metric(s), 4-5 iteration(s) per system, 2 systems, " in out
    assert "native: 1 benchmark(s), 1 metric(s), 2 iteration(s), 2 sample(s) in all" in out


def test_inspect_lists_settings_apart_and_does_not_count_them(capsys):
    """system.toml and tuibench.toml are read as settings: listed under their own heading,
    not in the count of files set aside (the README: listed, not counted)."""
    from pathlib import Path

    from tuibench.cli import main

    main(["inspect", str(Path(__file__).resolve().parents[2] / "sample_runs")])
    out = capsys.readouterr().out
    assert "\nsettings\n" in out and out.count("read as settings") == 4
    assert "set aside" not in out.splitlines()[-1]


def test_a_file_is_one_iteration_whatever_its_metrics_are_numbered(tmp_path, capsys):
    """Files without iteration numbers are numbered per metric: in the second file `app
    a` is the second iteration and `app b` (new there) the first. That file is still one
    iteration of each, not two (it said 2, as for Google Benchmark's files)."""
    (tmp_path / "s").mkdir()
    rows = {"one.csv": ["a"], "two.csv": ["a", "b"]}
    for name, metrics in rows.items():
        lines = ["benchmark,metric,sample,value"] + [f"app,{m},0,1.0" for m in metrics]
        (tmp_path / "s" / name).write_text("\n".join(lines) + "\n")
    assert main(["inspect", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert out.count("1 iteration(s)") == 2 and "2 iteration(s)" not in out


def test_a_files_iterations_are_those_of_its_metric_with_the_most(tmp_path, capsys):
    """`app a` has three iterations in the file, `app b` one: the file holds 3."""
    (tmp_path / "s").mkdir()
    lines = ["benchmark,metric,iteration,value"] + [f"app,a,{i},1.0" for i in range(3)]
    lines.append("app,b,1,2.0")
    (tmp_path / "s" / "r.csv").write_text("\n".join(lines) + "\n")
    assert main(["inspect", str(tmp_path)]) == 0
    assert "2 metric(s), 3 iteration(s)" in capsys.readouterr().out
