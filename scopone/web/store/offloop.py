"""The store's calls for the service's requests, streams and drivers: none of them waits on
the event loop when the store can tell that it would.

Every store call is short when the database is well, but not always: a write waiting for
another process's write on a SQLite file (up to its busy timeout), a file locked by another
program. Made on the event loop, such a call held up every request, stream and table of the
process for its seconds. Each call is first made on the loop inside ``Store.at_once``, where a
call that would wait does nothing and says so (``WouldWait``); that one is made again on a
thread of the store's own, where its wait holds up only the request that needs its answer.

Not every call on a thread: that cost a card a quarter to a half more of the server's CPU on
SQLite and three times as much on PostgreSQL (stop 40, ``loadbench --pace page``): a thread
hands the GIL back and forth with a busy loop at every step of a call. PostgreSQL's calls cannot
tell that they would wait (``PostgresStore.at_once``); its driver awaits them on the loop
instead (``Store.async_calls``), once ``open`` has bound them to the server's loop. Until then,
and from any other loop, they are made as SQLite's are.

Threads of its own, not the loop's default executor: the heartbeat and the coach's work use that
one, and a database in trouble must not leave them waiting behind store calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
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
    or, when it would wait there, on the store's threads."""

    def __init__(self, store: Store, threads: int = THREADS) -> None:
        self.store = store
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="store")
        self.waited = 0  # calls made again on a thread (for tests)
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

    async def _run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        try:
            with self.store.at_once():
                return fn(*args, **kwargs)
        except WouldWait:
            self.waited += 1
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, lambda: fn(*args, **kwargs))

    async def close(self) -> None:
        """Closes the async calls and lets the threads go once their calls are done (the store
        itself is closed apart)."""
        if self._async is not None:
            await self._async.close()
        self._threads.shutdown(wait=False)

    async def ping(self) -> bool:
        if (calls := self._awaited()) is not None:
            return await calls.ping()
        return await self._run(self.store.ping)

    async def insert(self, rec: GameRecord) -> None:
        if (calls := self._awaited()) is not None:
            return await calls.insert(rec)
        await self._run(self.store.insert, rec)

    async def load(self, game_id: str) -> GameRecord | None:
        if (calls := self._awaited()) is not None:
            return await calls.load(game_id)
        return await self._run(self.store.load, game_id)

    async def load_by_code(self, code: str) -> GameRecord | None:
        if (calls := self._awaited()) is not None:
            return await calls.load_by_code(code)
        return await self._run(self.store.load_by_code, code)

    async def version(self, game_id: str) -> int | None:
        if (calls := self._awaited()) is not None:
            return await calls.version(game_id)
        return await self._run(self.store.version, game_id)

    async def update(self, rec: GameRecord, expected_version: int,
                     expected_updated: float | None = None) -> bool:
        if (calls := self._awaited()) is not None:
            return await calls.update(rec, expected_version, expected_updated)
        return await self._run(self.store.update, rec, expected_version, expected_updated)

    async def load_person(self, person_id: str) -> PersonRecord | None:
        if (calls := self._awaited()) is not None:
            return await calls.load_person(person_id)
        return await self._run(self.store.load_person, person_id)

    async def save_person(self, rec: PersonRecord, expected_updated: float | None = None) -> bool:
        if (calls := self._awaited()) is not None:
            return await calls.save_person(rec, expected_updated)
        return await self._run(self.store.save_person, rec, expected_updated)
