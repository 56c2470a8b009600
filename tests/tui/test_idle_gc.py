"""The full garbage collection runs once the screen has settled (tui/terminal/idle_gc.py):
after the last write, not at each, and not from another thread."""

from __future__ import annotations

import asyncio
import threading

from tuibench.tui.terminal import idle_gc


async def test_one_collection_after_the_last_write(monkeypatch):
    collected: list[int] = []
    monkeypatch.setattr(idle_gc.gc, "collect", lambda: collected.append(1))
    monkeypatch.setattr(idle_gc, "IDLE", 0.3)  # ample: a busy machine delays the loop
    idle = idle_gc.IdleCollector(asyncio.get_running_loop())
    for _ in range(5):  # writes closer together than IDLE: no collection between them
        idle.activity()
        await asyncio.sleep(0.01)
    assert collected == []
    await asyncio.sleep(0.8)
    assert collected == [1]
    await asyncio.sleep(0.4)  # idle on: nothing more
    assert collected == [1]
    idle.activity()
    idle.stop()  # the app left: nothing after
    await asyncio.sleep(0.4)
    assert collected == [1]


async def test_writes_from_other_threads_do_not_arm_it(monkeypatch):
    collected: list[int] = []
    monkeypatch.setattr(idle_gc.gc, "collect", lambda: collected.append(1))
    monkeypatch.setattr(idle_gc, "IDLE", 0.01)
    idle = idle_gc.IdleCollector(asyncio.get_running_loop())
    thread = threading.Thread(target=idle.activity)
    thread.start()
    thread.join()
    await asyncio.sleep(0.05)
    assert collected == []
    idle.stop()


async def test_python_makes_no_full_collection_of_its_own_meanwhile():
    before = idle_gc.gc.get_threshold()
    idle = idle_gc.IdleCollector(asyncio.get_running_loop())
    try:
        young, middle, full = idle_gc.gc.get_threshold()
        assert (young, middle) == before[:2] and full == idle_gc.NO_FULL
    finally:
        idle.stop()
    assert idle_gc.gc.get_threshold() == before


async def test_an_overdue_collection_takes_a_shorter_gap(monkeypatch):
    clock = [100.0]
    monkeypatch.setattr(idle_gc.time, "monotonic", lambda: clock[0])
    monkeypatch.setattr(idle_gc.gc, "collect", lambda: 0)
    loop = asyncio.get_running_loop()
    idle = idle_gc.IdleCollector(loop)

    def wait() -> float:  # how long after this write the collection is set to come
        idle.activity()
        assert idle._handle is not None
        return idle._handle.when() - loop.time()

    try:
        clock[0] += idle_gc.OVERDUE / 2  # the last collection is recent
        assert abs(wait() - idle_gc.IDLE) < 0.01
        clock[0] += idle_gc.OVERDUE  # it is overdue: a shorter gap will do
        assert abs(wait() - idle_gc.IDLE_OVERDUE) < 0.01
        idle._collect()  # collected: the full gap again
        assert abs(wait() - idle_gc.IDLE) < 0.01
    finally:
        idle.stop()
