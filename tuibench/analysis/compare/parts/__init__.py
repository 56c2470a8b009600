"""A comparison's rows computed in parts: numbers per part of the rows, one frame at the end.

The steps of against.py each make several temporaries of every row's length (about 1 KB a
row in all): at a million metrics they were the explorer's peak. `rows_against` runs them
on parts of the rows, cut between metrics (a row's reference is always in its part), writes
each part's numbers into arrays of every row, and joins those to the groups' columns once.
"""

from tuibench.analysis.compare.parts.rows import PART_ROWS, RowSource, rows_against

__all__ = ["PART_ROWS", "RowSource", "rows_against"]
