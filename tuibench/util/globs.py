"""Name globs, one dialect everywhere (tuibench.toml, --benchmark/--metric, the explorer's
filter): Python's `fnmatch.fnmatchcase` over the whole name.

Case-sensitive; `*` any run of characters (`/` too), `?` one character, `[seq]` one
character of the set (`a-z` a range), `[!seq]` one not in it; a `[` without its `]` stands
for itself. There is no escape character: `[[]` is a literal `[`, `[*]` a literal `*`.

`glob_expr` gives the same answers over a polars column at once: the pattern is parsed as
fnmatch parses it and written as a regular expression of the Rust `regex` syntax polars
reads, every character but the wildcards as an escape (`\\x{5B}`), so nothing in a name or
a pattern can mean more than itself.
"""

from __future__ import annotations

from fnmatch import fnmatchcase
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import polars as pl

GLOB_CHARS = frozenset("*?[")


def has_glob(text: str) -> bool:
    """Whether `text` holds a wildcard (`*`, `?` or `[`)."""
    return not GLOB_CHARS.isdisjoint(text)


def matches(name: str, pattern: str) -> bool:
    """Whether the whole `name` matches `pattern`."""
    return fnmatchcase(name, pattern)


def glob_expr(col: pl.Expr, pattern: str) -> pl.Expr:
    """`matches` over a column of names, as a polars expression."""
    regex = glob_regex(pattern)
    if regex is not None:
        return col.str.contains(regex)
    if _not_utf8(pattern):  # a surrogate from the command line: Python decides
        import polars as pl

        return col.map_elements(lambda name: fnmatchcase(name, pattern), return_dtype=pl.Boolean)
    return col.str.contains("^$") & col.is_null()  # a set that matches nothing: false


def glob_regex(pattern: str) -> str | None:
    """`pattern` as a Rust `regex` that matches what `fnmatchcase` matches; None when the
    pattern holds a set that matches nothing or a character that is not UTF-8."""
    if _not_utf8(pattern):
        return None
    out: list[str] = []
    i, n = 0, len(pattern)
    while i < n:
        ch = pattern[i]
        i += 1
        if ch == "*":
            if not out or out[-1] != ".*":
                out.append(".*")
        elif ch == "?":
            out.append(".")
        elif ch == "[" and (end := _set_end(pattern, i)) is not None:
            piece = _set(pattern[i:end])
            if piece is None:
                return None
            out.append(piece)
            i = end + 1
        else:
            out.append(_lit(ch))
    return "(?s)^" + "".join(out) + "$"


def _not_utf8(text: str) -> bool:
    try:
        text.encode()
    except UnicodeEncodeError:
        return True
    return False


def _lit(ch: str) -> str:
    return ch if ch.isascii() and ch.isalnum() else f"\\x{{{ord(ch):X}}}"


def _set_end(pattern: str, i: int) -> int | None:
    """The index of the `]` closing the set opened just before `i` (fnmatch's rule: a `]`
    first, after an optional `!`, belongs to the set), or None."""
    n = len(pattern)
    j = i + 1 if i < n and pattern[i] == "!" else i
    j += 1 if j < n and pattern[j] == "]" else 0
    j = pattern.find("]", j)
    return None if j < 0 else j


def _set(body: str) -> str | None:
    """A set's body (between `[` and `]`) as a regex class, or None for an empty set."""
    negate = body.startswith("!")
    chunks = _chunks(body[1:] if negate else body)
    if not negate and chunks[0].startswith("!"):  # fnmatch's quirk: `[z-a!x]` is `[!x]`
        negate, chunks[0] = True, chunks[0][1:]
    items = _set_items(chunks)
    if not items:
        return "." if negate else None
    text = "".join(_lit(a) if a == b else f"{_lit(a)}-{_lit(b)}" for a, b in items)
    return f"[{'^' if negate else ''}{text}]"


def _chunks(body: str) -> list[str]:
    """fnmatch's split of a set: the last character of a chunk and the first of the next
    are the ends of a range; empty ranges (`z-a`) are dropped."""
    if "-" not in body:
        return [body]
    chunks, start, k = [], 0, 1
    while (k := body.find("-", k)) >= 0:
        chunks.append(body[start:k])
        start, k = k + 1, k + 3
    if last := body[start:]:
        chunks.append(last)
    else:
        chunks[-1] += "-"
    for k in range(len(chunks) - 1, 0, -1):
        if chunks[k - 1][-1] > chunks[k][0]:
            chunks[k - 1] = chunks[k - 1][:-1] + chunks[k][1:]
            del chunks[k]
    return chunks


def _set_items(chunks: list[str]) -> list[tuple[str, str]]:
    """(low, high) pairs, read left to right as Python's `re` reads fnmatch's class (the
    chunks joined by `-`): a character followed by `-` and another is a range; a `-`
    right after a range is a literal `-`."""
    tokens: list[str | None] = []  # None: the `-` between two chunks
    for k, chunk in enumerate(chunks):
        if k:
            tokens.append(None)
        tokens.extend(chunk)
    items, i = [], 0
    while i < len(tokens):
        this = tokens[i]
        if this is None:
            items.append(("-", "-"))
            i += 1
        elif i + 2 < len(tokens) and tokens[i + 1] is None and (end := tokens[i + 2]) is not None:
            items.append((this, end))
            i += 3
        else:
            items.append((this, this))
            i += 1
    return items
