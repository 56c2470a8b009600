"""Units a metric may be measured in, and how to bring one metric to one unit.

Time (ns, us/µs, ms, s, min), size (B, KB/kB, KiB, MB, MiB, GB, GiB, TB, TiB), their
per-second rates (`MB/s`, `MiB/sec`) and per-operation figures (`ns/op`, `B/op`) convert
into one another within their kind. Any other unit is only equal to itself.
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
PER_SECOND = ("s", "sec")


def kind(unit: str) -> tuple[str, float] | None:
    """(kind, factor to the kind's base unit), or None for a unit that does not convert."""
    if unit in TIME:
        return "time", TIME[unit]
    if unit in SIZE:
        return "size", SIZE[unit]
    num, slash, den = unit.partition("/")
    if not slash:
        return None
    if num in SIZE and den in PER_SECOND:
        return "size/s", SIZE[num]
    if den == "op" and num in TIME:
        return "time/op", TIME[num]
    if den == "op" and num in SIZE:
        return "size/op", SIZE[num]
    return None


def common_unit(units: list[str]) -> tuple[str, dict[str, float]] | None:
    """The unit to show a metric measured in `units` in (the finest of them), and the factor
    each unit's values are multiplied by; None when they do not all convert."""
    kinds = [kind(u) for u in units]
    if any(k is None for k in kinds) or len({k[0] for k in kinds}) != 1:
        return None
    target = min(zip(units, kinds, strict=True), key=lambda uk: uk[1][1])
    return target[0], {u: k[1] / target[1][1] for u, k in zip(units, kinds, strict=True)}
