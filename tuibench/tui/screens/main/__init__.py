"""The explorer's main screen, by concept: its view and update path (view.py), loading
the results (loading.py), moving between places (navigation.py), the series views
(series_actions.py), live results (live.py), and the keys' actions (screen.py,
`MainScreen`)."""

from tuibench.tui.screens.main.screen import MainScreen

__all__ = ["MainScreen"]
