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
