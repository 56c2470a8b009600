"""Write `tuibench report` (JSON and text, with stderr and exit code) of the repository's
own data and of every shape of bench_shapes.py, to compare two versions byte for byte.

    python benchmarks/same_reports.py OUT [--scale 0.05] [--million]

Run it once per version into two folders, then `diff -r` them. The tuibench that runs is
the one `python -m tuibench` finds: for an older version, extract it (`git archive REV |
tar -x -C DIR`) and run this script with `PYTHONPATH=DIR`. Inputs: `sample_runs/`, every
folder of `tests/data/`, and each shape (scaled by `--scale`: a speed change must not
change a single byte of any of them).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import bench_shapes

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")

REPO = Path(__file__).resolve().parent.parent


def report(path: Path, fmt: str, cwd: str) -> bytes:
    """The report's stdout, then its stderr and exit code, as one text to compare."""
    proc = subprocess.run(
        [sys.executable, "-m", "tuibench", "report", str(path), "--format", fmt],
        capture_output=True,
        cwd=cwd,  # not a checkout: `-m` puts the cwd first on the path
    )
    return proc.stdout + b"\n--- stderr\n" + proc.stderr + f"--- exit {proc.returncode}\n".encode()


def write_reports(name: str, path: Path, out: Path, cwd: str) -> None:
    for fmt, ext in (("json", "json"), ("text", "txt")):
        text = report(path, fmt, cwd).replace(str(path).encode(), b"<input>")
        (out / f"{name}.{ext}").write_bytes(text)
    print(name, flush=True)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path, help="folder for the reports (created)")
    ap.add_argument("--scale", type=float, default=0.05, help="shrink every shape")
    ap.add_argument("--million", action="store_true", help="add the 1,000,000-metric shape")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tuibench-same-") as tmp:
        write_reports("sample_runs", REPO / "sample_runs", a.out, tmp)
        for folder in sorted((REPO / "tests" / "data").iterdir()):
            if folder.is_dir():
                write_reports(f"data-{folder.name}", folder, a.out, tmp)
        shapes = bench_shapes.SHAPES + ([bench_shapes.MILLION] if a.million else [])
        for shape in shapes:
            shape = bench_shapes.scaled(shape, a.scale)
            path, _ = bench_shapes.generate(shape, Path(tmp) / shape.name)
            write_reports(f"shape-{shape.name}", path, a.out, tmp)


if __name__ == "__main__":
    main()
