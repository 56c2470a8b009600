"""Live results in the explorer: `R` and `--follow` reload and keep the view; verdicts that
changed are marked Δ until visited; with --decide / --follow each metric is decided or not,
as `tuibench decide` says."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

from tuibench.analysis.compare import Analysis
from tuibench.analysis.stopping import decide_rows
from tuibench.ingest.load import load
from tuibench.model.options import ViewOptions
from tuibench.output.stopping import verdict_words
from tuibench.tui.app import TuibenchApp
from tuibench.tui.view.state import Node
from tuibench.tui.widgets.bench_tree import BenchTree
from tuibench.tui.widgets.detail_pane import DetailPane
from tuibench.tui.widgets.status_line import StatusLine

SIZE = (120, 40)
SPIN = Node.of_metric("Spin", "ns/op")


def go_file(values: dict[str, list[float]], end: str = "PASS\nok  \texample.com/x\t1.0s\n"):
    lines = ["goos: linux", "goarch: amd64", "pkg: example.com/x"]
    for name, vs in values.items():
        lines += [f"Benchmark{name}-2   \t    1000\t  {v:.1f} ns/op" for v in vs]
    return "\n".join(lines) + "\n" + end


def iteration(path: Path, spin: float, sort: float, seed: int) -> None:
    """One `go test` run: Spin and Sort, three samples each, a little noise."""
    rng = random.Random(seed)
    values = {
        "Spin": [spin * (1 + rng.gauss(0, 0.003)) for _ in range(3)],
        "Sort": [sort * (1 + rng.gauss(0, 0.003)) for _ in range(3)],
    }
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(go_file(values))


def results(root: Path, iterations: int = 2) -> Path:
    for i in range(iterations):
        iteration(root / "base" / f"run-{i}.txt", 1000, 500, seed=i)
        iteration(root / "new" / f"run-{i}.txt", 1000, 500, seed=100 + i)
    return root


async def until(pilot, condition, timeout: float = 15.0) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not condition():
        if loop.time() > deadline:
            raise TimeoutError("the explorer did not get there")
        await pilot.pause(0.05)
    await pilot.pause()


def header(app) -> str:
    return app.main.query_one(StatusLine).plain


def drawn(app) -> list[str]:
    """The tree's lines as drawn on screen now."""
    tree = app.main.query_one(BenchTree)
    return [tree.render_line(y).text for y in range(tree.size.height)]


def label(app, node: Node) -> str:
    return app.main.query_one(BenchTree).shown_label(node)


async def test_r_reloads_and_keeps_the_view(tmp_path, monkeypatch, loaded):
    monkeypatch.chdir(tmp_path)
    root = results(tmp_path / "results")
    iteration(root / "other" / "run-0.txt", 900, 500, seed=7)
    iteration(root / "other" / "run-1.txt", 900, 500, seed=8)
    app = TuibenchApp(["results"], view=ViewOptions(export_dir=str(tmp_path)))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        await pilot.press("right_square_bracket", "s", "i", "percent_sign")  # ref, sort, options
        await until(
            pilot,
            lambda: (
                app.main.session.state.options.iteration_value == "mean" and not app.main._computing
            ),
        )
        await pilot.press("slash", "S", "p", "i", "enter")
        app.main.go_to(SPIN)
        await pilot.press("space")  # mark the metric's table
        state = app.main.session.state
        before = (state.reference, state.sort, state.filter_text, state.percent, len(state.marks))
        assert before == ("new", "worst", "Spi", "change", 1)
        old = app.main.session
        iteration(root / "new" / "run-2.txt", 1000, 500, seed=102)
        await until(pilot, lambda: app.main._arrived is not None)  # noticed, not applied
        assert app.main.session is old
        assert "+1 file: 1 file in new (R)" in header(app)
        await pilot.press("R")
        await until(pilot, lambda: app.main.session is not old and not app.main._reloading)
        state = app.main.session.state
        after = (state.reference, state.sort, state.filter_text, state.percent, len(state.marks))
        # The view stays; the marked table, of the numbers before, is unmarked (an export
        # of it would have written a verdict the screen no longer shows)
        assert after == (*before[:4], 0)
        assert state.options.iteration_value == "mean"
        assert app.main.current_node == SPIN
        assert app.main.query_one(DetailPane).node == SPIN
        samples = app.main.session.rs.samples
        new_iterations = samples.filter(samples["system"] == "new")["iteration"].n_unique()
        assert new_iterations == 3
        assert "+1 file: 1 file in new (loaded " in header(app)


async def test_follow_applies_by_itself_and_marks_changed_verdicts(tmp_path, monkeypatch, loaded):
    """Equal systems, then iterations where Spin is 30 % slower: --follow loads them as they
    come, Spin's verdict turns `worse`, and it stays marked Δ until the cursor visits it."""
    monkeypatch.chdir(tmp_path)
    root = results(tmp_path / "results", iterations=3)
    app = TuibenchApp(["results"], view=ViewOptions(export_dir=str(tmp_path), follow=True))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        sort = Node.of_metric("Sort", "ns/op")
        app.main.go_to(sort)
        assert " Δ" not in label(app, SPIN)
        for i in range(3, 9):
            iteration(root / "base" / f"run-{i}.txt", 1000, 500, seed=i)
            iteration(root / "new" / f"run-{i}.txt", 1300, 500, seed=100 + i)
        await until(pilot, lambda: app.main.session.rs.samples.height == 2 * 9 * 2 * 3)
        await until(pilot, lambda: not app.main._reloading and app.main._arrived is None)
        rows = app.main.session.cmp.rows
        verdict = rows.filter((rows["benchmark"] == "Spin") & ~rows["is_reference"])["verdict"]
        assert verdict.to_list() == ["worse"]
        assert " Δ" in label(app, SPIN)
        assert "Δ 1" in header(app)
        assert any("Δ" in line for line in drawn(app))
        await pilot.press("tab")  # to the tree; then the cursor moves onto Spin by keys
        while app.main.current_node != SPIN:
            await pilot.press("j")
        await pilot.pause()
        assert " Δ" not in label(app, SPIN) and "Δ" not in header(app)
        assert not any("Δ" in line for line in drawn(app))  # as drawn, not only as known


async def test_half_written_file_is_not_loaded(tmp_path, monkeypatch, loaded):
    monkeypatch.chdir(tmp_path)
    root = results(tmp_path / "results")
    app = TuibenchApp(["results"], view=ViewOptions(export_dir=str(tmp_path), follow=True))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        first = app.main.session
        half = root / "new" / "run-2.txt"
        text = go_file({"Spin": [1000.0, 1001.0], "Sort": [500.0]}, end="")
        half.write_text(text)
        await pilot.pause(2.5)  # stable for long enough, but Go's end line is missing
        assert app.main.session is first and app.main._arrived is None
        half.write_text(text + "PASS\nok  \texample.com/x\t1.0s\n")
        await until(pilot, lambda: app.main.session is not first and not app.main._reloading)
        assert app.main.session.rs.samples.height == first.rs.samples.height + 3


async def test_decide_marks_and_words_are_decides(tmp_path, monkeypatch, loaded):
    """--decide: the tree marks each metric decided (✓) or not (◌), and the metric's view
    says what `tuibench decide` says, with the same numbers."""
    monkeypatch.chdir(tmp_path)
    root = tmp_path / "results"
    for i in range(6):
        iteration(root / "base" / f"run-{i}.txt", 1000, 500, seed=i)
        iteration(root / "new" / f"run-{i}.txt", 1300, 500 * (1.03 if i % 2 else 0.97), i)
    rs = load([root])
    dec = decide_rows(Analysis(rs).groups, "base", 0.05, 2.0).rows
    words = {r["benchmark"]: verdict_words(r) for r in dec.iter_rows(named=True)}
    verdicts = {r["benchmark"]: r["verdict"] for r in dec.iter_rows(named=True)}
    assert verdicts["Spin"] == "worse" and verdicts["Sort"] == "undecided"
    app = TuibenchApp(["results"], view=ViewOptions(export_dir=str(tmp_path), decide=True))
    async with app.run_test(size=SIZE) as pilot:
        await loaded(pilot)
        sort = Node.of_metric("Sort", "ns/op")
        assert label(app, SPIN).endswith(" ▼ ✓")
        assert label(app, sort).endswith(" ◌")
        app.main.go_to(sort)
        await pilot.pause()
        text = str(app.main.query_one("#pane-decision").render())
        assert f"new {words['Sort']}" in text and "about" in text
        app.main.go_to(SPIN)
        await pilot.pause()
        text = str(app.main.query_one("#pane-decision").render())
        assert "new decided: worse" in text
