"""What the keys asked for that a worker is still computing, in words for the header.

On a large set a change of the view (a reference not compared yet, `f`, `s`, `v`, the
filter) is computed in a worker while the keys go on working on what is shown. Until it is
shown the header says what is coming, so a screen that has not changed yet is never
mistaken for the answer: `comparing against linux-6.10 …`.
"""

from __future__ import annotations

from tuibench.tui.view.state import ViewState, sort_label


def pending_words(shown: ViewState, asked: ViewState | None) -> str:
    """The header's words for what `asked` holds that `shown` does not show yet ("" when
    nothing is asked)."""
    if asked is None:
        return ""
    fields = (
        "reference",
        "significant_only",
        "sort",
        "filter_text",
        "options",
        "percent",
        "answer_first",
    )
    changed = {k: getattr(asked, k) for k in fields if getattr(shown, k) != getattr(asked, k)}
    if not changed:
        return ""
    words = []
    if "reference" in changed:
        words.append(f"comparing against {changed['reference']}")
    if "significant_only" in changed:
        words.append("significant only" if changed["significant_only"] else "every metric")
    if "sort" in changed:
        words.append(sort_label(str(changed["sort"]), short=True))
    if "filter_text" in changed:
        text = str(changed["filter_text"])
        words.append(f"filtering {text}" if text else "clearing the filter")
    if "answer_first" in changed:
        words.append("the answer" if changed["answer_first"] else "the table of every metric")
    if len(words) < len(changed):  # options of the comparison (α, FDR, threshold, ...), %
        words.append("recomputing")
    return ", ".join(words) + " …"


def status_words(shown: ViewState, asked: ViewState | None, ahead: str = "") -> str:
    """The header's words: what is asked and not shown yet, then `ahead`, what the loading
    thread still prepares after the first screen ("" when neither)."""
    words = [w for w in (pending_words(shown, asked).removesuffix(" …"), ahead) if w]
    return ", ".join(words) + " …" if words else ""
