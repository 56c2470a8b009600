"""Write every report of every fixture folder, or compare two such sets byte for byte.

A restructure of the code must not change what people read: run `write` before and after
into two folders, then `compare` them. Each folder of `sample_runs/`, `tests/data/` and the
shared fixtures (when present beside the checkout) is reported in every format, with and
without `--series`, and `inspect`ed.

    python tools/same_outputs.py write OUT_DIR
    python tools/same_outputs.py compare BEFORE_DIR AFTER_DIR
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
FORMATS = ("text", "csv", "markdown", "latex", "json", "html")


def folders() -> list[Path]:
    found = [
        REPO / "sample_runs",
        *sorted(p for p in (REPO / "tests" / "data").iterdir() if p.is_dir()),
    ]
    shared = REPO.parent / "shared" / "fixtures"
    if shared.is_dir():
        found += sorted(p for p in shared.iterdir() if p.is_dir())
    return found


def commands(folder: Path) -> dict[str, list[str]]:
    """Paths relative to the checkout, so that two checkouts print the same names."""
    where = Path(os.path.relpath(folder, REPO)).as_posix()
    name = where.replace("../", "").replace("/", "_")
    runs = {f"{name}.{fmt}": ["report", where, "--format", fmt] for fmt in FORMATS}
    runs[f"{name}.series.json"] = ["report", where, "--series", "--format", "json"]
    runs[f"{name}.series.text"] = ["report", where, "--series"]
    runs[f"{name}.inspect"] = ["inspect", where]
    return runs


def write(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for folder in folders():
        for name, args in commands(folder).items():
            done = subprocess.run(
                [sys.executable, "-m", "tuibench", *args],
                capture_output=True,
                cwd=REPO,
                env={**os.environ, "TUIBENCH_NO_CACHE": "1"},
            )
            (out / name).write_bytes(
                done.stdout
                + b"\n--- stderr ---\n"
                + done.stderr
                + f"\n--- exit {done.returncode}\n".encode()
            )


# The HTML report says when it was made, to the minute: the one part allowed to differ.
WHEN = re.compile(rb"\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC")


def _bytes(path: Path) -> bytes | None:
    return WHEN.sub(b"<when>", path.read_bytes()) if path.exists() else None


def compare(before: Path, after: Path) -> int:
    names = sorted({p.name for p in before.iterdir()} | {p.name for p in after.iterdir()})
    differ = [
        n for n in names if _bytes(before / n) is None or _bytes(before / n) != _bytes(after / n)
    ]
    for n in differ:
        print("differs:", n)
    print(f"{len(names) - len(differ)} of {len(names)} outputs identical")
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1:2] == ["write"]:
        write(Path(sys.argv[2]))
    elif sys.argv[1:2] == ["compare"]:
        sys.exit(compare(Path(sys.argv[2]), Path(sys.argv[3])))
    else:
        sys.exit(__doc__)
