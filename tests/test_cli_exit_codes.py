"""Exit codes a CI gate can trust: 1 only means "regression found"; anything else that goes
wrong prints one line (no traceback) and exits 2."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

from tuibench import cli
from tuibench.cli import main


@pytest.fixture
def results(tmp_path, make_system) -> Path:
    root = tmp_path / "results"
    for system, value in (("base", 10.0), ("new", 12.0)):
        # A time (unit s): lower is better, so the slower system is a regression.
        rows = [("b", "m", i, value + i / 10 + s / 100, "s") for i in range(4) for s in range(3)]
        make_system(root, system, rows)
    return root


def _tuibench(*args: str, **kw) -> subprocess.CompletedProcess:
    code = "import sys; from tuibench.cli import main; sys.exit(main(sys.argv[1:]))"
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, **kw)


def _one_line(err: str) -> str:
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    return lines[0]


@pytest.mark.parametrize(
    "error, words",
    [
        (MemoryError(), "out of memory"),
        (OSError(5, "Input/output error"), "Input/output error"),
        (RuntimeError("a bug\nwith two lines"), "internal error: RuntimeError: a bug"),
    ],
)
def test_unexpected_errors_are_one_line_and_exit_2(results, capsys, monkeypatch, error, words):
    def boom(*_args, **_kw):
        raise error

    monkeypatch.setattr("tuibench.ingest.load.load", boom)
    for command in ("report", "inspect"):
        assert main([command, str(results)]) == 2
        line = _one_line(capsys.readouterr().err)
        assert line.startswith("tuibench: ") and words in line


def test_interrupt_is_one_line(results, capsys, monkeypatch):
    def interrupted(*_args, **_kw):
        raise KeyboardInterrupt

    monkeypatch.setattr("tuibench.ingest.load.load", interrupted)
    assert main(["report", str(results)]) == cli.EXIT_INTERRUPTED
    assert _one_line(capsys.readouterr().err) == "tuibench: interrupted"


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="needs /dev/full")
@pytest.mark.parametrize("command", [["report"], ["report", "--format", "json"], ["inspect"]])
def test_a_full_disk_on_stdout_is_one_line_and_exit_2(results, command):
    with open("/dev/full", "w") as full:
        proc = subprocess.run(
            [sys.executable, "-m", "tuibench", *command, str(results)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
        )
    assert proc.returncode == 2
    assert _one_line(proc.stderr).startswith("tuibench: cannot write to standard output")


def test_a_closed_pipe_is_quiet_and_exit_2(results):
    code = (
        "import sys, time; from tuibench.cli import main\n"
        "import tuibench.cli as c\n"
        "sys.stdout.flush(); time.sleep(0.3)\n"  # the reader has gone by now
        "sys.exit(main(sys.argv[1:]))\n"
    )
    proc = subprocess.Popen(
        [sys.executable, "-c", code, "report", str(results), "--format", "json"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait() == 2
    assert err == ""


@pytest.mark.parametrize(
    "args, words",
    [
        (["--benchmark", "nope"], "no benchmark matches --benchmark 'nope'"),
        (["--metric", "nope"], "no metric matches --metric 'nope'"),
        (["--benchmark", "b", "--metric", "x*"], "no metric matches both"),
        (["--metric", "nope", "--fail-on-regression"], "no metric matches"),
    ],
)
def test_filters_matching_nothing_exit_2(results, capsys, args, words):
    assert main(["report", str(results), *args]) == 2
    assert words in _one_line(capsys.readouterr().err)


def test_filters_matching_something_still_work(results, capsys):
    assert main(["report", str(results), "--metric", "m", "--fail-on-regression"]) == 1
    assert main(["report", str(results), "--benchmark", "b*"]) == 0
    capsys.readouterr()


def test_only_significant_leaving_nothing_is_an_answer_not_an_error(tmp_path, make_system):
    for system in ("base", "same"):
        make_system(tmp_path, system, [("b", "m", i, 10 + i / 10) for i in range(4)])
    assert main(["report", str(tmp_path), "--only-significant"]) == 0


@pytest.mark.parametrize("option", ["--reference", "--benchmark", "--metric"])
def test_empty_names_are_usage_errors(results, capsys, option):
    with pytest.raises(SystemExit) as exc:
        main(["report", str(results), option, ""])
    assert exc.value.code == 2
    assert "must not be empty" in capsys.readouterr().err


@pytest.mark.parametrize("alpha", ["1e-320", "5e-324", "0", "1", "nan", "inf", "-0.1", "x"])
def test_bad_alphas_are_usage_errors(results, capsys, alpha):
    with pytest.raises(SystemExit) as exc:
        main(["report", str(results), "--alpha", alpha])
    assert exc.value.code == 2
    assert "argument --alpha" in capsys.readouterr().err


@pytest.mark.parametrize("alpha", ["1e-300", "1e-12", "0.999"])
def test_tiny_but_normal_alphas_work(results, capsys, alpha):
    assert main(["report", str(results), "--alpha", alpha]) == 0
    capsys.readouterr()


def test_the_explorers_alpha_dialog_agrees():
    from tuibench.tui.screens.number_input import parse_alpha

    assert parse_alpha("1e-320") is None and parse_alpha("nan") is None
    assert parse_alpha("1e-300") == 1e-300 and parse_alpha("0.05") == 0.05


def test_overflow_is_a_row_note_not_a_numpy_warning(tmp_path, make_system, capsys):
    for system, scale in (("base", 1.0), ("new", 1.1)):
        rows = [("big", "x", i, 1.5e308 * scale * (1 - s / 10)) for i in range(3) for s in range(3)]
        rows += [("tiny", "x", i, 1e-320 * (s + 1)) for i in range(3) for s in range(3)]
        make_system(tmp_path, system, rows)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # any numpy warning fails the test
        assert main(["report", str(tmp_path), "--format", "json"]) == 0
    out, err = capsys.readouterr()
    assert err == ""
    rows = json.loads(out)["rows"]
    big = [r for r in rows if r["benchmark"] == "big"]
    assert all("too large for 64-bit floats" in r["note"] for r in big)
    assert all(r["center"] is None for r in big)
    tiny = [r for r in rows if r["benchmark"] == "tiny"]
    assert all("too large" not in (r["note"] or "") for r in tiny)


def test_no_numpy_warning_reaches_stderr_in_a_real_process(tmp_path, make_system):
    for system, scale in (("base", 1.0), ("new", 1.1)):
        rows = [("big", "x", i, 1.5e308 * scale * (1 - s / 10)) for i in range(3) for s in range(3)]
        rows += [("neg", "x", i, -1e308 * ((s + 1) / 2)) for i in range(3) for s in range(3)]
        make_system(tmp_path, system, rows)
    for fmt in ("text", "json"):
        proc = _tuibench("report", str(tmp_path), "--format", fmt, "--trim-outliers")
        assert proc.returncode == 0 and proc.stderr == ""


def test_reciprocals_that_overflow_are_a_row_note_too(tmp_path, make_system, capsys):
    """Rates (harmonic mean) of denormal values: 1/x overflows, which the note says."""
    for system in ("base", "new"):
        rows = [("tiny", "x", i, 5e-324 * (s + 1), "ops/s") for i in range(3) for s in range(3)]
        make_system(tmp_path, system, rows)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert main(["report", str(tmp_path), "--format", "json"]) == 0
    rows = json.loads(capsys.readouterr().out)["rows"]
    assert all(r["mean_kind"] == "hmean" for r in rows)
    assert all("too large for 64-bit floats" in r["note"] for r in rows)
    assert all("non-positive values is undefined" not in r["note"] for r in rows)


def test_closed_stdout_or_stderr(results):
    import shlex

    base = shlex.join([sys.executable, "-m", "tuibench", "report", str(results)])
    proc = subprocess.run(["sh", "-c", base + " >&-"], capture_output=True, text=True)
    assert proc.returncode == 2
    assert _one_line(proc.stderr) == "tuibench: cannot write to standard output: it is closed"
    # stderr closed: problems and messages are dropped, never mixed into the JSON on stdout
    (results / "base" / "bad.csv").write_text("benchmark,metric,value\nx,y,zz\n")
    proc = subprocess.run(
        ["sh", "-c", base + " --format json 2>&-"], capture_output=True, text=True
    )
    assert proc.returncode == 0
    assert json.loads(proc.stdout)["problems"]


def test_the_command_leaves_its_whole_output_and_main_s_code(results, capsys):
    """`python -m tuibench` (and the installed command) end with os._exit, skipping the
    interpreter's teardown: everything buffered must be out first, and the code is main's."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}  # as users run it
    for extra, code in (([], 0), (["--fail-on-regression"], 1)):
        args = ["report", str(results), *extra]  # a short table: it sits in a buffer
        assert main(args) == code
        expected = capsys.readouterr()
        proc = subprocess.run(
            [sys.executable, "-m", "tuibench", *args], capture_output=True, text=True, env=env
        )
        assert proc.returncode == code
        assert proc.stdout == expected.out and "Comparison against base" in proc.stdout
        assert proc.stderr == expected.err


def test_the_command_sets_numpy_s_threads_and_pages_unless_the_user_did():
    """Read by numpy when it loads, so set by the command before: BLAS on one thread, no
    huge pages asked for; a value the user gave stands."""
    code = (
        "import os, tuibench.cli as c\n"
        "c.main = lambda: print(os.environ['OPENBLAS_NUM_THREADS'],"
        " os.environ['NUMPY_MADVISE_HUGEPAGE'], flush=True) or 3\n"
        "c.run()\n"
    )
    names = ("OPENBLAS_NUM_THREADS", "NUMPY_MADVISE_HUGEPAGE")
    env = {k: v for k, v in os.environ.items() if k not in names}
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert (proc.returncode, proc.stdout) == (3, "1 0\n")
    env.update(OPENBLAS_NUM_THREADS="2", NUMPY_MADVISE_HUGEPAGE="1")
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env)
    assert (proc.returncode, proc.stdout) == (3, "2 1\n")


# A thread running a polars query when SIGINT comes: polars stops the query there with
# KeyboardInterrupt (and passes the signal on to the process's own handler, here a no-op
# as the explorer's is). Sent until the thread has ended: only a signal that finds a
# query running stops it. "command": as the `tuibench` command runs (`cli.run`).
_INTERRUPTED_THREAD = """
import os, signal, sys, threading, time
import tuibench.cli as cli

def interrupted_thread():
    signal.signal(signal.SIGINT, lambda *_: None)
    import polars as pl

    def queries():
        end = time.monotonic() + 20
        while time.monotonic() < end:
            a = pl.DataFrame({"k": range(300_000), "v": range(300_000)})
            a.join(a, on="k").group_by("k").agg(pl.col("v").sum())
        print("never interrupted", flush=True)

    t = threading.Thread(target=queries)
    t.start()
    while t.is_alive():
        time.sleep(0.1)
        os.kill(os.getpid(), signal.SIGINT)
        t.join(0.1)
    return 0

if sys.argv[1] == "command":
    cli.main = interrupted_thread
    cli.run()
interrupted_thread()
"""


def test_a_thread_interrupted_by_sigint_prints_no_traceback():
    """The explorer's loading thread had printed such a traceback over the terminal it was
    restoring, when `kill -INT` came while it stored the screen in the cache."""
    run = [sys.executable, "-c", _INTERRUPTED_THREAD]
    bare = subprocess.run([*run, "bare"], capture_output=True, text=True, timeout=60)
    assert "never interrupted" not in bare.stdout
    assert "KeyboardInterrupt" in bare.stderr  # what the command guards against
    command = subprocess.run([*run, "command"], capture_output=True, text=True, timeout=60)
    assert "never interrupted" not in command.stdout
    assert (command.returncode, command.stderr) == (0, "")


def test_other_exceptions_in_threads_are_still_printed():
    code = (
        "import threading; from tuibench.cli.console import quiet_thread_interrupts;"
        "quiet_thread_interrupts(); t = threading.Thread(target=lambda: 1 / 0); t.start(); t.join()"
    )
    err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stderr
    assert "ZeroDivisionError" in err


_INTERRUPTED_QUERY = """
import os, signal, threading, time
import tuibench.cli as cli

def queries(_argv):
    import polars as pl

    def interrupt():
        while True:
            time.sleep(0.05)
            os.kill(os.getpid(), signal.SIGINT)

    threading.Thread(target=interrupt, daemon=True).start()
    end = time.monotonic() + 20
    while time.monotonic() < end:
        a = pl.DataFrame({"k": range(300_000), "v": range(300_000)})
        a.join(a, on="k").sort("v", descending=True).group_by("k").agg(pl.col("v").sum())
    return 0

cli._dispatch = queries
cli.run()
"""


@pytest.mark.parametrize("attempt", range(3))  # without the fix, 9 runs in 10 failed
def test_sigint_during_a_polars_query_is_one_line(attempt):
    """polars raises KeyboardInterrupt from the query and passes SIGINT on to Python, which
    had raised a second one while the first was handled: a traceback, and the process
    killed by the signal instead of exiting 130."""
    proc = subprocess.run(
        [sys.executable, "-c", _INTERRUPTED_QUERY], capture_output=True, text=True, timeout=60
    )
    assert (proc.returncode, proc.stderr) == (cli.EXIT_INTERRUPTED, "tuibench: interrupted\n")
