"""The output formats and their file extensions.

Kept apart from export.py, which needs polars through the tables: the explorer names files
before the core is loaded, and argument parsing should not pay for polars either.
"""

FORMATS = ("text", "csv", "tsv", "markdown", "latex", "json", "html")
EXTENSIONS = {
    "text": "txt",
    "csv": "csv",
    "tsv": "tsv",
    "markdown": "md",
    "latex": "tex",
    "json": "json",
    "html": "html",
}
