"""Shared helpers: write small native result folders for tests."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
FIXTURES = REPO.parent / "shared" / "fixtures"


def write_system(root: Path, system: str, rows: list[tuple], header: str = "") -> Path:
    """rows: (benchmark, metric, iteration, value[, unit]) -> root/system/data.csv"""
    folder = root / system
    folder.mkdir(parents=True, exist_ok=True)
    lines = [header or "benchmark,metric,iteration,value,unit"]
    for r in rows:
        bench, metric, it, value, *rest = r
        unit = rest[0] if rest else ""
        lines.append(f"{bench},{metric},{it},{value},{unit}")
    path = folder / "data.csv"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.fixture
def make_system():
    """write_system as a fixture, so test modules need no imports from tests/."""
    return write_system


@pytest.fixture
def fixtures_dir() -> Path:
    if not FIXTURES.is_dir():
        pytest.skip("shared fixtures are not present beside this checkout")
    return FIXTURES
