"""One call in a thread of its own, beside the caller's work."""

from __future__ import annotations

from concurrent.futures import Future, ThreadPoolExecutor

import numpy as np


def in_worker(fn, *args) -> Future:
    """fn(*args) in a thread of its own (numpy releases the GIL in its heavy steps, so the
    two cores both work), under the caller's numpy error handling (a thread starts with
    numpy's defaults); its exception, if any, is raised by `.result()`."""
    errors = np.geterr()

    def run():
        with np.errstate(**errors):
            return fn(*args)

    pool = ThreadPoolExecutor(max_workers=1)
    try:
        return pool.submit(run)
    finally:
        pool.shutdown(wait=False)
