"""Write benchmark results slowly into a folder, as running benchmarks do, to watch
`tuibench --follow FOLDER` take them in (or `R` without --follow).

    python tools/write_live_results.py live/ --iterations 6 --pause 2

Two systems, `base` and `patched`. Each iteration writes, per system, a Go `testing` output
line by line (its `PASS` / `ok` lines last) and a Google Benchmark JSON file one benchmark
at a time (its closing `]` and `}` last), with pauses inside each file: the explorer must
not read them before they are complete. `patched` is 8 % slower on BenchmarkParse and
Google Benchmark's BM_Hash, the same elsewhere. Deterministic (seeded).
"""

from __future__ import annotations

import argparse
import json
import random
import time
from pathlib import Path

GO = {"Parse": 1200.0, "Encode": 800.0}  # ns/op of base
GBENCH = {"BM_Hash/64": 150.0, "BM_Copy/64": 40.0}  # ns of base
SLOWER = {"Parse", "BM_Hash/64"}


def go_lines(system: str, rng: random.Random) -> list[str]:
    lines = ["goos: linux", "goarch: amd64", "pkg: example.com/codec", "cpu: demo"]
    for name, ns in GO.items():
        factor = 1.08 if system == "patched" and name in SLOWER else 1.0
        for _ in range(5):
            v = ns * factor * (1 + rng.gauss(0, 0.01))
            lines.append(f"Benchmark{name}-2   \t 1000000\t      {v:.1f} ns/op")
    return [*lines, "PASS", "ok  \texample.com/codec\t2.345s"]


def gbench_parts(system: str, rng: random.Random) -> list[str]:
    context = {"date": "2024-05-01T10:00:00", "num_cpus": 2, "library_build_type": "release"}
    head = '{\n  "context": ' + json.dumps(context) + ',\n  "benchmarks": [\n'
    parts = [head]
    entries = []
    for name, ns in GBENCH.items():
        factor = 1.08 if system == "patched" and name in SLOWER else 1.0
        for i in range(3):
            v = ns * factor * (1 + rng.gauss(0, 0.01))
            entries.append(
                {
                    "name": name,
                    "run_name": name,
                    "run_type": "iteration",
                    "repetitions": 3,
                    "repetition_index": i,
                    "threads": 1,
                    "iterations": 100000,
                    "real_time": v,
                    "cpu_time": v,
                    "time_unit": "ns",
                }
            )
    for i, entry in enumerate(entries):
        parts.append(("    " if i == 0 else ",\n    ") + json.dumps(entry))
    parts.append("\n  ]\n}\n")
    return parts


def write_slowly(path: Path, parts: list[str], pause: float) -> None:
    """Write `parts` one at a time with `pause` seconds between them (flushed each time)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w") as fh:
        for part in parts:
            fh.write(part)
            fh.flush()
            time.sleep(pause)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("folder", type=Path)
    ap.add_argument("--iterations", type=int, default=6)
    ap.add_argument("--pause", type=float, default=2.0, help="seconds between iterations")
    ap.add_argument("--line-pause", type=float, default=0.3, help="seconds between lines")
    args = ap.parse_args()
    rng = random.Random(42)
    for it in range(args.iterations):
        for system in ("base", "patched"):
            go = [line + "\n" for line in go_lines(system, rng)]
            write_slowly(args.folder / system / f"go-{it}.txt", go, args.line_pause)
            print(f"iteration {it}: {system}/go-{it}.txt complete", flush=True)
            parts = gbench_parts(system, rng)
            write_slowly(args.folder / system / f"gbench-{it}.json", parts, args.line_pause)
            print(f"iteration {it}: {system}/gbench-{it}.json complete", flush=True)
        time.sleep(args.pause)


if __name__ == "__main__":
    main()
