"""Whole loads kept in the user's cache folder: the store (cache.py) and what a load keeps
in it (load_cache.py). Reloads that read only what changed are ../incremental.py."""
