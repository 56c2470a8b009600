"""Names that read the same but are not: one problem naming both.

`café` written as one character (NFC) or as `e` + a combining accent (NFD), `base` and
`base` + a zero-width space, `a b` with a space or a non-breaking one: two systems,
benchmarks or metrics that a person cannot tell apart on screen. They stay apart (names are
compared as written; `printable` shows the invisible characters escaped), and a problem
says which names collide, so nobody reads one as the other.

Only the distinct names are looked at, in one polars expression: cost follows the number
of names, not of samples.
"""

from __future__ import annotations

import polars as pl

from tuibench.model.problems import Problem

KINDS = ("system", "benchmark", "metric")
# What draws nothing (format characters, Hangul fillers) is dropped, and every blank that
# looks like a space becomes one; the same sets `text.printable` shows escaped.
_INVISIBLE = r"[\p{Cf}\x{115f}\x{1160}\x{3164}\x{ffa0}]"
_BLANK = r"\p{Zs}"


def reading(names: pl.Expr) -> pl.Expr:
    """How a name reads: NFC, without invisible characters, any blank as a space."""
    return names.str.normalize("NFC").str.replace_all(_INVISIBLE, "").str.replace_all(_BLANK, " ")


def collisions(names: pl.Series | list[str]) -> list[list[str]]:
    """Groups of two or more distinct names (in the order given) that read the same.

    Only names with a character beyond ASCII can read like another (`len_bytes` tells them
    apart at once): NFC costs 1.4 s per million names, so the others are never normalised."""
    frame = pl.DataFrame({"name": pl.Series(names, dtype=pl.String)}).with_row_index("i")
    wide = pl.col("name").str.len_bytes() != pl.col("name").str.len_chars()
    others = frame.filter(wide).with_columns(reading(pl.col("name")).alias("reads"))
    if others.is_empty():
        return []
    plain = frame.filter(~wide).with_columns(pl.col("name").alias("reads"))
    # Joins on the few wide names' readings: no hash table of every plain name.
    matches = plain.join(others.select("reads").unique(), on="reads", how="semi")
    twice = others.filter(pl.col("reads").is_duplicated())
    hit = pl.concat([matches.select("reads"), twice.select("reads")]).unique()
    if hit.is_empty():
        return []
    both = pl.concat([matches, others.join(hit, on="reads", how="semi")]).sort("i")
    grouped = both.group_by("reads", maintain_order=True).agg("name")
    return grouped.filter(pl.col("name").list.len() > 1)["name"].to_list()


def problems(
    runs: pl.DataFrame, names: dict[str, pl.Series | list[str]], paths: list[str]
) -> list[Problem]:
    """One problem per pair of look-alike names of each kind (`names[kind]`: the distinct
    names, in order), on the file where the second one first appears."""
    out = []
    for kind in KINDS:
        for group in collisions(names[kind]) if kind in names else []:
            first_file = _first_files(runs, kind, group)
            head = group[0]
            for other in group[1:]:
                out.append(_problem(kind, head, other, first_file, paths))
    return out


def _first_files(runs: pl.DataFrame, kind: str, group: list[str]) -> dict[str, int]:
    hits = runs.filter(pl.col(kind).cast(pl.String).is_in(group))
    firsts = hits.group_by(pl.col(kind).cast(pl.String), maintain_order=True).agg(
        pl.col("_file").first()
    )
    return dict(firsts.iter_rows())


def _problem(kind: str, a: str, b: str, first_file: dict[str, int], paths: list[str]) -> Problem:
    where_a = first_file.get(a)
    where_b = first_file.get(b)
    same = pl.select(pl.lit(a).str.normalize("NFC") == pl.lit(b).str.normalize("NFC")).item()
    how = (
        f"only in how accents are encoded (Unicode normalisation: {a!a} and {b!a})"
        if same
        else "only by invisible or look-alike blank characters (shown escaped)"
    )
    seen = "" if where_a is None or where_a == where_b else f" (in {paths[where_a]})"
    return Problem(
        paths[where_b] if where_b is not None else (paths[where_a] if where_a is not None else ""),
        f"{kind} {b!r} reads the same as {a!r}{seen}, but differs {how}: the two are kept "
        f"apart as two {kind}s (rename one if they are the same)",
    )
