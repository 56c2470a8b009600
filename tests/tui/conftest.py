"""Helpers for the explorer's tests: the small results folder, and waiting for the load."""

from __future__ import annotations

import asyncio
import dataclasses
import inspect
from pathlib import Path

import pytest

DATA = Path(__file__).resolve().parents[1] / "data" / "tui"


@pytest.hookimpl(tryfirst=True)
def pytest_pyfunc_call(pyfuncitem):
    """Run `async def` tests here with asyncio.run (no async plugin is needed)."""
    if inspect.iscoroutinefunction(pyfuncitem.obj):
        names = pyfuncitem._fixtureinfo.argnames
        asyncio.run(pyfuncitem.obj(**{n: pyfuncitem.funcargs[n] for n in names}))
        return True
    return None


@pytest.fixture
def tui_data(monkeypatch) -> Path:
    """Run from tests/data/tui so the results path is the relative `results`, as typed."""
    monkeypatch.chdir(DATA)
    return DATA


async def wait_loaded(pilot, timeout: float = 20.0) -> None:
    """Wait until the loading worker has finished and the screen shows its result."""
    app = pilot.app
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not app.main.loaded:
        if loop.time() > deadline:
            raise TimeoutError("the explorer did not finish loading")
        await pilot.pause(0.02)
    await pilot.pause()


@pytest.fixture
def loaded():
    """`await loaded(pilot)`: wait_loaded as a fixture, so test modules import nothing here."""
    return wait_loaded


@pytest.fixture
def make_app(tui_data, tmp_path):
    """`make_app(**options)`: the explorer over tests/data/tui/results, exports to tmp_path."""
    from tuibench.model.options import AnalysisOptions, ViewOptions
    from tuibench.tui.app import TuibenchApp

    def make(**kwargs) -> TuibenchApp:
        kwargs.setdefault("export_dir", str(tmp_path))
        paths = kwargs.pop("paths", ["results"])
        analysis = {f.name for f in dataclasses.fields(AnalysisOptions)}
        options = AnalysisOptions(**{k: v for k, v in kwargs.items() if k in analysis})
        view = ViewOptions(**{k: v for k, v in kwargs.items() if k not in analysis})
        return TuibenchApp(paths, options, view)

    return make
