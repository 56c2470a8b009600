"""How a step reads: the gain (or, on request, the signed change) with its 95 % interval.

Through tables.fmt_ratio_change, so a step reads like every other size in tuibench
(`+3.1% [+2.0%, +4.2%]`; `?` marks a change whose direction nobody states).
"""

from __future__ import annotations

import math

from tuibench.present.tables import fmt_ratio_change


def _ratio(x: float | None) -> float | None:
    return None if x is None else 1.0 + x


def step_size(r: dict, percent: str = "gain") -> str:
    """A change point's step (after against before) as the user reads sizes."""
    return fmt_ratio_change(
        _ratio(r["change"]),
        _ratio(r["change_ci_low"]),
        _ratio(r["change_ci_high"]),
        r["better"],
        percent,
    )


def size_header(percent: str) -> str:
    return "Gain [95% CI]" if percent == "gain" else "Change [95% CI]"


def magnitude(r: dict) -> float:
    """How large a step is, whatever its direction: for sorting, largest first."""
    v = r["change"]
    return abs(v) if v is not None and math.isfinite(v) else -1.0
