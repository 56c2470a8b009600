"""Catch2 benchmark results in its XML report (``./tests -r xml`` with ``BENCHMARK``).

Catch2's XML reporter writes, per benchmark, a ``BenchmarkResults`` element with its
summaries (``mean`` and ``standardDeviation`` with their bootstrap bounds, ``outliers``)
in nanoseconds; it does not write the samples. So each file gives one value per benchmark:

- benchmark: the test case's name, then the benchmark's (``sorting/sort 1000``);
- metric ``time`` (``ns``, lower is better): the ``mean`` value, the file's one sample of
  it; several files (runs) give several iterations. Its rows say that only the mean of
  ``samples`` measurements was available.
- a benchmark that failed (a ``failed`` element, or no ``mean``) is a problem naming it;
  test assertions and sections are not benchmark results and are not read.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from tuibench.ingest.formats.base import HEAD_BYTES, ReadResult, Records, open_binary
from tuibench.model.problems import Problem

NAME = "Catch2 XML"


def sniff(path: Path, head: str) -> bool:
    text = head.lstrip("\ufeff \t\r\n")
    return text.startswith("<") and "<Catch" in text[:2000]


def read(path: Path) -> ReadResult:
    problems: list[Problem] = []
    with open_binary(path) as fh:
        if b"<!DOCTYPE" in fh.read(HEAD_BYTES):  # Catch2 writes none; entities are a risk
            reason = "a Catch2 XML report with a DOCTYPE: not read (Catch2 writes none)"
            return ReadResult(Records().frame(), [Problem(str(path), reason)])
    try:
        with open_binary(path) as fh:
            root = ET.parse(fh).getroot()
    except ET.ParseError as exc:
        line = exc.position[0] if exc.position else None
        return ReadResult(Records().frame(), [Problem(str(path), f"invalid XML: {exc}", line=line)])
    rec = Records()
    notes: list[tuple[str, str, str]] = []
    for case in root.iter("TestCase"):
        for result in case.iter("BenchmarkResults"):
            _benchmark(rec, notes, problems, path, case.get("name", ""), result)
    if not len(rec) and not problems:
        problems.append(
            Problem(str(path), "a Catch2 XML report without benchmark results (BENCHMARK)")
        )
    metadata = {"catch2_name": root.get("name", "")} if root.get("name") else {}
    return ReadResult(rec.data(), problems, metadata, notes=notes)


def _benchmark(rec, notes, problems, path: Path, case: str, result: ET.Element) -> None:
    name = f"{case}/{result.get('name', '')}" if case else result.get("name", "")
    failed = result.find("failed")
    mean = result.find("mean")
    value = _number(mean.get("value")) if mean is not None else None
    if failed is not None or value is None:
        why = failed.get("message") if failed is not None else "no mean value"
        problems.append(Problem(str(path), f"benchmark {name!r} has no result: {why}"))
        return
    rec.add(name, "time", value, sample=0, unit="ns", better="lower")
    n = result.get("samples")
    of = f"the mean of {n} samples" if n else "the mean of its samples"
    notes.append((name, "time", f"Catch2 reports only the mean: each file gives one value, {of}"))


def _number(text: str | None) -> float | None:
    try:
        x = float(text) if text is not None else None
    except ValueError:
        return None
    return x if x is not None and x == x and abs(x) != float("inf") else None
