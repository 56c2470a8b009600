"""The explorer's state and session: what is shown and loaded, without Textual."""
