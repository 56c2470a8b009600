"""Start-up: a tiny report and the explorer's first frame. Prints figures; asserts nothing.

    python benchmarks/bench_startup.py [PATH] [--rounds 15]

Every command runs as a fresh process, one warm-up each, then the commands alternate round
after round; the figures are medians (and the quartiles) of wall time from process start.
Warm cache means what an installed tuibench has: bytecode written (children run without
PYTHONDONTWRITEBYTECODE, so the warm-up writes it) and files in the page cache.
- `tuibench --help`.
- `tuibench report PATH` (stdout to /dev/null). Target: under 0.35 s on sample_runs.
- The explorer in a pseudo-terminal of 80x24 (TERM=xterm-256color): the time from starting
  the process to the first frame on the terminal (the first bytes after the alternate screen
  is entered that draw text: the header), and to the first frame that shows results (the
  header names the reference or counts the systems), and the CPU time the explorer used
  up to then (all its threads: a loaded machine inflates it much less); then `j`, typed
  once the terminal is quiet, to the next output (on a first open the picture may stand
  for the session: the key waits for it). Then `q` quits it. Targets: first frame under
  0.3 s, first frame with results under 0.5 s.
- The floor of the first frame with results: a bare Textual app (a line and a footer) in the
  same pty, which shows its header at once and a line of results once a thread imported
  numpy and polars and grouped a frame of three rows (`FLOOR_APP`): one interpreter that
  holds Textual and polars, and nothing of tuibench. The explorer's figure is printed
  against it (the ratio of the medians); a floor at or past the 0.5 s target is said so.
- For scale: a bare interpreter, importing the libraries a report needs (numpy and polars),
  and with scipy.special, which the statistics no longer import (tuibench.stats.special
  has the t and normal distributions): a line says whether the report or the explorer's
  start imported any scipy module at all (python -X importtime).
With --baseline DIR, the report and the explorer of another checkout (run with PYTHONPATH=DIR)
alternate with this one's, for a before/after in the same run.
With --cache, the load cache is on (a temporary folder per version, so that two versions
never drop each other's entries): the explorer reopens results it has shown before (the
warm-up waits until it stored its first screen and kept its first frame; the frame timed is
then that kept frame, drawn before polars loads: tui/terminal/first_frame.py;
startup_timeline.py --cache times the load behind it). With --first-open, the cache is on and
empty at every start (a new folder each time): the first open of results, where small ones
are loaded in a child process while Textual is imported (tui/view/load_ahead.py; the CPU
seconds printed are the explorer's own, not its child's). Without either the cache is off:
a cold start.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import time
from pathlib import Path

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

REPO = Path(__file__).resolve().parents[1]
# Children run outside any checkout: `-m` and `-c` put the working directory first on the
# path, which would shadow PYTHONPATH (--baseline).
NEUTRAL = tempfile.gettempdir()
# Children may write bytecode, as an installed package has it: without it every start
# compiles tuibench's modules again.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
# The floor of the explorer's first frame with results (see the docstring).
FLOOR_APP = """
import threading
from textual.app import App
from textual.widgets import Footer, Static

class Floor(App):
    def compose(self):
        yield Static("tuibench: loading", id="line")
        yield Footer()

    def on_mount(self):
        threading.Thread(target=self.load, daemon=True).start()

    def load(self):
        import numpy, polars
        n = polars.DataFrame({"a": [1, 2, 2]}).group_by("a").len().height
        shown = f"tuibench: ref a, {n} systems"
        self.call_from_thread(lambda: self.query_one("#line").update(shown))

Floor().run()
"""
CSI = re.compile(rb"\x1b\[[0-9;?<>=$]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")


def wall(args: list[str], env: dict | None = None) -> float:
    t = time.perf_counter()
    proc = subprocess.run(
        args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=NEUTRAL, env=env or CHILD_ENV
    )
    elapsed = time.perf_counter() - t
    # 1: `report` found a regression; a Python crash exits 1 too
    if proc.returncode not in (0, 1) or b"Traceback" in proc.stderr:
        raise SystemExit(f"{args} failed:\n{proc.stderr.decode(errors='replace')[-2000:]}")
    return elapsed


def explorer(
    path: str,
    base: dict | None = None,
    timeout: float = 30.0,
    text_out: list | None = None,
    hold=None,
    cpu_out: list | None = None,
    argv: list[str] | None = None,
    key_out: list | None = None,
) -> tuple[float, float]:
    """(first frame, first frame with results), seconds from process start, in a pty; with
    text_out, what the terminal received up to then is appended to it; `hold()`, if given,
    runs before `q` is pressed (e.g. waits for the explorer to write its cache); with
    cpu_out, the CPU seconds the explorer used (all its threads) up to its results; with
    key_out, the seconds from a `j` typed once the results' frame is written (no output for
    `KEY_AFTER` s) to the next output, the cursor's move; `argv` runs another command in its
    place (the floor)."""
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
    env = dict(base or CHILD_ENV, TERM="xterm-256color", COLUMNS="80", LINES="24")
    env.pop("NO_COLOR", None)
    start = time.perf_counter()
    proc = subprocess.Popen(
        argv or [sys.executable, "-m", "tuibench", path],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=NEUTRAL,
        start_new_session=True,
    )
    os.close(slave)
    text, first, results = b"", None, None
    try:
        while results is None and time.perf_counter() - start < timeout:
            ready, _, _ = select.select([master], [], [], 0.01)
            if not ready:
                if proc.poll() is not None:
                    break
                continue
            try:
                chunk = os.read(master, 1 << 16)
            except OSError:
                break
            now = time.perf_counter() - start
            text += CSI.sub(b"", chunk)
            if first is None and b"tuibench" in text:
                first = now
            if re.search(rb"ref \S|\d+ systems?\b", text):  # the header once loaded
                results = now
                if cpu_out is not None:
                    cpu_out.append(cpu_seconds(proc.pid))
        if key_out is not None and results is not None:
            key_out.append(first_key(master, start + timeout))
        if hold is not None and results is not None:
            hold()
        os.write(master, b"q")
        try:
            proc.wait(5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    finally:
        os.close(master)
    if first is None or results is None:
        raise SystemExit(f"the explorer drew no frame with results within {timeout} s")
    if text_out is not None:
        text_out.append(text)
    return first, results


KEY_AFTER = 0.03  # seconds without output after which the results' frame is written


def first_key(master: int, deadline: float) -> float:
    """Seconds from `j`, typed once the terminal is quiet, to the screen's next output."""
    while time.perf_counter() < deadline and select.select([master], [], [], KEY_AFTER)[0]:
        os.read(master, 1 << 16)
    typed = time.perf_counter()
    os.write(master, b"j")
    if not select.select([master], [], [], max(deadline - typed, 0))[0]:
        raise SystemExit("the explorer did not answer `j`")
    return time.perf_counter() - typed


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of a running process, all threads (Linux /proc)."""
    with open(f"/proc/{pid}/stat") as fh:
        fields = fh.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def scipy_imports(report: list[str], path: str) -> str:
    """Which of the report and the explorer's start (to its first results) import scipy."""
    proc = subprocess.run(
        [*report[:1], "-X", "importtime", *report[1:]],
        capture_output=True,
        cwd=NEUTRAL,
        env=CHILD_ENV,
    )
    in_report = proc.stderr.count(b" scipy")
    text: list[bytes] = []
    explorer(path, dict(CHILD_ENV, PYTHONPROFILEIMPORTTIME="1"), text_out=text)
    in_explorer = text[0].count(b" scipy")
    return (
        f"scipy modules imported: report {in_report}, "
        f"explorer up to its first results {in_explorer}"
    )


RESULTS_TARGET = 0.5  # seconds to the first frame with results on sample_runs/


def summary(label: str, xs: list[float], target: float | None = None) -> str:
    q = statistics.quantiles(xs, n=4) if len(xs) > 1 else [xs[0]] * 3
    out = f"{label:46} median {statistics.median(xs):.3f} s  (quartiles {q[0]:.3f}-{q[2]:.3f})"
    if target is not None:
        out += f"  target < {target} s"
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", default="sample_runs")
    ap.add_argument("--rounds", type=int, default=15)
    ap.add_argument("--cache", action="store_true", help="reopen from the load cache")
    ap.add_argument("--first-open", action="store_true", help="the cache on, empty each time")
    ap.add_argument(
        "--baseline",
        metavar="DIR",
        help="another checkout of tuibench (e.g. a git worktree of an older commit): its "
        "report and explorer alternate with this one's in the same rounds",
    )
    a = ap.parse_args()
    cache_root = tempfile.TemporaryDirectory()  # removed at exit
    if a.cache:
        CHILD_ENV.update(TUIBENCH_NO_CACHE="0", TUIBENCH_CACHE_DIR=f"{cache_root.name}/libs")
    py = sys.executable
    a.path = str((REPO / a.path).resolve()) if not Path(a.path).is_absolute() else a.path
    report = [py, "-m", "tuibench", "report", a.path]
    versions = {"": None}
    if a.baseline:
        root = str(Path(a.baseline).resolve())
        versions["baseline "] = dict(CHILD_ENV, PYTHONPATH=root)
    cpu: list[float] = []  # the explorers' CPU seconds to their results, in run order
    floor_cpu: list[float] = []  # the floor's, likewise
    keys: list[float] = []  # the explorers' first key once drawn, likewise
    commands = {
        "python -c pass": lambda: wall([py, "-c", "pass"]),
        "import numpy, polars": lambda: wall([py, "-c", "import numpy, polars"]),
        "import numpy, polars, scipy.special": lambda: wall(
            [py, "-c", "import numpy, polars, scipy.special"]
        ),
        "floor": lambda: explorer(a.path, argv=[py, "-c", FLOOR_APP], cpu_out=floor_cpu),
    }

    def first(env: dict | None) -> dict | None:
        """With --first-open, `env` with the cache on, in a new empty folder."""
        if not a.first_open:
            return env
        folder = tempfile.mkdtemp(dir=cache_root.name)
        return dict(env or CHILD_ENV, TUIBENCH_NO_CACHE="0", TUIBENCH_CACHE_DIR=folder)

    for label, env in versions.items():
        if a.cache:  # each version its own folder
            env = dict(env or CHILD_ENV, TUIBENCH_CACHE_DIR=f"{cache_root.name}/{len(label)}")
            explorer(a.path, env, hold=lambda: time.sleep(3))  # stores its first screen
        commands[f"{label}--help"] = lambda env=env: wall([py, "-m", "tuibench", "--help"], env)
        commands[f"{label}report"] = lambda env=env: wall(report, env)
        commands[f"{label}explorer"] = lambda env=env: explorer(
            a.path, first(env), cpu_out=cpu, key_out=keys
        )
    times: dict[str, list] = {k: [] for k in commands}
    for run in commands.values():  # warm-up: caches, bytecode
        run()
    cpu.clear()
    floor_cpu.clear()
    keys.clear()
    for _ in range(a.rounds):
        for name, run in commands.items():
            times[name].append(run())
    print(f"{a.rounds} rounds, alternating; wall time from process start")
    print(
        "cache on: the explorer reopens (its first frame with results is the one it kept)"
        if a.cache
        else "cache on, empty: first opens"
        if a.first_open
        else "cache off: cold starts"
    )
    print(f"load average {os.getloadavg()[0]:.1f} at the end")
    print(scipy_imports(report, a.path))
    if a.baseline:
        print(f"baseline: {a.baseline}")
    for name in list(commands)[:3]:
        print(summary(name, times[name]))
    floor = [r for _, r in times["floor"]]
    line = summary("floor: Textual, then numpy and polars", floor)
    if statistics.median(floor) >= RESULTS_TARGET:  # no explorer of both libraries can meet it
        line += f"  (at or past the {RESULTS_TARGET} s target)"
    print(line)
    print(summary("floor: CPU seconds to its results", floor_cpu))
    for label in versions:
        print(summary(f"{label}tuibench --help", times[f"{label}--help"]))
        print(summary(f"{label}tuibench report {a.path}", times[f"{label}report"], 0.35))
        ex = times[f"{label}explorer"]
        print(summary(f"{label}explorer: first frame (pty, 80x24)", [f for f, _ in ex], 0.3))
        shown = [r for _, r in ex]
        ratio = statistics.median(shown) / statistics.median(floor)
        line = summary(f"{label}explorer: first frame with results", shown, RESULTS_TARGET)
        print(f"{line}  {ratio:.2f}x floor")
        # CPU time (all threads) to the results: what a loaded machine inflates least
        mine = cpu[list(versions).index(label) :: len(versions)]
        print(summary(f"{label}explorer: CPU seconds to its results", mine))
        # a first open's picture comes before its session: a key waits for the session
        mine = keys[list(versions).index(label) :: len(versions)]
        print(summary(f"{label}explorer: `j` once drawn, to its answer", mine))


if __name__ == "__main__":
    main()
