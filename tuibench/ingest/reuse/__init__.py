"""Loads kept in the user's cache folder: the store (cache.py), what a load keeps in it
(load_cache.py) and each file's reader's result (file_reads.py), so that a changed load
reads only changed files. Reloads within one explorer are ../incremental.py."""
