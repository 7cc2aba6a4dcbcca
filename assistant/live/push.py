"""Push: every open page learns of each change of the game at once (server-sent events).

One :class:`Hub` per served table. It keeps the table's version (the log's last event number)
and wakes every open stream when it changes. A change is seen two ways, by one shared background
task (never one per page):

- a write through this server pokes the hub (the web app does so after each POST), so the
  pages hear of it as soon as the answer is sent;
- a write by another process (the CLI, a second server) changes the SQLite file or its WAL:
  the task compares their size and modification time every :data:`POLL` seconds (two ``stat``
  calls) and reads the log's last event number only when they moved.

Nothing here blocks the event loop: the version is read in a worker thread.

Also :class:`Replies`, the memory of request ids that makes a record idempotent (a double tap or
a retry is recorded once and answered with the first answer).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from collections import OrderedDict
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path

from ..fileread import file_marks

#: seconds between two looks at the game's files (a change made by another process)
POLL = 0.1
#: seconds of silence after which a stream sends a comment (proxies and phones keep it open)
KEEPALIVE = 15.0
#: how many answered request ids are remembered (the oldest are forgotten first)
REMEMBERED = 1000


def event(version: int) -> bytes:
    """One server-sent event: ``event: change`` with ``{"version": N}`` (its id the version).

    >>> event(7)
    b'id: 7\\nevent: change\\ndata: {"version": 7}\\n\\n'
    """
    return f"id: {version}\nevent: change\ndata: {json.dumps({'version': version})}\n\n".encode()


class Hub:
    """The table's version and the streams waiting for it to change."""

    def __init__(self, version: Callable[[], int], files: tuple[Path, ...] = ()):
        self._read = version
        self._files = files
        self.version = version()
        self._signature = self._stat()
        # made in the loop that serves (a test client may run several loops one after another)
        self._loop: asyncio.AbstractEventLoop | None = None
        self._changed: asyncio.Condition | None = None
        self._wake: asyncio.Event | None = None
        self._task: asyncio.Task[None] | None = None
        self.streams = 0
        self.closing = False

    def _stat(self) -> tuple[tuple[int, int] | None, ...]:
        return tuple(file_marks(f) for f in self._files)

    def _start(self) -> tuple[asyncio.Condition, asyncio.Event]:
        loop = asyncio.get_running_loop()
        if self._loop is not loop or self._task is None or self._task.done():
            self._loop = loop
            self._changed, self._wake = asyncio.Condition(), asyncio.Event()
            self._task = loop.create_task(self._watch())
        assert self._changed is not None and self._wake is not None
        return self._changed, self._wake

    def poke(self) -> None:
        """Look now: this server may just have recorded something."""
        self._start()[1].set()

    async def _watch(self) -> None:
        changed, wake = self._start()
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(wake.wait(), POLL)
            poked = wake.is_set()
            wake.clear()
            sig = self._stat()
            if not poked and sig == self._signature:
                continue
            try:
                now = await asyncio.to_thread(self._read)
            except Exception:  # a file being replaced or locked for long: look again next time
                continue  # its marks not kept, or the change that locked it would never be read
            self._signature = sig
            if now != self.version:
                self.version = now
                async with changed:
                    changed.notify_all()

    def _moved_from(self, seen: int) -> Callable[[], bool]:
        return lambda: self.version != seen or self.closing

    def close(self) -> None:
        """The server is stopping: end every stream (they never end by themselves, and the
        server waits for its open answers). Safe from a signal handler or another thread."""
        self.closing = True
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(lambda: loop.create_task(self._release()))

    async def _release(self) -> None:
        if self._changed is not None:
            async with self._changed:
                self._changed.notify_all()

    async def stream(self, gone: Callable[[], Awaitable[bool]]) -> AsyncIterator[bytes]:
        """One page's stream: the version now, then each change, with a keep-alive comment in
        long silences; ends when the page has gone."""
        changed, _wake = self._start()
        self.streams += 1
        try:
            yield b"retry: 1000\n\n"  # the browser reconnects after a second if the line drops
            seen: int | None = None
            while not self.closing:
                if self.version != seen:
                    seen = self.version
                    yield event(seen)
                    continue
                async with changed:
                    with contextlib.suppress(TimeoutError):
                        await asyncio.wait_for(changed.wait_for(self._moved_from(seen)), KEEPALIVE)
                if self.version == seen:
                    if await gone():
                        return
                    yield b": keep-alive\n\n"
        finally:
            self.streams -= 1


@dataclass(frozen=True)
class Reply:
    """An answer as it was sent, to be sent again for a repeated request id."""

    status: int
    body: bytes
    media_type: str | None
    #: found in the game's log (recorded before a restart), not answered by this server
    repeat: bool = False


class Replies:
    """The answers to the last :data:`REMEMBERED` request ids. A repeat (a double tap, a retry
    after a lost answer) gets the first answer and runs nothing; a repeat that arrives while the
    first is still being answered waits for it."""

    def __init__(self, size: int = REMEMBERED):
        self.size = size
        self._done: OrderedDict[tuple[str, str], Reply] = OrderedDict()
        self._pending: dict[tuple[str, str], asyncio.Future[Reply]] = {}

    def __len__(self) -> int:
        return len(self._done)

    async def once(self, key: tuple[str, str], answer: Callable[[], Awaitable[Reply]]) -> tuple[Reply, bool]:
        """(the answer, whether it is a repeat's)."""
        if key in self._done:
            self._done.move_to_end(key)
            return self._done[key], True
        if key in self._pending:
            return await asyncio.shield(self._pending[key]), True
        fut: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._pending[key] = fut
        try:
            reply = await answer()
        except BaseException as exc:
            fut.set_exception(exc)
            fut.exception()  # retrieved: a lone request's failure is not "never retrieved"
            raise
        finally:
            self._pending.pop(key, None)
        fut.set_result(reply)
        if reply.status < 500 and reply.status != 499:  # a server fault, a client gone: not an answer, a retry runs again
            self._done[key] = reply
            while len(self._done) > self.size:
                self._done.popitem(last=False)
        return reply, False
