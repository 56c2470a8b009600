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


def write_series(root: Path, digits: int | None = None) -> Path:
    """root/v1 .. v5: `q/clients:N` latency (N = 1, 2, 4, 8; 4 iterations, 0.5 % noise)
    gets 10 % worse from v4 on for N = 4 and 8 only. `digits`: values rounded (snapshots)."""
    import numpy as np

    rng = np.random.default_rng(8)
    for i in range(1, 6):
        rows = []
        for clients in (1, 2, 4, 8):
            slow = 1.1 if (i >= 4 and clients >= 4) else 1.0
            for it in range(4):
                value = clients * slow * (1 + 0.005 * rng.standard_normal())
                value = value if digits is None else round(value, digits)
                rows.append((f"q/clients:{clients}", "latency", it, value, "ms"))
        write_system(root, f"v{i}", rows)
    return root


@pytest.fixture
def make_series():
    """write_series as a fixture: one series with a step at v4, shared by the series tests."""
    return write_series


@pytest.fixture
def make_system():
    """write_system as a fixture, so test modules need no imports from tests/."""
    return write_system


@pytest.fixture
def fixtures_dir() -> Path:
    if not FIXTURES.is_dir():
        pytest.skip("shared fixtures are not present beside this checkout")
    return FIXTURES
