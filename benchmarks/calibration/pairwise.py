"""False alarms and power of the pairwise verdicts, `robust` and the detectable-change note.

Counts are (hits, trials) over the systems' rows: A/A rows for false alarms, the changed
metrics of the power runs (EFFECT worse) for power.
"""

from __future__ import annotations

import numpy as np

from .engine import THRESHOLD, Run, verdicts

# Rows whose note gives the smallest change these iterations detect (`detectable_change`):
# it must not depend on the change observed, so it is as frequent on A/A rows as on others.
DETECTABLE_NOTE = "these iterations detect only changes of about"
CALLED = ("better", "worse", "changed")


def measure(aa: Run, changed: Run, changed_mask: np.ndarray) -> dict[str, tuple[int, int]]:
    """Counts per quantity. `changed_mask`: which rows of the power run carry the change."""
    out: dict[str, tuple[int, int]] = {}
    options = {"verdict": {}, "threshold": {"threshold": THRESHOLD}, "fdr": {"fdr": True}}
    for name, o in options.items():
        a = verdicts(aa, **o)
        c = verdicts(changed, **o)
        out[f"{name} false alarms"] = (int(np.isin(a, CALLED).sum()), len(a))
        mask = changed_mask[: len(c)]  # under fdr, the first suites only
        out[f"{name} power"] = (int((c[mask] == "worse").sum()), int(mask.sum()))
    judged = aa.rows["robust"].is_not_null()
    out["robust disagrees"] = (int((aa.rows["robust"] == False).sum()), int(judged.sum()))  # noqa: E712
    note = aa.rows["note"].fill_null("").str.contains(DETECTABLE_NOTE, literal=True)
    out["detectable note"] = (int(note.sum()), aa.rows.height)
    return out


def verdict_rates(aa: Run, changed: Run, changed_mask: np.ndarray) -> dict[str, tuple[int, int]]:
    """False alarms and power of the plain verdict alone."""
    a, c = verdicts(aa), verdicts(changed)
    return {
        "false alarms": (int(np.isin(a, CALLED).sum()), len(a)),
        "power": (int((c[changed_mask] == "worse").sum()), int(changed_mask.sum())),
    }
