"""JSON Lines in the native format read by polars in one call, when that reads it exactly
as the line-by-line reader (`native._read_jsonl`) would.

The line-by-line reader decodes every record into Python objects and turns every value
into text: 1 M samples took 10 s, polars reads them in 0.5 s. It stays the reader of any
file this one declines (None): a line polars refuses (bad JSON, NaN, numbers beyond
float64), anything that would read differently (a name given as a number or a boolean,
which the line-by-line reader writes as Python prints it; keys equal but for case; an
iteration written with a decimal point, which a problem quotes as written), and anything
that would number lines differently (blank lines, or characters Python also takes for a
line end). Names are then text, `value`, `iteration` and `sample` numbers: `_checked`
takes either.
"""

from __future__ import annotations

import re

import polars as pl

from tuibench.util.worker import in_worker

# Besides LF and CRLF, str.splitlines ends a line at these (U+0085, U+2028 and U+2029 as
# UTF-8) and at a CR alone: the line-by-line reader would then split a record in two.
_CONTROL_LINE_ENDS = (b"\x0b", b"\x0c", b"\x1c", b"\x1d", b"\x1e")
_UNICODE_LINE_ENDS = (b"\xc2\x85", b"\xe2\x80\xa8", b"\xe2\x80\xa9")
# A lone surrogate is a problem for the line-by-line reader; polars would read U+FFFD.
_SURROGATE = re.compile(rb"\\u[dD][89a-fA-F]")
# Text polars writes for a number, boolean, list or object found in a text column.
_NOT_TEXT = re.compile(r"^(?:-?[0-9][0-9.eE+-]*|true|false|\[.*|\{.*)$")
NAMES = ("benchmark", "metric", "unit", "better", "system")
NUMBERS = ("value", "iteration", "sample")


def read(data: bytes) -> pl.DataFrame | None:
    """The records of `data` (UTF-8, no lead before the first record), one column per key
    with lowercased names, or None when the line-by-line reader must read it."""
    # polars parses in a worker while this thread scans the bytes (each scan holds the
    # GIL, polars does not): the checks cost no time beside the parse.
    first = in_worker(_parsed, data, 100)
    plain = _plain_lines(data)
    lines = data.count(b"\n") + (not data.endswith(b"\n")) if plain else 0
    colons = data.count(b":") if plain else 0
    df = first.result()
    # polars skips blank lines (blanks alone, or nothing), which the line-by-line reader
    # counts: a row for every line says there are none.
    if not plain or (df is not None and df.height != lines):
        return None
    keys = _Keys(data, colons)
    # The types of the first rows, else of all rows (3x slower).
    if df is None or not keys.all_read(df):
        df = _parsed(data, None)
        if df is None or df.height != lines or not keys.all_read(df):
            return None
    names = [c.lower() for c in df.columns]
    if len(set(names)) < len(names) or any(n.startswith(("__", "\x00")) for n in names):
        return None
    df = df.rename(dict(zip(df.columns, names, strict=True)))
    # Names coded here (`native._checked` works on the codes) and looked at once per distinct
    # code: making the text of every row distinct here, then coding it there, hashed it twice.
    text = [c for c in df.columns if c in NAMES and df.schema[c] == pl.String]
    df = df.with_columns(pl.col(text).cast(pl.Categorical))
    if not all(_as_read(df, c) for c in df.columns if c in NAMES or c in NUMBERS):
        return None
    return df


def _plain_lines(data: bytes) -> bool:
    """Whether every line ends in LF or CRLF only, and no text holds a UTF-16 surrogate
    (escaped: the bytes are UTF-8). Searches for bytes sequences cost 0.05 s each in 70 MB:
    single bytes are looked for first."""
    if any(end in data for end in _CONTROL_LINE_ENDS):
        return False
    maybe = b"\xc2" in data or b"\xe2" in data
    if maybe and any(end in data for end in _UNICODE_LINE_ENDS):
        return False
    if b"\\" in data and b"\\u" in data and _SURROGATE.search(data):
        return False
    return b"\r" not in data or data.count(b"\r") == data.count(b"\r\n")


def _parsed(data: bytes, rows: int | None) -> pl.DataFrame | None:
    """polars' reading of `data`, its types from the first `rows` rows (None: all); None
    where it refuses."""
    try:
        return pl.read_ndjson(data, infer_schema_length=rows)
    except (pl.exceptions.PolarsError, OverflowError, ValueError):
        return None


class _Keys:
    """Whether every key of every record is one value of the frame: polars leaves out keys
    its first rows do not have, and keeps the first of a key given twice in a record (the
    line-by-line reader, the last).

    Each key is followed by a colon; each cell holds a value of one, unless null, and a
    null is either no key or an explicit `":null`. So the keys are all read when the count
    of colons equals that of the cells less their nulls, plus that of `":null` (when there
    are nulls at all: without, a key left out is one colon too many). A colon within a
    text (`cpu:4`) adds one: then the count of `":` is compared instead, the keys when no
    blank comes before a colon (a text holding `":` may then decline). Counts are taken
    once and only when needed: each costs 0.03 to 0.07 s in 70 MB, and a file nearly
    always passes the first comparison."""

    def __init__(self, data: bytes, colons: int):
        self._data = data
        self._counts = {b":": colons}

    def _count(self, what: bytes) -> int:
        if what not in self._counts:
            self._counts[what] = self._data.count(what)
        return self._counts[what]

    def all_read(self, df: pl.DataFrame) -> bool:
        nulls = sum(df.null_count().row(0))
        values = df.height * df.width - nulls + (self._count(b'":null') if nulls else 0)
        if values == self._count(b":"):
            return True
        blanks = self._count(b" :") or self._count(b"\t:")
        return not blanks and values == self._count(b'":')


def _as_read(df: pl.DataFrame, name: str) -> bool:
    """Whether the column holds what the line-by-line reader makes of it (names: text,
    which `read` has coded as Categorical)."""
    dtype = df.schema[name]
    if dtype == pl.Null:
        return True
    if name in NUMBERS:  # a decimal iteration is quoted as written in its problem
        return dtype.is_integer() or (dtype.is_float() and name == "value")
    if dtype != pl.Categorical:
        return False
    distinct = df[name].unique().drop_nulls().cast(pl.String)
    return not distinct.str.contains(_NOT_TEXT.pattern).any()
