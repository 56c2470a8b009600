"""Bytes written to the terminal per key, and the time until the screen settles, in a pty.
Prints figures only.

    python benchmarks/bench_keys_bytes.py [--repeat 5] [--only sample|wide]
                                          [--sizes 80x24,120x40] [--escdelay MS]
                                          [--keys NAME,...] [--dump DIR]

Runs `tuibench` on the master side of a pseudo-terminal of the given size (TERM
xterm-256color), as over SSH: every byte it writes is what a slow link carries. Sets:
  sample: the repository's sample_runs/ (3 systems, 28 metrics);
  wide:   20,000 metrics x 2 systems, generated as benchmarks/bench_explorer.py does, in a
          temporary folder (never in the repository).

Per key (j, k, n, escape after n, ], f, s, v, enter, escape after enter, / and one letter
in the filter), pressed `--repeat` times in a state where it changes the screen, it prints
the median and the range of: the bytes written from the key until the screen settles (no
byte for 100 ms); the cells that differ on the screen between before the key and then (text,
colours or attributes: the output run through the `pyte` terminal emulator, when
installed; a space's foreground and boldness, which nobody sees, do not count), and the
bytes written per byte of those cells' text (UTF-8: a box-drawing character is 3) and per
changed cell; the time to the first byte (when the key visibly
acts), and the time to the last byte. Then the bytes written in 5 s of idling. Beside it,
where installed, `less`, `vim` and `htop` doing the same one-line move (j; htop: the down
arrow) at the same size. `--keys` measures only the named steps (`filter letter`, `v`,
...); `--dump DIR` writes what each measured press wrote to DIR, one file a press.
"""

from __future__ import annotations

import argparse
import fcntl
import os
import pty
import select
import shutil
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

try:
    import pyte
except ImportError:  # the changed cells are not counted
    pyte = None
else:

    class Screen(pyte.Screen):
        def select_graphic_rendition(self, *attrs, private=False):
            if not private:  # CSI > ... m: xterm's key modifiers (htop), not a look
                super().select_graphic_rendition(*attrs)


ROOT = Path(__file__).resolve().parents[1]
QUIET = 0.1  # the screen has settled when nothing was written for this long
MOVE = [b"j", b"k"]


class Pty:
    """A program on the slave side of a pty of `cols` x `rows`; everything it writes is
    collected with the time it arrived."""

    def __init__(self, args: list[str], cols: int, rows: int, env: dict | None = None):
        master, slave = pty.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.proc = subprocess.Popen(
            args,
            stdin=slave,
            stdout=slave,
            stderr=slave,
            env={**os.environ, "TERM": "xterm-256color", **(env or {})},
            preexec_fn=lambda: (os.setsid(), fcntl.ioctl(0, termios.TIOCSCTTY, 0)),
        )
        os.close(slave)
        self.master = master
        self.screen = Screen(cols, rows) if pyte else None
        self.stream = pyte.ByteStream(self.screen) if pyte else None
        self.fed = 0  # bytes of `out` fed to the emulator
        self.out = bytearray()
        self.last = time.monotonic()  # when the last byte arrived
        self.first_after: float | None = None
        self.written = b""  # what the last press wrote
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        while not self._stop.is_set():
            try:
                if not select.select([self.master], [], [], 0.01)[0]:
                    continue
                chunk = os.read(self.master, 65536)
            except OSError:
                return
            if not chunk:
                return
            now = time.monotonic()
            with self._lock:
                self.out.extend(chunk)
                self.last = now
                if self.first_after is None:
                    self.first_after = now

    def settle(self, timeout: float = 60.0, quiet: float = QUIET) -> None:
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            time.sleep(0.01)
            if time.monotonic() - self.last >= quiet:
                return

    def cells(self) -> dict | None:
        """Every cell of the screen as the emulator shows it (text and look)."""
        if self.stream is None:
            return None
        with self._lock:
            data = bytes(self.out[self.fed :])
            self.fed = len(self.out)
        self.stream.feed(data)
        cols = self.screen.columns  # (pyte's insert-characters keeps a cell past the edge)
        rows = self.screen.buffer.items()
        return {(y, x): seen(char) for y, row in rows for x, char in row.items() if x < cols}

    def loaded(self, timeout: float = 300.0) -> None:
        """Until the status line names the reference: the statistics are on the screen
        (computing them writes nothing for seconds on a large set)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            self.settle(timeout=timeout, quiet=1.0)
            if self.stream is None:
                return
            self.cells()
            top = self.screen.buffer[0]
            if " ref " in "".join(top[x].data for x in range(self.screen.columns)):
                return
        raise SystemExit("the explorer did not finish loading")

    def press(self, key: bytes, timeout: float = 60.0) -> tuple:
        """(bytes, seconds to the first byte, seconds to the last, changed cells, bytes of
        their text) for one key."""
        self.settle()
        shown = self.cells()
        with self._lock:
            before = len(self.out)
            self.first_after = None
        start = time.monotonic()
        os.write(self.master, key)
        end = start + timeout
        while time.monotonic() < end:
            time.sleep(0.005)
            first = self.first_after
            if first is not None and time.monotonic() - self.last >= QUIET:
                break
            if first is None and time.monotonic() - start > 2.0:  # nothing at all
                return 0, float("nan"), float("nan"), 0, 0
        with self._lock:
            written = len(self.out) - before
            self.written = bytes(self.out[before:])
            first, last = self.first_after, self.last
        return written, (first or start) - start, last - start, *changed(shown, self.cells())

    def idle(self, seconds: float) -> int:
        self.settle()
        before = len(self.out)
        time.sleep(seconds)
        return len(self.out) - before

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()
        self._stop.set()
        self._reader.join(1)
        os.close(self.master)


def seen(char) -> tuple:
    """A cell as the eye sees it: a space without a line or reverse video shows only its
    background (its foreground and boldness are not a change anyone sees)."""
    if char.data == " " and not (char.underscore or char.strikethrough or char.reverse):
        return (" ", char.bg)
    return tuple(char)


def changed(before: dict | None, after: dict | None) -> tuple[float, float]:
    """Cells that visibly differ, and the UTF-8 bytes of their text now."""
    if before is None or after is None:
        return float("nan"), float("nan")
    default = seen(pyte.screens.Char(" "))
    cells = [
        after.get(at, default)
        for at in before.keys() | after
        if before.get(at, default) != after.get(at, default)
    ]
    return len(cells), sum(len((cell[0] or " ").encode()) for cell in cells)


def stats(values: list[float], fmt: str) -> str:
    good = [v for v in values if v == v]
    if not good:
        return "-"
    med = statistics.median(good)
    return f"{fmt.format(med)} ({fmt.format(min(good))}-{fmt.format(max(good))})"


def report(name: str, samples: list[tuple]) -> None:
    nbytes = stats([s[0] for s in samples], "{:.0f}")
    cells = stats([s[3] for s in samples], "{:.0f}")
    per_text = stats([s[0] / s[4] if s[4] else float("nan") for s in samples], "{:.1f}")
    per_cell = stats([s[0] / s[3] if s[3] else float("nan") for s in samples], "{:.1f}")
    first = stats([s[1] * 1000 for s in samples], "{:.0f}")
    last = stats([s[2] * 1000 for s in samples], "{:.0f}")
    print(
        f"  {name:<17} bytes {nbytes:<20} cells {cells:<16} x text {per_text:<14}"
        f" per cell {per_cell:<14} first ms {first:<12} settled ms {last}"
    )


# (name, keys pressed first and not measured, the key measured, keys after it)
STEPS = [
    ("j", [], b"j", []),
    ("k", [], b"k", []),
    ("j (v table)", [b"v"], b"j", [b"v"]),
    ("n", [], b"n", []),
    ("escape (after n)", [b"n"], b"\x1b", []),
    ("]", [], b"]", [b"["]),
    ("f", [], b"f", [b"f"]),
    ("s", [], b"s", []),
    ("v", [], b"v", [b"v"]),
    ("enter", [], b"\r", [b"\x1b"]),
    ("escape (after ⏎)", [b"\r"], b"\x1b", []),
    ("escape (closes ?)", [b"?"], b"\x1b", []),
    ("/ (filter)", [], b"/", [b"\x1b", b"\t"]),
    ("filter letter", [b"/"], b"1", [b"\x1b", b"\t"]),
]


def explorer(
    path: Path, cols: int, rows: int, repeat: int, env: dict, keys=None, dump=None
) -> None:
    term = Pty([sys.executable, "-m", "tuibench", str(path)], cols, rows, env)
    try:
        # loaded (the status line names the reference), first screen drawn, and the
        # change points found in the background
        term.loaded()
        term.settle(timeout=120, quiet=3.0)
        # n runs through changes; escape then returns: start each step from the answer
        for name, before, key, after in STEPS:
            if keys and name not in keys:
                continue
            samples = []
            for i in range(repeat):
                for k in before:
                    term.press(k)
                # what the keys before began has ended (a screen that paints 100 ms after
                # its first byte, `?` on a busy machine, would count in the key's bytes)
                term.settle(quiet=0.5)
                samples.append(term.press(key))
                if dump:
                    tag = "".join(c if c.isalnum() else "_" for c in name)
                    (Path(dump) / f"{cols}x{rows}-{path.name}-{tag}-{i}.bin").write_bytes(
                        term.written
                    )
                for k in after:
                    term.press(k)
                if name == "n":
                    term.press(b"\x1b")
            report(name, samples)
        term.settle(timeout=30, quiet=2.0)  # a filter applied by a worker, for one
        print(f"  {'idle 5 s':<18} bytes {term.idle(5.0)}")
        term.press(b"q")
    finally:
        term.close()


def others(cols: int, rows: int, repeat: int, text: Path) -> None:
    """less, vim and htop moving one line down, at the same size."""
    tools = [
        ("less", ["less", str(text)], b"j"),
        ("vim", ["vim", "-u", "NONE", "-N", "-n", str(text)], b"j"),
        ("htop", ["htop", "-d", "600"], b"\x1b[B"),
    ]
    for name, args, key in tools:
        if shutil.which(args[0]) is None:
            print(f"  {name:<18} not installed")
            continue
        term = Pty(args, cols, rows)
        try:
            term.settle(timeout=10, quiet=0.5)
            samples = [term.press(key) for _ in range(repeat)]
            report(f"{name} ({'down' if key != b'j' else 'j'})", samples)
        finally:
            term.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--repeat", type=int, default=5)
    p.add_argument("--only", choices=["sample", "wide"])
    p.add_argument("--sizes", default="80x24,120x40")
    p.add_argument("--escdelay", help="ESCDELAY (ms) for the explorer; default: its own")
    p.add_argument("--keys", help="only these steps, by name, comma-separated")
    p.add_argument("--dump", help="a folder to write each measured press's output to")
    args = p.parse_args()
    env = {} if args.escdelay is None else {"ESCDELAY": args.escdelay}
    sizes = [tuple(map(int, s.split("x"))) for s in args.sizes.split(",")]
    keys = set(args.keys.split(",")) if args.keys else None
    if args.dump:
        Path(args.dump).mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        sets = []
        if args.only in (None, "sample"):
            sets.append(("sample_runs", ROOT / "sample_runs"))
        if args.only in (None, "wide"):
            wide(Path(tmp) / "wide")
            sets.append(("20,000 metrics", Path(tmp) / "wide"))
        text = Path(tmp) / "lines.txt"
        text.write_text("".join(f"line {i}: {'x' * (i % 70)}\n" for i in range(5000)))
        for cols, rows in sizes:
            for name, path in sets:
                print(f"tuibench on {name} at {cols}x{rows}:")
                explorer(path, cols, rows, args.repeat, env, keys, args.dump)
            if keys:  # the others do only j
                continue
            print(f"others at {cols}x{rows}:")
            others(cols, rows, args.repeat, text)


if __name__ == "__main__":
    main()
