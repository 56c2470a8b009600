"""Files -> ResultSet: read every unit, number iterations and samples, build the catalogue."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence, Set
from pathlib import Path

import numpy as np
import polars as pl

from tuibench.ingest import lookalikes
from tuibench.ingest.collect import Collected, Collector, shown
from tuibench.ingest.config import Override, infer_better, read_settings
from tuibench.ingest.copies import Copies, without_duplicates
from tuibench.ingest.discover import Discovery, Unit, discover, display_path
from tuibench.ingest.formats import ReadResult, native, read_file
from tuibench.ingest.reuse import file_reads, load_cache
from tuibench.ingest.small_files import SmallFiles
from tuibench.ingest.watch import only_complete
from tuibench.model.natural_order import natural_order
from tuibench.model.problems import Problem
from tuibench.model.results import (
    METRICS_SCHEMA,
    SAMPLES_SCHEMA,
    ResultSet,
)
from tuibench.model.systems import SystemInfo, natural_key
from tuibench.model.units import common_unit
from tuibench.util.sort_keys import lexsort_order
from tuibench.util.worker import in_worker

Progress = Callable[[int, int, str], None]  # (done, total, path)
Read = Callable[[Path], ReadResult]


class LoadCancelled(Exception):
    """Raised by a progress callback to stop loading; load() lets it through."""


def load(
    paths: Sequence[str | Path],
    progress: Progress | None = None,
    complete: Mapping[str, int] | None = None,
) -> ResultSet:
    """Load every result file under `paths`. Never raises for bad data: see `.problems`.
    Unchanged results are read back from the user's cache (`load_cache.py`).

    `complete`: while watching (watch.py), the files known complete, by absolute path, and
    their size then: only those are read, up to that size."""
    found = discover(paths)
    found.units = only_complete(found.units, complete)
    return load_discovered(found, progress)


def load_discovered(found: Discovery, progress: Progress | None = None) -> ResultSet:
    """`load` of what discovery found (the explorer discovers first to look in the cache)."""
    key = load_cache.key(found)
    if key is not None and (rs := load_cache.get(key)) is not None:
        if progress:
            progress(len(found.units), len(found.units), "")
        return rs
    # Files unchanged since an earlier load of these paths are not read again. Reads are
    # encoded for that entry as they come, except the first MIN_SAMPLES rows, held as read
    # until `store`: a load too small to store (most) encodes nothing.
    held = load_cache.MIN_SAMPLES
    kept = file_reads.KeptReads(found, read_file, held) if key is not None else None
    rs = load_found(found, progress, kept.read if kept is not None else None)
    if key is not None:
        load_cache.put(key, rs, len(found.units))
    if kept is not None and load_cache.worth_storing(rs, len(found.units)):
        kept.store()
    return rs


def load_found(
    found: Discovery, progress: Progress | None = None, read: Read | None = None
) -> ResultSet:
    """Load what discovery found; `read` reads one file (default `read_file`; incremental.py
    passes one that remembers)."""
    problems = list(found.problems)
    overrides, reference = read_settings(found.config, problems)
    systems = {s.name: s for s in found.systems}
    got = _read_all(found.units, systems, progress, read)
    problems.extend(got.problems)
    files = got.files

    order = _system_order(systems, got.listed)
    file_paths = [f.path if f is not None else "" for f in files]  # None: set aside
    extracts = {i for i, f in enumerate(files) if f is not None and f.format == "mmtests"}
    samples, metrics, file_stats = _assemble(
        got.frames, order, overrides, problems, file_paths, extracts
    )
    for i, (n, benches, metric_count, most, fewest, of_systems) in file_stats.items():
        f = files[i]
        f.samples, f.benchmarks, f.metrics = n, benches, metric_count
        f.iterations, f.fewest_iterations, f.systems = most, fewest, of_systems
    if samples.height == 0 and not problems:
        problems.append(Problem(found.root, "no result files found"))
    # A folder whose rows all name other systems (a multi-run mmtests JSON) is no system.
    present = set(samples["system"].unique().to_list()) | {
        s.name for s in found.systems if s.name not in got.delegated
    }
    for info in systems.values():
        info.path = display_path(info.path)
    kept = [systems[n] for n in order if n in present]
    if reference is not None and reference not in {s.name for s in kept}:
        names = ", ".join(s.name for s in kept)
        where = str(found.config)
        problems.append(Problem(where, f"reference {reference!r} is not a system here ({names})"))
        reference = None
    first = kept[0] if kept else None
    by_name = first is not None and first.order is None and first.name not in got.listed
    return ResultSet(
        samples=samples,
        metrics=metrics,
        systems=kept,
        problems=shown(problems),
        files=[f for f in files if f is not None],
        root=found.root,
        notes=got.notes,
        set_aside=sorted([*found.set_aside, *got.set_aside], key=lambda a: natural_key(a.path)),
        configured_reference=reference,
        first_by_name=by_name and reference is None,
    )


def _read_all(
    units: list[Unit],
    systems: dict[str, SystemInfo],
    progress: Progress | None,
    read: Read | None = None,
) -> Collected:
    """Read every file: small native files in batches (small_files.py), the others one by
    one."""
    read = read or read_file  # looked up now: tests replace it
    collector = Collector(units, systems)
    small = SmallFiles()
    copies = Copies()
    for i, unit in enumerate(units):
        if progress:
            progress(i, len(units), str(unit.path))
        start = copies.start(unit)
        if start is None:  # cannot be opened as a regular file: read_file says why
            collector.add(i, read_file(unit.path))
            continue
        first, elsewhere = copies.check(i, unit, start)
        if first is not None:
            collector.skip(i, copies.problem(unit, units[first]))
            continue
        if elsewhere is not None:
            collector.twin(i, elsewhere)
        if not small.take(i, unit, start):
            collector.add(i, read(unit.path))
    batches, leftovers = small.parse()
    for i, unit in leftovers:  # files a batch could not take: one by one
        collector.add(i, read(unit.path))
    for batch in batches:
        collector.add_batch(batch)
    if progress:
        progress(len(units), len(units), "")
    return collector.finish()


def _assemble(
    frames: list[pl.DataFrame],
    order: list[str],
    overrides: list[Override],
    problems: list[Problem],
    paths: list[str],
    extracts: Set[int] = frozenset(),
) -> tuple[pl.DataFrame, pl.DataFrame, dict]:
    """Concatenate, number iterations and samples, sort, and build the metric catalogue.

    Iterations: the native format's own `iteration` column is kept as it is; an `iter-<N>`
    folder gives N; otherwise each file (and each run inside a file, e.g. pyperf) is one
    iteration, numbered 0, 1, ... per system and metric in the files' natural order.

    The name columns become `pl.Enum`s whose categories are in natural order, so sorting and
    grouping work on small integer codes. Names are coded once per run of rows (`_runs`),
    never looked up row by row: at 10^7 samples that was most of the load time.
    """
    cols = [
        "system",
        "benchmark",
        "metric",
        "value",
        "iteration",
        "sample",
        "unit",
        "better",
        "_file",
        "_rank",
        "_file_iteration",
        "_global",
    ]
    # Names as Categorical in every part (the native reader's are already): one type to
    # concatenate, and codes to compare in `_changes`.
    names = {k: pl.Categorical for k in ("system", "benchmark", "metric", "unit", "better")}
    # (polars' cast() wants a Mapping keyed by its exact key union: Mapping keys are invariant)
    parts = [f.select(cols).cast(names) for f in frames if f.height]  # type: ignore[arg-type]
    frames.clear()  # the readers' frames go with their last reference (memory at 10^7)
    if not parts:
        return _empty_samples(order), pl.DataFrame(schema=METRICS_SCHEMA), {}
    df = pl.concat(parts, how="vertical_relaxed")
    del parts
    if len(extracts) > 1:
        df = _same_extract_twice(df, extracts, paths, problems)
    c = pl.col
    group = ["system", "benchmark", "metric"]
    kept = (c("_global") & c("iteration").is_not_null()) | (
        c("iteration").is_null() & c("_file_iteration").is_not_null()
    )
    if not df.select(kept.all()).item():
        # Files ranked before the local iteration: one file's runs stay together.
        local = c("_rank") * (1 << 24) + c("iteration").fill_null(0)
        rank = (local.rank("dense").over(group) - 1).cast(pl.Int64)
        df = df.with_columns(
            pl.when(kept)
            .then(c("iteration").fill_null(c("_file_iteration")))
            .otherwise(rank)
            .alias("iteration")
        )
    else:
        df = df.with_columns(c("iteration").fill_null(c("_file_iteration")))
    starts, runs = _runs(df)
    enums = _name_enums(runs, order)
    runs = runs.cast(enums)  # type: ignore[arg-type]  # as above
    categories: dict[str, pl.Series | list[str]] = {
        k: enums[k].categories for k in lookalikes.KINDS
    }
    problems.extend(lookalikes.problems(runs, categories, paths))
    df, changed = _one_unit_per_metric(df, _metric_runs(runs), paths, problems)
    if changed:  # rare: rows converted or left out, so the runs moved
        starts, runs = _runs(df, enums)
    df, dropped = without_duplicates(df, runs, starts, paths, problems)
    if dropped:
        starts, runs = _runs(df, enums)
    # The catalogue and the files' figures in a worker, while the samples are sorted.
    side = in_worker(_catalogue_and_stats, runs, overrides)

    keys = [*group, "iteration"]
    unnumbered = df["sample"].null_count()
    if 0 < unnumbered < df.height:  # a mix: number the missing ones by row order
        df = df.with_columns(c("sample").fill_null(pl.int_range(pl.len()).over(keys)))
    renumber = unnumbered == df.height
    df = df.select("sample", "value")  # names and iterations come from the runs (`_sort`)
    df = _sort(df, runs, starts, renumber)
    metrics, file_stats, said = side.result()
    problems.extend(said)
    return (
        df.with_columns(
            c("iteration").cast(pl.Int64), c("sample").cast(pl.Int64), c("value").cast(pl.Float64)
        ),
        metrics,
        file_stats,
    )


def _catalogue_and_stats(
    runs: pl.DataFrame, overrides: list[Override]
) -> tuple[pl.DataFrame, dict, list[Problem]]:
    """The metric catalogue, the per-file figures and the catalogue's problems."""
    said: list[Problem] = []
    by_metric = _metric_runs(runs)
    return _catalogue(by_metric, overrides, said), _file_stats(runs, by_metric), said


RUN_KEYS = ["_file", "system", "benchmark", "metric", "iteration", "unit", "better"]


def _runs(df: pl.DataFrame, enums: dict | None = None) -> tuple[np.ndarray, pl.DataFrame]:
    """Runs of rows that share file, names, iteration, unit and direction: about one per
    iteration, so the catalogue and the per-file figures cost nothing at 10^7 samples.
    `enums`: the name columns' types for the runs."""
    new_run = _changes(df.select(RUN_KEYS))
    new_run[:1] = True
    starts = np.flatnonzero(new_run)
    runs = df.select(RUN_KEYS)[starts].with_columns(
        pl.Series("n", np.diff(np.r_[starts, df.height]))
    )
    return starts, runs if enums is None else runs.cast(enums)


def _metric_runs(runs: pl.DataFrame) -> pl.DataFrame:
    """The first of every run of `runs` that share all their keys but the iteration: one a
    metric and file, what the catalogue and the units need (runs are one an iteration)."""
    new = _changes(runs.select(k for k in RUN_KEYS if k != "iteration"))
    new[:1] = True
    return runs.filter(pl.Series(new))


def _file_stats(runs: pl.DataFrame, by_metric: pl.DataFrame) -> dict:
    """Per file: samples, benchmarks, metrics, the most and fewest iterations of one system
    and how many systems (a multi-run file's iterations are each system's, not their sum)."""
    c = pl.col
    names = by_metric.group_by("_file").agg(
        c("benchmark").n_unique(), _pair(by_metric, "benchmark", "metric").alias("metrics")
    )
    counts = runs.group_by("_file").agg(c("n").sum())
    systems = (
        _iterations_per_system(runs)
        .group_by("_file")
        .agg(c("iteration").max().alias("most"), c("iteration").min().alias("fewest"), pl.len())
    )
    per_file = counts.join(names, on="_file").join(systems, on="_file")
    per_file = per_file.select("_file", "n", "benchmark", "metrics", "most", "fewest", "len")
    return {r[0]: r[1:] for r in per_file.iter_rows()}


def _iterations_per_system(runs: pl.DataFrame) -> pl.DataFrame:
    """Per file and system, the iterations of its metric with the most: not the iteration
    numbers the file holds, which differ between metrics when they are numbered across
    files (a Google Benchmark file is one iteration of each of its metrics, the second of
    some and the first of others). Counted exactly, by metric, only where the distinct
    (metric, iteration) pairs do not settle it (every metric all the numbers, or one)."""
    c = pl.col
    pairs = runs.select("_file", "system", "iteration", bm=_code(runs, "benchmark", "metric"))
    per = pairs.group_by("_file", "system").agg(
        its=c("iteration").n_unique(),
        metrics=c("bm").n_unique(),
        pairs=_pair(pairs, "bm", "iteration"),
    )
    settled = per.select(
        "_file",
        "system",
        iteration=pl.when(c("pairs") == c("metrics") * c("its"))
        .then(c("its"))
        .when(c("pairs") == c("metrics"))
        .then(1),
    )
    mixed = settled.filter(c("iteration").is_null()).drop("iteration")
    if not mixed.height:
        return settled
    exact = (
        pairs.join(mixed, on=["_file", "system"], how="semi")
        .group_by("_file", "system", "bm")
        .agg(c("iteration").n_unique())
        .group_by("_file", "system")
        .agg(c("iteration").max())
    )
    return pl.concat([settled.drop_nulls("iteration"), exact], how="vertical_relaxed")


def _code(df: pl.DataFrame, a: str, b: str) -> pl.Expr:
    """(a, b) as one integer, a * span + b, for integer or Enum columns when no value is
    null and every pair fits in 62 bits (then pairs and codes are one to one); else as a
    struct. Distinct structs of 2,000,000 runs took 0.5 s at 200,000 metrics."""
    x, y = (df[k].to_physical() for k in (a, b))
    integers = x.dtype.is_integer() and y.dtype.is_integer()
    if integers and len(x) and not x.null_count() and not y.null_count():
        lo, hi, top = int(y.min()), int(y.max()), int(x.max())  # type: ignore[arg-type]
        if int(x.min()) >= 0 and (hi - lo + 1) * (top + 1) < 1 << 62:  # type: ignore[arg-type]
            a_code = pl.col(a).to_physical().cast(pl.Int64)
            return a_code * (hi - lo + 1) + (pl.col(b).to_physical().cast(pl.Int64) - lo)
    return pl.struct(a, b)


def _pair(df: pl.DataFrame, a: str, b: str) -> pl.Expr:
    """How many distinct (a, b) pairs: as one integer each where they fit (`_code`)."""
    return _code(df, a, b).n_unique()


def _changes(df: pl.DataFrame, chunk: int = 1 << 20) -> np.ndarray:
    """Whether each row differs from the one before in some column (nulls equal one
    another). Integer and Categorical codes are compared in numpy; any other column by
    polars' rle_id, a chunk of rows at a time (a whole column at once held hundreds of MB of
    temporaries at 10^7 rows)."""
    out = np.zeros(df.height, dtype=bool)
    other = []
    for k in df.columns:
        col = df[k]
        if not (col.dtype.is_integer() or col.dtype == pl.Categorical):
            other.append(k)
        elif not _constant(col):  # one file, no direction given: nothing to compare
            out[1:] |= native.code_changes(col)[1:]
    for lo in range(0, df.height if other else 0, chunk):
        ids = df.slice(lo, chunk).select(pl.col(other).rle_id())
        for k in other:
            a = ids[k].to_numpy()
            out[lo + 1 : lo + len(a)] |= a[1:] != a[:-1]
        if lo:
            out[lo] |= df.select(other).row(lo) != df.select(other).row(lo - 1)
    return out


def _constant(col: pl.Series) -> bool:
    """Whether an integer or Categorical column holds one value (or only nulls) all along."""
    ids = col.to_physical()
    nulls = ids.null_count()
    return nulls == len(ids) or (not nulls and ids.min() == ids.max())


def _one_unit_per_metric(
    df: pl.DataFrame, runs: pl.DataFrame, paths: list[str], problems: list[Problem]
) -> tuple[pl.DataFrame, bool]:
    """Convert a metric measured in several time or size units (ms here, s there) to one
    unit; a metric whose units do not convert is set aside as a problem, never compared."""
    if not _several_units(runs):  # the common case: nothing to convert
        return df, False
    per_metric = (
        runs.filter(pl.col("unit").is_not_null())
        .group_by("benchmark", "metric", "unit", maintain_order=True)
        .agg(pl.col("_file").first())
        .group_by("benchmark", "metric", maintain_order=True)
        .agg("unit", "_file")
        .filter(pl.col("unit").list.len() > 1)
    )
    if per_metric.is_empty():
        return df, False
    factors: list[tuple[str, str, str, float, str]] = []
    set_aside: list[tuple[str, str]] = []
    for bench, metric, units, first_files in per_metric.iter_rows():
        common = common_unit(units)
        if common is None:
            set_aside.append((bench, metric))
            where = ", ".join(f"{u} in {paths[f]}" for u, f in zip(units, first_files, strict=True))
            problems.append(
                Problem(
                    bench,
                    f"metric {metric!r} is measured in units that do not convert into one "
                    f"another ({where}); its values were left out rather than compared "
                    "across units",
                )
            )
            continue
        target, by_unit = common
        factors.extend((bench, metric, u, f, target) for u, f in by_unit.items())
    if set_aside:
        gone = pl.DataFrame(set_aside, schema=["benchmark", "metric"], orient="row")
        gone = gone.cast({k: df.schema[k] for k in gone.columns})
        df = df.join(gone, on=["benchmark", "metric"], how="anti", maintain_order="left")
    if factors:
        table = pl.DataFrame(
            factors, schema=["benchmark", "metric", "unit", "_factor", "_unit"], orient="row"
        ).cast({k: df.schema[k] for k in ("benchmark", "metric", "unit")})
        table = table.with_columns(pl.col("_unit").cast(df.schema["unit"]))
        df = df.join(table, on=["benchmark", "metric", "unit"], how="left", maintain_order="left")
        df = df.with_columns(
            (pl.col("value") * pl.col("_factor").fill_null(1.0)).alias("value"),
            pl.col("_unit").fill_null(pl.col("unit")).alias("unit"),
        ).drop("_factor", "_unit")
    return df, True


def _several_units(runs: pl.DataFrame) -> bool:
    """Whether some metric is given in two units, on the codes (grouping the names took
    0.2 s at 200,000 metrics of one unit each)."""
    given = runs.filter(pl.col("unit").is_not_null())
    if given["unit"].n_unique() < 2:
        return False
    b, m, u = (given[k].to_physical().to_numpy() for k in ("benchmark", "metric", "unit"))
    metric = b.astype(np.int64) * (int(m.max()) + 1) + m
    order = lexsort_order([metric, u])
    metric, u = metric[order], u[order]
    return bool(((metric[1:] == metric[:-1]) & (u[1:] != u[:-1])).any())


def _name_enums(runs: pl.DataFrame, order: list[str]) -> dict[str, pl.Enum]:
    """Enum types of the name columns: systems in `order`, benchmarks and metrics in natural
    order (every name heads some run)."""
    names = runs.select(pl.col("benchmark", "metric").unique().implode().cast(pl.List(pl.String)))
    enums = {k: _natural(names[k][0]) for k in names.columns}
    return {"system": pl.Enum(order), **enums}


def _natural(names: pl.Series) -> pl.Enum:
    """An Enum of the distinct `names` in natural order (vectorised: sorting 20,000 names by
    `natural_key` took 0.25 s)."""
    return pl.Enum(names.gather(natural_order(names)))


def _same_extract_twice(
    df: pl.DataFrame, extracts: Set[int], paths: list[str], problems: list[Problem]
) -> pl.DataFrame:
    """Two mmtests extracts of one run (the whole test, and `--sub-heading tput`) hold the
    same op's samples in the same iterations; each file numbers its own iterations, so
    they would pool as twice the iterations. An op whose samples, iteration by iteration,
    another extract of the system already gave is left out of the later file, with one
    problem naming both. Only for mmtests: elsewhere equal values can be two real runs
    (a count that never changes)."""
    keys = ["system", "benchmark", "metric"]
    c = pl.col
    ops = (
        df.filter(c("_file").is_in(list(extracts)))
        .group_by("_file", *keys, maintain_order=True)  # the named op: the file's first
        .agg(pl.struct("iteration", "sample", "value").hash().sort().alias("_h"))
        .with_columns(c("_h").hash())
        .sort("_file", maintain_order=True)
    )
    ops = ops.with_columns(c("_file").first().over(*keys, "_h").alias("_first"))
    twice = ops.filter(c("_file") != c("_first"))
    if twice.is_empty():
        return df
    pairs = twice.group_by("_first", "_file", maintain_order=True).agg(
        pl.len(), c("benchmark").first().cast(pl.String), c("metric").first().cast(pl.String)
    )
    for first, later, n, bench, metric in pairs.sort("_first", "_file").iter_rows():
        more = f" and {n - 1} more" if n > 1 else ""
        problems.append(
            Problem(
                paths[later],
                f"the same mmtests results as {paths[first]} ({bench} {metric}{more}, in "
                "the same iterations): an extract of the same run; left out of this file, "
                "so that they do not count twice",
            )
        )
    drop = twice.select("_file", *keys)
    return df.join(drop, on=["_file", *keys], how="anti", maintain_order="left")


def _sort(df: pl.DataFrame, runs: pl.DataFrame, starts: np.ndarray, renumber: bool) -> pl.DataFrame:
    """`df`'s samples and values with the names (as the Enums of `runs`) and iterations of
    their runs, sorted by names (Enum codes, i.e. natural order), iteration and sample.

    Rows arrive in runs (one per iteration and file, `starts`; `runs` holds their first rows).
    When samples inside each run are already in order, only the runs are sorted (10^5 keys
    instead of 10^7) and the rows gathered once; data already in order is not copied.
    `renumber` numbers samples 0..n-1 inside each iteration, in file order.
    """
    group = ["system", "benchmark", "metric"]
    n = np.diff(np.r_[starts, df.height])
    c = pl.col
    if not renumber:
        s = df["sample"].to_numpy()  # numbered: no nulls
        down = s[1:] < s[:-1]  # a sample below the one before it, except where a run starts
        down[starts[1:] - 1] = False
        if down.any():  # samples out of order inside a run
            identity = np.arange(len(starts))
            df = _gathered(df, runs, starts, identity, n, starts, renumber)
            return df.sort(
                [*(c(k).to_physical() for k in group), "iteration", "sample"], maintain_order=True
            )
    cols = [runs[k].to_physical().to_numpy() for k in group]
    cols.append(runs["iteration"].to_numpy())
    cols.append(np.zeros(len(starts), np.int64) if renumber else df["sample"].to_numpy()[starts])
    order = lexsort_order(cols)
    n_sorted = n[order]
    first_row = np.r_[0, np.cumsum(n_sorted)[:-1]]  # where each run lands after sorting
    df = _gathered(df, runs, starts, order, n_sorted, first_row, renumber)
    if renumber:
        group_key = np.stack(cols[:-1], axis=1)[order]
        new_group = np.r_[True, (group_key[1:] != group_key[:-1]).any(axis=1)]
        group_first = np.maximum.accumulate(np.where(new_group, first_row, 0))
        sample = np.arange(df.height) - np.repeat(group_first, n_sorted)
        df = df.with_columns(pl.Series("sample", sample, dtype=pl.Int64))
    return df


def _gathered(
    df: pl.DataFrame,
    runs: pl.DataFrame,
    starts: np.ndarray,
    order: np.ndarray,
    n_sorted: np.ndarray,
    first_row: np.ndarray,
    renumber: bool,
) -> pl.DataFrame:
    """The rows (`sample` and `value`) with their runs in `order`, and the names (as Enums)
    and iteration, which are the same all along a run, from `runs` (a gather from a small
    frame). `sample` does not move when it is renumbered."""
    constant = ["system", "benchmark", "metric", "iteration"]
    # Row numbers as polars' own index type (a gather by int64 converts them first: twice
    # the time); the arithmetic wraps around but the results are row numbers.
    small = df.height < 1 << 32
    index = np.uint32 if small else np.int64
    run = np.repeat(order.astype(index), n_sorted)
    out = runs.select(constant)[pl.Series(run)]
    moved = ["value"] if renumber else ["sample", "value"]
    if (order != np.arange(len(order))).any():
        idx = np.repeat((starts[order] - first_row).astype(index), n_sorted)
        idx += np.arange(df.height, dtype=index)
        out = out.hstack(df.select(moved)[pl.Series(idx)])
    else:  # already in order: nothing to move
        out = out.hstack(df.select(moved))
    if renumber:
        out = out.with_columns(pl.lit(None, pl.Int64).alias("sample"))
    return out.select(*constant, "sample", "value")


def _empty_samples(order: list[str]) -> pl.DataFrame:
    schema = dict(SAMPLES_SCHEMA)
    schema["system"] = pl.Enum(order)
    schema["benchmark"] = pl.Enum([])
    schema["metric"] = pl.Enum([])
    return pl.DataFrame(schema=schema)


def _system_order(systems: dict[str, SystemInfo], listed: dict[str, int]) -> list[str]:
    """system.toml `order` first (ascending); then systems in the order a file lists them
    (mmtests `-n base,patched`: the first is mmtests' reference); then natural order."""

    def key(s: SystemInfo) -> tuple:
        return (
            s.order is None,
            s.order or 0,
            s.name not in listed,
            listed.get(s.name, 0),
            natural_key(s.name),
        )

    return [s.name for s in sorted(systems.values(), key=key)]


def _catalogue(
    df: pl.DataFrame, overrides: list[Override], problems: list[Problem]
) -> pl.DataFrame:
    """One row per (benchmark, metric) in natural order: unit, direction and mean kind."""
    # Each combination once first (in order): a run per iteration repeats them, and the
    # lists below grouped from every run took most of the catalogue at 200,000 metrics.
    named = df.select("benchmark", "metric", "unit", "better").unique(maintain_order=True)
    per_metric = (
        named.group_by("benchmark", "metric")
        .agg(
            pl.col("unit").drop_nulls().unique(maintain_order=True).alias("units"),
            pl.col("better").drop_nulls().unique(maintain_order=True).alias("betters"),
        )
        .sort(pl.col("benchmark").to_physical(), pl.col("metric").to_physical())
    )
    if not overrides:
        return _catalogue_by_columns(per_metric, problems)
    rows = []
    for bench, metric, units, betters in per_metric.iter_rows():
        stated = [b for b in betters if b != "unknown"]
        if len(stated) > 1:
            problems.append(
                Problem(
                    bench,
                    f"metric {metric!r} is marked both lower- and higher-is-better; "
                    f"using {stated[0]!r}",
                )
            )
        unit = units[0] if units else None
        # tuibench.toml, then what the producer said ("unknown" included), then inference.
        better = stated[0] if stated else ("unknown" if betters else None)
        mean = None
        for o in overrides:
            if o.matches(bench, metric):
                better = o.better or better
                unit = o.unit or unit
                mean = o.mean or mean
        if better is None:
            better = infer_better(unit, metric)
        better = None if better == "unknown" else better
        mean = mean or ("hmean" if better == "higher" else "amean")
        rows.append((bench, metric, unit, better, mean))
    schema = dict(METRICS_SCHEMA)
    schema["benchmark"] = df.schema["benchmark"]
    schema["metric"] = df.schema["metric"]
    return pl.DataFrame(rows, schema=schema, orient="row")


def _catalogue_by_columns(per_metric: pl.DataFrame, problems: list[Problem]) -> pl.DataFrame:
    """`_catalogue` without overrides, in columns: a loop per metric took seconds at
    200,000 metrics. The direction is inferred once per distinct unit and metric name."""
    c = pl.col
    stated = c("betters").list.eval(pl.element().filter(pl.element() != "unknown"))
    pm = per_metric.select(
        "benchmark",
        "metric",
        c("units").list.first().cast(pl.String).alias("unit"),
        stated.alias("_stated"),
        c("betters").list.len().alias("_given"),
    )
    both = pm.filter(c("_stated").list.len() > 1)
    for bench, metric, first in both.select(
        "benchmark", "metric", c("_stated").list.first().cast(pl.String)
    ).iter_rows():
        problems.append(
            Problem(
                bench,
                f"metric {metric!r} is marked both lower- and higher-is-better; using {first!r}",
            )
        )
    said = (
        pl.when(c("_stated").list.len() > 0)
        .then(c("_stated").list.first().cast(pl.String))
        .when(c("_given") > 0)
        .then(pl.lit("unknown"))
    )
    pm = pm.with_columns(said.alias("better"), c("metric").cast(pl.String).alias("_name"))
    unsaid = pm.filter(c("better").is_null()).select("unit", "_name").unique()
    inferred = unsaid.with_columns(
        pl.Series("_inferred", [infer_better(u, m) for u, m in unsaid.iter_rows()], dtype=pl.String)
    )
    pm = pm.join(
        inferred, on=["unit", "_name"], how="left", nulls_equal=True, maintain_order="left"
    )
    better = c("better").fill_null(c("_inferred"))
    better = pl.when(better == "unknown").then(None).otherwise(better)
    return pm.select(
        "benchmark",
        "metric",
        "unit",
        better.alias("better"),
        pl.when(better == "higher")
        .then(pl.lit("hmean"))
        .otherwise(pl.lit("amean"))
        .alias("mean_kind"),
    )
