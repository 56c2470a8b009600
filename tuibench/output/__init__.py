"""Renderers (text, CSV, Markdown, LaTeX, JSON, HTML), output paths and atomic writes."""
