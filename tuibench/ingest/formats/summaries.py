"""Files that hold only summaries of other tools (a mean per benchmark, no samples).

They are recognised and named, with the option that writes the samples instead, rather
than reported as unknown files; nothing is read from them, because one mean per
benchmark and run cannot give an interval or a test:

- hyperfine ``--export-csv`` (``command,mean,stddev,median,user,system,min,max``) and
  ``--export-markdown`` / ``--export-orgmode`` tables (``| Command | Mean [ms] | ...``):
  use ``--export-json``.
- nanobench's ``templates::csv()`` output (``"title";"name";"unit";"batch";"elapsed";...``,
  one median per benchmark): render ``templates::json()`` instead.
- Google Benchmark's console table (``Benchmark  Time  CPU  Iterations``): use
  ``--benchmark_out=<file>.json --benchmark_out_format=json``.
"""

from __future__ import annotations

import re
from pathlib import Path

from tuibench.ingest.formats.base import ReadResult, empty_frame
from tuibench.model.problems import Problem

NAME = "summary without samples"

# (pattern on the head, what the file is, what to use instead)
KINDS = [
    (
        re.compile(r"\Acommand,mean,stddev,median,user,system,min,max"),
        "hyperfine --export-csv summary (one mean per command, no run times)",
        "export with hyperfine --export-json <file> to compare the runs",
    ),
    (
        re.compile(r"\A\|\s*Command\s*\|\s*Mean \["),
        "hyperfine table export (--export-markdown or --export-orgmode: means, no run times)",
        "export with hyperfine --export-json <file> to compare the runs",
    ),
    (
        re.compile(r'\A"title";"name";"unit";"batch";"elapsed";"error %"'),
        "nanobench CSV (templates::csv(): one median per benchmark, no epochs)",
        "render ankerl::nanobench::templates::json() to a file instead",
    ),
    (
        re.compile(r"^-{20,}\s*\nBenchmark +Time +CPU +Iterations", re.MULTILINE),
        "Google Benchmark console output (rounded times, no counters' units)",
        "write the results with --benchmark_out=<file>.json --benchmark_out_format=json",
    ),
]


def _kind(head: str) -> tuple[str, str] | None:
    text = head.lstrip("\ufeff \t\r\n").replace("\r\n", "\n")
    for pattern, what, instead in KINDS:
        if pattern.search(text):
            return what, instead
    return None


def sniff(path: Path, head: str) -> bool:
    return _kind(head) is not None


def read(path: Path) -> ReadResult:
    from tuibench.ingest.formats.base import HEAD_BYTES, open_text

    with open_text(path) as fh:
        kind = _kind(fh.read(HEAD_BYTES))
    what, instead = kind or ("a summary", "")
    reason = f"{what}: not read, a summary has no samples to compare; {instead}"
    return ReadResult(empty_frame(), [Problem(str(path), reason)])
