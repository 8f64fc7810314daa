"""The store's calls for the service's requests, streams and drivers: none of them waits on
the event loop when the store can tell that it would.

Every store call is short when the database is well, but not always: a write waiting for
another process's write on a SQLite file (up to its busy timeout), a file locked by another
program, a PostgreSQL row another transaction holds, an outage's wait for a connection. Made on
the event loop, such a call held up every request, stream and table of the process for its
seconds. Each call is first made on the loop inside ``Store.at_once``, where a call that would
wait does nothing and says so (``WouldWait``); that one is made again where its wait holds up
only the request that needs its answer: on PostgreSQL, its driver's async pool
(``Store.async_calls``, once ``open`` has bound it to the server's loop); on SQLite, a thread
of the store's own.

Not every call on a thread: that cost a card a quarter to a half more of the server's CPU on
SQLite and three times as much on PostgreSQL (stop 40, ``loadbench --pace page``): a thread
hands the GIL back and forth with a busy loop at every step of a call. Nor every PostgreSQL
call on the async pool: 5% more at 500 games, a third more at 750 and at 1,000 on two
processes, where the server no longer kept up (stop 41): each awaited round trip is turns of
the loop that the synchronous driver's few microseconds of waiting are not.

Threads of its own, not the loop's default executor: the heartbeat and the coach's work use that
one, and a database in trouble must not leave them waiting behind store calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from .base import AsyncCalls, GameRecord, PersonRecord, Store
from .errors import WouldWait

P = ParamSpec("P")
R = TypeVar("R")

#: Calls waiting at once on threads: SQLite's two connections (reads, writes) take one each; the
#: others wait for them there.
THREADS = 4


class OffLoop:
    """The async face of one ``Store``: the same calls, each made at once on the event loop
    or, when it would wait there, on the store's async calls (PostgreSQL's, opened on this
    loop) or threads (SQLite's, or any store's on a loop the async calls were not opened on)."""

    def __init__(self, store: Store, threads: int = THREADS) -> None:
        self.store = store
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="store")
        self.waited = 0  # calls made again off the loop (for tests)
        self._async = store.async_calls()

    async def open(self) -> None:
        """Binds the store's async calls, if it has them, to the running loop: the server's,
        at its start."""
        if self._async is not None:
            await self._async.open()

    def _awaited(self) -> AsyncCalls | None:
        """The store's async calls, if it has them and they belong to the running loop."""
        calls = self._async
        return calls if calls is not None and calls.here() else None

    async def _run(self, fn: Callable[P, R], awaited: Callable[P, Awaitable[R]] | None,
                   *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            with self.store.at_once():
                return fn(*args, **kwargs)
        except WouldWait:
            self.waited += 1
        if awaited is not None:
            return await awaited(*args, **kwargs)
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, lambda: fn(*args, **kwargs))

    async def close(self) -> None:
        """Closes the async calls and lets the threads go once their calls are done (the store
        itself is closed apart)."""
        if self._async is not None:
            await self._async.close()
        self._threads.shutdown(wait=False)

    async def ping(self) -> bool:
        calls = self._awaited()
        return await self._run(self.store.ping, None if calls is None else calls.ping)

    async def insert(self, rec: GameRecord) -> None:
        calls = self._awaited()
        await self._run(self.store.insert, None if calls is None else calls.insert, rec)

    async def load(self, game_id: str) -> GameRecord | None:
        calls = self._awaited()
        return await self._run(self.store.load, None if calls is None else calls.load, game_id)

    async def load_by_code(self, code: str) -> GameRecord | None:
        calls = self._awaited()
        return await self._run(self.store.load_by_code,
                               None if calls is None else calls.load_by_code, code)

    async def version(self, game_id: str) -> int | None:
        calls = self._awaited()
        return await self._run(self.store.version, None if calls is None else calls.version,
                               game_id)

    async def update(self, rec: GameRecord, expected_version: int,
                     expected_updated: float | None = None) -> bool:
        calls = self._awaited()
        return await self._run(self.store.update, None if calls is None else calls.update,
                               rec, expected_version, expected_updated)

    async def load_person(self, person_id: str) -> PersonRecord | None:
        calls = self._awaited()
        return await self._run(self.store.load_person,
                               None if calls is None else calls.load_person, person_id)

    async def save_person(self, rec: PersonRecord, expected_updated: float | None = None) -> bool:
        calls = self._awaited()
        return await self._run(self.store.save_person,
                               None if calls is None else calls.save_person, rec,
                               expected_updated)
