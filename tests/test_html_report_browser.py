"""The HTML report in a real browser: headless Chromium loads it offline, the DOM holds every
row and one plot per metric, sorting works by click and by keyboard, filtering works, the
console stays clean, and a screenshot is kept (in pytest's temporary folder).

Skipped, saying why, where Chromium or its driver is not installed (Debian: `apt-get install
chromium chromium-driver`).
"""

from __future__ import annotations

import numpy as np
import pytest

from tests.chromium import chromium, needs_chromium
from tuibench.analysis.compare import Analysis
from tuibench.cli import main
from tuibench.ingest.load import load

HOSTILE = "x<b>&y"  # a benchmark name that must stay text

pytestmark = needs_chromium


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    """A small comparison with a regression, an improvement, noise and a hostile name."""
    root = tmp_path_factory.mktemp("results")
    rng = np.random.default_rng(11)
    for system, slow, fast in (("base", 0, 0), ("patched", 0.06, 0.0), ("tuned", 0.0, 0.05)):
        rows = []
        for i in range(4):
            for v in 10 * (1 + slow) * (1 + rng.normal(0, 0.01, 6)):
                rows.append(("app/start", "time", i, round(v, 5), "ms"))
            for v in 500 * (1 + fast) * (1 + rng.normal(0, 0.01, 6)):
                rows.append(("app/io", "tput", i, round(v, 3), "MB/s"))
            for v in 3 * (1 + rng.normal(0, 0.02, 6)):
                rows.append((HOSTILE, "time", i, round(v, 5), "s"))
        (root / system).mkdir()
        lines = ["benchmark,metric,iteration,value,unit"]
        lines += [",".join(f'"{f}"' if i == 0 else str(f) for i, f in enumerate(r)) for r in rows]
        (root / system / "data.csv").write_text("\n".join(lines) + "\n")
    out = tmp_path_factory.mktemp("report") / "report.html"
    assert main(["report", str(root), "--format", "html", "--output", str(out)]) == 0
    cmp = Analysis(load([str(root)])).compare("base")
    return out, cmp


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with chromium(
        tmp_path_factory.mktemp("chromium-profile"), "--window-size=1280,1600", console=True
    ) as driver:
        yield driver


def _rows(driver):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, "#rows tbody tr")


def _column_values(driver, col: int) -> list[float]:
    """The sort values of one column, in the order shown (empty cells left out)."""
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#rows tbody tr'))"
        f".map(r => r.cells[{col}].dataset.v).filter(v => v !== undefined && v !== '')"
        ".map(Number);"
    )


def _sort_state(driver) -> list[str]:
    return driver.execute_script(
        "return Array.from(document.querySelectorAll('#rows thead th'))"
        ".map(th => th.getAttribute('aria-sort'));"
    )


def test_report_in_chromium(report, browser, tmp_path):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.common.keys import Keys

    path, cmp = report
    driver = browser
    driver.get(path.as_uri())
    assert driver.title.startswith("tuibench: ")

    # The DOM: every comparison row, one plot per metric, the hostile name as text.
    assert len(_rows(driver)) == cmp.rows.height
    metrics = cmp.rows.select("benchmark", "metric").unique().height
    figures = driver.find_elements(By.CSS_SELECTOR, "figure.plot")
    assert len(figures) == metrics
    for figure in figures:
        assert len(figure.find_elements(By.TAG_NAME, "svg")) == 1
    assert HOSTILE in driver.find_element(By.ID, "rows").text
    assert not driver.find_elements(By.CSS_SELECTOR, "#rows b")  # not markup
    answer = driver.find_element(By.ID, "answer").text
    assert "patched vs base: ▼1 worse" in answer and "tuned vs base:" in answer
    driver.save_screenshot(str(tmp_path / "report-light.png"))

    # Sorting by clicking the size (gain) heading: ascending, then descending.
    size = driver.find_element(By.CSS_SELECTOR, 'button[data-col="6"]')
    size.click()
    assert _sort_state(driver)[6] == "ascending"
    values = _column_values(driver, 6)
    assert values == sorted(values) and len(values) == cmp.rows.height - metrics
    size.click()
    assert _sort_state(driver)[6] == "descending"
    assert _column_values(driver, 6) == sorted(values, reverse=True)
    sized = driver.execute_script(
        "return Array.from(document.querySelectorAll('#rows tbody tr'))"
        ".filter(r => r.cells[6].dataset.v !== undefined).map(r => r.className);"
    )
    assert sized[-1] == "worse" and sized[0] == "better"  # empty cells stay last

    # Sorting from the keyboard: focus the p heading, press enter, then space.
    p_head = driver.find_element(By.CSS_SELECTOR, 'button[data-col="7"]')
    driver.execute_script("arguments[0].focus();", p_head)
    p_head.send_keys(Keys.ENTER)
    assert _sort_state(driver)[7] == "ascending" and _sort_state(driver)[6] == "none"
    ps = _column_values(driver, 7)
    assert ps == sorted(ps)
    p_head.send_keys(Keys.SPACE)
    assert _sort_state(driver)[7] == "descending"
    assert _column_values(driver, 7) == sorted(ps, reverse=True)

    # Filtering: words, then a verdict.
    box = driver.find_element(By.ID, "filter")
    box.send_keys("tput")
    driver.implicitly_wait(0)
    visible = [r for r in _rows(driver) if r.is_displayed()]
    assert len(visible) == cmp.rows.filter(cmp.rows["metric"] == "tput").height
    assert all("tput" in r.text for r in visible)
    box.clear()
    box.send_keys(Keys.BACKSPACE)  # an input event after clear()
    from selenium.webdriver.support.ui import Select

    Select(driver.find_element(By.ID, "verdict-filter")).select_by_value("worse")
    visible = [r for r in _rows(driver) if r.is_displayed()]
    assert len(visible) == (cmp.rows["verdict"] == "worse").sum() == 1
    assert "of" in driver.find_element(By.ID, "shown").text

    # Dark mode follows the system's preference.
    light = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    driver.execute_cdp_cmd(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": "dark"}]},
    )
    dark = driver.execute_script("return getComputedStyle(document.body).backgroundColor")
    assert light != dark
    Select(driver.find_element(By.ID, "verdict-filter")).select_by_value("")
    driver.save_screenshot(str(tmp_path / "report-dark.png"))
    assert (tmp_path / "report-light.png").stat().st_size > 10_000

    # Nothing went wrong on the way, and nothing was fetched.
    errors = [e for e in driver.get_log("browser") if e["level"] in ("SEVERE", "WARNING")]
    assert errors == []
    fetched = driver.execute_script(
        "return performance.getEntriesByType('resource').map(e => e.name);"
    )
    assert fetched == []
