"""The explorer over numbers a statistic cannot bound: it loads, and `]` keeps it up."""

from __future__ import annotations

from tests.core.test_statistic_overflow import _same_timings_two_units
from tuibench.model.options import AnalysisOptions
from tuibench.tui.app import TuibenchApp


async def test_units_differing_by_rounding_load_and_switch(tmp_path, loaded):
    root = _same_timings_two_units(tmp_path / "results")
    for kind in ("mean", "subselection"):
        app = TuibenchApp([str(root)], AnalysisOptions(iteration_value=kind))
        async with app.run_test(size=(120, 40)) as pilot:
            await loaded(pilot)
            assert app.main.session is not None and app.crash is None
            for want in ("b", "a"):
                await pilot.press("right_square_bracket")
                await pilot.pause()
                assert app.main.session.state.reference == want
                assert app.is_running and app.crash is None


async def test_many_problems_list_the_first_and_count_the_rest(tmp_path, loaded):
    from textual.widgets import OptionList, Static

    from tuibench.present.problem_summary import LISTED
    from tuibench.tui.screens.problems import ProblemsScreen

    root = _same_timings_two_units(tmp_path / "results")
    for s in ("a", "b"):
        for i in range(200):
            pad = " " * (2 * i + (s == "b"))  # no two alike: copies are a problem too
            (root / s / f"empty{i}.csv").write_text(f"benchmark,metric,value{pad}\n")
    app = TuibenchApp([str(root)])
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await pilot.press("p")
        await pilot.pause()
        assert isinstance(app.screen, ProblemsScreen)
        assert app.screen.query_one("#problems-list", OptionList).option_count == LISTED
        kinds = str(app.screen.query_one("#problems-kinds", Static).render())
        assert "400 × no data rows (only a header, or empty)" in kinds


async def test_a_failing_comparison_keeps_the_explorer_up(tmp_path, loaded, monkeypatch):
    from tuibench.analysis.compare import Analysis

    root = _same_timings_two_units(tmp_path / "results")
    real = Analysis.compare

    def compare(self, reference, *args, **kwargs):
        if reference == "b":
            raise ValueError("a bug\nwith a long polars expression")
        return real(self, reference, *args, **kwargs)

    monkeypatch.setattr(Analysis, "compare", compare)  # also while comparing ahead
    app = TuibenchApp([str(root)], AnalysisOptions(iteration_value="mean"))
    async with app.run_test(size=(120, 40)) as pilot:
        await loaded(pilot)
        await app.workers.wait_for_complete()  # the references compared ahead, or not
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert app.is_running and app.crash is None
        assert app.main.session.state.reference == "a"  # the view it could show
        said = [n.message for n in app._notifications]
        assert "Comparing failed: ValueError: a bug" in said
