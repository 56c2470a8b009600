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


@pytest.fixture(autouse=True)
def cache_folder(tmp_path_factory, monkeypatch) -> Path:
    """Every test's cache of loaded results in a folder of its own, never the user's
    (child processes inherit the variables), and the cache on, as a user has it."""
    from tuibench.ingest.reuse import cache

    where = tmp_path_factory.mktemp("xdg-cache")
    monkeypatch.setenv("XDG_CACHE_HOME", str(where))
    monkeypatch.delenv("TUIBENCH_CACHE_DIR", raising=False)
    monkeypatch.delenv("TUIBENCH_NO_CACHE", raising=False)
    monkeypatch.delenv("TUIBENCH_CACHE_MB", raising=False)
    monkeypatch.setattr(cache, "_off", False)
    return where / "tuibench"


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


FLAT = 20  # unchanged metrics beside the three warned ones: 23 comparisons


def write_warned(
    root: Path, systems: tuple[str, str] = ("base", "patched"), unknown: bool = False
) -> Path:
    """base and patched: `dbench tput-32` (a throughput marked lower-is-better, 8 % lower:
    "better"), `app two` (two iterations, 10 % slower), `app bursty` (one outlying sample
    per iteration: worse by its means, same by its medians) and 20 unchanged metrics.
    `unknown`: also `app odd`, 9 % higher, with no unit (its direction is unknown)."""
    import numpy as np

    rng = np.random.default_rng(2)
    for system in systems:
        _write_warned(root, system, rng, system == systems[1], unknown)
    return root


def _write_warned(root: Path, system: str, rng, patched: bool, unknown: bool) -> None:
    lines = ["benchmark,metric,iteration,value,unit,better"]

    def add(bench, metric, its, values_of, unit="ms", better=""):
        for i in range(its):
            for v in values_of(i):
                lines.append(f"{bench},{metric},{i},{v:.6f},{unit},{better}")

    # throughput fell 8 %, but the producer said lower is better: it reads "better"
    add(
        "dbench",
        "tput-32",
        5,
        lambda i: 100 * (0.92 if patched else 1) * (1 + rng.normal(0, 0.004, 6)),
        "MB/s",
        "lower",
    )
    # two iterations per side, a clear 10 % slowdown
    add("app", "two", 2, lambda i: 50 * (1.1 if patched else 1) * (1 + rng.normal(0, 0.002, 6)))

    # one outlying sample per iteration moves the means, not the medians
    def bursty(i):
        v = 10 * (1 + rng.normal(0, 0.002, 8))
        if patched:
            v[0] = 16
        return v

    add("app", "bursty", 5, bursty)
    if unknown:
        add(
            "app",
            "odd",
            5,
            lambda i: 30 * (1.09 if patched else 1) * (1 + rng.normal(0, 0.01, 6)),
            "",
        )
    for k in range(FLAT):
        add("flat", f"m{k}", 5, lambda i: 20 * (1 + rng.normal(0, 0.01, 4)))
    (root / system).mkdir()
    (root / system / "data.csv").write_text("\n".join(lines) + "\n")


@pytest.fixture
def make_warned():
    return write_warned


@pytest.fixture
def kernels(tmp_path, make_system):
    """5.8-vanilla and 5.8-patched, named as mmtests runs are: natural order makes the
    patched one first, the baseline-like name second (the reference-choice tests)."""
    for system, level in (("5.8-vanilla", 10.0), ("5.8-patched", 11.0)):
        rows = [
            ("hackbench", "time", i, level + 0.01 * (i + j), "s") for i in range(3) for j in (0, 1)
        ]
        make_system(tmp_path, system, rows)
    return tmp_path
