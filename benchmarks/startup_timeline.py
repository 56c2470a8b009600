"""The explorer's start-up as a timeline, in a pty: when each step began and ended.

    python benchmarks/startup_timeline.py [PATH] [--rounds 5] [--wide] [--size 80x24]
                                          [--cache | --first-open]

Runs `tuibench PATH` (or, with --wide, the 20,000-metric set of bench_explorer.py made in a
temporary folder) in a pseudo-terminal of 80x24 (or --size), several times, and prints for
each step the median time from process start (seconds; the quartiles beside). The child
wraps the functions of the start-up path as their modules load (an import hook installed
before tuibench is imported), so nothing in tuibench knows about it; the last line is the
first frame with results as the terminal received it. TUIBENCH_NO_CACHE=1 unless set: cold. With
--cache the load cache is on (a temporary folder; the warm-up fills it): a reopening. With
--first-open it is on and empty at every start: the first open, where small results load
in a child process (tui/view/load_ahead.py), whose steps are prefixed "child:". Each
explorer quits 0.3 s after its results, before it keeps its first screen for the next start
(tui/terminal/first_frame.py): with --cache this is the load behind a reopen, and the last
line the frame of the results loaded; `bench_startup.py --cache` times the frame replayed.

Beside each step, the CPU time its thread used since that thread's previous line (median,
milliseconds): what the step itself costs, which a loaded machine inflates much less than
the wall times (they also hold the waits for the interpreter and for a core).
"""

from __future__ import annotations

import argparse
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

os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
sys.path.insert(0, str(Path(__file__).resolve().parent))

REPO = Path(__file__).resolve().parents[1]
CSI = re.compile(rb"\x1b\[[0-9;?<>=$]*[ -/]*[@-~]|\x1b\][^\x07]*\x07")

# module -> functions (qualified names) whose start and end are logged
STEPS = {
    "tuibench.cli.commands": ["explore"],
    "tuibench.tui.view.read_ahead": ["start", "take"],
    "tuibench.tui.view.load_ahead": ["start", "picture", "wait", "_write_entry"],
    "tuibench.tui.content.picture": ["picture_of", "decoded"],
    "tuibench.tui.app": ["run", "TuibenchApp.on_mount"],
    "tuibench.tui.screens.main.view": ["MainView.on_mount"],
    "tuibench.tui.screens.main.loading": [
        "Loading.load_results",
        "Loading._picture_first",
        "Loading.on_pictured",
        "Loading._load",
        "Loading._imports",
        "Loading._first_session",
        "Loading.on_loaded",
        "Loading._after_first_frame",
    ],
    "tuibench.tui.screens.main.live": ["Live.prepare_watch"],
    "tuibench.tui.view.reopen": ["Reopen.made", "Reopen.restored", "Reopen.store_first"],
    "tuibench.tui.view.session": ["Session.first"],
    "tuibench.tui.view.reloads": ["Reloads.load", "Reloads.analyse"],
}

CHILD = r"""
import os, sys, time, functools, importlib.abc, importlib.machinery
T0 = float(os.environ["TIMELINE_T0"])
OUT = os.fdopen(int(os.environ["TIMELINE_FD"]), "w", buffering=1)
STEPS = %r
import threading
PID = os.getpid()
def log(what):
    name = threading.current_thread().name
    if os.getpid() != PID:  # load_ahead's child: its own column of steps
        name, what = "child " + name, "child: " + what
    OUT.write(f"{time.time() - T0:.4f} {time.thread_time():.6f} {name}|{what}\n")
log("interpreter up")
def wrap(obj, name, label):
    fn = getattr(obj, name)
    @functools.wraps(fn)
    def logged(*a, **k):
        log(label + " >")
        try:
            return fn(*a, **k)
        finally:
            log(label + " <")
    if isinstance(vars(obj).get(name), staticmethod):
        logged = staticmethod(logged)
    setattr(obj, name, logged)
class Hook(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        if name not in STEPS:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None:
            return None
        run = spec.loader.exec_module
        def exec_module(module):
            log("import " + name + " >")
            run(module)
            log("import " + name + " <")
            for q in STEPS[name]:
                *owner, attr = q.split(".")
                obj = module
                for o in owner:
                    obj = getattr(obj, o)
                if hasattr(obj, attr):
                    wrap(obj, attr, q)
        spec.loader.exec_module = exec_module
        return spec
sys.meta_path.insert(0, Hook())
"""

RUN = "from tuibench.cli import run; run()"


def once(
    path: str, results: bytes, cache: str | None = None, size: tuple[int, int] = (80, 24)
) -> dict[str, float]:
    master, slave = os.openpty()
    import fcntl

    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", size[1], size[0], 0, 0))
    r, w = os.pipe()
    env = dict(os.environ, TERM="xterm-256color", TIMELINE_FD=str(w))
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    if cache is not None:
        env.update(TUIBENCH_NO_CACHE="0", TUIBENCH_CACHE_DIR=cache)
    t0 = time.time()
    env["TIMELINE_T0"] = repr(t0)
    code = CHILD % (STEPS,) + RUN
    proc = subprocess.Popen(
        [sys.executable, "-c", code, path],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=tempfile.gettempdir(),
        pass_fds=(w,),
        start_new_session=True,
    )
    os.close(slave)
    os.close(w)
    text, shown = b"", None
    while shown is None and time.time() - t0 < 60:
        ready, _, _ = select.select([master], [], [], 0.01)
        if ready:
            try:
                text += CSI.sub(b"", os.read(master, 1 << 16))
            except OSError:
                break
            if re.search(results, text):
                shown = time.time() - t0
        elif proc.poll() is not None:
            break
    time.sleep(0.3)
    os.write(master, b"q")
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
    os.close(master)
    events: dict[str, tuple[float, float]] = {}  # step -> (wall, its thread's CPU)
    last_cpu: dict[str, float] = {}  # thread -> its CPU time at its previous line
    with os.fdopen(r) as fh:
        for line in fh:
            t, cpu, rest = line.rstrip("\n").split(" ", 2)
            thread, what = rest.split("|", 1)
            spent = float(cpu) - last_cpu.get(thread, 0.0)
            last_cpu[thread] = float(cpu)
            events.setdefault(what, (float(t), spent))
    if shown is not None:
        events["terminal: first frame with results"] = (shown, 0.0)
    return events


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?", default=str(REPO / "sample_runs"))
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--wide", action="store_true", help="20,000 metrics x 2 systems")
    ap.add_argument("--size", default="80x24", help="the terminal's COLSxROWS")
    how = ap.add_mutually_exclusive_group()
    how.add_argument("--cache", action="store_true", help="the cache on: a reopening")
    how.add_argument("--first-open", action="store_true", help="the cache on and empty")
    a = ap.parse_args()
    results = rb"ref \S|\d+ systems?\b"
    with tempfile.TemporaryDirectory() as tmp:
        path = str(Path(a.path).resolve())
        if a.wide:
            from bench_explorer import wide

            path = str(Path(tmp) / "wide")
            wide(Path(path))

        def cache() -> str | None:
            if a.first_open:
                return tempfile.mkdtemp(dir=tmp)
            return str(Path(tmp) / "cache") if a.cache else None

        cols, rows = (int(x) for x in a.size.split("x"))
        once(path, results, cache(), (cols, rows))  # warm-up: bytecode, page cache, cache
        runs = [once(path, results, cache(), (cols, rows)) for _ in range(a.rounds)]
    order = sorted(runs[0], key=lambda k: statistics.median(r.get(k, (0, 0))[0] for r in runs))
    print(f"{a.rounds} runs of {path}; seconds from process start (median, quartiles),")
    print("then the CPU ms of the step's thread since its previous line (median)")
    print(f"load average {os.getloadavg()[0]:.1f}")
    for what in order:
        xs = [r[what][0] for r in runs if what in r]
        cpu = statistics.median(r[what][1] for r in runs if what in r) * 1000
        q = statistics.quantiles(xs, n=4) if len(xs) > 1 else xs * 3
        print(f"  {statistics.median(xs):6.3f}  ({q[0]:.3f}-{q[2]:.3f})  {cpu:6.1f}  {what}")


if __name__ == "__main__":
    main()
