"""Whether the explorer's terminal went away without a hang-up signal.

A supervisor, `setsid` or a test harness can close the terminal of a process that does not
have it as its controlling terminal: no SIGHUP comes, and Textual's input thread then reads
end-of-file (or EIO) in a loop, spinning a core until killed. poll() tells that state
apart without reading (so no key is taken from the input thread): a closed pipe or a pty
whose master is closed reports POLLHUP or POLLERR.
"""

from __future__ import annotations

import select

CHECK_EVERY = 1.0  # seconds between looks: the explorer leaves within that of the loss
GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL


def input_gone(fd: int) -> bool:
    """True when `fd` can never deliver another key."""
    poller = select.poll()
    try:
        poller.register(fd, select.POLLIN)
        events = poller.poll(0)
    except (OSError, ValueError):
        return True
    return any(mask & GONE for _fd, mask in events)
