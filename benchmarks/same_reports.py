"""Write `tuibench report` (JSON and text, with stderr and exit code) of the repository's
own data and of every shape of bench_shapes.py, to compare two versions byte for byte.

    python benchmarks/same_reports.py OUT [--scale 0.05] [--million]

Each input is reported against its default reference and against another system. Run it
once per version into two folders, then `diff -r` them. The tuibench that runs is
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


def report(path: Path, fmt: str, cwd: str, reference: str | None = None) -> bytes:
    """The report's stdout, then its stderr and exit code, as one text to compare."""
    chosen = ["--reference", reference] if reference else []
    proc = subprocess.run(
        [sys.executable, "-m", "tuibench", "report", str(path), "--format", fmt, *chosen],
        capture_output=True,
        cwd=cwd,  # not a checkout: `-m` puts the cwd first on the path
    )
    return proc.stdout + b"\n--- stderr\n" + proc.stderr + f"--- exit {proc.returncode}\n".encode()


def write_reports(name: str, path: Path, out: Path, cwd: str, other: str | None) -> None:
    """The reports against the default reference, and against `other` (a system that is
    not the first: its rows are put in the tables' order by the report)."""
    for reference in (None, other) if other else (None,):
        suffix = f"-vs-{reference}" if reference else ""
        for fmt, ext in (("json", "json"), ("text", "txt")):
            text = report(path, fmt, cwd, reference).replace(str(path).encode(), b"<input>")
            (out / f"{name}{suffix}.{ext}").write_bytes(text)
    print(name, flush=True)


def last_folder(path: Path) -> str | None:
    """The last sub-folder's name: a system of a folder per system (a report naming no
    system says so, which compares as well)."""
    folders = sorted(p.name for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))
    return folders[-1] if folders else None


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("out", type=Path, help="folder for the reports (created)")
    ap.add_argument("--scale", type=float, default=0.05, help="shrink every shape")
    ap.add_argument("--million", action="store_true", help="add the 1,000,000-metric shape")
    a = ap.parse_args()
    a.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="tuibench-same-") as tmp:
        write_reports("sample_runs", REPO / "sample_runs", a.out, tmp, "linux-6.9")
        for folder in sorted((REPO / "tests" / "data").iterdir()):
            if folder.is_dir():
                write_reports(f"data-{folder.name}", folder, a.out, tmp, last_folder(folder))
        shapes = bench_shapes.SHAPES + ([bench_shapes.MILLION] if a.million else [])
        for shape in shapes:
            shape = bench_shapes.scaled(shape, a.scale)
            path, _ = bench_shapes.generate(shape, Path(tmp) / shape.name)
            write_reports(f"shape-{shape.name}", path, a.out, tmp, "sys-1")


if __name__ == "__main__":
    main()
