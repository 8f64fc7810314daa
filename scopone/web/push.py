"""The push seam: "game X is now at version N", from wherever it changed to whoever watches it.

A process publishes its own changes here as it commits them; the store's listener adds the
changes other processes committed (PostgreSQL NOTIFY, or SQLite's polled ``data_version``). A
watcher learns only the newest version, never state: it loads the game and builds its own
viewer's view, so nothing one viewer may not see can travel through here.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager


class Watch:
    """One subscriber's mailbox: the newest version announced, and a flag that it moved.
    A stream's watch is also ``closed`` when the server begins to shut down (``Hub.close``)."""

    __slots__ = ("_event", "closed", "stream", "version")

    def __init__(self, version: int, stream: bool = False) -> None:
        self.version = version
        self.stream = stream
        self.closed = False
        self._event = asyncio.Event()

    def _offer(self, version: int) -> None:
        if version > self.version:
            self.version = version
            self._event.set()

    def _close(self) -> None:
        self.closed = True
        self._event.set()

    def nudge(self) -> None:
        """Wakes the watcher without a new version: something else it judges by changed."""
        self._event.set()

    async def changed(self, timeout: float | None = None) -> bool:
        """Waits until the version moves past what was last taken, or the watch is closed;
        False on timeout."""
        if self.closed:
            return True
        try:
            # A deadline on this task rather than ``wait_for``'s task a wait (3.11): every
            # card wakes a driver and a stream, so this is on the hot path.
            async with asyncio.timeout(timeout):
                await self._event.wait()
        except TimeoutError:
            return False
        self._event.clear()
        return True


class Hub:
    """Fans versions out to this process's watches. Call ``publish`` on the event loop and
    ``publish_threadsafe`` from any other thread (the store's listener)."""

    def __init__(self) -> None:
        self._watches: dict[str, set[Watch]] = {}
        self._known: dict[str, int] = {}
        # The newest version published while the game was watched here (``heard``): unlike
        # ``_known``, never a version a watcher only said it had seen.
        self._heard: dict[str, int] = {}
        self._lock = threading.Lock()  # guards _known and _heard, read by other threads
        self._loop: asyncio.AbstractEventLoop | None = None
        self.closing = False

    def bind(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop

    @asynccontextmanager
    async def watch(self, game_id: str, version: int,
                    stream: bool = False) -> AsyncIterator[Watch]:
        """A watch on ``game_id`` for as long as the block runs; ``version`` is the one the
        watcher has already seen (a later one may already be waiting). A ``stream``'s watch
        (a browser's event stream) is closed by ``close``; a driver's is not."""
        if self._loop is None:
            self._loop = asyncio.get_running_loop()
        w = Watch(version, stream)
        if stream and self.closing:
            w._close()
        self._watches.setdefault(game_id, set()).add(w)
        with self._lock:
            known = self._known.setdefault(game_id, version)
        w._offer(known)
        try:
            yield w
        finally:
            watches = self._watches.get(game_id)
            if watches is not None:
                watches.discard(w)
                if not watches:
                    del self._watches[game_id]
                    with self._lock:
                        self._known.pop(game_id, None)
                        self._heard.pop(game_id, None)

    def publish(self, game_id: str, version: int) -> None:
        """Game ``game_id`` is committed at ``version`` (duplicates and old news are ignored)."""
        watches = self._watches.get(game_id)
        if not watches:
            return
        with self._lock:
            if version <= self._known.get(game_id, -1):
                return
            self._known[game_id] = version
            self._heard[game_id] = version
        for w in watches:
            w._offer(version)

    def publish_threadsafe(self, game_id: str, version: int) -> None:
        with self._lock:
            known = self._known.get(game_id)
        if known is None or version <= known:
            # Nobody here watches the game, or it is old news: most often this process's own
            # commit, which PostgreSQL's NOTIFY brings back to it. The loop is not woken.
            return
        loop = self._loop
        if loop is not None and not loop.is_closed():
            loop.call_soon_threadsafe(self.publish, game_id, version)

    def close(self) -> None:
        """The server begins to shut down: every stream's watch is closed, so the streams end
        now and their browsers reconnect (to this server once it is back, or to another
        process) and catch up from the last version they saw. Without it the server would
        wait for each stream's own end, minutes away. Drivers' watches stay open: they end
        with the app."""
        self.closing = True
        for watches in self._watches.values():
            for w in watches:
                if w.stream:
                    w._close()

    def heard(self, game_id: str) -> int | None:
        """The newest version of the game committed (here, or by another process and told by
        the store's listener) since this process began to watch it; None if nobody here
        watches it, or nothing was committed since. Any later commit is on its way here."""
        with self._lock:
            return self._heard.get(game_id)

    def watched(self) -> dict[str, int]:
        """The watched games with the newest version known here (for a listener's resync)."""
        with self._lock:
            return dict(self._known)

    def count(self) -> int:
        """Watches open in this process (for metrics and tests)."""
        return sum(len(s) for s in self._watches.values())
