"""The first screen at 80 columns says what the verdicts must be read with (not robust, two
iterations, a direction the name contradicts, chance at this many comparisons) and shows a
change of unknown direction with its signed size and interval."""

from __future__ import annotations

import numpy as np

from tuibench.model.options import ViewOptions
from tuibench.tui.app import TuibenchApp
from tuibench.tui.widgets.answer_view import AnswerView


def answer_text(app) -> list[str]:
    view = app.main.query_one(AnswerView)
    return ["".join(s.text for s in view.render_line(y)).rstrip() for y in range(len(view.lines))]


async def test_warnings_fit_the_answer_at_80_columns(tmp_path, loaded, make_warned):
    make_warned(tmp_path)
    app = TuibenchApp([str(tmp_path)], view=ViewOptions(export_dir=str(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        view = app.main.query_one(AnswerView)
        assert view.size.width <= 80
        text = answer_text(app)
    joined = "\n".join(text)
    assert "! 1 not robust: with per-iteration medians the verdict differs" in joined
    assert "2it 1 from two iterations on a side: a wide interval, a weak test" in joined
    assert "dir 1 named like a throughput but judged lower-is-better" in joined
    assert "23 comparisons: about 1.2 expected by chance at alpha 0.05" in joined
    lines = {line.split()[-1]: line for line in text if line.lstrip().startswith(("▼", "▲"))}
    assert "  !  " in lines["bursty"] and "worse" in lines["bursty"]
    assert "  2it  " in lines["two"]
    assert "  dir  " in lines["tput-32"] and "better" in lines["tput-32"]


async def test_unknown_direction_shows_its_signed_change(tmp_path, loaded, make_system):
    rng = np.random.default_rng(4)
    for system, factor in (("base", 1.0), ("patched", 1.09)):
        rows = [
            ("app", "odd", i, round(v, 5), "")  # no unit: nothing says which way is better
            for i in range(5)
            for v in 100 * factor * (1 + rng.normal(0, 0.01, 6))
        ]
        make_system(tmp_path, system, rows)
    app = TuibenchApp([str(tmp_path)], view=ViewOptions(export_dir=str(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        text = answer_text(app)
        row = app.main.session.cmp.rows.filter(~app.main.session.cmp.rows["is_reference"]).row(
            0, named=True
        )
    change = f"{row['change'] * 100:+.1f}%"
    interval = (
        f"[{(row['ratio_ci_low'] - 1) * 100:+.1f}%, {(row['ratio_ci_high'] - 1) * 100:+.1f}%]"
    )
    (line,) = [t for t in text if t.lstrip().startswith("?")]
    assert line.split()[:4] == ["?", change, *interval.split()]
    assert "changed" in line and "n/a" not in line


async def test_a_system_with_nothing_compared_is_not_said_unchanged(tmp_path, loaded, make_system):
    """A folder whose files are none of them results is a system with no metric: the answer
    says nothing was compared, not "no significant change"."""
    for system in ("base", "same"):
        make_system(
            tmp_path, system, [("app", "run", i, 10.0 + 0.01 * (i % 3), "ms") for i in range(5)]
        )
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("rebooted before the run\n")
    app = TuibenchApp([str(tmp_path)], view=ViewOptions(reference="base"))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        text = answer_text(app)
    other = text.index(next(line for line in text if "other vs base" in line))
    assert text[other] == "other vs base"  # no rank: it has no geometric mean
    assert text[other + 2] == "   Nothing compared: no metric has values on both sides."
    assert sum("No significant change." in line for line in text) == 1  # `same`'s
    ranking = next(line for line in text if line.startswith("Ranking by geomean"))
    assert ranking.endswith(" · other not ranked") and "#3" not in ranking


async def test_under_a_filter_the_answer_says_what_the_geomean_is_over(
    tmp_path, loaded, make_system
):
    """The counts follow the filter; the geometric mean stays over every metric, and a line
    under the counts says so (only while a filter is set)."""
    for system, slow in (("base", 1.0), ("new", 1.1)):
        rows = []
        for bench, metric, factor in (("app", "run", 1.0), ("app", "slow", slow), ("lib", "x", 1)):
            rows += [(bench, metric, i, 10.0 * factor + 0.01 * (i % 3), "ms") for i in range(5)]
        make_system(tmp_path, system, rows)
    scope = "   geomean over 3 metrics, whatever the filter"
    app = TuibenchApp([str(tmp_path)], view=ViewOptions(reference="base"))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        assert scope not in answer_text(app)
        await pilot.press("tab", "slash", "l", "i", "b", "enter", "tab")
        await pilot.pause(0.3)
        text = answer_text(app)
        assert text[text.index(scope) - 1] == "  ▼0 worse · ▲0 better · 1 same"


async def test_the_ranking_wraps_between_systems_at_80_columns(tmp_path, loaded, make_system):
    """Three systems with long names: the ranking line went past 80 columns and the last
    system was cut ("#3 li"); it now goes on to a second line, every name whole."""
    names = ("kernel-6.9-baseline", "kernel-6.10-rc3-tuned", "kernel-6.10-rc3-default")
    for system, factor in zip(names, (1.0, 0.95, 1.05), strict=True):
        rows = [("app", "run", i, 10.0 * factor + 0.01 * (i % 3), "ms") for i in range(5)]
        make_system(tmp_path, system, rows)
    app = TuibenchApp([str(tmp_path)], view=ViewOptions(export_dir=str(tmp_path)))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        view = app.main.query_one(AnswerView)
        width = view.scrollable_content_region.width
        text = answer_text(app)
    start = next(i for i, line in enumerate(text) if line.startswith("Ranking by geomean"))
    ranking = text[start : start + 2]
    assert all(len(line) <= width for line in ranking)
    joined = " ".join(ranking)
    assert all(name in joined for name in names)
