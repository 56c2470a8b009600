"""Every file under the given paths is read or set aside with its reason; the same data is
never counted twice; nothing blocks (FIFOs, mounts, growing files); links do not lead out."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import threading
from pathlib import Path

import polars as pl
import pytest

from tuibench.cli import main
from tuibench.ingest import load as load_module
from tuibench.ingest.load import load
from tuibench.model.set_aside import VCS_FOLDERS, set_aside_line

DATA = Path(__file__).resolve().parents[1] / "data"
DISCOVERY = DATA / "discovery"
SAMPLE_RUNS = Path(__file__).resolve().parents[2] / "sample_runs"
FIXTURES = Path(__file__).resolve().parents[3] / "shared" / "fixtures"
GO_LOG = DISCOVERY / "golog" / "base" / "bench.log"


def _regular_files(root: Path) -> list[str]:
    """Every regular file below root as os.walk sees it (links to files included), outside
    version-control folders."""
    out = []
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d not in VCS_FOLDERS]
        out.extend(p for f in files if os.path.isfile(p := os.path.join(folder, f)))
    return out


def _unaccounted(root: Path) -> list[str]:
    rs = load([root])
    named = {f.path for f in rs.files} | {a.path for a in rs.set_aside}
    named |= {p.path for p in rs.problems}

    def accounted(path: str) -> bool:  # the file, or a folder above it, is named
        p = Path(path)
        return any(str(q) in named for q in (p, *p.parents))

    return [f for f in _regular_files(root) if not accounted(f)]


def _folders() -> list[Path]:
    roots = [p for p in sorted(DATA.iterdir()) if p.is_dir()]
    if FIXTURES.is_dir():
        roots += [p for p in sorted(FIXTURES.iterdir()) if p.is_dir()]
    return [*roots, SAMPLE_RUNS]


@pytest.mark.parametrize("root", _folders(), ids=lambda p: f"{p.parent.name}/{p.name}")
def test_every_file_of_every_fixture_is_read_or_set_aside(root):
    assert _unaccounted(root) == []


def _system(root: Path, name: str) -> Path:
    (root / name).mkdir(parents=True, exist_ok=True)
    return root / name


def test_pytest_benchmark_autosave_storage_in_a_dot_folder_loads():
    rs = load([DISCOVERY / "autosave"])
    assert rs.system_names == ["base", "patched"] and rs.problems == []
    assert {f.format for f in rs.files} == {"pytest-benchmark JSON"}
    assert all(".benchmarks/Linux-CPython-3.11-64bit/0001_" in f.path for f in rs.files)
    assert rs.samples.group_by("system").len().sort("system")["len"].min() > 0


def test_go_output_saved_as_a_log_file_is_read_by_content():
    rs = load([DISCOVERY / "golog"])
    assert rs.problems == [] and {f.format for f in rs.files} == {"Go benchmark text"}
    assert rs.samples.height == 20  # 2 benchmarks x 5 runs x 2 systems, as in the files


def test_files_of_any_name_are_looked_at_and_the_rest_counted_in_one_line(tmp_path, capsys):
    a = _system(tmp_path, "a")
    b = _system(tmp_path, "b")
    shutil.copy(GO_LOG, a / "results.md")  # Go output under a Markdown name: read
    shutil.copy(DISCOVERY / "golog" / "patched" / "bench.log", b / "bench.xml")
    (a / "README.md").write_text("# How these runs were made\n")
    (a / "plot.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"></svg>\n')
    (a / "pic.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    (a / "notes").write_text("ran on a quiet machine\n")
    (b / ".git" / "objects").mkdir(parents=True)
    (b / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    rs = load([tmp_path])
    assert rs.problems == []
    assert {Path(f.path).name: f.format for f in rs.files} == {
        "results.md": "Go benchmark text",
        "bench.xml": "Go benchmark text",
    }
    line = "4 files not results: 1 image, 1 Markdown, 1 SVG, 1 unknown"
    assert set_aside_line(rs.set_aside) == line + "; 1 version-control folder not walked"
    assert main(["report", str(tmp_path)]) == 0
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and line in err
    assert main(["inspect", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert f"  {a / 'pic.png'}: image, not results; not opened" in out
    assert f"  {b / '.git'}: version control, not results; not walked" in out


def _go_rows(rs, system: str = "a") -> int:
    return rs.samples.filter(pl.col("system") == system).height


def test_links_and_copies_are_read_once_with_a_problem_naming_both(tmp_path):
    a = _system(tmp_path, "a")
    shutil.copy(GO_LOG, a / "run.log")
    os.link(a / "run.log", a / "hard.log")
    os.symlink(a / "run.log", a / "soft.log")
    shutil.copy(GO_LOG, a / "copy.log")
    shutil.copy(DISCOVERY / "golog" / "patched" / "bench.log", _system(tmp_path, "b") / "x.log")
    rs = load([tmp_path])
    assert _go_rows(rs) == 10  # one file's samples, not four
    assert len(rs.problems) == 3 and len(rs.files) == 2
    text = "\n".join(p.reason for p in rs.problems)
    assert "(a hard link); read once" in text and "(a symbolic link); read once" in text
    assert "(a copy); read once" in text


def test_a_copy_in_another_system_is_read_with_a_problem(tmp_path):
    shutil.copy(GO_LOG, _system(tmp_path, "a") / "run.log")
    shutil.copy(GO_LOG, _system(tmp_path, "b") / "run.log")
    rs = load([tmp_path])
    [problem] = rs.problems
    assert problem.path == str(tmp_path / "b" / "run.log")
    assert problem.reason.startswith(f"the same bytes as {tmp_path / 'a' / 'run.log'} of system")
    assert _go_rows(rs, "a") == _go_rows(rs, "b") == 10


def test_empty_twins_in_two_systems_are_not_said_to_compare_the_same_results(tmp_path):
    """Two systems' header-only files are alike, but hold no results: each one says it has
    no data rows, and nothing claims the systems compare the same results."""
    header = "benchmark,metric,iteration,value\n"
    for system in ("a", "b"):
        folder = _system(tmp_path, system)
        value = 10 if system == "a" else 12  # two different files
        (folder / "ok.csv").write_text(header + f"x,t,0,{value}\nx,t,1,11\n")
        (folder / "empty.csv").write_text(header)
    rs = load([tmp_path])
    reasons = sorted(p.reason for p in rs.problems)
    assert reasons == ["no data rows (only a header, or empty)"] * 2
    (tmp_path / "b" / "ok.csv").write_bytes((tmp_path / "a" / "ok.csv").read_bytes())
    rs = load([tmp_path])  # the same rows in both: said, on the file that has them
    [twin] = [p for p in rs.problems if "compare the same results" in p.reason]
    assert twin.path == str(tmp_path / "b" / "ok.csv")


def test_a_folder_linked_inside_a_system_reads_its_files_once(tmp_path):
    shutil.copy(GO_LOG, _system(tmp_path, "a") / "run.log")
    os.symlink(tmp_path / "a", tmp_path / "a" / "again")
    os.symlink("..", tmp_path / "a" / "up")
    (tmp_path / "b").mkdir()
    os.symlink(tmp_path / "a", tmp_path / "b" / "same")
    rs = load([tmp_path])
    assert _go_rows(rs) == 10 and rs.samples.height == 10  # b reaches a's file: read once
    text = "\n".join(str(p) for p in rs.problems)
    assert f"the same file as {tmp_path / 'a' / 'run.log'} (through a symbolic link)" in text


def test_a_system_folder_linked_to_another_is_one_system(tmp_path):
    shutil.copy(GO_LOG, _system(tmp_path, "a") / "run.log")
    os.symlink(tmp_path / "a", tmp_path / "b")
    rs = load([tmp_path])
    assert rs.system_names == ["a"] and len(rs.files) == 1
    assert "the same folder as system 'a'" in rs.problems[0].reason


def _sub_heading(whole: dict, prefix: str) -> dict:
    """What `extract-mmtests.pl --sub-heading` keeps of an extract: the ops under one
    heading, same run, same iterations."""
    sub = dict(whole)
    sub["_ResultData"] = {k: v for k, v in whole["_ResultData"].items() if k.startswith(prefix)}
    return sub


@pytest.mark.parametrize("prefix", ["Add", "Triad"])
def test_two_extracts_of_one_mmtests_run_count_once(tmp_path, fixtures_dir, prefix):
    real = fixtures_dir / "mmtests-real" / "json"
    for run in ("5.8-vanilla", "5.8-patched"):
        shutil.copytree(real / run, tmp_path / run)
        whole = json.loads((real / run / "stream.json").read_text())
        (tmp_path / run / f"stream-{prefix}.json").write_text(
            json.dumps(_sub_heading(whole, prefix))
        )
    rs = load([tmp_path])
    alone = load([real])
    assert rs.samples.equals(alone.samples)  # 5 iterations, as one extract gives
    assert len(rs.problems) == 2
    for run, p in zip(("5.8-patched", "5.8-vanilla"), sorted(rs.problems, key=str), strict=True):
        # natural order reads stream-Add.json first: the whole extract's Add ops are left out
        assert p.path == str(tmp_path / run / "stream.json")
        assert f"the same mmtests results as {tmp_path / run / f'stream-{prefix}.json'} (" in (
            p.reason
        )


def test_criterion_files_that_are_not_samples_are_counted_not_problems(tmp_path):
    root = tmp_path / "target"
    shutil.copytree(DATA / "criterion" / "target", root)
    new = root / "criterion" / "fib" / "recursive" / "20" / "new"
    (new / "raw.csv").write_text(
        "group,function,value,throughput_num,throughput_type,sample_measured_value,unit,"
        "iteration_count\nfib,recursive,20,,,1000.0,ns,10\n"
    )
    report = root / "criterion" / "report"
    report.mkdir()
    (report / "index.html").write_text("<!DOCTYPE html><html></html>\n")
    rs = load([root])
    assert not any("raw.csv" in p.path for p in rs.problems)
    line = set_aside_line(rs.set_aside)
    kinds = {a.path: a.kind for a in rs.set_aside}
    assert kinds[str(new / "raw.csv")] == "Criterion.rs summary"
    assert kinds[str(report / "index.html")] == "HTML"
    assert "Criterion.rs summary" in line and "1 HTML" in line
    assert _unaccounted(root) == []


def _after_discovery(monkeypatch, change) -> None:
    """Run `change` between discovery and reading."""
    real = load_module.discover

    def discover(paths):
        found = real(paths)
        change()
        return found

    monkeypatch.setattr(load_module, "discover", discover)


def _load_within(paths, seconds: float = 20):
    box = []
    thread = threading.Thread(target=lambda: box.append(load(paths)), daemon=True)
    thread.start()
    thread.join(seconds)
    assert box, "loading blocked"
    return box[0]


def test_a_fifo_swapped_in_after_discovery_is_a_problem_not_a_hang(tmp_path, monkeypatch):
    a = _system(tmp_path, "a")
    shutil.copy(GO_LOG, a / "one.log")
    shutil.copy(DISCOVERY / "golog" / "patched" / "bench.log", a / "two.csv")

    def swap():
        for name in ("one.log", "two.csv"):
            (a / name).unlink()
            os.mkfifo(a / name)

    _after_discovery(monkeypatch, swap)
    rs = _load_within([tmp_path])
    assert {Path(p.path).name for p in rs.problems} == {"one.log", "two.csv"}
    assert all("a named pipe (FIFO)" in p.reason for p in rs.problems)


def _before_reading(monkeypatch, change) -> None:
    """Run `change` after the loader first opened the files, before a reader reads one."""
    real = load_module.read_file

    def read_file(path):
        change()
        return real(path)

    monkeypatch.setattr(load_module, "read_file", read_file)


def test_a_file_that_grows_while_read_is_read_up_to_its_size_when_found(tmp_path, monkeypatch):
    a = _system(tmp_path, "a")
    shutil.copy(GO_LOG, a / "run.log")
    size = (a / "run.log").stat().st_size

    def grow():
        with open(a / "run.log", "a") as fh:
            fh.write("BenchmarkLate-2   \t   20000\t        99.0 ns/op\n" * 1000)

    _before_reading(monkeypatch, grow)
    rs = _load_within([tmp_path])
    assert "Late" not in set(rs.samples["benchmark"].cast(pl.String)) and rs.samples.height == 10
    [problem] = rs.problems
    assert problem.reason.startswith(f"grew from {size} to ")
    assert f"only its first {size} bytes were read" in problem.reason


def test_a_native_csv_that_grows_is_read_up_to_its_size_when_found(tmp_path, monkeypatch):
    a = _system(tmp_path, "a")
    rows = "".join(f"b,t,{v}\n" for v in range(40_000))  # past the small-file batches
    (a / "r.csv").write_text("benchmark,metric,value\n" + rows)

    def grow():
        with open(a / "r.csv", "a") as fh:
            fh.write("b,t,1e9\n" * 10)

    _before_reading(monkeypatch, grow)
    rs = _load_within([tmp_path])
    assert rs.samples.height == 40_000 and rs.samples["value"].max() == 39_999
    assert "grew from" in rs.problems[0].reason


def test_a_mount_below_a_given_folder_is_named_not_walked(tmp_path):
    a = _system(tmp_path, "a")
    shutil.copy(GO_LOG, a / "run.log")
    (a / "proc").mkdir()
    if subprocess.run(
        ["mount", "-t", "proc", "proc", str(a / "proc")], capture_output=True
    ).returncode:
        pytest.skip("cannot mount here")
    try:
        rs = _load_within([tmp_path])
    finally:
        subprocess.run(["umount", "-l", str(a / "proc")], check=True)
    [problem] = rs.problems
    assert problem.path == str(a / "proc") and "a mount of another file system" in problem.reason
    assert rs.samples.height == 10


def test_a_file_link_out_of_the_given_folders_is_refused_without_its_content(tmp_path):
    outside = tmp_path / "elsewhere" / "secret.csv"
    outside.parent.mkdir()
    outside.write_text("benchmark,metric,value\nTOPSECRET,t,1\n")
    root = tmp_path / "results"
    shutil.copy(GO_LOG, _system(root, "a") / "run.log")
    os.symlink(outside, root / "a" / "passwd.csv")
    rs = load([root])
    [problem] = rs.problems
    assert problem.path == str(root / "a" / "passwd.csv")
    assert problem.reason.startswith(f"symbolic link to {outside}, outside the given folders")
    assert "TOPSECRET" not in str(rs.samples) and "TOPSECRET" not in problem.reason


def test_an_empty_folder_is_no_system_and_never_the_reference(tmp_path, capsys):
    """pytest-benchmark makes an empty `.benchmarks` folder where it runs: it sorted first
    and became the reference of a comparison whose every cell was '-'. An empty folder is
    set aside, said, and not a system; a folder of files that are not results stays one
    (its answer says nothing was compared)."""
    for system in ("a", "b"):
        (tmp_path / system).mkdir()
        rows = "".join(f"app,run,{i},{10.0 + i * 0.01},ms\n" for i in range(3))
        (tmp_path / system / "r.csv").write_text("benchmark,metric,iteration,value,unit\n" + rows)
    (tmp_path / ".benchmarks").mkdir()
    (tmp_path / "empty" / "deeper").mkdir(parents=True)  # no file, however deep
    (tmp_path / "notes").mkdir()
    (tmp_path / "notes" / "README.md").write_text("# rebooted\n")
    rs = load([tmp_path])
    assert rs.system_names == ["a", "b", "notes"]
    assert rs.default_reference == "a"
    empty = [s for s in rs.set_aside if s.kind == "empty folder"]
    assert [Path(s.path).name for s in empty] == [".benchmarks", "empty"]
    assert "2 empty folders not systems" in (set_aside_line(rs.set_aside) or "")
    assert main(["report", str(tmp_path)]) == 0
    assert "2 empty folders not systems" in capsys.readouterr().err
