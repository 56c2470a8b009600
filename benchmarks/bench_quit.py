"""Quitting while files load: how long until the terminal is restored and the process ends.

    python benchmarks/bench_quit.py [--files 20000] [--systems 2] [--rounds 5] [--after 2.0]

Writes FILES small native CSV files (SYSTEMS systems, under iter-N folders) into a temporary
folder, starts the explorer on them in an 80x24 pseudo-terminal, and AFTER seconds (while
it is still discovering or reading files) sends `q`, ctrl+c or SIGTERM, alternating round
after round. Prints, per way of quitting, the median (and range) of the time from the key
or signal to the terminal being restored (`ESC[?1049l` written) and to the process ending,
and how many files had been read when it stopped. Target: under 1.5 s whatever the number
of files (the load itself takes minutes at 200,000 files). With many systems
(`--systems 10000 --files 30000 --after 60`) quitting comes after the first screen, while
the other references are compared ahead: the process must end as quickly.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import re
import select
import signal
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
# Children run as an installed tuibench does: from bytecode written once, not compiled anew.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

RESTORED = b"\x1b[?1049l"
PROGRESS = re.compile(rb"(\d+) / (\d+) files")


def make_files(root: Path, n: int, systems: int = 2) -> None:
    for i in range(n):
        system = f"sys{i % systems}"
        folder = root / system / f"iter-{(i // systems) % 10}"
        folder.mkdir(parents=True, exist_ok=True)
        bench, value = i // (10 * systems), 10 + i % 2 + (i * 7919 % 13) / 100
        (folder / f"b{i}.csv").write_text(f"benchmark,metric,value\nb{bench},m,{value}\n")


def one_round(root: Path, how: str, after: float) -> tuple[float, float, int]:
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))

    def controlling_terminal() -> None:
        os.setsid()
        fcntl.ioctl(0, termios.TIOCSCTTY, 0)

    proc = subprocess.Popen(
        [sys.executable, "-m", "tuibench", str(root)],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env={**os.environ, "TERM": "xterm-256color"},
        preexec_fn=controlling_terminal,
    )
    os.close(slave)
    out = bytearray()

    def drain(until: float) -> None:
        while time.monotonic() < until:
            ready, _, _ = select.select([master], [], [], 0.02)
            if ready:
                try:
                    chunk = os.read(master, 65536)
                except OSError:
                    return
                if not chunk:
                    return
                out.extend(chunk)

    drain(time.monotonic() + after)
    sent = time.monotonic()
    if how == "q":
        os.write(master, b"q")
    elif how == "ctrl+c":
        os.write(master, b"\x03")
    else:
        proc.send_signal(signal.SIGTERM)
    restored = None
    while proc.poll() is None and time.monotonic() - sent < 600:
        mark = len(out)
        drain(time.monotonic() + 0.02)
        if restored is None and RESTORED in out[max(0, mark - 8) :]:
            restored = time.monotonic()
    ended = time.monotonic()
    drain(time.monotonic() + 0.2)
    if restored is None and RESTORED in out:
        restored = ended
    os.close(master)
    read = PROGRESS.findall(bytes(out))
    return (restored or ended) - sent, ended - sent, int(read[-1][0]) if read else 0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--files", type=int, default=20_000)
    ap.add_argument("--systems", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--after", type=float, default=2.0, help="seconds before quitting")
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench_quit.") as tmp:
        root = Path(tmp) / "results"
        t = time.perf_counter()
        make_files(root, args.files, args.systems)
        print(
            f"{args.files} files of {args.systems} systems written in "
            f"{time.perf_counter() - t:.1f} s; quitting {args.after:g} s after the start"
        )
        ways = ["q", "ctrl+c", "sigterm"]
        figures: dict[str, list[tuple[float, float, int]]] = {w: [] for w in ways}
        one_round(root, "q", args.after)  # warm-up: file cache, imports
        for _ in range(args.rounds):
            for way in ways:
                figures[way].append(one_round(root, way, args.after))
        for way in ways:
            restored = [f[0] for f in figures[way]]
            ended = [f[1] for f in figures[way]]
            read = [f[2] for f in figures[way]]
            print(
                f"{way:8} restored after {statistics.median(restored):.2f} s "
                f"({min(restored):.2f}-{max(restored):.2f}), process ended after "
                f"{statistics.median(ended):.2f} s ({min(ended):.2f}-{max(ended):.2f}); "
                f"files read when quitting: median {statistics.median(read):.0f} "
                f"of {args.files}"
            )


if __name__ == "__main__":
    main()
