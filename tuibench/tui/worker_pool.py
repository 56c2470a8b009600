"""The threads of Textual's thread workers, which quitting never waits for.

Textual runs a thread worker in the event loop's default executor, and `asyncio.run` joins
that executor's threads before it returns: quitting while the other references were being
compared ahead (10,000 systems) restored the screen at once, then the process ran on for
minutes. The explorer's workers only compute what a screen would show, so nothing is lost
by leaving them: the process ends right after `App.run` (`os._exit`)."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor


class WorkerPool(ThreadPoolExecutor):
    """A thread pool whose shutdown never waits for the work under way, and drops what
    has not started."""

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        super().shutdown(wait=False, cancel_futures=True)


def install(loop: asyncio.AbstractEventLoop) -> WorkerPool:
    """Make a WorkerPool the loop's default executor (where `run_in_executor(None)` runs)."""
    pool = WorkerPool(thread_name_prefix="tuibench-worker")
    loop.set_default_executor(pool)
    return pool
