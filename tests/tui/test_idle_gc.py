"""The full garbage collection runs once the screen has settled (tui/terminal/idle_gc.py):
after the last write, not at each, and not from another thread; not within IDLE of a key
read; what survives is frozen, and collected again once the screen rests long."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from tuibench.tui.terminal import idle_gc


@pytest.fixture(autouse=True)
def no_freezing(monkeypatch):
    """The test process's own objects are never frozen here: each call is recorded."""
    calls: list[str] = []
    monkeypatch.setattr(idle_gc.gc, "freeze", lambda: calls.append("freeze"))
    monkeypatch.setattr(idle_gc.gc, "unfreeze", lambda: calls.append("unfreeze"))
    return calls


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


async def test_a_key_read_puts_the_collection_off(monkeypatch):
    collected: list[float] = []
    loop = asyncio.get_running_loop()
    monkeypatch.setattr(idle_gc.gc, "collect", lambda: collected.append(loop.time()))
    monkeypatch.setattr(idle_gc, "IDLE", 0.2)
    idle = idle_gc.IdleCollector(loop)
    try:
        idle.activity()  # a write: the collection comes IDLE after it ...
        await asyncio.sleep(0.15)
        # ... but a key is read (the input thread) and its handler writes nothing yet
        threading.Thread(target=idle.input).start()
        read = loop.time()
        await asyncio.sleep(0.1)
        assert collected == []  # IDLE after the write, not after the key
        await asyncio.sleep(0.4)
        assert len(collected) == 1 and collected[0] - read >= 0.19
    finally:
        idle.stop()


async def test_survivors_are_frozen_and_collected_again_once_the_screen_rests(
    monkeypatch, no_freezing
):
    monkeypatch.setattr(idle_gc.gc, "collect", lambda: no_freezing.append("collect"))
    monkeypatch.setattr(idle_gc, "IDLE", 0.01)
    monkeypatch.setattr(idle_gc, "DEEP_IDLE", 0.3)
    idle = idle_gc.IdleCollector(asyncio.get_running_loop())
    try:
        idle.activity()
        await asyncio.sleep(0.1)
        assert no_freezing == ["collect", "freeze"]  # the next walks only what is new
        idle.activity()  # a write before DEEP_IDLE: no deep collection yet
        await asyncio.sleep(0.2)
        assert no_freezing == ["collect", "freeze"] * 2
        await asyncio.sleep(0.4)  # resting: the frozen objects are collected too, once
        assert no_freezing == ["collect", "freeze"] * 2 + ["unfreeze", "collect", "freeze"]
        await asyncio.sleep(0.4)
        assert no_freezing[-3:] == ["unfreeze", "collect", "freeze"] and len(no_freezing) == 7
    finally:
        idle.stop()


async def test_a_deep_collection_after_a_longer_pause_once_many_were_frozen(
    monkeypatch, no_freezing
):
    frozen = [1000]
    monkeypatch.setattr(idle_gc.gc, "get_freeze_count", lambda: frozen[0])
    monkeypatch.setattr(idle_gc.gc, "collect", lambda: no_freezing.append("collect"))
    monkeypatch.setattr(idle_gc, "IDLE", 0.01)
    monkeypatch.setattr(idle_gc, "DEEP_GROWN_IDLE", 0.3)
    idle = idle_gc.IdleCollector(asyncio.get_running_loop())
    try:
        idle.activity()
        await asyncio.sleep(0.1)
        assert no_freezing == ["collect", "freeze"]
        frozen[0] += idle_gc.DEEP_GROWTH  # keys without a pause froze many more
        idle.activity()
        await asyncio.sleep(0.1)  # a short gap: a plain collection, not the deep one
        assert no_freezing[2:] == ["collect", "freeze"]
        idle.activity()  # a write within DEEP_GROWN_IDLE puts the deep one off again
        await asyncio.sleep(0.1)
        assert no_freezing[4:] == ["collect", "freeze"]
        await asyncio.sleep(0.4)  # the longer pause: now the deep one
        assert no_freezing[6:] == ["unfreeze", "collect", "freeze"]
        idle.activity()  # counted from the deep one: a plain collection again
        await asyncio.sleep(0.1)
        assert no_freezing[9:] == ["collect", "freeze"]
        await asyncio.sleep(0.4)  # and the next deep one only after DEEP_IDLE
        assert len(no_freezing) == 11
    finally:
        idle.stop()


async def test_a_key_answered_by_a_write_does_not_put_it_off(monkeypatch):
    """Keys typed every 0.1-0.2 s: each is answered by its frame, and the overdue
    collection runs in the gap after that frame, not only IDLE after the last key."""
    collected: list[float] = []
    loop = asyncio.get_running_loop()
    monkeypatch.setattr(idle_gc.gc, "collect", lambda: collected.append(loop.time()))
    monkeypatch.setattr(idle_gc, "IDLE", 0.5)
    monkeypatch.setattr(idle_gc, "IDLE_OVERDUE", 0.05)
    monkeypatch.setattr(idle_gc, "OVERDUE", 0.0)  # a collection is due at once
    idle = idle_gc.IdleCollector(loop)
    try:
        idle.input()  # a key read ...
        await asyncio.sleep(0.02)
        idle.activity()  # ... and its frame
        written = loop.time()
        await asyncio.sleep(0.25)  # within IDLE of the key, past IDLE_OVERDUE of the frame
        assert len(collected) == 1 and collected[0] - written < 0.2
    finally:
        idle.stop()


async def test_the_heap_is_trimmed_after_each_collection(monkeypatch):
    """What the work before freed goes back to the system with the collection (glibc keeps
    freed blocks in its heaps: 0.5 GB at a million metrics)."""
    done: list[str] = []
    monkeypatch.setattr(idle_gc.gc, "collect", lambda: done.append("collect"))
    monkeypatch.setattr(
        idle_gc.process_settings, "heap_trimmer", lambda: lambda: done.append("trim")
    )
    monkeypatch.setattr(idle_gc, "IDLE", 0.05)
    idle = idle_gc.IdleCollector(asyncio.get_running_loop())
    idle.activity()
    await asyncio.sleep(0.3)
    idle.stop()
    assert done == ["collect", "trim"]


def _resident_mib() -> float:
    with open("/proc/self/status") as f:
        kb = next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))
    return kb / 1024


def test_the_trimmer_gives_back_free_heap_pages():
    """Under glibc, blocks freed inside the heap (every ninth kept: not at its top, where
    malloc gives back on its own) stay resident until the trim gives them back."""
    trim = idle_gc.process_settings.heap_trimmer()
    if trim is None or not Path("/proc/self/status").exists():
        pytest.skip("not glibc's malloc, or malloc's settings given")
    blocks = [b"x" * 60_000 for _ in range(2_000)]  # 120 MB written, from the heap
    kept = blocks[::9]
    del blocks
    before = _resident_mib()
    trim()
    assert before - _resident_mib() > 60
    del kept
