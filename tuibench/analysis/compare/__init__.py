"""ResultSet + reference + options -> the comparison table.

`Analysis` (analysis.py) does everything that does not depend on the reference, once per
load. `Analysis.compare()` runs the steps of against.py, each vectorised over every row,
then `decide` (decide.py); the result is a `Comparison` (comparison.py).
"""

from tuibench.analysis.compare.analysis import Analysis
from tuibench.analysis.compare.columns import (
    GROUP,
    LEFT_OUT_REASONS,
    METRIC,
    PRIVATE_COLUMNS,
    ROW_COLUMNS,
    RSD_NOISY,
    RSD_VERY_NOISY,
    SUMMARY_COLUMNS,
)
from tuibench.analysis.compare.comparison import Comparison
from tuibench.analysis.compare.decide import decide, gain_expr

__all__ = [
    "GROUP",
    "LEFT_OUT_REASONS",
    "METRIC",
    "PRIVATE_COLUMNS",
    "ROW_COLUMNS",
    "RSD_NOISY",
    "RSD_VERY_NOISY",
    "SUMMARY_COLUMNS",
    "Analysis",
    "Comparison",
    "decide",
    "gain_expr",
]
