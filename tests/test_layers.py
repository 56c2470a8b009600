"""The layers are enforced: import-linter's contracts (pyproject.toml) and the folder rules."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
PACKAGE = REPO / "tuibench"
MAX_FLAT_MODULES = 12  # per folder, __init__ included
MAX_LINES = 700  # per module


def test_import_contracts_hold():
    lint = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run([str(lint), "--no-cache"], cwd=REPO, capture_output=True, text=True)
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_no_folder_holds_more_than_twelve_modules():
    crowded = {
        str(d.relative_to(REPO)): n
        for d in [PACKAGE, *(p for p in PACKAGE.rglob("*") if p.is_dir())]
        if (n := len(list(d.glob("*.py")))) > MAX_FLAT_MODULES
    }
    assert not crowded


def test_no_module_is_longer_than_a_screen_can_explain():
    long = {
        str(p.relative_to(REPO)): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES
    }
    assert not long
