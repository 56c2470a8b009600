"""How much more memory this process may take: the least of what the machine has free, what
its address-space and data limits leave (`ulimit -v`, `ulimit -d`) and what its control
group leaves (cgroup v2 `memory.max`, v1 `memory.limit_in_bytes`).

Reading MemAvailable alone was not enough: under `ulimit -v` a 2 GB CSV passed the check,
then polars' allocator failed inside Rust, which aborts the process (SIGABRT, a stack
backtrace, no problem said). Linux only; elsewhere each part is unknown (None).

Two budgets: resident memory (free memory, the control group) and address space (the
rlimits). Allocators reserve address space beyond what they touch, so a report maps about
twice what it keeps resident (jemalloc's `retain` off, which `cli` asks for under a limit:
with it on, four times), plus about 1 GB for its threads: a 266 MB CSV of 12 M rows kept
2.1 GB resident and mapped 4.35 GB at its peak.
"""

from __future__ import annotations

import resource
from pathlib import Path

PROC = Path("/proc")
CGROUP_ROOT = Path("/sys/fs/cgroup")


ADDRESS_PER_RESIDENT = 2
# Address space the rest of a report maps whatever its size: polars' and the workers'
# threads with their allocators' arenas (a report of 6 samples went from 0.51 GB mapped
# after imports to 1.29 GB).
ADDRESS_RESERVE = 2**30


def available_memory() -> int | None:
    """Bytes of resident memory this process can still take, None when nothing says."""
    known = [x for x in (machine_available(), cgroup_left()) if x is not None]
    return max(0, min(known)) if known else None


def address_space_left() -> int | None:
    """Bytes of address space this process can still map, None without a limit."""
    left = rlimit_left()
    return None if left is None else max(0, left)


def too_large(resident: int) -> str | None:
    """Why reading what needs `resident` bytes at its peak would not fit, or None."""
    space = resident * ADDRESS_PER_RESIDENT + ADDRESS_RESERVE
    for need, free, what in (
        (resident, available_memory(), "memory"),
        (space, address_space_left(), "address space (ulimit -v)"),
    ):
        if free is not None and need > free:
            return (
                f"too large to load here: it would need about {need / 2**30:.1f} GiB of "
                f"{what} and {free / 2**30:.1f} GiB are available"
            )
    return None


def address_space_limited() -> bool:
    return any(
        resource.getrlimit(r)[0] != resource.RLIM_INFINITY
        for r in (resource.RLIMIT_AS, resource.RLIMIT_DATA)
    )


def machine_available() -> int | None:
    """Linux MemAvailable."""
    return _kib_field(PROC / "meminfo", "MemAvailable:")


def rlimit_left() -> int | None:
    """What RLIMIT_AS and RLIMIT_DATA leave beyond what the process has mapped already."""
    left = []
    for limit, used in ((resource.RLIMIT_AS, "VmSize:"), (resource.RLIMIT_DATA, "VmData:")):
        soft, _hard = resource.getrlimit(limit)
        if soft == resource.RLIM_INFINITY:
            continue
        now = _kib_field(PROC / "self" / "status", used)
        left.append(soft - (now or 0))
    return min(left) if left else None


def cgroup_left() -> int | None:
    """What the process's memory control group (and those above it) leaves."""
    left = []
    for folder, limit_name, usage_name in _cgroup_folders():
        limit = _number(folder / limit_name)
        if limit is None:
            continue
        left.append(limit - (_number(folder / usage_name) or 0))
    return min(left) if left else None


def _cgroup_folders() -> list[tuple[Path, str, str]]:
    """The memory control group's folder and each one above it, with the names of the limit
    and usage files (v2: `memory.max`, `memory.current`; v1: `memory.limit_in_bytes`,
    `memory.usage_in_bytes`)."""
    try:
        lines = (PROC / "self" / "cgroup").read_text().splitlines()
    except OSError:
        return []
    out = []
    for line in lines:
        _id, controllers, path = [*line.split(":", 2), "", ""][:3]
        if controllers == "":  # v2: one unified hierarchy
            base, names = CGROUP_ROOT, ("memory.max", "memory.current")
        elif "memory" in controllers.split(","):
            base, names = CGROUP_ROOT / "memory", ("memory.limit_in_bytes", "memory.usage_in_bytes")
        else:
            continue
        folder = base / path.lstrip("/")
        while True:
            out.append((folder, *names))
            if folder == base or base not in folder.parents:
                break
            folder = folder.parent
    return out


def _number(path: Path) -> int | None:
    """A whole number from a control file; None for `max`, missing or unreadable files and
    v1's "no limit" (a number near 2^63)."""
    try:
        text = path.read_text().strip()
    except OSError:
        return None
    if not text.isdigit():
        return None
    value = int(text)
    return value if value < 2**62 else None


def _kib_field(path: Path, name: str) -> int | None:
    """A `Name:   123 kB` field of a /proc file, in bytes."""
    try:
        with open(path) as fh:
            for line in fh:
                if line.startswith(name):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None
