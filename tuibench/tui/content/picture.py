"""A first open's picture: the first screen's content, made by the loading child.

On a first open of small results, a child process loads and analyses them while the
explorer imports Textual (tui/view/load_ahead.py). The explorer would then still import
polars and numpy (0.15-0.2 s) and restore the child's entry before it could draw them. So
the child also sends what the first screen shows, as plain data: the answer's lines, the
tree's shape and counts, the view's state and the header's words. The explorer draws that
picture with its own widgets, the same code as for a session, before polars is imported;
then it restores the session and draws it again: the same screen, so no cell changes.
Keys typed meanwhile wait for the session, as while loading (typeahead.py).

A picture is made only where the first screen is the answer (two systems or more, the
reference known, no decisions) and the tree is small (`NODES_UP_TO`); else the explorer
starts as without one. `tests/tui/test_tui_picture.py` holds the picture and the session's
screen to be the same, cell for cell, at several sizes.
"""

from __future__ import annotations

import pickle
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from tuibench.model.problems import Problem
from tuibench.tui.content.answer_lines import AnswerContent
from tuibench.tui.content.tree_lines import PlainShape
from tuibench.tui.view.state import Node, ViewState

if TYPE_CHECKING:
    from tuibench.model.options import ViewOptions
    from tuibench.model.results import ResultSet
    from tuibench.tui.view.session import Session

NODES_UP_TO = 2_000  # tree nodes of a picture: every group's children are in it


@dataclass
class Picture:
    """What the first screen shows of a session, with the attributes of a session the tree
    and the header read (`Session`'s names)."""

    state: ViewState
    systems: list[str]
    metrics: range  # one per metric: the count is what is read
    shape: PlainShape
    counts: dict[Node, tuple[int, int]]
    answer: AnswerContent
    words_on_chance: str
    problems: list[Problem]
    set_aside: str | None
    unseen: set[tuple[str, str]] = field(default_factory=set)
    order_ids: None = None  # not a session's order: the session's tree is built afresh

    def tree_shape(self) -> PlainShape:
        return self.shape

    def chance(self) -> str:
        return self.words_on_chance

    def decisions(self) -> None:
        return None


def picture_of(session: Session, rs: ResultSet, view: ViewOptions) -> Picture | None:
    """The picture of `session`'s first screen, or None where it is not the answer, or the
    tree too large to send whole."""
    from tuibench.model.set_aside import set_aside_line
    from tuibench.tui.content.answer_lines import answer_content, answer_parts

    state = session.state
    systems = session.systems
    if not state.answer_first or len(systems) < 2:
        return None
    if view.reference is not None and view.reference not in systems:  # a notice says so
        return None
    if session.decide:
        return None
    shape = session.tree_shape()
    if len(shape.index.nodes) > NODES_UP_TO:
        return None
    plain = PlainShape(shape)
    answer = answer_content(*answer_parts(session))
    return Picture(
        state=state,
        systems=list(systems),
        metrics=range(len(session.metrics)),
        shape=plain,
        counts={node: session.counts.get(node, (0, 0)) for node in plain.nodes()},
        answer=answer,
        words_on_chance=session.chance(),
        problems=list(rs.problems),
        set_aside=set_aside_line(rs.set_aside),
    )


def encoded(session: Session, rs: ResultSet, view: ViewOptions) -> bytes | None:
    """The picture of `session` as bytes for the explorer (None: no picture)."""
    picture = picture_of(session, rs, view)
    return None if picture is None else pickle.dumps(picture, pickle.HIGHEST_PROTOCOL)


def decoded(payload: bytes) -> Picture | None:
    """The picture sent by the explorer's own loading child (a pipe between the two)."""
    picture = pickle.loads(payload)
    return picture if isinstance(picture, Picture) else None
