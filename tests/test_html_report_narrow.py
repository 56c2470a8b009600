"""The HTML report on a 400 px wide screen, in headless Chromium: every table scrolls
sideways inside its own box (the page does not), and no cell's text overflows its cell
(numbers never overlap). A screenshot is kept in pytest's temporary folder.

Skipped, saying why, where Chromium or its driver is not installed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.chromium import chromium, needs_chromium
from tuibench.cli import main

SAMPLE = Path(__file__).resolve().parents[1] / "sample_runs"
WIDTH = 400

pytestmark = needs_chromium

# Per table: its box scrolls sideways; per cell: the text fits (1 px for rounding).
CHECK = """
const out = {page: document.documentElement.scrollWidth, tables: [], cut: []};
for (const table of document.querySelectorAll('table')) {
  const box = table.parentElement;
  out.tables.push({id: table.id || table.className, overflow: getComputedStyle(box).overflowX,
                   box: box.clientWidth, table: table.scrollWidth});
  for (const cell of table.querySelectorAll('td, th')) {
    if (cell.scrollWidth > cell.clientWidth + 1) {
      out.cut.push([table.id || table.className, cell.textContent.trim().slice(0, 40),
                    cell.scrollWidth, cell.clientWidth]);
    }
  }
}
return out;
"""


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    with chromium(tmp_path_factory.mktemp("chromium-profile")) as driver:
        yield driver


def test_report_at_400_px(browser, tmp_path):
    out = tmp_path / "report.html"
    assert main(["report", str(SAMPLE), "--format", "html", "--output", str(out)]) == 0
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride",
        {"width": WIDTH, "height": 900, "deviceScaleFactor": 1, "mobile": False},
    )
    browser.get(out.as_uri())
    # content-visibility: auto skips the layout of what is off screen; measure it all
    browser.execute_script(
        "for (const e of document.querySelectorAll('#table, #plots, .plot'))"
        " e.style.contentVisibility = 'visible';"
    )
    seen = browser.execute_script(CHECK)
    browser.save_screenshot(str(tmp_path / "report-400px.png"))
    for part in ("systems", "rows"):
        browser.execute_script(f"document.getElementById('{part}').scrollIntoView()")
        browser.save_screenshot(str(tmp_path / f"report-400px-{part}.png"))
    browser.execute_script("document.getElementById('rows').parentElement.scrollLeft = 560")
    browser.save_screenshot(str(tmp_path / "report-400px-rows-scrolled.png"))
    assert seen["page"] <= WIDTH  # the page itself does not scroll sideways
    tables = {t["id"]: t for t in seen["tables"]}
    assert {"rows", "summary"} <= set(tables)
    for t in seen["tables"]:
        assert t["overflow"] == "auto", t
        assert t["box"] <= WIDTH
    assert tables["rows"]["table"] > tables["rows"]["box"]  # it does scroll, inside its box
    assert seen["cut"] == [], seen["cut"]
