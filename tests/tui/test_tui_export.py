"""Export and copy in the explorer: what is written or copied stands alone."""

from __future__ import annotations

import csv
import dataclasses
import io
import os
import stat

import polars as pl
from textual.widgets import Input, Select, Static

from tuibench.analysis.compare import Analysis
from tuibench.ingest.load import load
from tuibench.output.rendering import render_shareable
from tuibench.output.shareable import Shareable, run_facts
from tuibench.present.tables import detail_table, summary_table
from tuibench.tui.screens.confirm import ConfirmScreen
from tuibench.tui.screens.copy_menu import CopyMenu
from tuibench.tui.screens.export_dialog import ExportDialog
from tuibench.tui.view.state import Node

SIZE = (120, 40)
DB_READ_TPS = Node.of_metric("db/read", "tps")


async def goto(pilot, node: Node) -> None:
    from tuibench.tui.widgets.bench_tree import BenchTree

    pilot.app.main.query_one(BenchTree).select(node)
    await pilot.pause()
    assert pilot.app.main.current_node == node


def comparison(reference: str = "base"):
    return Analysis(load(["results"])).compare(reference).reference_first()  # as shown


def metric_share(reference: str = "base", node: Node = DB_READ_TPS) -> Shareable:
    cmp = comparison(reference)  # the family of p_adjusted stays every row, as on screen
    rows = cmp.rows.filter(
        (pl.col("benchmark") == node.benchmark) & (pl.col("metric") == node.metric)
    )
    cmp = dataclasses.replace(cmp, rows=rows)
    title = detail_table(cmp, node.benchmark, node.metric).title
    return Shareable(cmp, title, (node.benchmark, node.metric), run_facts(["results"], 100, 0))


def notices(app) -> str:
    return "\n".join(str(n.message) for n in app._notifications)


def error_of(dialog) -> str:
    return str(dialog.query_one("#export-error", Static).render())


async def test_export_current_table_as_real_fields(make_app, loaded, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        await pilot.press("e")
        assert isinstance(app.screen, ExportDialog)
        await pilot.press("enter")  # every suggestion accepted
        target = tmp_path / "db_read-tps-vs-base.csv"
        text = target.read_text()
        assert text == render_shareable(metric_share(), "csv")
        rows = list(csv.DictReader(io.StringIO(text)))
        assert [r["system"] for r in rows] == ["base", "patched", "tuned"]
        cmp = comparison()
        for r in rows:  # numbers, not display strings: they parse back exactly
            core = cmp.rows.filter(
                (cmp.rows["benchmark"] == "db/read")
                & (cmp.rows["metric"] == "tps")
                & (cmp.rows["system"] == r["system"])
            ).row(0, named=True)
            assert float(r["center"]) == core["center"]
            assert r["verdict"] == core["verdict"]
        assert str(target) in notices(app)
        umask = os.umask(0)
        os.umask(umask)
        assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


async def test_export_marked_tables_as_markdown(make_app, loaded, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        await pilot.press("space", "right_square_bracket", "space")
        await pilot.press("m", "e")
        dialog = app.screen
        assert isinstance(dialog, ExportDialog) and dialog.marked
        dialog.query_one("#export-format").value = "markdown"
        await pilot.pause()
        await pilot.press("enter")
        target = tmp_path / "marked-2-tables.md"
        expected = render_shareable([metric_share("base"), metric_share("patched")], "markdown")
        assert target.read_text() == expected
        assert "tuned vs patched: " in expected and "| better |" in expected


async def test_typed_extension_decides_the_format(make_app, loaded, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        await pilot.press("e")
        dialog = app.screen
        path = dialog.query_one("#export-path", Input)
        path.value = str(tmp_path / "x.md")
        await pilot.pause()
        assert dialog.query_one("#export-format", Select).value == "markdown"
        assert path.value == str(tmp_path / "x.md")
        await pilot.press("enter")
        assert (tmp_path / "x.md").read_text() == render_shareable(metric_share(), "markdown")


async def test_no_empty_choice_and_enter_moves_on(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        dialog = app.screen
        assert not dialog.query("#export-marked")  # nothing marked: no "(0)" to choose
        assert "(0)" not in str(dialog.query_one("#export-what", Static).render())
        choice = dialog.query_one("#export-format", Select)
        choice.focus()
        await pilot.pause()
        await pilot.press("enter")
        assert app.focused is dialog.query_one("#export-path", Input)
        assert not choice.expanded


async def test_parent_that_is_a_file_is_named(make_app, loaded, tmp_path):
    (tmp_path / "plain").write_text("x")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        dialog = app.screen
        dialog.query_one("#export-path", Input).value = str(tmp_path / "plain" / "t.csv")
        await pilot.pause()
        await pilot.press("enter")
        assert app.screen is dialog
        assert f"{tmp_path / 'plain'} is a file, not a folder" in error_of(dialog)


async def test_export_refuses_the_results_folder(make_app, loaded, tui_data):
    app = make_app(export_dir="results/base")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("e", "enter")
        assert isinstance(app.screen, ExportDialog)  # still open, saying why
        assert "inside the results folder" in error_of(app.screen)
        assert sorted(p.name for p in (tui_data / "results" / "base").iterdir()) == [
            "broken.csv",
            "results.csv",
            "system.toml",
        ]


async def test_export_asks_before_overwriting_and_keeps_the_mode(make_app, loaded, tmp_path):
    target = tmp_path / "summary-vs-base.csv"
    target.write_text("keep me")
    target.chmod(0o640)
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("e", "enter")
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("n")
        assert isinstance(app.screen, ExportDialog)
        assert target.read_text() == "keep me"
        await pilot.press("enter", "y")
        assert not isinstance(app.screen, (ExportDialog, ConfirmScreen))
        cmp = comparison()
        assert target.read_text() == render_shareable(Shareable(cmp, "x"), "csv")
        assert stat.S_IMODE(target.stat().st_mode) == 0o640


async def test_copy_markdown_stands_alone(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        await pilot.press("y")
        assert app.clipboard == render_shareable(metric_share(), "markdown")
        assert "patched vs base: ▼0 worse · ▲1 better" in app.clipboard
        assert "| better |" in app.clipboard and "p Welch" in app.clipboard
        said = notices(app)
        assert "Markdown" in said and "OSC 52" in said and "press e" in said


async def test_copy_group_markdown_has_every_row_in_words(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("v", "y")  # the table of every metric (y on the answer: the answer)
        text = app.clipboard
        cmp = comparison()
        assert text.startswith(f"**{summary_table(cmp).title}**")
        for system in ("patched", "tuned"):
            assert f"{system} vs base: ▼" in text
        body = [line for line in text.splitlines() if line.startswith("| ")][1:]
        core = [r for r in cmp.rows.iter_rows(named=True)]
        assert len(body) == len(core) + 3  # every row, then the per-system summary (+ head)
        for line, r in zip(body, core, strict=False):
            assert line.rstrip(" |").endswith(r["verdict"])


async def test_copy_menu_tsv_and_row(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        await pilot.press("Y")
        assert isinstance(app.screen, CopyMenu)
        await pilot.press("t")
        assert app.clipboard == render_shareable(metric_share(), "tsv")
        assert "TSV" in notices(app)
        await pilot.press("Y", "r")
        lines = app.clipboard.splitlines()
        assert len(lines) == 2
        assert lines[0].startswith("db/read tps: patched vs base: better, gain +")
        assert "p Welch" in lines[0] and "alpha 0.05" in lines[0]


async def test_copy_row_under_the_cursor_of_the_answer(make_app, loaded):
    from tuibench.output.shareable import row_sentences
    from tuibench.tui.widgets.detail_pane import DetailPane

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        assert app.main.current_node == Node()
        row = app.main.query_one(DetailPane).cursor_target().cursor_node
        assert row is not None and row.is_metric
        await pilot.press("Y", "r")
        assert app.clipboard == row_sentences(app.main.session.comparison_under(row))
        assert app.clipboard.startswith(f"{row.title()}: ")


async def test_export_html_is_the_report_of_the_current_node(make_app, loaded, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, Node(("db",)))
        await pilot.press("e")
        dialog = app.screen
        dialog.query_one("#export-path", Input).value = str(tmp_path / "db.html")
        await pilot.pause()
        assert dialog.query_one("#export-format", Select).value == "html"
        await pilot.press("enter")
        text = (tmp_path / "db.html").read_text()
        assert text.startswith("<!doctype html>")
        assert text.count('<figure id="m-') == 3  # db/read latency, db/read tps, db/write tps
        assert "startup" not in text and "render" not in text
        assert "the report as html" in notices(app)


async def test_marked_html_needs_one_reference(make_app, loaded, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        await pilot.press("space", "right_square_bracket", "space")
        await pilot.press("m", "e")
        dialog = app.screen
        dialog.query_one("#export-path", Input).value = str(tmp_path / "m.html")
        await pilot.pause()
        await pilot.press("enter")
        assert app.screen is dialog and not (tmp_path / "m.html").exists()
        assert "different references" in error_of(dialog)


def test_copy_notice_says_where_and_what_to_do():
    from tuibench.tui.view.export_files import copy_notice

    small = copy_notice("t as Markdown", "a\nb\n")
    assert "(2 lines)" in small and "OSC 52" in small and "press e" in small
    assert "KB" not in small
    large = copy_notice("t as TSV", "x" * 200_000 + "\n")
    assert "At 195 KB it may be beyond what your terminal accepts." in large


async def test_keys_typed_right_after_e_reach_the_file_name(make_app, loaded, tmp_path):
    """`e`, a file name and enter in one burst (pasted, or fast over SSH) write that file:
    the typed name replaces the suggested one, in the suggested folder."""
    from textual import events
    from textual.keys import _character_to_key

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        burst = [("e", "e")] + [(_character_to_key(c), c) for c in "burst.md"]
        for key, character in [*burst, ("enter", "\r")]:  # no pause: all queued at once
            app._driver.send_message(events.Key(key, character))
        for _ in range(100):
            await pilot.pause(0.02)
            if not isinstance(app.screen, ExportDialog):
                break
        assert not isinstance(app.screen, ExportDialog)
        assert sorted(p.name for p in tmp_path.iterdir()) == ["burst.md"]
        assert (tmp_path / "burst.md").read_text() == render_shareable(metric_share(), "markdown")


async def test_export_never_replaces_a_device_or_fifo(make_app, loaded, tmp_path):
    """No "Replace it?" for what is not a regular file: a message, and nothing replaced."""
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    null_rdev = os.stat("/dev/null").st_rdev
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("e")
        dialog = app.screen
        for target, words in (
            ("/dev/null", "/dev/null is a character device, not a regular file"),
            (str(fifo), "is a named pipe (FIFO), not a regular file"),
            (str(tmp_path), "is a folder"),
            ("-", "standard output is this screen"),
            ("/dev/stdout", "standard output is this screen"),
        ):
            dialog.query_one("#export-path", Input).value = target
            await pilot.pause()
            await pilot.press("enter")
            await pilot.pause()
            assert app.screen is dialog, target  # no question, still open
            assert words in error_of(dialog), target
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    assert os.stat("/dev/null").st_rdev == null_rdev
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)


async def test_a_key_still_queued_when_the_screens_are_gone_is_dropped(make_app, loaded):
    """Quitting pops every screen; a key of a burst still queued then does nothing (it
    raised ScreenStackError from the type-ahead's key handler)."""
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
    assert not app.screen_stack
    app.on_key(events.Key("e", "e"))  # no exception
