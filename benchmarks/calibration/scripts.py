"""The calibrations kept in scripts of their own, as sections of the one command: change
points (`calibrate_changepoints.py`, with Otava and ruptures when installed: the extra
`calibrate`) and the notes' false-alarm rates (`calibrate_notes.py`). Their seeded
subsets run in the test suite; here they print their tables, and the change points'
bounds are counted with the others."""

from __future__ import annotations

import importlib

from .settings import Section, Settings


def _script(module: str, title: str, checked: bool = False):
    def section(settings: Settings) -> Section:
        run = importlib.import_module(module).run
        if not checked:
            return Section(title, run(seed=settings.seed, quick=settings.quick), [])
        checks: list = []
        lines = run(seed=settings.seed, quick=settings.quick, checks=checks)
        return Section(title, lines, checks)

    section.__name__ = module
    return section


changepoints = _script("calibrate_changepoints", "Change points (systems as a series)", True)
notes = _script("calibrate_notes", "Notes: false alarms with two iterations")
