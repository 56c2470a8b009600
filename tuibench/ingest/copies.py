"""Identical copies among the files to read: the same bytes reached twice (a copied file, a
copy in another folder) would count the same results twice, as extra iterations with the
same values. The later copy in one system is not read; one problem names both. A copy in
another system is read (the two systems then compare the same results) with a problem,
when it holds results (`Collector.twin`).

Hard and symbolic links to one file are found earlier, by inode (discover.py). Here files
are compared by a hash of the bytes the loader reads anyway (the start of every file,
SMALL bytes, which is all of a small file) and their size; larger files with the same size
and start are compared to the end.

Files that differ in bytes can still give one (system, benchmark, metric, iteration) twice
(`without_duplicates`): the same values written another way (a copy) or two runs that
number their iterations alike (not a copy). Either way the later file's samples of it are
left out, and the problem says which of the two it was.
"""

from __future__ import annotations

import hashlib

import numpy as np
import polars as pl

from tuibench.ingest.discover import Unit, display_path
from tuibench.ingest.opening import open_regular, read_start
from tuibench.ingest.small_files import SMALL
from tuibench.model.problems import Problem
from tuibench.util.sort_keys import key_with_two_values, lexsort_order

_CHUNK = 2**20


class Copies:
    def __init__(self) -> None:
        # (size, digest of the start) -> the files with them, first file first
        self.by_start: dict[tuple[int | None, bytes], list[tuple[int, Unit]]] = {}

    def start(self, unit: Unit) -> bytes | None:
        """The first SMALL + 1 bytes of the file (its size is kept, reads stop there), or
        None when it cannot be opened as a regular file (the reader then says why)."""
        try:
            return read_start(unit.path, SMALL + 1)
        except OSError:
            return None

    def check(self, i: int, unit: Unit, start: bytes) -> tuple[int | None, Problem | None]:
        """(index of an earlier file of the same system with the same bytes: this one is
        not read, or None), and a problem when only a file of another system has them."""
        if not start:  # empty: nothing to count twice (and each one is a problem)
            return None, None
        size = getattr(unit.path, "size", None)
        key = (size, hashlib.blake2b(start, digest_size=16).digest())
        same = self.by_start.setdefault(key, [])
        whole = len(start) <= SMALL  # the start is the whole file
        twins = [(j, u) for j, u in same if whole or _same_bytes(u.path, unit.path)]
        same.append((i, unit))
        if not twins:
            return None, None
        for j, u in twins:
            if u.system == unit.system:
                return j, None
        other = twins[0][1]
        return None, Problem(
            str(unit.path),
            f"the same bytes as {display_path(other.path)} of system {other.system!r}; "
            "both are read, so the two systems compare the same results",
        )

    @staticmethod
    def problem(unit: Unit, first: Unit) -> Problem:
        return Problem(
            str(unit.path),
            f"the same bytes as {display_path(first.path)} (a copy); read once, as that "
            "file, so that its results do not count twice",
        )


def _same_bytes(a, b) -> bool:
    """Two large files with the same size and start, compared to the end (up to the size
    each had when first opened); False when either cannot be read."""
    try:
        with open_regular(a) as fa, open_regular(b) as fb:
            while True:
                x, y = fa.read(_CHUNK), fb.read(_CHUNK)
                if x != y:
                    return False
                if not x:
                    return True
    except OSError:
        return False


def _files_share_a_key(runs: pl.DataFrame, keys: list[str]) -> bool:
    """Whether two files give runs of one key, on the codes in numpy (grouping the runs by
    key took 0.07 s at 20,000 metrics, where every system has several files)."""
    phys = [runs[k].to_physical() for k in keys]
    cols = [a for p in phys for a in (p.is_null().cast(pl.Int8), p.fill_null(0))]
    return key_with_two_values([c.to_numpy() for c in cols], runs["_file"].to_numpy())


def without_duplicates(
    df: pl.DataFrame,
    runs: pl.DataFrame,
    starts: np.ndarray,
    paths: list[str],
    problems: list[Problem],
) -> tuple[pl.DataFrame, bool]:
    """The same (system, benchmark, metric, iteration) from two files would pool the same
    iteration twice: keep the first file's samples and name both files, saying whether the
    later one gave the same values (a copy) or others (another run numbered alike).

    `runs` are `df`'s runs of rows, from `starts`. Only the runs of keys given twice are
    looked at again, in numpy: their values (`_fingerprints`), and the rows left out by
    position (an anti-join on the five columns took 1.8 s at 10^7 rows)."""
    keys = ["system", "benchmark", "metric", "iteration"]
    if not _files_share_a_key(runs, keys):  # the common case: nothing can come twice
        return df, False
    c = pl.col
    twice = (
        runs.select(*keys, "_file", "n", pl.Series("_start", starts))
        .group_by(keys, maintain_order=True)
        .agg("_file", "_start", "n")
        .filter(c("_file").list.n_unique() > 1)
    )
    if twice.is_empty():
        return df, False
    key = np.repeat(np.arange(twice.height), twice["_file"].list.len().to_numpy())
    run_file, run_start, run_n = (twice[k].explode().to_numpy() for k in ("_file", "_start", "n"))
    hi, lo = _fingerprints(df["value"], run_start, run_n)
    # Each key's runs by file (stable: files in run order); a block is one key's one file.
    order = lexsort_order([key, run_file])
    key, run_file, run_start, run_n = key[order], run_file[order], run_start[order], run_n[order]
    hi, lo = hi[order], lo[order]
    new = np.r_[True, (key[1:] != key[:-1]) | (run_file[1:] != run_file[:-1])]
    block = np.flatnonzero(new)
    sums = [np.add.reduceat(a, block) for a in (hi, lo, run_n)]
    b_key, b_file = key[block], run_file[block]
    head = np.r_[True, b_key[1:] != b_key[:-1]]  # each key's first file: kept
    first = np.flatnonzero(head)[np.cumsum(head) - 1]
    same = np.logical_and.reduce([a == a[first] for a in sums])
    later = twice.select(keys)[b_key[~head]].with_columns(
        pl.Series("_first", b_file[first][~head]),
        pl.Series("_file", b_file[~head]),
        pl.Series("_same", same[~head]),
    )
    pairs = later.group_by("_first", "_file", maintain_order=True).agg(
        pl.len(),
        (~c("_same")).sum(),
        pl.struct(c(keys).cast(pl.String)).sort_by("_same", maintain_order=True).first(),
    )
    for first_file, dup, n, differ, ex in pairs.sort("_first", "_file").iter_rows():
        problems.append(Problem(paths[dup], _given_twice(paths[first_file], n, differ, ex)))
    out = ~head[np.cumsum(new) - 1]  # the runs of later files
    keep = np.ones(df.height, dtype=bool)
    keep[_rows(run_start[out], run_n[out])] = False
    return df.filter(keep), True


def _rows(starts: np.ndarray, n: np.ndarray) -> np.ndarray:
    """The row positions of runs of `n` rows from `starts`, run after run."""
    ends = np.cumsum(n)
    return np.repeat(starts - (ends - n), n) + np.arange(int(ends[-1]) if len(ends) else 0)


def _fingerprints(
    values: pl.Series, starts: np.ndarray, n: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per run of rows (`starts`, `n` rows each): the sums of the two 32-bit halves of a
    64-bit hash of each value, the same for the same values in any order (nulls as NaN,
    -0.0 as 0.0). Only the rows of those runs are gathered."""
    v = values.gather(_rows(starts, n)).cast(pl.Float64).fill_null(np.nan).to_numpy() + 0.0
    z = np.where(np.isnan(v), np.nan, v).view(np.uint64) + np.uint64(0x9E3779B97F4A7C15)
    z = (z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)  # splitmix64's mixing
    z = (z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    z ^= z >> np.uint64(31)
    bounds = np.cumsum(n) - n
    hi = np.add.reduceat(z >> np.uint64(32), bounds)
    lo = np.add.reduceat(z & np.uint64(0xFFFFFFFF), bounds)
    return hi, lo


def _given_twice(first: str, n: int, differ: int, ex: dict) -> str:
    """Why a file's samples of `n` keys were left out (`differ` of them with other values
    than `first` gave them; `ex`, one of those when any, names the key)."""
    what = f"{ex['benchmark']} {ex['metric']}, iteration {ex['iteration']} of {ex['system']}"
    more = f" and {n - 1} more" if n > 1 else ""
    if not differ:
        return (
            f"the same results as {first} ({what}{more}): this file's samples of those were "
            "left out, so that they do not count twice"
        )
    values = "different values" if differ == n else f"different values in {differ} of them"
    return (
        f"the same system, benchmark, metric and iteration as {first} ({what}{more}), with "
        f"{values}: this file's samples of those were left out and that file's kept, so "
        "that one iteration does not count twice; give each run its own iteration numbers "
        "or folder"
    )
