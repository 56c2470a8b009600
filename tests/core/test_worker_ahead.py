"""`util.worker.ahead`: items made in a thread ahead of their use, in order; the maker's
exception reaches the caller; a caller that stops early stops the maker."""

from __future__ import annotations

import threading
import time

import pytest

from tuibench.util.worker import ahead


def test_items_in_order_and_all_of_them():
    assert list(ahead(iter(range(100)), depth=3)) == list(range(100))
    assert list(ahead([])) == []


def test_the_makers_exception_is_raised_in_the_caller():
    def items():
        yield 1
        raise ValueError("bad piece")

    got = []
    with pytest.raises(ValueError, match="bad piece"):
        for x in ahead(items()):
            got.append(x)
    assert got == [1]


def test_a_caller_that_stops_stops_the_maker():
    made = []
    done = threading.Event()

    def items():
        try:
            for i in range(1000):
                made.append(i)
                yield i
        finally:
            done.set()

    it = ahead(items(), depth=2)
    assert next(it) == 0
    it.close()
    deadline = time.monotonic() + 5
    while not done.is_set() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert len(made) < 10  # it stopped at its next piece, far from the end
