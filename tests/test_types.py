"""mypy is part of the suite: tuibench/ type-checks with the settings in pyproject.toml, and
the scripts of benchmarks/ and tools/ for what breaks them when the code they drive
changes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
# The benchmarks and tools are scripts, typed loosely: checked for a name, an attribute, an
# argument or a module the code no longer has (two scripts crashed on one), not for their own
# annotations.
SCRIPTS_UNCHECKED = (
    "arg-type",
    "assignment",
    "func-returns-value",
    "index",
    "method-assign",  # they patch the app's methods to time them
    "misc",
    "return-value",
    "union-attr",
    "unreachable",
    "var-annotated",
)


def test_mypy():
    # The incremental cache (.mypy_cache) makes a second run take seconds.
    proc = subprocess.run([sys.executable, "-m", "mypy"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_scripts():
    off = [arg for code in SCRIPTS_UNCHECKED for arg in ("--disable-error-code", code)]
    # A cache of its own: the other run may write its cache at the same time.
    cache = ["--cache-dir", str(REPO / ".mypy_cache" / "scripts")]
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "benchmarks", "tools", *cache, *off],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
