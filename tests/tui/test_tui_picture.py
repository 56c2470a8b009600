"""A first open's picture (tui/content/picture.py): the first screen drawn from what the
loading child sends, before the explorer imports polars, is the screen its session then
draws, cell for cell; keys typed meanwhile wait for the session."""

from __future__ import annotations

import dataclasses
import pickle
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions, ViewOptions
from tuibench.tui.content.picture import Picture, decoded, encoded, picture_of
from tuibench.tui.screens.main.loading import Loading
from tuibench.tui.textual_adapter import screen_lines
from tuibench.tui.view import load_ahead
from tuibench.tui.view.session import Session

SAMPLE = Path(__file__).resolve().parents[2] / "sample_runs"
SIZES = [(80, 24), (120, 40), (160, 50)]
SETS = {
    "three systems": (["results"], {}),
    "two paths": (["results/base", "results/patched"], {}),
    "a reference asked for": (["results"], {"reference": "tuned"}),
    "sample_runs": ([str(SAMPLE)], {}),
}


def _options(kwargs: dict) -> tuple[AnalysisOptions, ViewOptions]:
    analysis = {f.name for f in dataclasses.fields(AnalysisOptions)}
    options = AnalysisOptions(**{k: v for k, v in kwargs.items() if k in analysis})
    return options, ViewOptions(**{k: v for k, v in kwargs.items() if k not in analysis})


def payload_of(paths: list[str], kwargs: dict) -> bytes:
    """The picture as the loading child makes it: a first session of its own load."""
    options, view = _options(kwargs)
    rs = load(paths)
    session = Session.first(rs, Analysis(rs, options), options, view)
    made = encoded(session, rs, view)
    assert made is not None
    return made


async def screen_of(make_app, paths, kwargs, size) -> list:
    app = make_app(paths=paths, **kwargs)
    async with app.run_test(size=size) as pilot:
        while not app.main.loaded:
            await pilot.pause(0.02)
        await pilot.pause()
        return screen_lines(app.main)


async def pictured_then_loaded(make_app, paths, kwargs, size, keys=()):
    """The screen with the picture only (the session held back), and after the session;
    the keys pressed meanwhile, as still pending then."""
    payload = payload_of(paths, kwargs)
    gate = threading.Event()
    imports = Loading._imports

    def held(self) -> None:
        gate.wait(30)
        imports(self)

    mp = pytest.MonkeyPatch()
    mp.setattr(load_ahead, "started", lambda _paths, _options: True)
    mp.setattr(load_ahead, "picture", lambda _paths, _options: payload)
    mp.setattr(Loading, "_imports", held)
    try:
        app = make_app(paths=paths, **kwargs)
        async with app.run_test(size=size) as pilot:
            for _ in range(1000):  # 20 s
                if app.main.picture is not None:
                    break
                await pilot.pause(0.02)
            assert app.main.picture is not None, "no picture drawn"
            await pilot.pause()
            pictured = screen_lines(app.main)
            for key in keys:
                await pilot.press(key)
            pending = list(app._pending)
            assert app.main.session is None  # the keys above waited for it
            gate.set()
            while not app.main.loaded:
                await pilot.pause(0.02)
            await pilot.pause()
            return pictured, screen_lines(app.main), pending, app
    finally:
        gate.set()
        mp.undo()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", list(SETS))
async def test_the_picture_is_the_sessions_screen(make_app, name, size):
    paths, kwargs = SETS[name]
    expected = await screen_of(make_app, paths, kwargs, size)
    pictured, loaded, _, _ = await pictured_then_loaded(make_app, paths, kwargs, size)
    assert pictured == expected
    assert loaded == expected  # the session drew it again: the same cells


async def test_keys_typed_on_the_picture_act_once_the_session_is_there(make_app):
    paths, kwargs = SETS["three systems"]
    _, _, pending, app = await pictured_then_loaded(
        make_app, paths, kwargs, (120, 40), keys=("j", "j")
    )
    assert pending == ["j", "j"]
    assert not app._pending  # replayed, in order


def test_no_picture_where_the_first_screen_is_not_the_answer(tui_data):
    rs = load(["results/base"])  # one system: nothing to answer
    options, view = _options({})
    session = Session.first(rs, Analysis(rs, options), options, view)
    assert picture_of(session, rs, view) is None
    rs = load(["results"])
    options, view = _options({"decide": True})
    session = Session.first(rs, Analysis(rs, options), options, view)
    assert picture_of(session, rs, view) is None


def test_the_picture_reaches_the_explorer_without_polars(tui_data):
    """Decoding the picture imports neither polars nor numpy: it is drawn before them."""
    payload = payload_of(["results"], {})
    code = (
        "import sys, pickle\n"
        "from tuibench.tui.content.picture import decoded\n"
        "p = decoded(sys.stdin.buffer.read())\n"
        "print(type(p).__name__, 'polars' in sys.modules, 'numpy' in sys.modules)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], input=payload, capture_output=True, timeout=60, check=True
    )
    assert out.stdout.decode().split() == ["Picture", "False", "False"]
    assert isinstance(decoded(payload), Picture)
    assert decoded(pickle.dumps("not a picture")) is None


@pytest.mark.parametrize("size", [(80, 24), (160, 50)], ids=lambda s: f"{s[0]}x{s[1]}")
async def test_a_picture_of_hostile_names_is_the_sessions_screen_and_escapes_them(
    make_app, tmp_path, size
):
    """Names with ESC, OSC 52, BEL, CR and C1 characters (the hostile generator's): the
    picture draws them as the session does, and never raw."""
    from tests.test_cli_hostile_explorer import RAW
    from tests.test_cli_hostile_names import write_hostile

    paths, kwargs = [str(write_hostile(tmp_path / "results"))], {}
    expected = await screen_of(make_app, paths, kwargs, size)
    pictured, loaded, _, _ = await pictured_then_loaded(make_app, paths, kwargs, size)
    assert pictured == expected and loaded == expected
    assert not [line for line in pictured if RAW.search("".join(text for text, _ in line))]
