"""The HTML report's answer in headless Chromium: the word on a reference first only by its
name, the warnings of each system, the marks on its changes, a change of unknown direction
with its signed size, and the same per-system counts with `--only-significant`.

Skipped, saying why, where Chromium or its driver is not installed.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.chromium import chromium, needs_chromium
from tuibench.cli import main

KERNELS = Path(__file__).resolve().parent / "data" / "tui" / "kernels"

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with chromium(tmp_path_factory.mktemp("chromium-profile"), "--window-size=1000,1400") as driver:
        yield driver


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
        # app bursty, and flat m5 (p 0.066 here, 0.03 with per-iteration medians)
        "! 2 not robust: with per-iteration medians the verdict differs",
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
    assert "5.8-vanilla vs 5.8-patched: ▼1 worse · ▲2 better · 20 same" in significant[-1]
