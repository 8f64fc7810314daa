"""The store's calls off the event loop, for the service's requests, streams and drivers.

Every store call is short when the database is well, but not always: a statement waiting for a
lock another process holds (up to the store's lock timeout), the first call after PostgreSQL went
away (its connection's timeout), a SQLite file busy with another worker's write. Made on the
event loop, such a call held up every request, stream and table of the process for its seconds;
made here, on a thread of the store's own, it holds up only the request that needs its answer.

Threads of its own, not the loop's default executor: the heartbeat and the coach's work use that
one, and a database away must not leave them waiting behind store calls (nor those behind them).
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import ParamSpec, TypeVar

from .base import GameRecord, PersonRecord, Store

P = ParamSpec("P")
R = TypeVar("R")

#: Store calls of one process at once: PostgreSQL's pool holds 4 connections (the others wait
#: for one there, within its timeout); SQLite has one connection for reads, one for writes.
THREADS = 8


class OffLoop:
    """The async face of one ``Store``: the same calls, each run on the store's threads."""

    def __init__(self, store: Store, threads: int = THREADS) -> None:
        self.store = store
        self._threads = ThreadPoolExecutor(threads, thread_name_prefix="store")

    async def _run(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self._threads, lambda: fn(*args, **kwargs))

    def close(self) -> None:
        """Lets the threads go once their calls are done (the store itself is closed apart)."""
        self._threads.shutdown(wait=False)

    async def ping(self) -> bool:
        return await self._run(self.store.ping)

    async def insert(self, rec: GameRecord) -> None:
        await self._run(self.store.insert, rec)

    async def load(self, game_id: str) -> GameRecord | None:
        return await self._run(self.store.load, game_id)

    async def load_by_code(self, code: str) -> GameRecord | None:
        return await self._run(self.store.load_by_code, code)

    async def version(self, game_id: str) -> int | None:
        return await self._run(self.store.version, game_id)

    async def update(self, rec: GameRecord, expected_version: int,
                     expected_updated: float | None = None) -> bool:
        return await self._run(self.store.update, rec, expected_version, expected_updated)

    async def load_person(self, person_id: str) -> PersonRecord | None:
        return await self._run(self.store.load_person, person_id)

    async def save_person(self, rec: PersonRecord) -> None:
        await self._run(self.store.save_person, rec)
