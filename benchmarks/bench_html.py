"""Size and speed of `tuibench report --format html` on a large comparison. Prints figures.

    python benchmarks/bench_html.py [--systems 3 --benchmarks 2500 --metrics 2]

Default: 5,000 metrics, 15,000 comparison rows. Prints the time to write the page (median of
--repeat runs after a warm-up), its size, the number of plots, and, when Chromium and
chromedriver are installed, how long the page takes to load and to sort the whole table by
its size column in headless Chromium (medians, alternating the two).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path

import numpy as np
import polars as pl

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.output import html_report
from tuibench.output.shareable import Shareable

# Time the work itself, never a warm load cache (bench_cache.py times that).
os.environ.setdefault("TUIBENCH_NO_CACHE", "1")


def generate(path: Path, systems: int, benchmarks: int, metrics: int) -> None:
    rng = np.random.default_rng(0)
    iterations, samples = 5, 5
    n = benchmarks * metrics * iterations * samples
    b = np.repeat(np.arange(benchmarks), metrics * iterations * samples)
    m = np.tile(np.repeat(np.arange(metrics), iterations * samples), benchmarks)
    it = np.tile(np.repeat(np.arange(iterations), samples), benchmarks * metrics)
    frames = []
    for s in range(systems):
        shift = 1 + 0.03 * s * (b % 11 == 0) - 0.03 * s * (b % 13 == 0)
        value = (100 + b % 50) * shift * (1 + rng.normal(0, 0.02, n))
        frames.append(
            pl.DataFrame(
                {
                    "system": [f"sys-{s}"] * n,
                    "benchmark": "suite/bench-" + pl.Series(b).cast(pl.String),
                    "metric": "m" + pl.Series(m).cast(pl.String),
                    "iteration": it,
                    "value": value,
                    "unit": ["ms"] * n,
                }
            )
        )
    pl.concat(frames).write_parquet(path)


def browser_figures(page: Path, repeat: int, rows: int) -> None:
    chromium, driver_path = shutil.which("chromium"), shutil.which("chromedriver")
    if chromium is None or driver_path is None:
        print("browser: no chromium/chromedriver installed, skipped")
        return
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    with tempfile.TemporaryDirectory() as profile:
        options = webdriver.ChromeOptions()
        options.binary_location = chromium
        for flag in ("--headless", "--no-sandbox", "--disable-gpu", f"--user-data-dir={profile}"):
            options.add_argument(flag)
        driver = webdriver.Chrome(service=Service(driver_path), options=options)
        driver.set_script_timeout(600)
        loads, sorts = [], []
        try:
            for _ in range(repeat + 1):  # the first is the warm-up
                driver.get(page.as_uri())
                loads.append(
                    driver.execute_script(
                        "const t = performance.getEntriesByType('navigation')[0];"
                        "return t.loadEventEnd - t.startTime;"
                    )
                )
                sorts.append(
                    driver.execute_script(
                        "const b = document.querySelector('button[data-col=\"6\"]');"
                        "const t0 = performance.now(); b.click();"
                        "document.body.offsetHeight; return performance.now() - t0;"
                    )
                )
        finally:
            driver.quit()
    print(
        f"browser: load {statistics.median(loads[1:]):.0f} ms (median), "
        f"sort {rows} rows by size {statistics.median(sorts[1:]):.0f} ms (median)"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--systems", type=int, default=3)
    ap.add_argument("--benchmarks", type=int, default=2500)
    ap.add_argument("--metrics", type=int, default=2)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp) / "all.parquet"
        generate(data, args.systems, args.benchmarks, args.metrics)
        cmp = Analysis(load([str(data)])).compare("sys-0")
        share = Shareable(cmp, "", facts=[("results", "generated")])
        html_report.html_report(share)  # warm-up
        times = []
        for _ in range(args.repeat):
            t0 = time.perf_counter()
            text = html_report.html_report(share)
            times.append(time.perf_counter() - t0)
        metrics = cmp.rows.select("benchmark", "metric").unique().height
        print(f"metrics {metrics}, rows {cmp.rows.height}, plots {text.count('<svg')}")
        print(f"write: {statistics.median(times) * 1000:.0f} ms (median of {args.repeat})")
        print(f"size: {len(text.encode()) / 1e6:.1f} MB")
        page = Path(tmp) / "report.html"
        page.write_text(text)
        browser_figures(page, args.repeat, cmp.rows.height)
    sys.stdout.flush()


if __name__ == "__main__":
    main()
