"""Checks of the options a person types (command line and explorer dialogs), in one place."""

from __future__ import annotations

import math

# Near the smallest normal double (2.2e-308) 1/alpha overflows and denormals lose precision:
# such an alpha is refused, not silently rounded. 1e-300 keeps a round, safe margin.
MIN_ALPHA = 1e-300


def alpha_problem(value: float) -> str | None:
    """Why `value` cannot be a significance level, or None when it can."""
    if not math.isfinite(value) or not 0 < value < 1:
        return "alpha must be a number between 0 and 1 (exclusive)"
    if value < MIN_ALPHA:
        return f"alpha must be at least {MIN_ALPHA:g}"
    return None
