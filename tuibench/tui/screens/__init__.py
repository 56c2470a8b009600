"""Dialogs and full screens of the explorer."""
