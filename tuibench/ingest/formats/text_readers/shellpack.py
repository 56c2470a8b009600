"""What an mmtests `shellpack.yaml` says about a test's metrics: direction and unit.

The parse-results TSV carries neither; a copy of the shellpack's `shellpack.yaml` placed
beside the TSVs (or in a folder above them, up to the system's folder) gives them, as
mmtests' ExtractShellpack reads them:

    metrics:                  # the op names: the TSV's first field, or the op label
      - loadfile              #   without its numeric factors (udpstream-send for the
      - tput                  #   TSV row `udpstream send 64 ...`), as mmtests matches them
    preferhigher: true        # higher-is-better where a metric's own block says nothing
    loadfile:
      units: TIME_MSECONDS    # TIME_* lower-is-better; *_PER_SECOND/_PER_MINUTE higher
    tput:
      units: MBYTES_PER_SECOND

A folder holding several tests' TSVs names each copy `<test>.shellpack.yaml`. Only this
shape is read (top-level `key: value`, lists of `- item`, one level of blocks); anything
else in the file is ignored, and a metric it says nothing about keeps an unknown direction.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path

from tuibench.ingest.formats.base import open_text

FILE = "shellpack.yaml"
_ITER = re.compile(r"iter-\d+")
_TRUE = {"", "1", "higher", "true", "yes"}
# mmtests units (DataTypes without DATA_): the unit shown and the direction.
_UNITS = {
    "TIME_NSECONDS": ("ns", "lower"),
    "TIME_USECONDS": ("us", "lower"),
    "TIME_MSECONDS": ("ms", "lower"),
    "TIME_SECONDS": ("s", "lower"),
    "TIME_CYCLES": ("cycles", "lower"),
    "BAD_ACTIONS": (None, "lower"),
    "ACTIONS": (None, "higher"),
    "SUCCESS_PERCENT": ("%", "higher"),
    "KBYTES_PER_SECOND": ("KB/s", "higher"),
    "MBYTES_PER_SECOND": ("MB/s", "higher"),
    "MBITS_PER_SECOND": ("Mbit/s", "higher"),
}


def parse(text: str) -> dict:
    """The subset of YAML shellpack.yaml files use, as nested dicts and lists of strings."""
    out: dict = {}
    key: str | None = None  # the top-level key whose block or list follows
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        indented = line[0] in " \t"
        item = line.strip()
        if not indented:
            name, _, value = item.partition(":")
            key = name.strip()
            out[key] = value.strip() if value.strip() else {}
        elif key is not None and item.startswith("- "):
            if not isinstance(out[key], list):
                out[key] = []
            out[key].append(item[2:].strip())
        elif key is not None and ":" in item and isinstance(out[key], dict):
            name, _, value = item.partition(":")
            out[key][name.strip()] = value.strip()
    return out


def _metric(spec: dict, metric: str) -> tuple[str | None, str | None]:
    """(unit, better) the yaml gives one metric: its own `preferhigher`, else its `units`,
    else the file's `preferhigher`; None where it says nothing."""
    block = x if isinstance(x := spec.get(metric), dict) else {}
    units = str(block.get("units", "")).strip().upper()
    unit, better = _UNITS.get(units, (None, None))
    if better is None and units.endswith(("_PER_SECOND", "_PER_MINUTE")):
        better = "higher"
    own, overall = block.get("preferhigher"), spec.get("preferhigher")
    for pref in (own, None if better else overall):
        if isinstance(pref, str):
            return unit, "higher" if pref.strip().lower() in _TRUE else "lower"
    return unit, better


def _identity(path: Path) -> tuple | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino)


@lru_cache(maxsize=256)
def _load(path: Path, identity: tuple | None = None) -> dict | None:
    """The parsed file; `identity` keys the cache, so a changed file is read again (a
    reload in the same process)."""
    try:
        with open_text(path) as fh:  # opened without blocking, checked to be a file
            return parse(fh.read())
    except OSError:
        return None


def _find(tsv: Path, test: str) -> dict | None:
    """The nearest `<test>.shellpack.yaml` or `shellpack.yaml`, from the TSV's folder up to
    the first folder that is not an `iter-N` one."""
    for folder in tsv.parents:
        for name in (f"{test}.{FILE}", FILE):
            if (folder / name).is_file():
                return _load(folder / name, _identity(folder / name))
        if not _ITER.fullmatch(folder.name):
            return None
    return None


_FACTORS = re.compile(r"-\d.*\Z")


def yaml_keys(label: str, field: str) -> list[str]:
    """The names a shellpack.yaml may give an op, most specific first: the op label
    (`udpstream-send-64`), the label without its numeric factors (`udpstream-send`: what
    mmtests' graph-mmtests.sh looks up, `${METRIC//-[0-9]*}`), the TSV's first field."""
    return list(dict.fromkeys([label, _FACTORS.sub("", label), field]))


def directions(
    tsv: Path, test: str, ops: set[tuple[str, str]]
) -> dict[tuple[str, str], tuple[str | None, str]]:
    """{(op label, first field): (unit, better)} for the ops a shellpack.yaml beside the TSV
    gives a direction; the others are left out. When the yaml lists its `metrics`, an op
    none of whose names it lists or describes is left out too (mmtests would give it the
    test's one direction; nothing here says that direction fits it)."""
    spec = _find(tsv, test)
    if not spec:
        return {}
    listed = spec.get("metrics")
    known = set(listed) | set(spec) if isinstance(listed, list) else None
    out = {}
    for label, field in ops:
        keys = yaml_keys(label, field)
        key = next((k for k in keys if known is None or k in known), None)
        if key is None:
            continue
        unit, better = _metric(spec, key)
        if better is not None:
            out[label, field] = (unit, better)
    return out
