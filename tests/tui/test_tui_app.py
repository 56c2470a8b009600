"""The explorer driven by keys: every key path, checked against the core's numbers."""

from __future__ import annotations

import json

from textual.widgets import Input, OptionList, Static

from tuibench.analysis.compare import Analysis
from tuibench.cli import main
from tuibench.ingest.load import load
from tuibench.model.options import AnalysisOptions, ViewOptions
from tuibench.present.numbers import scale_for
from tuibench.present.tables import detail_table
from tuibench.tui.app import TuibenchApp
from tuibench.tui.keys import APP_KEYS
from tuibench.tui.screens.help import HelpScreen
from tuibench.tui.screens.marked import MarkedScreen
from tuibench.tui.screens.number_input import AlphaInput, ThresholdInput
from tuibench.tui.screens.problems import ProblemsScreen
from tuibench.tui.screens.reference_picker import ReferencePicker
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.tui.widgets.status_line import StatusLine
from tuibench.tui.widgets.table_view import TableView

SIZE = (120, 40)
DB_READ_TPS = Node.of_metric("db/read", "tps")


def footer(app) -> str:
    from tuibench.tui.widgets.key_footer import KeyFooter

    return app.main.query_one(KeyFooter).plain


def header(app) -> str:
    return app.main.query_one(StatusLine).plain


def shown(app, table_id: str) -> list[list[str]]:
    return app.main.query_one(f"#{table_id}", TableView).plain_rows()


async def goto(pilot, node: Node) -> None:
    pilot.app.main.query_one(BenchTree).select(node)
    await pilot.pause()
    assert pilot.app.main.current_node == node


def core_detail(reference: str, alpha: float = 0.05, node: Node = DB_READ_TPS):
    rs = load(["results"])
    cmp = Analysis(rs).compare(reference, AnalysisOptions(alpha=alpha))
    return detail_table(cmp, node.benchmark, node.metric)


# -- launch --------------------------------------------------------------------------------
async def test_launch_shows_root_summary_and_header(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        text = header(app)
        for part in ("results", "ref base", "α 0.05", "3 systems", "1 problem"):
            assert part in text
        assert app.main.current_node == Node()
        pane = app.main.query_one(DetailPane)
        assert app.focused is pane and pane.mode == "answer"
        await pilot.press("v")  # the table of every metric
        assert pane.mode == "summary"
        rows = shown(app, "summary")
        assert len(rows) == 5


async def test_unknown_reference_falls_back(make_app, loaded):
    app = make_app(reference="nope")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        assert app.main.session.state.reference == "base"
        assert any("nope" in str(n.message) for n in app._notifications)


async def test_nothing_loaded_is_a_message(make_app, loaded):
    app = make_app(paths=["missing"])
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        text = str(app.main.query_one("#loading-text", Static).render())
        assert "Nothing could be loaded from missing" in text
        assert "1 problem" in header(app)
        await pilot.press("p")
        assert isinstance(app.screen, ProblemsScreen)
        await pilot.press("escape")
        for key in ("r", "right_square_bracket", "a", "f", "s", "space", "e", "y", "m"):
            await pilot.press(key)  # no key may crash with nothing loaded
        await pilot.press("q")
    assert app.return_code == 0


async def test_nothing_loaded_names_what_was_set_aside(make_app, loaded, tmp_path):
    """A folder of files that are not results (say, mmtests' own comparison tables): the
    message says so where the user looks, not only behind `p`."""
    (tmp_path / "stream.txt").write_text("stream\n  Add-1   1.0  2.0 *\n")
    (tmp_path / "notes.md").write_text("# notes\n")
    app = make_app(paths=[str(tmp_path)])
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        text = str(app.main.query_one("#loading-text", Static).render())
        assert "Nothing could be loaded" in text
        assert "Set aside: 2 files not results: 1 Markdown, 1 text." in text


# -- navigation ----------------------------------------------------------------------------
async def test_tree_keys(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        tree = app.main.query_one(BenchTree)
        await pilot.press("tab", "j")
        assert app.main.current_node == Node(("db",))
        await pilot.press("l")  # expanded already: to the first child
        assert app.main.current_node == Node(("db", "read"))
        await pilot.press("j")
        assert app.main.current_node == Node.of_metric("db/read", "latency")
        assert app.main.query_one(DetailPane).node == app.main.current_node
        assert shown(app, "detail")[0][0] == "base (ref)"
        await pilot.press("k", "h")  # on an expanded group: collapse
        assert not tree.cursor_node.is_expanded
        await pilot.press("l")
        assert tree.cursor_node.is_expanded
        await pilot.press("h", "h")  # collapse, then to the parent
        assert app.main.current_node == Node(("db",))
        await pilot.press("down", "enter")  # enter on a group toggles it
        assert tree.cursor_node.is_expanded
        await pilot.press("j", "enter")  # enter on a metric opens its tables
        assert app.focused is app.main.query_one(DetailPane)
        await pilot.press("tab")
        assert app.focused is tree
        await pilot.press("tab")
        assert app.focused is app.main.query_one(DetailPane)
        await pilot.press("escape")
        assert app.focused is tree


async def test_narrow_terminal_gives_the_tables_the_width(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        left = app.main.query_one("#left")
        assert not left.display  # the answer has the focus and the width
        await pilot.press("tab")
        await goto(pilot, DB_READ_TPS)
        assert left.display
        await pilot.press("enter")
        assert not left.display
        await pilot.press("tab")
        assert left.display
        await pilot.press("z")
        assert not left.display and app.focused is app.main.query_one(DetailPane)
        await pilot.press("z")
        assert left.display


# -- reference -----------------------------------------------------------------------------
async def test_reference_step_shows_the_cores_numbers(make_app, loaded, tmp_path):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        await pilot.press("right_square_bracket")
        assert "ref patched" in header(app)
        assert app.main.current_node == DB_READ_TPS  # the cursor stays
        expected = core_detail("patched")
        assert shown(app, "detail") == expected.rows
        # The same numbers as `tuibench report --reference patched --format json`.
        out = tmp_path / "report.json"
        args = ["results", "--reference", "patched", "--format", "json", "--output", str(out)]
        assert main(["report", *args]) == 0
        report = json.loads(out.read_text())
        rows = [r for r in report["rows"] if (r["benchmark"], r["metric"]) == ("db/read", "tps")]
        assert [r["system"] for r in rows] == ["patched", "base", "tuned"]
        scale = scale_for([r["center"] for r in rows], rows[0]["unit"])
        for row, line in zip(rows, shown(app, "detail"), strict=True):
            assert line[0].startswith(row["system"])
            assert scale.text(row["center"]) in " ".join(line)
            assert row["verdict"] in line
        # Tree counts follow the reference.
        tree = app.main.query_one(BenchTree)
        assert tree.shown_label(Node()) == "results ▼2 ▲2  vs patched"  # 3 systems: against which
        assert tree.shown_label(Node(("startup",))) == "startup ▲1"
        assert tree.shown_label(Node.of_metric("startup", "time")) == "time ▲"
        await pilot.press("right_square_bracket", "right_square_bracket")  # wraps around
        assert app.main.session.state.reference == "base"
        await pilot.press("left_square_bracket")
        assert app.main.session.state.reference == "tuned"
        assert shown(app, "detail") == core_detail("tuned").rows


async def test_reference_picker(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("r")
        assert isinstance(app.screen, ReferencePicker)
        prompts = [
            str(app.screen.query_one(OptionList).get_option_at_index(i).prompt) for i in range(3)
        ]
        assert "With the [bold] patch applied [/]" in prompts[1]  # descriptions verbatim
        await pilot.press("escape")
        assert app.main.session.state.reference == "base"
        await pilot.press("r", "down", "down", "enter")
        assert app.main.session.state.reference == "tuned"
        assert "ref tuned" in header(app)
        await pilot.press("v")
        assert app.main.query_one("#summary", TableView).plain_columns()[2] == "tuned"


async def test_command_palette_reference(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("ctrl+p")
        await pilot.press(*"reference: tuned")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert app.main.session.state.reference == "tuned"


async def test_command_palette_lists_every_action(make_app, loaded):
    from tuibench.tui.commands import TuibenchCommands

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        provider = TuibenchCommands(app.screen)
        titles = [title for title, _, _ in provider._commands()]
        for key in APP_KEYS:
            if key.palette:
                assert key.description in titles
        for name in ("base", "patched", "tuned"):
            assert f"reference: {name}" in titles


# -- alpha, filter, significant only, sort -------------------------------------------------
async def test_keys_typed_right_after_a_reach_the_alpha_field(make_app, loaded):
    """`a 0.01 enter` in one burst sets alpha: the value is selected on open, so it is
    replaced; no key goes to the tree or the tables meanwhile."""
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        for key, character in [
            ("a", "a"),
            *((c if c != "." else "full_stop", c) for c in "0.01"),
            ("enter", "\r"),
        ]:
            app._driver.send_message(events.Key(key, character))
        for _ in range(500):  # a worker solves the tables of the power at a new alpha
            await pilot.pause(0.02)
            if app.main.session.state.options.alpha == 0.01:
                break
        assert app.main.session.state.options.alpha == 0.01
        assert not isinstance(app.screen, AlphaInput)
        assert app.main.current_node == DB_READ_TPS


async def test_keys_typed_straight_after_the_dialogs_enter_reach_the_main_screen(make_app, loaded):
    """`a 0.01 enter v` in one read: the dialog closes on its enter, and the `v` reaches the
    main screen (it was typed into the closed dialog's field, and lost)."""
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        answer_first = app.main.session.state.answer_first
        keys = [("a", "a"), *((c if c != "." else "full_stop", c) for c in "0.01")]
        for key, character in [*keys, ("enter", "\r"), ("v", "v")]:
            app._driver.send_message(events.Key(key, character))
        for _ in range(500):  # a worker may solve the tables of the power first
            await pilot.pause(0.02)
            state = app.main.session.state
            if state.options.alpha == 0.01 and state.answer_first != answer_first:
                break
        assert not isinstance(app.screen, AlphaInput)
        assert app.main.session.state.options.alpha == 0.01
        assert app.main.session.state.answer_first is not answer_first


async def test_alpha_dialog(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        await pilot.press("a")
        assert isinstance(app.screen, AlphaInput)
        await pilot.press("ctrl+a", "ctrl+k", "2", "enter")  # refused: stays open
        assert isinstance(app.screen, AlphaInput)
        assert "between 0 and 1" in str(app.screen.query_one("#number-error", Static).render())
        await pilot.press("backspace", *"0.0001", "enter")
        assert not isinstance(app.screen, AlphaInput)
        # A worker solves the tables of the power at a new alpha (test_tui_background.py)
        for _ in range(500):
            if not app.main._asked and not app.main._computing:
                break
            await pilot.pause(0.02)
        assert app.main.session.state.options.alpha == 0.0001
        assert "α 0.0001" in header(app)
        assert shown(app, "detail") == core_detail("base", 0.0001).rows
        await pilot.press("a", "escape")
        assert app.main.session.state.options.alpha == 0.0001


async def test_filter(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("v", "slash", *"db/*/tps")
        assert app.main.session.visible == [("db/read", "tps"), ("db/write", "tps")]
        assert "filter db/*/tps" in header(app)
        assert len(shown(app, "summary")) == 2
        await pilot.press("enter")
        assert app.focused is app.main.query_one(BenchTree)
        assert app.main.query_one("#filter", Input).display  # still shows the filter
        await pilot.press("slash", "ctrl+a", "ctrl+k", *"*[[]bold]*")  # a glob: `[[]` is `[`
        assert app.main.session.visible == [("web/[bold]render[/]", "latency")]
        await pilot.press("ctrl+a", "ctrl+k", *"BOLD]")  # no wildcard: a substring, any case
        assert app.main.session.visible == [("web/[bold]render[/]", "latency")]
        await pilot.press("escape")
        assert app.main.session.state.filter_text == ""
        assert len(app.main.session.visible) == 5
        assert not app.main.query_one("#filter", Input).display


async def test_filter_keeps_keys_typed_straight_after_slash(make_app, loaded):
    """Typed ahead (as over a slow SSH link), the keys after `/` still reach the filter."""
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        for key, char in (("slash", "/"), ("w", "w"), ("r", "r"), ("i", "i")):
            app._driver.send_message(events.Key(key, char))
        for _ in range(200):  # the tree follows the filter a moment later on a busy machine
            await pilot.pause(0.05)
            if app.main.session.visible == [("db/write", "tps")]:
                break
        assert app.main.query_one("#filter", Input).value == "wri"
        assert app.main.session.visible == [("db/write", "tps")]
        assert not isinstance(app.screen, ProblemsScreen)


async def test_keys_typed_straight_after_enter_in_the_filter_go_to_the_tree(make_app, loaded):
    """`/wri` enter `j` in one read: the filter keeps `wri` and `j` moves in the tree (the
    `j` had gone into the filter: `wrij`, matching nothing)."""
    from textual import events

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        tree = app.main.query_one(BenchTree)
        keys = [("slash", "/"), ("w", "w"), ("r", "r"), ("i", "i"), ("enter", "\r"), ("j", "j")]
        for key, char in keys:
            app._driver.send_message(events.Key(key, char))
        for _ in range(200):
            await pilot.pause(0.05)
            if app.main.session.visible == [("db/write", "tps")] and app.focused is tree:
                break
        await pilot.pause(0.1)
        assert app.main.query_one("#filter", Input).value == "wri"
        assert app.main.session.visible == [("db/write", "tps")]
        assert app.focused is tree
        assert app.main.session.state.filter_text == "wri"
        assert tree.cursor_line == 1  # the j, in the tree


async def test_significant_only_and_sort(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, Node.of_metric("db/write", "tps"))
        await pilot.press("f")
        assert "f significant only: on" in footer(app)
        assert ("db/write", "tps") not in app.main.session.visible
        assert len(app.main.session.visible) == 4
        assert app.main.current_node == Node(("db",))  # nearest shown ancestor
        await pilot.press("f")
        assert len(app.main.session.visible) == 5
        await goto(pilot, Node())
        await pilot.press("v")
        natural = [r[1] for r in shown(app, "summary")]
        await pilot.press("s")
        assert "s worst first" in footer(app)
        worst = [r[1] for r in shown(app, "summary")]
        assert worst[0] == "web/[bold]render[/] latency (ms)"
        assert sorted(worst) == sorted(natural) and worst != natural
        await pilot.press("s")  # by name
        names = [r[1] for r in shown(app, "summary")]
        assert names == sorted(natural)
        assert "s by name" in footer(app)
        tree = app.main.query_one(BenchTree)
        assert [
            app.main.session.metrics[i] for i in tree.shown
        ] == app.main.session.ordered  # tree too
        await pilot.press("s", "s")  # by patched's gain, by tuned's gain
        assert "s by tuned's gain" in footer(app)
        await pilot.press("s")  # round again
        assert [r[1] for r in shown(app, "summary")] == natural


# -- marks, export, copy --------------------------------------------------------------------
async def test_mark_and_unmark(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        await pilot.press("space")
        assert len(app.main.session.state.marks) == 1
        assert app.main.query_one(BenchTree).shown_label(DB_READ_TPS) == "tps ▲ ●"
        await goto(pilot, Node())
        await pilot.press("space")
        assert [m.node for m in app.main.session.state.marks] == [DB_READ_TPS, Node()]
        assert "marked 2" in header(app)
        await pilot.press("m")
        assert isinstance(app.screen, MarkedScreen)
        await pilot.press("space")  # unmark the first
        assert [m.node for m in app.main.session.state.marks] == [Node()]
        await pilot.press("escape")
        assert "marked 1" in header(app)
        await pilot.press("space")  # the root summary again: unmarked
        assert app.main.session.state.marks == []


# -- help, problems, quit -------------------------------------------------------------------
async def test_help_lists_every_key(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        from tuibench.tui.screens.help import help_rows

        listed = {what for rows in help_rows(app).values() for _, what in rows}
        for key in APP_KEYS:
            assert key.help in listed
        await pilot.press("escape")
        assert not isinstance(app.screen, HelpScreen)


async def test_footer_says_the_state_and_the_keys_of_the_focus(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        assert app.main.focus_place() == "answer"
        line = footer(app)
        assert line.startswith("f significant only: off │ s natural order │ ")
        assert "] next ref" in line and "y copy" in line and "v answer/table" in line
        assert line.endswith("? help")
        await pilot.press("f")
        assert footer(app).startswith("f significant only: on │ s natural order │ ")
        await pilot.press("s")
        assert footer(app).startswith("f significant only: on │ s worst first │ ")
        await pilot.press("f", "tab")  # the tree: its own keys
        line = footer(app)
        assert line.startswith("f significant only: off │ s worst first │ ")
        assert "/ filter" in line and "v answer/table" not in line
        await pilot.press("slash")
        assert "⏎ keep  esc clear  ? help" in footer(app)
        app.set_keymap({"tuibench.reference.next": "x"})
        await pilot.press("escape")
        assert "x next ref" in footer(app)


async def test_footer_at_80_columns_keeps_whole_words(make_app, loaded):
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        await pilot.press("s", "s", "s")  # by patched's gain: the longest state
        line = footer(app)
        assert line.startswith("f significant only: off │ s by patched's gain │ ")
        assert line.endswith("? help") and len(line) <= 78  # one cell of padding each side
        assert "] next ref" in line  # the most useful keys stay


async def test_help_starts_with_the_keys_of_the_focus(make_app, loaded):
    from tuibench.tui.screens.help import help_renderable

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)

        def first_section() -> tuple[str, list[str]]:
            assert isinstance(app.screen, HelpScreen)
            group = help_renderable(app, app.screen.place, applies=app.screen.applies).renderables
            title, table = group[0], group[1]
            keys = [str(cell).strip() for cell in table.columns[0]._cells]
            return str(title), keys

        await pilot.press("question_mark")
        assert first_section() == (
            "Here, in the answer",
            ["]", "y", "⏎", "n", "v", "e", "tab / shift+tab", "c", "r", "d"],
        )
        await pilot.press("escape", "tab", "question_mark")
        title, keys = first_section()
        assert title == "Here, in the tree" and "/" in keys and "v" not in keys
        await pilot.press("escape", "enter", "question_mark")  # enter on the root: still the tree
        await pilot.press("escape")
        await goto(pilot, DB_READ_TPS)
        await pilot.press("enter", "question_mark")  # the metric's tables
        title, keys = first_section()
        assert title == "Here, in a metric's tables" and keys[2] == "esc"
        # then every key by group, then the legend of glyphs and colours
        texts = [str(r) for r in help_renderable(app, "metric").renderables if hasattr(r, "plain")]
        assert texts.index("Navigation") > 0 and texts[-3] == "Glyphs and colours"


async def test_keymap_changes_the_keys(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        app.set_keymap({"tuibench.reference.next": "n"})
        await pilot.press("n")
        assert app.main.session.state.reference == "patched"
        from tuibench.tui.screens.help import help_rows

        rows = dict(help_rows(app)["Comparison"])
        assert rows["n"] == "Make the next system the reference"


async def test_problems_screen(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("p")
        assert isinstance(app.screen, ProblemsScreen)
        prompt = str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert "results/base/broken.csv:1" in prompt
        await pilot.press("escape")
        assert not isinstance(app.screen, ProblemsScreen)


async def test_problems_screen_counts_the_files_set_aside(make_app, loaded, tmp_path):
    import shutil

    from textual.widgets import Static

    shutil.copytree("results", tmp_path / "results")
    (tmp_path / "results" / "base" / "README.md").write_text("# notes\n")
    (tmp_path / "results" / "base" / "plot.svg").write_text("<svg></svg>\n")
    app = make_app(paths=[str(tmp_path / "results")])
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("p")
        line = str(app.screen.query_one("#problems-set-aside", Static).render())
        assert line == "Set aside: 2 files not results: 1 Markdown, 1 SVG."


async def test_quit(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("q")
    assert app.return_code == 0


async def test_names_are_never_markup(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        tree = app.main.query_one(BenchTree)
        labels = [n.label.plain for n in tree._by_key.values()]
        assert any(label.startswith("[bold]render[") for label in labels)
        await goto(pilot, Node.of_metric("web/[bold]render[/]", "latency"))
        title = app.main.query_one("#pane-title", Static).render()
        assert "web/[bold]render[/]" in str(title)


async def test_a_title_wider_than_the_pane_wraps_between_words(make_app, loaded):
    """A pane's title too wide for the pane goes on between words, every word kept (the
    direction at its end); a name wider than the pane is cut with `…`, never folded
    inside it (Textual folds a line it may not wrap unless told otherwise)."""
    app = make_app()
    async with app.run_test(size=(64, 24)) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        pane_title = app.main.query_one("#pane-title", Static)
        whole = str(pane_title.render())
        assert len(whole) > pane_title.size.width  # this title does not fit on one line
        lines = [
            "".join(s.text for s in pane_title.render_line(y)).strip()
            for y in range(pane_title.size.height)
        ]
        assert len(lines) == 2 and " ".join(lines).split() == whole.split()
        pane_title.update("x" * 200 + " · higher is better")  # a name wider than the pane
        await pilot.pause()
        lines = [
            "".join(s.text for s in pane_title.render_line(y)).strip()
            for y in range(pane_title.size.height)
        ]
        assert lines == ["x" * (pane_title.size.width - 1) + "…", "· higher is better"]


async def test_a_metrics_direction_reads_as_words(tmp_path, loaded, make_system):
    """The metric's title says which way is better, or that nothing says so: never the
    `None is better` an unknown direction once read as."""
    results = tmp_path / "results"
    rows = [
        ("b", m, it, 10 + it + shift, u)
        for it in range(3)
        for shift in (0, 0.1)
        for m, u in (("score", ""), ("time", "s"), ("rate", "ops/s"))
    ]
    make_system(results, "new", rows)
    make_system(results, "old", rows)
    app = TuibenchApp([str(results)])
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        for metric, words in (
            ("score", "direction unknown"),
            ("time", "lower is better"),
            ("rate", "higher is better"),
        ):
            await goto(pilot, Node.of_metric("b", metric))
            title = str(app.main.query_one("#pane-title", Static).render())
            assert words in title and "None" not in title
        await pilot.press("n")  # nothing got worse or better: said so, in those words
        said = [str(n.message) for n in app._notifications]
        assert any("No metric got significantly worse or better" in m for m in said)


async def test_f_with_nothing_significant_names_the_filter(tmp_path, loaded, make_system):
    """`f` that shows nothing says why: no change at all, or none among the filtered."""
    results = tmp_path / "results"
    rows = [("b", m, it, 10 + it + shift) for it in range(3) for shift in (0, 0.1) for m in "xy"]
    make_system(results, "new", rows)
    make_system(results, "old", rows)
    app = TuibenchApp([str(results)])
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("f")
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
        assert "No metric changed significantly against this reference." in said
        await pilot.press("f", "slash", "x", "enter", "f")
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
        wanted = "No metric matching the filter changed significantly against this reference."
        assert wanted in said


async def test_markup_in_system_and_metric_names(tmp_path, loaded, make_system):
    results = tmp_path / "results"
    rows = [("x/[i]y", "[/i]m", it, 10 + it + shift) for it in range(3) for shift in (0, 0.1)]
    make_system(results, "[red]new", [(b, m, i, v * 1.2) for b, m, i, v in rows])
    make_system(results, "old", rows)
    app = TuibenchApp([str(results)], view=ViewOptions(export_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        assert app.main.session.systems == ["[red]new", "old"]
        assert "ref [red]new" in header(app)
        node = Node.of_metric("x/[i]y", "[/i]m")
        await goto(pilot, node)
        tree = app.main.query_one(BenchTree)
        assert tree.shown_label(node).startswith("[/i]m")
        assert shown(app, "detail")[0][0] == "[red]new (ref)"
        await pilot.press("space")
        assert any("x/[i]y [/i]m" in str(n.message) for n in app._notifications)
        await pilot.press("ctrl+p")
        await pilot.press(*"reference: old")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert app.main.session.state.reference == "old"
        await pilot.press("r")
        prompt = str(app.screen.query_one(OptionList).get_option_at_index(0).prompt)
        assert "[red]new" in prompt


def core_rows(node: Node = DB_READ_TPS, trim: bool = False, **options) -> list:
    kind = "trimmed" if trim else "subselection"
    cmp = Analysis(load(["results"]), AnalysisOptions(iteration_value=kind, **options)).compare(
        "base"
    )
    return detail_table(cmp, node.benchmark, node.metric).rows


async def test_fdr_and_threshold(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        await pilot.press("d")
        assert "FDR" in header(app)
        assert shown(app, "detail") == core_rows(alpha=0.05, fdr=True)
        await pilot.press("t")
        assert isinstance(app.screen, ThresholdInput)
        await pilot.press("x", "enter")  # refused
        assert isinstance(app.screen, ThresholdInput)
        await pilot.press("backspace", "2", "enter")
        assert app.main.session.state.options.threshold == 2.0
        assert "±2% margin" in header(app)
        assert shown(app, "detail") == core_rows(alpha=0.05, fdr=True, threshold=2.0)
        await pilot.press("t", "ctrl+a", "ctrl+k", "enter")  # empty: no threshold
        assert app.main.session.state.options.threshold is None
        await pilot.press("d")
        assert shown(app, "detail") == core_rows(alpha=0.05)


async def test_trim_outliers_recomputes_in_the_background(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        analysis = app.main.session.analysis
        await pilot.press("o")
        assert "it trimmed" in header(app)  # the iteration value: the trimmed mean
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.main.session.analysis is not analysis
        assert shown(app, "detail") == core_rows(trim=True, alpha=0.05)


async def test_iteration_value_and_percent_keys(make_app, loaded):
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        assert "it subsel" in header(app)
        detail = app.main.query_one("#detail", TableView)
        assert "gain [95% CI]" in detail.plain_columns()
        await pilot.press("percent_sign")
        await pilot.pause()
        assert "change [95% CI]" in detail.plain_columns() and "signed change" in header(app)
        for kind, label in (("mean", "it mean"), ("median", "it median")):
            await pilot.press("i")
            await app.workers.wait_for_complete()
            await pilot.pause()
            assert label in header(app)
            assert app.main.session.analysis.options.iteration_value == kind


async def test_options_from_the_command_line(make_app, loaded):
    app = make_app(fdr=True, threshold=1.5, iteration_value="trimmed")
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await goto(pilot, DB_READ_TPS)
        for part in ("FDR", "±1.5% margin", "it trimmed"):
            assert part in header(app)
        assert shown(app, "detail") == core_rows(trim=True, alpha=0.05, fdr=True, threshold=1.5)


async def test_noise_and_system_summary_follow_the_core(make_app, loaded):
    """The per-metric noise table and the per-system summary show the core's numbers, and
    follow the reference and the outlier trimming."""
    from tuibench.present.systems_table import system_summary_table
    from tuibench.present.tables import noise_table
    from tuibench.tui.widgets.table_view import cell_text

    def text(table):
        return [[cell_text(v) for v in row] for row in table.rows]

    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        rs = load(["results"])
        cmp = Analysis(rs).compare("base")
        await pilot.press("v")
        assert shown(app, "systems") == text(system_summary_table(cmp))
        await goto(pilot, DB_READ_TPS)
        assert shown(app, "noise") == noise_table(cmp, "db/read", "tps").rows
        await pilot.press("right_square_bracket")
        patched = Analysis(rs).compare("patched")
        assert shown(app, "noise") == noise_table(patched, "db/read", "tps").rows
        await pilot.press("o")
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert "it trimmed" in header(app)  # the iteration value: the trimmed mean
        trimmed = Analysis(rs, AnalysisOptions(iteration_value="trimmed")).compare("patched")
        assert shown(app, "noise") == noise_table(trimmed, "db/read", "tps").rows
        assert "raw" in app.main.query_one("#noise", TableView).plain_columns()


async def test_eight_systems_fit_at_200_columns(tui_data, loaded):
    """The summary of eight systems at 200 columns, tree shown: every column on screen, no
    cell cut (each cell's text, in the compact layout of a narrow table, is drawn whole)."""
    app = TuibenchApp(["eight"], view=ViewOptions(export_dir="."))
    async with app.run_test(size=(200, 50)) as pilot:
        await loaded(pilot)
        await pilot.press("v")
        await pilot.pause()
        assert app.main.query_one("#left").display
        table = app.main.query_one("#summary", TableView)
        drawn = ["".join(s.text for s in table.render_line(y)) for y in range(6)]
        assert "→" not in drawn[0]
        for name in [f"kernel-6.{i}" for i in range(1, 9)]:
            assert name in drawn[0]
        assert table._header[:9] == ["metric", *(f"kernel-6.{i}" for i in range(1, 9))]
        for line, cells in zip(drawn[1:], table._rows, strict=True):  # the cells as laid out
            for cell in cells:
                assert cell.strip() in line


async def test_long_names_give_way_so_every_system_fits(tui_data, loaded):
    """When every value column fits once the metric names are shortened (keeping at least
    MIN_NAME_WIDTH cells), the names give way beyond their usual 55 % of the width."""
    from tuibench.tui.widgets.table_view import MIN_NAME_WIDTH

    app = TuibenchApp(["eight"], view=ViewOptions(export_dir="."))
    async with app.run_test(size=(138, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("v", "z")  # the table of every metric, the whole width
        await pilot.pause()
        table = app.main.query_one("#summary", TableView)
        header = "".join(s.text for s in table.render_line(0))
        assert "→" not in header
        assert all(f"kernel-6.{i}" in header for i in range(1, 9))
        assert MIN_NAME_WIDTH <= table._shown[0] < table._widths[0]  # the names gave way
        rows = ["".join(s.text for s in table.render_line(y)) for y in range(1, 6)]
        assert rows[-1].startswith(" web/[bold…/] latency (ms) ")  # cut in the middle
        assert rows[-1].rstrip().endswith("★12.0 +3.9%*")  # the numbers whole


async def test_a_large_group_table_shows_its_first_rows_and_says_so(make_app, loaded, monkeypatch):
    import tuibench.tui.widgets.detail_pane as pane_module

    monkeypatch.setattr(pane_module, "VIEW_ROWS", 2)  # as if the set had thousands of metrics
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("v")
        session = app.main.session
        assert [r[0] for r in shown(app, "summary")] == [
            r[0] for r in session.summary(Node()).rows[:2]
        ]
        title = str(app.main.query_one("#pane-title", Static).render())
        assert "first 2 of 5 metrics" in title
        notes = str(app.main.query_one("#pane-notes", Static).render())
        assert "shows the first 2 metrics in this order" in notes
        full = session.current_table(Node())  # what m, e and y take: every row
        assert len(full.rows) == 5
        await pilot.press("j", "enter")  # the rows shown open their own metrics
        assert app.main.current_node == Node.of_metric(*session.ordered[1])


async def test_the_options_that_change_verdicts_fit_the_header_at_80_columns(make_app, loaded):
    """FDR and the margin come right after the reference, α and the iteration value: at 80
    columns the header was cut before them, behind the count of systems."""
    app = make_app(fdr=True, threshold=2.0)
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        full = header(app)
    assert "FDR" in full[:80] and "±2% margin" in full[:80]
    assert full.index("±2% margin") < full.index("systems")
