"""The help rendered ahead (screens/main/help_ahead.py) while its module is still being
imported by the loading thread: not ready, never an error."""

from __future__ import annotations

import sys
import types

from tuibench.tui.screens.main.help_ahead import HELP_MODULE


async def test_a_help_module_still_importing_is_not_ready(make_app, loaded, monkeypatch):
    app = make_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        # As another thread's import leaves it: in sys.modules, its functions not all there.
        monkeypatch.setitem(sys.modules, HELP_MODULE, types.ModuleType(HELP_MODULE))
        ahead = app.main.help_ahead
        ahead.rest("tree")
        assert ahead.timer is not None  # tried again once the keys rest
        await pilot.pause(0.5)  # its worker finds nothing to render with: nothing happens
        await app.workers.wait_for_complete()
        assert app.main.session is not None
