"""Files -> ResultSet: read every unit, number iterations and samples, build the catalogue."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import polars as pl

from tuibench.core.config import Override, infer_better, read_config
from tuibench.core.discover import _stem, discover
from tuibench.core.formats import read_file
from tuibench.core.model import (
    METRICS_SCHEMA,
    SAMPLES_SCHEMA,
    FileRecord,
    ResultSet,
    SystemInfo,
    natural_key,
)
from tuibench.core.problems import Problem

Progress = Callable[[int, int, str], None]  # (done, total, path)


def load(paths: list[str | Path], progress: Progress | None = None) -> ResultSet:
    """Load every result file under `paths`. Never raises for bad data: see `.problems`."""
    found = discover(paths)
    problems = list(found.problems)
    overrides = read_config(found.config, problems)
    systems = {s.name: s for s in found.systems}
    frames: list[pl.DataFrame] = []
    files: list[FileRecord] = []

    for i, unit in enumerate(found.units):
        if progress:
            progress(i, len(found.units), str(unit.path))
        result = read_file(unit.path)
        problems.extend(result.problems)
        frame = result.frame
        default_system = unit.system
        if "system" in frame.columns and frame["system"].null_count() < frame.height:
            frame = frame.with_columns(pl.col("system").fill_null(pl.lit(default_system)))
        elif default_system is not None:
            frame = frame.with_columns(pl.lit(default_system, pl.String).alias("system"))
        elif frame.height:
            name = _stem(unit.path)  # a lone file without a system column is one system
            frame = frame.with_columns(pl.lit(name, pl.String).alias("system"))
        else:
            frame = frame.with_columns(pl.lit(None, pl.String).alias("system"))
        if frame["system"].null_count():
            problems.append(
                Problem(
                    str(unit.path),
                    "rows without a system: this file sits "
                    "at the top of the results folder, so each row needs a "
                    "'system' column; those rows were skipped",
                )
            )
            frame = frame.filter(pl.col("system").is_not_null())
        for name in frame["system"].unique().to_list():
            if name not in systems:
                systems[name] = SystemInfo(name=name, path=str(unit.path))
        if result.metadata and default_system in systems:
            for k, v in result.metadata.items():
                systems[default_system].metadata.setdefault(k, v)
        frame = frame.with_columns(
            pl.lit(i, pl.Int64).alias("_file"),
            pl.lit(unit.rank, pl.Int64).alias("_rank"),
            pl.lit(unit.iteration, pl.Int64).alias("_file_iteration"),
            pl.lit(result.global_iterations).alias("_global"),
        )
        frames.append(frame)
        files.append(_file_record(unit.path, default_system, result.format, frame, result.problems))
    if progress:
        progress(len(found.units), len(found.units), "")

    samples = _assemble(frames)
    order = _system_order(systems)
    samples = _sort(samples, order)
    metrics, unit_problems = _catalogue(samples, frames, overrides)
    problems.extend(unit_problems)
    if samples.height == 0 and not problems:
        problems.append(Problem(found.root, "no result files found"))
    present = set(samples["system"].unique().to_list()) | {s.name for s in found.systems}
    return ResultSet(
        samples=samples,
        metrics=metrics,
        systems=[systems[n] for n in order if n in present],
        problems=problems,
        files=files,
        root=found.root,
    )


def _file_record(
    path: Path, system: str | None, fmt: str, frame: pl.DataFrame, problems: list[Problem]
) -> FileRecord:
    if frame.height:
        its = frame.select(pl.col("iteration").n_unique()).item()
        benches = frame["benchmark"].n_unique()
        metrics = frame.select(pl.struct("benchmark", "metric").n_unique()).item()
    else:
        its = benches = metrics = 0
    return FileRecord(
        str(path),
        system or ", ".join(sorted(frame["system"].unique().to_list())),
        fmt or "unknown",
        frame.height,
        benches,
        metrics,
        its,
        list(problems),
    )


def _assemble(frames: list[pl.DataFrame]) -> pl.DataFrame:
    """Concatenate and give every sample its iteration and sample number.

    Iterations: the native format's own `iteration` column is kept as it is; an `iter-<N>`
    folder gives N; otherwise each file (and each run inside a file, e.g. pyperf) is one
    iteration, numbered 0, 1, ... per system and metric in the files' natural order.
    """
    cols = [
        "system",
        "benchmark",
        "metric",
        "value",
        "iteration",
        "sample",
        "_file",
        "_rank",
        "_file_iteration",
        "_global",
    ]
    frames = [f.select(cols) for f in frames if f.height]
    if not frames:
        return pl.DataFrame(schema=SAMPLES_SCHEMA)
    df = pl.concat(frames, how="vertical_relaxed")
    group = ["system", "benchmark", "metric"]
    c = pl.col
    # Files ranked before the local iteration: one file's runs stay together.
    local = c("_rank") * (1 << 24) + c("iteration").fill_null(0)
    rank = (local.rank("dense").over(group) - 1).cast(pl.Int64)
    df = df.with_columns(
        pl.when(c("_global") & c("iteration").is_not_null())
        .then(c("iteration"))
        .when(c("iteration").is_null() & c("_file_iteration").is_not_null())
        .then(c("_file_iteration"))
        .otherwise(rank)
        .alias("iteration")
    )
    keys = [*group, "iteration"]
    df = df.with_columns(c("sample").fill_null(pl.int_range(pl.len()).over(keys)).cast(pl.Int64))
    return df.select(list(SAMPLES_SCHEMA)).cast(SAMPLES_SCHEMA)


def _system_order(systems: dict[str, SystemInfo]) -> list[str]:
    """system.toml `order` first (ascending), then natural sort of names."""
    infos = sorted(
        systems.values(), key=lambda s: (s.order is None, s.order or 0, natural_key(s.name))
    )
    return [s.name for s in infos]


def _sort(samples: pl.DataFrame, order: list[str]) -> pl.DataFrame:
    if samples.height == 0:
        return samples
    rank = {n: i for i, n in enumerate(order)}
    keys = samples.select("benchmark", "metric").unique()
    bench_rank = _natural_rank(keys["benchmark"].unique().to_list())
    metric_rank = _natural_rank(keys["metric"].unique().to_list())
    return (
        samples.with_columns(
            pl.col("system").replace_strict(rank, return_dtype=pl.Int32).alias("_s"),
            pl.col("benchmark").replace_strict(bench_rank, return_dtype=pl.Int32).alias("_b"),
            pl.col("metric").replace_strict(metric_rank, return_dtype=pl.Int32).alias("_m"),
        )
        .sort("_s", "_b", "_m", "iteration", "sample")
        .drop("_s", "_b", "_m")
    )


def _natural_rank(names: list[str]) -> dict[str, int]:
    return {n: i for i, n in enumerate(sorted(names, key=natural_key))}


def _catalogue(
    samples: pl.DataFrame, frames: list[pl.DataFrame], overrides: list[Override]
) -> tuple[pl.DataFrame, list[Problem]]:
    """One row per (benchmark, metric): unit, direction and mean kind."""
    problems: list[Problem] = []
    if samples.height == 0:
        return pl.DataFrame(schema=METRICS_SCHEMA), problems
    hints = pl.concat(
        [
            f.select("system", "benchmark", "metric", "unit", "better").unique()
            for f in frames
            if f.height
        ],
        how="vertical_relaxed",
    )
    per_metric = hints.group_by("benchmark", "metric", maintain_order=True).agg(
        pl.col("unit").drop_nulls().unique(maintain_order=True).alias("units"),
        pl.col("better").drop_nulls().unique(maintain_order=True).alias("betters"),
    )
    order = samples.select("benchmark", "metric").unique()
    order = (
        order.with_columns(
            pl.col("benchmark")
            .replace_strict(
                _natural_rank(order["benchmark"].unique().to_list()), return_dtype=pl.Int64
            )
            .alias("_b"),
            pl.col("metric")
            .replace_strict(
                _natural_rank(order["metric"].unique().to_list()), return_dtype=pl.Int64
            )
            .alias("_m"),
        )
        .sort("_b", "_m")
        .drop("_b", "_m")
    )
    per_metric = order.join(
        per_metric, on=["benchmark", "metric"], how="left", maintain_order="left"
    )
    rows = []
    for bench, metric, units, betters in per_metric.iter_rows():
        units, betters = units or [], betters or []
        if len(units) > 1:
            problems.append(
                Problem(
                    bench,
                    f"metric {metric!r} has different units in different files "
                    f"({', '.join(units)}); values were compared as they are",
                )
            )
        if len(betters) > 1:
            problems.append(
                Problem(
                    bench,
                    f"metric {metric!r} is marked both lower- and higher-is-better; "
                    f"using {betters[0]!r}",
                )
            )
        unit = units[0] if units else None
        better = betters[0] if betters else None
        mean = None
        for o in overrides:
            if o.matches(bench, metric):
                better = o.better or better
                unit = o.unit or unit
                mean = o.mean or mean
        better = better or infer_better(unit, metric)
        mean = mean or ("hmean" if better == "higher" else "amean")
        rows.append((bench, metric, unit, better, mean))
    return pl.DataFrame(rows, schema=METRICS_SCHEMA, orient="row"), problems
