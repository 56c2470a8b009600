"""Read one list inside a large JSON object item by item, with the standard decoder.

`json.loads` of a 500 MB Google Benchmark file builds an object tree many times its size.
Here the file is read in chunks and each item of the `benchmarks` list is decoded on its
own (`JSONDecoder.raw_decode`, so NaN and Infinity are accepted exactly as by
`json.loads`): memory holds one chunk and one item, plus what the reader keeps of them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from pathlib import Path

from tuibench.ingest.formats.base import JsonError, open_text

CHUNK = 8 * 2**20  # characters read at a time
MAX_ITEM = 64 * 2**20  # a value that does not decode within this many characters is invalid
_DECODER = json.JSONDecoder()
_SPACE = " \t\r\n"


class _Reader:
    """A window on the text of a file: `buf[pos:]` is what is not consumed yet."""

    def __init__(self, fh):
        self.fh = fh
        self.buf = ""
        self.pos = 0
        self.eof = False
        self.lines = 0  # newlines in text dropped from the window
        self.column = 0  # characters of the current line dropped from the window

    def more(self) -> bool:
        if self.eof:
            return False
        chunk = self.fh.read(max(CHUNK, len(self.buf) - self.pos))
        if not chunk:
            self.eof = True
            return False
        nl = self.buf.rfind("\n", 0, self.pos)
        self.lines += self.buf.count("\n", 0, self.pos)
        self.column = self.pos - nl - 1 if nl >= 0 else self.column + self.pos
        self.buf = self.buf[self.pos :] + chunk
        self.pos = 0
        return True

    def peek(self) -> str:
        """The next character that is not blank space ('' at the end of the file)."""
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in _SPACE:
                self.pos += 1
            if self.pos < len(self.buf) or not self.more():
                return self.buf[self.pos : self.pos + 1]

    def expect(self, chars: str) -> str:
        c = self.peek()
        if not c or c not in chars:
            self.fail("expected " + " or ".join(repr(x) for x in chars), truncated=not c)
        self.pos += 1
        return c

    def value(self) -> object:
        """Decode the next value; a value cut by the window is decoded again with more text."""
        self.peek()
        while True:
            try:
                obj, end = _DECODER.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if len(self.buf) - self.pos < MAX_ITEM and self.more():
                    continue
                self.fail(exc.msg, truncated=exc.pos >= len(self.buf.rstrip()), at=exc.pos)
            except RecursionError:
                raise JsonError("invalid JSON: nested too deeply", None) from None
            # A number may go on past the window: see the character after it first.
            if end >= len(self.buf) and self.more():
                continue
            self.pos = end
            return obj

    def fail(self, msg: str, truncated: bool, at: int | None = None):
        at = self.pos if at is None else at
        line = self.lines + self.buf.count("\n", 0, at) + 1
        nl = self.buf.rfind("\n", 0, at)
        column = at - nl if nl >= 0 else self.column + at + 1
        what = "truncated JSON" if truncated else "invalid JSON"
        raise JsonError(f"{what}: {msg} (column {column})", line)


def stream_list(
    path: Path, key: str, accept: Callable[[dict], bool]
) -> tuple[dict, Iterator[object]] | None:
    """For a file holding one JSON object with a list under `key`: the members before that
    list, and an iterator over its items that checks the rest of the file once the items
    are done (raising JsonError for invalid JSON, as `load_json` does). None when the file
    is not such an object, or `accept` refuses the members before the list; JsonError when
    it is not valid JSON before the list."""
    fh = open_text(path)
    try:
        r = _Reader(fh)
        if r.peek() != "{":
            fh.close()
            return None
        r.pos += 1
        before: dict = {}
        if r.peek() == "}":
            fh.close()
            return None
        while True:
            name = r.value()
            if not isinstance(name, str):
                r.fail("expecting a property name in double quotes", truncated=False)
            r.expect(":")
            if name == key and r.peek() == "[":
                if not accept(before):
                    fh.close()
                    return None
                r.pos += 1
                return before, _items(r, fh)
            before[name] = r.value()
            if r.expect(",}") == "}":
                fh.close()
                return None
    except BaseException:
        fh.close()
        raise


def _items(r: _Reader, fh) -> Iterator[object]:
    with fh:
        if r.peek() == "]":
            r.pos += 1
        else:
            while True:
                yield r.value()
                if r.expect(",]") == "]":
                    break
        # The rest of the object: read and checked, kept nowhere.
        while r.expect(",}") == ",":
            if not isinstance(r.value(), str):
                r.fail("expecting a property name in double quotes", truncated=False)
            r.expect(":")
            r.value()
        if r.peek():
            r.fail("Extra data", truncated=False)
