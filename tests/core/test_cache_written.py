"""An entry written straight into its file (`Store.put_written`) reads back as one stored
whole, and a failed or too big write leaves nothing behind."""

from __future__ import annotations

import pytest

from tuibench.ingest.reuse import cache

KEY = cache.digest("written")


def test_a_written_entry_reads_back_as_a_stored_one(tmp_path):
    store = cache.Store(tmp_path, max_bytes=1 << 20)
    parts = [b"first", b"x" * 70_000, b"", b"last"]

    def write(fh):
        for p in parts:
            fh.write(p)

    assert store.put_written("k", KEY, write) == sum(map(len, parts))
    assert bytes(store.get("k", KEY)) == b"".join(parts)
    store.put("k", KEY, parts)  # the same bytes as `put` writes
    assert bytes(store.get("k", KEY)) == b"".join(parts)


def test_a_failed_or_too_big_write_leaves_nothing(tmp_path):
    store = cache.Store(tmp_path, max_bytes=1000)

    def broken(fh):
        fh.write(b"half")
        raise ValueError("a frame IPC cannot hold")

    with pytest.raises(ValueError):
        store.put_written("k", KEY, broken)
    assert store.put_written("k", KEY, lambda fh: fh.write(b"y" * 2000)) is None
    assert list(tmp_path.iterdir()) == [] and store.get("k", KEY) is None
