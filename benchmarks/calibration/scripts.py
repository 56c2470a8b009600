"""The calibrations kept in scripts of their own, as sections of the one command: change
points (`calibrate_changepoints.py`, with Otava and ruptures when installed: the extra
`calibrate`) and the notes' false-alarm rates (`calibrate_notes.py`). Their bounds are
checked by their seeded subsets in the test suite; here they print their tables."""

from __future__ import annotations

import importlib

from .settings import Section, Settings


def _script(module: str, title: str):
    def section(settings: Settings) -> Section:
        run = importlib.import_module(module).run
        return Section(title, run(seed=settings.seed, quick=settings.quick), [])

    section.__name__ = module
    return section


changepoints = _script("calibrate_changepoints", "Change points (systems as a series)")
notes = _script("calibrate_notes", "Notes: false alarms with two iterations")
