"""Keys as a person feels them: from the key to the screen settled, in a pty. Prints figures.

    python benchmarks/bench_keys_pty.py [--repeat 10] [--size 120x40]
                                        [--only sample|wide] [--million [N]]
                                        [--trace FILE]

Runs `tuibench` on the master side of a pseudo-terminal (TERM xterm-256color), as a person
at a terminal or over SSH sees it. Sets, generated in a temporary folder (never in the
repository) as benchmarks/bench_explorer.py does:
  sample:  the repository's sample_runs/ (3 systems, 28 metrics);
  wide:    20,000 metrics x 2 systems;
  million: N metrics x 2 systems (default 1,000,000), one Parquet file: only with
           `--million` (it takes minutes and GBs).

Printed per set:
  - the first frame with results (the footer's `f significant only` is drawn only once the
    results are shown, not on the loading screen) and the screen settled after it;
  - per key (j k n escape ] [ f s v enter escape / and a letter in the filter ...), pressed
    `--repeat` times in a state where it changes the screen: the median and the maximum of
    the time from the key to the screen settled (no byte written for 100 ms; the 100 ms are
    not counted), the number of frames one key wrote (the pty answers as a terminal with
    synchronized output does, so each frame starts with its mark), and the CPU time the
    explorer used for it (all its threads: on a loaded machine the wall time grows, the
    CPU time much less);
  - on the million set, `]` to a reference not compared yet: the time until the screen says
    so, then until it shows the new reference; and `j` while that runs; then j n ] f s v,
    each once nothing was written for 3 s and what the key before asked for was shown; for
    a key computed in a worker, also the time until the header said so (its first frame
    with ` …`) and until the result was shown (the ` …` gone);
  - the explorer's end when its terminal closes without a hang-up (no SIGHUP: not its
    controlling terminal): seconds from closing to the process's end, and its exit code;
  - peak memory of the explorer (ru_maxrss of the child, read after it ended);
  - with `--trace FILE`: the explorer runs through key_trace.py, which writes its timeline
    to FILE, and each press over 100 ms is printed with what that timeline holds meanwhile
    (when the key was read, handlers, timers, collections, frames). Timings of a traced run
    are a little higher than of a plain one.
"""

from __future__ import annotations

import argparse
import contextlib
import fcntl
import itertools
import os
import pty
import re
import select
import statistics
import struct
import subprocess
import sys
import tempfile
import termios
import threading
import time
from pathlib import Path

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")
# Children run as an installed tuibench does: from bytecode written once, not compiled anew.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_explorer import wide  # the same generated set

ROOT = Path(__file__).resolve().parents[1]
QUIET = 0.1  # settled: nothing written for this long
TARGET = 0.1  # a key settled within this (--trace explains the presses over it)
FRAME_GAP = 0.005  # output this far apart belongs to two frames
RESULTS = b"significant only"  # drawn in the footer only once results are shown
ASKS_SYNC = b"\x1b[?2026$p"  # does the terminal have synchronized output (DECRQM)?
SAYS_SYNC = b"\x1b[?2026;2$y"  # yes, and it is off
SYNC_START = b"\x1b[?2026h"  # then every frame begins with this
PLAIN = re.compile(rb"\x1b\[[0-9;?$]*[a-zA-Z]")  # what is left is the text drawn


class Term:
    """`tuibench` on the slave side of a pty; every chunk it writes, with its time."""

    def __init__(self, args: list[str], cols: int, rows: int, controlling: bool = True):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

        def child() -> None:
            os.setsid()
            if controlling:
                fcntl.ioctl(0, termios.TIOCSCTTY, 0)

        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            args,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**os.environ, "TERM": "xterm-256color"},
            preexec_fn=child,
        )
        os.close(slave)
        self.master = master
        self.code: int | None = None
        self.peak_mb = float("nan")
        self.chunks: list[tuple[float, bytes]] = []
        self.out = bytearray()
        self.last = time.monotonic()
        self.pressed = (0, self.started)  # the last key's first chunk and time (`press`)
        self._lock = threading.Lock()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while True:
            try:
                if not select.select([self.master], [], [], 0.01)[0]:
                    continue
                chunk = os.read(self.master, 65536)
            except (OSError, ValueError):
                return
            if not chunk:
                return
            now = time.monotonic()
            if ASKS_SYNC in chunk:  # as a terminal that has synchronized output answers
                os.write(self.master, SAYS_SYNC)
            with self._lock:
                self.chunks.append((now, chunk))
                self.out.extend(chunk)
                self.last = now

    def wait_for(self, marker: bytes, timeout: float) -> float | None:
        """Seconds from the start until `marker` was first written (None: never)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with self._lock:
                at = self.out.find(marker)
                if at >= 0:
                    size = 0
                    for when, chunk in self.chunks:
                        size += len(chunk)
                        if size > at:
                            return when - self.started
            time.sleep(0.005)
        return None

    def settle(self, timeout: float = 120.0, quiet: float = QUIET) -> float:
        """Wait until nothing was written for `quiet`; the time of the last byte."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            time.sleep(0.005)
            if time.monotonic() - self.last >= quiet:
                break
        return self.last

    def cpu(self) -> float:
        """Seconds of CPU the explorer's threads have used (schedstat: nanoseconds)."""
        total = 0
        for task in Path(f"/proc/{self.proc.pid}/task").glob("*"):
            with contextlib.suppress(OSError, ValueError, IndexError):  # a thread ended
                total += int((task / "schedstat").read_text().split()[0])
        return total / 1e9

    def press(self, key: bytes, wait: float = 5.0, calm: float = QUIET) -> tuple[float, int, float]:
        """(seconds from the key to the last byte before 100 ms of quiet, frames, CPU
        seconds meanwhile); NaN when nothing was written within `wait` seconds. Starts once
        nothing was written for `calm` seconds (what an earlier key began has ended)."""
        self.settle(quiet=calm)
        cpu = self.cpu()
        with self._lock:
            first = len(self.chunks)
        start = time.monotonic()
        self.pressed = (first, start)  # for `Header`: the key's chunks and time
        os.write(self.master, key)
        while len(self.chunks) == first and time.monotonic() - start < wait:
            time.sleep(0.002)
        last = self.settle()
        used = self.cpu() - cpu
        with self._lock:
            chunks = self.chunks[first:]
        if not chunks:
            return float("nan"), 0, used
        written = b"".join(c for _, c in chunks)
        frames = written.count(SYNC_START)  # each frame is drawn between these
        if not frames:  # a terminal without synchronized output: bursts apart
            times = [t for t, _ in chunks]
            frames = 1 + sum(1 for a, b in itertools.pairwise(times) if b - a > FRAME_GAP)
        return max(last - start, 0.0), frames, used

    def reap(self, timeout: float) -> bool:
        """Wait for the process's end; keep its exit code and peak memory (ru_maxrss)."""
        end = time.monotonic() + timeout
        while self.code is None and time.monotonic() < end:
            pid, status, usage = os.wait4(self.proc.pid, os.WNOHANG)
            if pid:
                self.code = os.waitstatus_to_exitcode(status)
                self.peak_mb = usage.ru_maxrss / 1024
                self.proc.returncode = self.code
            else:
                time.sleep(0.005)
        return self.code is not None

    def hang_up(self) -> float:
        """Close the terminal; seconds until the process ended (NaN: not within 15 s)."""
        start = time.monotonic()
        os.close(self.master)
        return time.monotonic() - start if self.reap(15) else float("nan")

    def kill(self) -> None:
        if self.code is None:
            self.proc.kill()
            self.reap(30)
        self._reader.join(1)


# The tree's first metric: the first suite, group and benchmark opened with `right`; and
# back: `left` goes to the parent, then closes it; `k` to the root, `tab` to the answer.
RIGHT, LEFT = b"\x1b[C", b"\x1b[D"
TO_METRIC = [b"\t", b"j", RIGHT, b"j", RIGHT, b"j", RIGHT, b"j"]
BACK_TO_ANSWER = [*[LEFT] * 6, b"k", b"\t"]

# (name, keys pressed first and not timed, the timed key, keys pressed after, untimed)
STEPS = [
    ("j (tree)", [b"\t"], b"j", [b"\t"]),
    ("k (tree)", [b"\t", b"j"], b"k", [b"\t"]),
    ("j (answer)", [], b"j", []),
    ("n", [], b"n", [b"\x1b"]),
    ("escape (after n)", [b"n"], b"\x1b", []),
    ("]", [], b"]", [b"["]),
    ("[", [b"]"], b"[", []),
    ("f", [], b"f", [b"f"]),
    ("s", [], b"s", [b"s", b"s"]),
    ("v", [], b"v", [b"v"]),
    ("enter (tree metric)", TO_METRIC, b"\r", [b"\x1b", *BACK_TO_ANSWER]),
    ("escape (after enter)", [*TO_METRIC, b"\r"], b"\x1b", BACK_TO_ANSWER),
    ("? (help)", [], b"?", [b"\x1b"]),
    ("/ (filter)", [b"\t"], b"/", [b"\x1b", b"\t"]),
    ("filter letter", [b"\t", b"/"], b"1", [b"\x1b", b"\t"]),
]


class Header:
    """The screen's first line (the header) as a terminal shows it, read from the bytes
    written (pyte): whether a key's first frames say what is coming (` …`: a worker computes
    it), how long until they did, and until what was asked was shown (the ` …` gone)."""

    def __init__(self, term: Term, size: tuple[int, int]) -> None:
        import pyte

        self.term, self.screen = term, pyte.Screen(*size)
        self.stream, self.fed = pyte.ByteStream(self.screen), 0

    def _feed(self, upto: int) -> list[tuple[float, str]]:
        """Feed the chunks up to `upto`; the header after each."""
        with self.term._lock:
            chunks = self.term.chunks[self.fed : upto]
        out = []
        for t, c in chunks:
            self.stream.feed(c)
            out.append((t, self.screen.display[0]))
        self.fed += len(chunks)
        return out

    def after_press(self, timeout: float = 120.0) -> tuple[float | None, float | None]:
        """(seconds from the last key to its first frame saying what comes, to the frame
        showing it); (None, None) when its frames said nothing was coming."""
        first, start = self.term.pressed
        self._feed(first)
        said = shown = None
        end = time.monotonic() + timeout
        while time.monotonic() < end and shown is None:
            with self.term._lock:
                upto = len(self.term.chunks)
            for t, head in self._feed(upto):
                if said is None and " …" in head:
                    said = t - start
                elif said is not None and shown is None and " …" not in head:
                    shown = t - start
            if said is None and time.monotonic() - self.term.last > QUIET:
                break  # settled without a word of what comes: done in its frame
            time.sleep(0.01)
        return said, shown


# a million metrics: the keys whose work may not fit in a frame
BIG_STEPS = [s for s in STEPS if s[0] in {"j (tree)", "j (answer)", "n", "]", "f", "s", "v"}]


def said_row(said: list[float | None], shown: list[float | None]) -> None:
    """How soon a key computed in a worker said so, and when its result was shown."""
    ms = [round(x * 1000) for x in said if x is not None]
    if not ms:
        return
    done = [x for x in shown if x is not None]
    print(
        f"  {'':<22} said so after ms median {statistics.median(ms):6.0f}  max {max(ms):6.0f}"
        f" ({len(ms)} of {len(said)});  shown after s median "
        + (f"{statistics.median(done):.1f}  max {max(done):.1f}" if done else "-")
    )


def row(name: str, times: list[float], frames: list[int], cpu: list[float]) -> None:
    ms = [t * 1000 for t in times if t == t]
    silent = len(times) - len(ms)
    if not ms:
        print(f"  {name:<22} no output")
        return
    med, top = statistics.median(ms), max(ms)
    print(
        f"  {name:<22} settled ms median {med:6.0f}  max {top:6.0f}"
        f"   frames median {statistics.median(n for n in frames if n):.0f} max {max(frames)}"
        + f"   CPU ms median {statistics.median(cpu) * 1000:4.0f}"
        + (f"   ({silent} wrote nothing)" if silent else "")
    )


def explorer(
    path: Path, size: tuple[int, int], repeat: int, big: bool, trace: Path | None = None
) -> None:
    cols, rows = size
    args = [sys.executable, "-m", "tuibench", str(path)]
    if trace is not None:  # the explorer writes its timeline (key_trace.py)
        args[1:3] = [str(Path(__file__).with_name("key_trace.py")), str(trace)]
    term = Term(args, cols, rows)
    slow: list[tuple[str, float, float]] = []  # (key, pressed, settled) over the target
    try:
        first = term.wait_for(RESULTS, timeout=600)
        if first is None:
            print("  no results shown")
            return
        settled = term.settle(timeout=600, quiet=1.0) - term.started
        print(f"  first frame with results {first:.2f} s, settled {settled:.2f} s")
        if big:
            first_switch(term, size)
        calm = 3.0 if big else QUIET  # a million: workers finish what keys began
        header = Header(term, size) if big else None
        for name, before, key, after in BIG_STEPS if big else STEPS:
            times, frames, cpu, said, shown = [], [], [], [], []
            for _ in range(repeat):
                for k in before:
                    term.press(k)
                t, n, c = term.press(key, calm=calm)
                if t > TARGET:
                    slow.append((name, term.pressed[1], term.pressed[1] + t))
                times.append(t)
                frames.append(n)
                cpu.append(c)
                if header is not None:  # a worker's: until what it computes is shown
                    for x, got in zip((said, shown), header.after_press(), strict=True):
                        x.append(got)
                for k in after:
                    term.press(k)
                    if header is not None:
                        header.after_press()
            row(name, times, frames, cpu)
            said_row(said, shown)
        os.write(term.master, b"q")
        term.reap(30)
    finally:
        term.kill()
    if trace is not None:
        why_slow(trace, slow)
    print(f"  peak memory {term.peak_mb:,.0f} MiB (ru_maxrss)")
    if not big:  # the same code at any size; a million would load a second time
        end_on_hang_up(path, size)


def why_slow(trace: Path, slow: list[tuple[str, float, float]]) -> None:
    """Each press over the target, with what the explorer's timeline holds meanwhile."""
    import key_trace

    events = key_trace.read(trace)
    print(f"  presses over {TARGET * 1000:.0f} ms: {len(slow)}")
    for name, start, end in slow:
        took = (end - start) * 1000
        print(f"    {name:<20} {took:4.0f} ms: {key_trace.classify(events, start, end)}")


def first_switch(term: Term, size: tuple[int, int]) -> None:
    """`]` to a reference not compared yet, then `j` while it is computed: when the screen
    says it is comparing, when `j` is drawn, when the new reference is shown. Read on the
    screen a terminal shows (pyte): only the cells that change are written, so the words
    are seldom whole in the bytes."""
    import pyte

    term.settle(quiet=0.5)
    screen = pyte.Screen(*size)
    stream = pyte.ByteStream(screen)
    with term._lock:
        mark = len(term.out)
        stream.feed(bytes(term.out))
    start = time.monotonic()
    os.write(term.master, b"]")
    said = moved = shown = None
    at_j = 0
    end = start + 600
    while time.monotonic() < end and shown is None:
        with term._lock:
            new, mark = bytes(term.out[mark:]), len(term.out)
            chunks = [(t, len(c)) for t, c in term.chunks]
        stream.feed(new)
        text = "\n".join(screen.display)
        if said is None and "comparing against" in text:
            said = time.monotonic() - start
            at_j = len(chunks)
            j_sent = time.monotonic()
            os.write(term.master, b"j")
        if said is not None and moved is None and len(chunks) > at_j:
            moved = chunks[at_j][0] - j_sent  # the first frame after j
        if "ref system1 " in text and "comparing against" not in text:
            shown = time.monotonic() - start
        time.sleep(0.005)
    ms = [None if x is None else round(x * 1000) for x in (said, moved)]
    print(f"  ] to an uncompared reference: said so after {ms[0]} ms")
    print(f"  j while comparing: first frame after {ms[1]} ms")
    print(f"  the new reference shown after {None if shown is None else round(shown, 1)} s")
    term.settle(quiet=1.0)


def end_on_hang_up(path: Path, size: tuple[int, int]) -> None:
    """The terminal closed without SIGHUP (not the controlling terminal): the explorer's
    input reaches its end; it must leave on its own."""
    term = Term([sys.executable, "-m", "tuibench", str(path)], *size, controlling=False)
    try:
        if term.wait_for(RESULTS, timeout=600) is None:
            print("  no results shown")
            return
        term.settle(quiet=1.0)
        took = term.hang_up()
        print(f"  terminal closed: ended after {took:.2f} s, exit code {term.code}")
    finally:
        term.kill()


def generate(root: Path, n: int) -> Path:
    """The million set, written by a child: a child of a large process inherits its peak."""
    code = "import sys, pathlib, bench_explorer as b; b.million(pathlib.Path(sys.argv[1]), "
    code += "int(sys.argv[2]))"
    args = [sys.executable, "-c", code, str(root), str(n)]
    subprocess.run(args, cwd=Path(__file__).parent, check=True)
    return root / "results.parquet"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=10)
    p.add_argument("--size", default="120x40")
    p.add_argument("--only", choices=["sample", "wide"])
    p.add_argument("--million", type=int, nargs="?", const=1_000_000, default=None)
    p.add_argument("--trace", type=Path, help="the explorer's timeline to this file")
    args = p.parse_args()
    size = tuple(map(int, args.size.split("x")))
    with tempfile.TemporaryDirectory() as tmp:
        sets = []
        if args.million is not None:
            path = generate(Path(tmp) / "million", args.million)
            sets.append((f"{args.million:,} metrics x 2", path, True))
        else:
            if args.only in (None, "sample"):
                sets.append(("sample_runs", ROOT / "sample_runs", False))
            if args.only in (None, "wide"):
                wide(Path(tmp) / "wide")
                sets.append(("20,000 metrics x 2", Path(tmp) / "wide", False))
        for name, path, big in sets:
            print(f"tuibench on {name} at {args.size}:", flush=True)
            explorer(path, size, args.repeat, big, args.trace)


if __name__ == "__main__":
    main()
