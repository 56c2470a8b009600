"""Widgets of the explorer's main screen."""
