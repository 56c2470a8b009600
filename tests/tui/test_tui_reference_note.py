"""The first screen says when the reference is first only by its name, offers a system named
like a baseline, and says nothing once a reference was chosen."""

from __future__ import annotations

import pytest

from tuibench.model.options import ViewOptions
from tuibench.tui.app import TuibenchApp
from tuibench.tui.widgets.answer_view import AnswerView

NOTE = "Reference 5.8-patched: only because its name sorts first."
OFFER = "5.8-vanilla is named like a baseline: press r to choose it."


def shown(app) -> str:
    view = app.main.query_one(AnswerView)
    return "\n".join(
        "".join(s.text for s in view.render_line(y)).rstrip() for y in range(len(view.lines))
    )


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_first_screen_says_the_reference_is_first_by_name(kernels, loaded, size):
    app = TuibenchApp([str(kernels)], view=ViewOptions(export_dir=str(kernels)))
    async with app.run_test(size=size) as pilot:
        await loaded(pilot)
        text = shown(app)
        assert text.splitlines()[:3] == [
            NOTE,
            OFFER,
            'Choose: [ ] or r; --reference NAME; reference = "NAME" in tuibench.toml',
        ]
        await pilot.press("right_square_bracket")
        assert app.main.session.state.reference == "5.8-vanilla"
        assert "sorts first" not in shown(app)
        await pilot.press("left_square_bracket")  # back: still only by its name
        assert NOTE in shown(app)


async def test_a_chosen_reference_is_not_questioned(kernels, loaded):
    app = TuibenchApp(
        [str(kernels)], view=ViewOptions(reference="5.8-patched", export_dir=str(kernels))
    )
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        assert app.main.session.state.reference == "5.8-patched"
        assert "sorts first" not in shown(app)


async def test_tuibench_toml_chooses_the_reference(kernels, loaded):
    (kernels / "tuibench.toml").write_text('reference = "5.8-vanilla"\n')
    app = TuibenchApp([str(kernels)], view=ViewOptions(export_dir=str(kernels)))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        assert app.main.session.state.reference == "5.8-vanilla"
        assert "sorts first" not in shown(app)
        assert "5.8-patched vs 5.8-vanilla" in shown(app)


async def test_an_unknown_reference_in_tuibench_toml_is_a_problem(kernels, loaded):
    (kernels / "tuibench.toml").write_text('reference = "nope"\n')
    app = TuibenchApp([str(kernels)], view=ViewOptions(export_dir=str(kernels)))
    async with app.run_test(size=(80, 24)) as pilot:
        await loaded(pilot)
        assert app.crash is None
        assert [p.reason for p in app.main.problems] == [
            "reference 'nope' is not a system here (5.8-patched, 5.8-vanilla)"
        ]
        assert NOTE in shown(app)
