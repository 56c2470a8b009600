"""The HTML report's answer in headless Chromium: the word on a reference first only by its
name, the warnings of each system, the marks on its changes, a change of unknown direction
with its signed size, and the same per-system counts with `--only-significant`.

Skipped, saying why, where Chromium or its driver is not installed.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tuibench.cli import main

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")
KERNELS = Path(__file__).resolve().parent / "data" / "tui" / "kernels"

pytestmark = pytest.mark.skipif(
    CHROMIUM is None or DRIVER is None,
    reason="no Chromium and chromedriver installed (Debian: apt-get install chromium "
    "chromium-driver): the HTML report is not checked in a browser",
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--no-first-run",
        "--window-size=1000,1400",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    try:
        yield driver
    finally:
        driver.quit()


def page(tmp_path, *extra: str) -> Path:
    out = tmp_path / f"report{len(extra)}.html"
    assert main(["report", str(KERNELS), "--format", "html", "--output", str(out), *extra]) == 0
    return out


def texts(browser, selector: str) -> list[str]:
    from selenium.webdriver.common.by import By

    return [e.text for e in browser.find_elements(By.CSS_SELECTOR, selector)]


def test_the_answer_warns_in_chromium(browser, tmp_path):
    browser.get(page(tmp_path).as_uri())
    heads = texts(browser, "header .warning")
    assert heads[:2] == [
        "Reference 5.8-patched: only because its name sorts first.",
        "5.8-vanilla is named like a baseline: --reference 5.8-vanilla.",
    ]
    warnings = texts(browser, "#answer .warnings li")
    assert warnings == [
        "! 1 not robust: with per-iteration medians the verdict differs",
        "2it 1 from two iterations on a side: a wide interval, a weak test",
        "dir 1 named like a throughput but judged lower-is-better",
        "24 comparisons: about 1.2 expected by chance at alpha 0.05",
    ]
    changes = {t.split(" ")[3]: t for t in texts(browser, "#answer .changes li")}
    assert re.search(
        r"^\? changed app odd [+-]\d+\.\d% \[[+-]\d+\.\d%, [+-]\d+\.\d%\] p ", changes["odd"]
    )
    assert changes["bursty"].endswith(" !") and changes["two"].endswith(" 2it")
    assert changes["tput-32"].endswith(" dir")
    browser.save_screenshot(str(tmp_path / "answer.png"))


def test_only_significant_keeps_the_counts_in_chromium(browser, tmp_path):
    browser.get(page(tmp_path).as_uri())
    every = texts(browser, "#systems tbody tr") + texts(browser, "#answer h3")
    browser.get(page(tmp_path, "--only-significant").as_uri())
    significant = texts(browser, "#systems tbody tr") + texts(browser, "#answer h3")
    assert every == significant
    assert "5.8-vanilla vs 5.8-patched: ▼2 worse · ▲2 better · 19 same" in significant[-1]
