"""Units a metric may be measured in, how to bring one metric to one unit, and the units
a value may be shown in.

Time (ns, us/µs, ms, s, min), size (B, KB/kB, KiB, MB, MiB, GB, GiB, TB, TiB), bits (bit,
Kbit, Mbit, Gbit, Tbit), their per-second rates (`MB/s`, `MiB/sec`, `Mbit/s`) and
per-operation figures (`ns/op`, `B/op`) convert into one another within their kind. Any
other unit is only equal to itself.

`ladder(unit)` lists the units a value measured in `unit` may be shown in (ns to s for
times, B to PB or B to PiB in the family the data came in, an SI prefix otherwise).
"""

from __future__ import annotations

TIME = {
    "ns": 1e-9,
    "us": 1e-6,
    "µs": 1e-6,
    "μs": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "sec": 1.0,
    "min": 60.0,
}
SIZE = {
    "B": 1.0,
    "KB": 1e3,
    "kB": 1e3,
    "KiB": 1024.0,
    "MB": 1e6,
    "MiB": 1024.0**2,
    "GB": 1e9,
    "GiB": 1024.0**3,
    "TB": 1e12,
    "TiB": 1024.0**4,
}
BITS = {
    "bit": 1.0,
    "kbit": 1e3,
    "Kbit": 1e3,
    "Mbit": 1e6,
    "Gbit": 1e9,
    "Tbit": 1e12,
}
PER_SECOND = ("s", "sec")


def kind(unit: str) -> tuple[str, float] | None:
    """(kind, factor to the kind's base unit), or None for a unit that does not convert."""
    if unit in TIME:
        return "time", TIME[unit]
    if unit in SIZE:
        return "size", SIZE[unit]
    if unit in BITS:
        return "bits", BITS[unit]
    num, slash, den = unit.partition("/")
    if not slash:
        return None
    if num in SIZE and den in PER_SECOND:
        return "size/s", SIZE[num]
    if num in BITS and den in PER_SECOND:
        return "bits/s", BITS[num]
    if den == "op" and num in TIME:
        return "time/op", TIME[num]
    if den == "op" and num in SIZE:
        return "size/op", SIZE[num]
    return None


def common_unit(units: list[str]) -> tuple[str, dict[str, float]] | None:
    """The unit to show a metric measured in `units` in (the finest of them), and the factor
    each unit's values are multiplied by; None when they do not all convert."""
    found = [kind(u) for u in units]
    kinds = [k for k in found if k is not None]
    if len(kinds) != len(found) or len({k[0] for k in kinds}) != 1:
        return None
    target = min(zip(units, kinds, strict=True), key=lambda uk: uk[1][1])
    return target[0], {u: k[1] / target[1][1] for u, k in zip(units, kinds, strict=True)}


# -- showing values ---------------------------------------------------------------------------
# A rung: (label, size of one shown unit in the data's unit, smallest typical value shown in
# it, in the data's unit). The rungs of a ladder ascend; the highest rung whose threshold the
# typical value reaches is used, else the lowest.
Rung = tuple[str, float, float]

SHOWN_TIME = (("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3), ("s", 1.0))  # never minutes
SHOWN_DECIMAL = (("B", 1.0), ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12), ("PB", 1e15))
SHOWN_BINARY = tuple((u, 1024.0**i) for i, u in enumerate(("B", "KiB", "MiB", "GiB", "TiB", "PiB")))
SHOWN_BITS = (("bit", 1.0), ("Kbit", 1e3), ("Mbit", 1e6), ("Gbit", 1e9), ("Tbit", 1e12))
# Plain SI prefixes for any other unit (`tx/s`, `ops`, `%`, none). No `m`: a count or score
# below 1 reads better as 0.500 than as 500 m, so no prefix down to 0.001.
SI_PREFIXES = (
    ("n", 1e-9, 1e-9),
    ("µ", 1e-6, 1e-6),
    ("", 1.0, 1e-3),
    ("k", 1e3, 1e3),
    ("M", 1e6, 1e6),
    ("G", 1e9, 1e9),
    ("T", 1e12, 1e12),
)


def _family(unit: str, base: str) -> tuple[tuple[str, float], ...]:
    if base == "time":
        return SHOWN_TIME
    if base == "bits":
        return SHOWN_BITS
    if unit.endswith("iB"):
        return SHOWN_BINARY
    if unit.startswith("kB"):  # keep the data's spelling of the kilobyte
        return tuple(("kB" if u == "KB" else u, f) for u, f in SHOWN_DECIMAL)
    return SHOWN_DECIMAL


def ladder(unit: str | None) -> list[Rung]:
    """The units a value measured in `unit` may be shown in, ascending.

    Times, sizes and bits (and their `/s`, `/op` forms: the numerator scales, the
    denominator is kept as written) move along their family; any other unit, `%` or none
    gets a plain SI prefix before it (`41.1 k tx/s`, `41.1 k`)."""
    unit = unit or ""
    k = kind(unit)
    if k is None:
        sep = " " if unit else ""
        return [(p + sep + unit if p else unit, f, t) for p, f, t in SI_PREFIXES]
    base, factor = k[0].partition("/")[0], k[1]
    num, slash, den = unit.partition("/")
    suffix = slash + den
    rungs = []
    for u, f in _family(num, base):
        size = float(f"{f / factor:.12g}")  # 1e-6 / 1e-9 is 1000, not 999.9999999999999
        rungs.append((u + suffix, size, size))
    return rungs
