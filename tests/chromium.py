"""Headless Chromium for the browser tests: where it is, the skip when it is not, and a
driver started with the flags this machine needs (no background networking, a fresh
profile)."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no Chromium and chromedriver installed (Debian: apt-get install chromium "
    "chromium-driver): the HTML report is not checked in a browser",
)

FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    "--disable-sync",
)


@contextlib.contextmanager
def chromium(profile: Path, *flags: str, console: bool = False) -> Iterator:
    """A driver with `flags` added (a window size); `console`: keep the page's log."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for flag in (*FLAGS, *flags, f"--user-data-dir={profile}"):
        options.add_argument(flag)
    if console:
        options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()
