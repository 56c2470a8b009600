"""Fixtures shared by the core tests of the load cache and the kept file reads."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tuibench.ingest.reuse import load_cache

DATA = Path(__file__).resolve().parents[1] / "data"


@pytest.fixture
def stored_results(tmp_path: Path, monkeypatch) -> Path:
    """Real mmtests (two systems in iter-N folders) and Go results; every load stored,
    however small."""
    monkeypatch.setattr(load_cache, "MIN_SAMPLES", 0)
    root = tmp_path / "results"
    shutil.copytree(DATA / "mmtests-real" / "tsv", root)
    (root / "go").mkdir()
    shutil.copy(DATA / "gotest" / "go-bench.txt", root / "go" / "bench.txt")
    return root
