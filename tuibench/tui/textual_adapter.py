"""Every private part of Textual the explorer relies on, in one place.

Textual offers no public way to do any of these (each says why it is needed).
tests/tui/test_textual_adapter.py fails when Textual renames one, removes it, changes its
signature or stops calling it where these rely on it: fix it here, nowhere else.
"""

from __future__ import annotations

import selectors
import types
from typing import TYPE_CHECKING, Any

from textual.geometry import Region

if TYPE_CHECKING:
    from textual import events
    from textual.app import App
    from textual.message_pump import MessagePump
    from textual.widget import Widget
    from textual.widgets.tree import TreeNode


def forward_event(target: MessagePump, event: events.Event) -> None:
    """Send `event` on to `target` as Textual hands a typed key to the focus: marked as
    forwarded (`event.is_forwarded`), so the app does not take it for a key typed anew.
    `post_message` alone does not mark it, and the mark has no public setter."""
    target._forward_event(event)  # type: ignore[attr-defined]  # private: see above


def keymap(app: App) -> dict[str, str]:
    """The keymap in force (what `set_keymap` and `update_keymap` made of it, normalised):
    Textual keeps it but offers no getter."""
    return getattr(app, "_keymap", None) or {}


def drop_exit_output(app: App) -> None:
    """Forget what Textual would print when the app exits (a traceback after a crash): the
    explorer prints one line instead. There is no public switch."""
    app._exit_renderables.clear()


def drop_pending_repaint(widget: Widget) -> None:
    """Forget the whole-widget repaint Textual still holds for `widget` (see
    `widgets/repaint.py`): there is no public way to take back a `refresh()`."""
    widget._repaint_regions.clear()


def expand_quietly(node: TreeNode) -> None:
    """Mark a tree node expanded without the event and the re-layout `expand()` costs per
    node (thousands when a large tree opens); the caller invalidates the tree once."""
    node._expanded = True


def use_input_selector(selector: type[selectors.BaseSelector]) -> None:
    """Make the Linux driver's input thread wait with `selector`: the thread builds its
    selector from the `selectors` module it imported, and takes no other."""
    from textual.drivers import linux_driver

    linux_driver.selectors = types.SimpleNamespace(  # type: ignore[assignment]  # a stand-in
        SelectSelector=selector, EVENT_READ=selectors.EVENT_READ
    )


class CrashHook:
    """Mixed into an App (before App): `crashed(error)` is called when Textual has handled
    an exception of the app (it exits the app, a traceback ready to print). Textual has no
    public hook."""

    def crashed(self, error: Exception) -> None:
        """Override: called with the exception, once Textual has handled it."""

    def _handle_exception(self, error: Exception) -> None:
        super()._handle_exception(error)  # type: ignore[misc]
        self.crashed(error)


class TreeHooks:
    """Mixed into a Tree (before Tree): three of Tree's private steps as public hooks.

    - `batching()`: while True, the tree's line cache is not rebuilt (Tree rebuilds it for
      every node added); call `invalidate_lines()` once after.
    - `before_toggle(node)`: called before a node opens or closes, by any key or click (to
      add its children only then).
    - Moving the cursor repaints the old and new node's own line only, not their subtrees:
      the guides beside the subtree do not change with the cursor.
    """

    def batching(self) -> bool:
        return False

    def before_toggle(self, node: TreeNode[Any]) -> None:
        """Override: called before `node` is expanded or collapsed."""

    def invalidate_lines(self) -> None:
        """Rebuild the tree's lines (unless batching): after a batch, or when labels change
        width."""
        self._invalidate()

    def _invalidate(self) -> None:
        if not self.batching():
            super()._invalidate()  # type: ignore[misc]

    def _toggle_node(self, node: TreeNode[Any]) -> None:
        self.before_toggle(node)
        super()._toggle_node(node)  # type: ignore[misc]

    def _refresh_node(self, node: TreeNode[Any]) -> None:
        if node.line >= 0:  # as Tree repaints one line (ScrollView's is wider)
            y = node.line - self.scroll_offset.y  # type: ignore[attr-defined]
            self.refresh(Region(0, y, self.size.width, 1))  # type: ignore[attr-defined]
