"""Where a PostgreSQL call of the server's event loop that would wait is made (psycopg's async
pool): a row another program holds locked (up to the 5 s lock timeout), a slow statement, an
outage's wait for a connection (up to 5 s). Made with the synchronous driver on the loop, such
a call held up every request, stream ping, page and table of the process for as long; awaited
here it holds up only the request that needs its answer.

Only those calls: each is first made at once on the loop (``PostgresStore.at_once``,
``OffLoop``). Every call awaited here cost a card 5% more of the server's CPU at 500 games and a
third more at 750, where one process no longer kept up (stop 41); on threads, three times as
much (stop 40).

The pool belongs to one event loop, the server's: ``open`` binds it there at start, ``close``
at stop. On any other loop (a test's own, a script's) a call that would wait goes to a thread
(``OffLoop``). The statements are the synchronous store's own (``postgres``).
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, TypeVar

import psycopg
from psycopg_pool import AsyncConnectionPool, PoolTimeout

from .base import GameRecord, PersonRecord, record_from_row
from .errors import ConnectionLost, PoolBusy
from .postgres import (
    INSERT_GAME,
    LOAD_BY_CODE,
    LOAD_GAME,
    LOAD_PERSON,
    LOCK_TIMEOUT,
    RECONNECT_TIMEOUT,
    STATEMENT_TIMEOUT,
    UPDATE_GAME,
    VERSION,
    WAIT_SECONDS,
    ended,
    insert_args,
    inserted,
    person_from_row,
    save_person_query,
    storable,
    update_args,
)
from .postgres_answer import PING_ANSWER_SECONDS, AsyncAnswering, answering_within


class CallerGone(logging.Filter):
    """Drops psycopg's "query cancellation interrupted (CancelledError): closing connection".

    A call awaited here is cancelled when its request is (a stream closed, a client gone while
    it waited). psycopg then asks the server to cancel the statement and waits for it, but
    under the server's anyio a cancelled task is cancelled again at each await: that wait is
    always interrupted, and psycopg closes the connection, which the pool replaces. That is
    what every client gone mid-call does, nothing an operator must act on; logged as a warning
    it read as a fault (helper-54). Any other interruption still warns."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not (isinstance(record.msg, str)
                    and record.msg.startswith("query cancellation interrupted")
                    and record.args == ("CancelledError",))


logging.getLogger("psycopg").addFilter(CallerGone())

R = TypeVar("R")
Conn = psycopg.AsyncConnection[tuple[Any, ...]]

#: Calls waiting here at once, each holding a connection (one waiting for a row's lock holds
#: its own; the games of a process wait one by one behind their own lock, so this many locked
#: rows at once before a call waits for a connection).
POOL_SIZE = 8


async def _timeouts(conn: psycopg.AsyncConnection[Any]) -> None:
    await conn.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
    await conn.execute(f"SET statement_timeout = '{STATEMENT_TIMEOUT}'")


class AsyncPostgres:
    """The calls a request, stream or driver makes (``OffLoop``), awaited on the loop."""

    def __init__(self, url: str, pool_size: int = POOL_SIZE) -> None:
        self.url = url
        self._size = pool_size
        self.wait = WAIT_SECONDS  # for a connection (tests shorten it)
        self._pool: AsyncConnectionPool[psycopg.AsyncConnection[tuple[Any, ...]]] | None = None
        self._loop: asyncio.AbstractEventLoop | None = None

    async def open(self) -> None:
        """Binds the pool to the running loop. Does not wait for a connection: a server
        started while the database is away starts, and answers 503 until it is back."""
        self._pool = AsyncConnectionPool(
            self.url, min_size=1, max_size=self._size, open=False,
            kwargs={"autocommit": True, "connect_timeout": int(WAIT_SECONDS)},
            connection_class=AsyncAnswering, name="scopone-async", configure=_timeouts,
            timeout=WAIT_SECONDS,
            reconnect_timeout=RECONNECT_TIMEOUT)
        await self._pool.open(wait=False)
        self._loop = asyncio.get_running_loop()

    def here(self) -> bool:
        """Whether the running loop is the one the pool belongs to."""
        try:
            return self._loop is asyncio.get_running_loop()
        except RuntimeError:
            return False

    async def close(self) -> None:
        self._loop = None
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @asynccontextmanager
    async def _connection(self, timeout: float | None = None
                          ) -> AsyncIterator[psycopg.AsyncConnection[tuple[Any, ...]]]:
        """A connection of the pool, checked before it serves (``ended``) by this store, not
        by the pool: the pool waits a second, then two, between connections that fail its
        check, so after a restart its idle connections (up to ``POOL_SIZE``, kept ten minutes)
        took up the whole wait, and the call failed with the database back (QA helper-54). Here
        each ended one is closed and handed back at once (the pool makes another) and the next
        one taken."""
        pool = self._pool
        assert pool is not None, "open() first"
        deadline = time.monotonic() + (self.wait if timeout is None else timeout)
        while True:
            try:
                conn = await pool.getconn(max(deadline - time.monotonic(), 0.001))
            except PoolTimeout:
                stats = pool.get_stats()
                if stats["pool_available"] == 0 and stats["pool_size"] >= self._size:
                    raise PoolBusy() from None  # held by calls that wait: not the database
                raise
            if not ended(conn):
                break
            await conn.close()
            await pool.putconn(conn)
        try:
            yield conn
        except psycopg.OperationalError as exc:
            if conn.broken:  # ended under the call (``NoAnswer`` closes its own: not broken)
                raise ConnectionLost(str(exc)) from exc
            raise
        finally:
            await pool.putconn(conn)

    async def _made(self, call: Callable[[Conn], Awaitable[R]],
                    done: Callable[[R], bool] = lambda _: True) -> R:
        """``call`` on a connection of the pool; made once more on another if the server
        ended the first under it (``ConnectionLost``): it ends every connection at once (an
        idle-connection killer, a pooler restarted), and the request, made again, is answered
        rather than refused. Once only: a second connection lost so goes to ``ObservedStore``,
        which asks whether the database answers.

        A write made again may find the one made first done: its commit's answer is what was
        lost. Each write is done at most once however often it is made (``postgres``): found
        done, it answers as done. Its answer made again counts only if ``done`` (the write
        stored, by the first try or this one): a refusal could be the first try's own change
        taken for another's (another process's write came in between), so that call fails as
        it did (503) rather than saying a card that stands was refused as stale, or a coach's
        count, tried again on top of itself, counted twice."""
        try:
            async with self._connection() as conn:
                return await call(conn)
        except ConnectionLost as lost:
            async with self._connection() as conn:
                answer = await call(conn)
            if not done(answer):
                raise lost
            return answer

    async def ping(self) -> bool:
        for _ in range(2):  # once more if the server ended the connection (``PostgresStore``)
            try:
                async with self._connection(timeout=2.0) as conn:
                    with answering_within(conn, PING_ANSWER_SECONDS):
                        await (await conn.execute("SELECT 1")).fetchone()
            except ConnectionLost:
                continue
            except psycopg.Error:  # as ``PostgresStore.ping``
                return False
            return True
        return False

    async def insert(self, rec: GameRecord) -> None:
        async def call(conn: Conn) -> int:
            return (await conn.execute(INSERT_GAME, insert_args(rec))).rowcount

        inserted(await self._made(call, done=lambda rowcount: rowcount == 1), rec)

    async def _one(self, sql: str, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        if not storable(args):
            return None

        async def call(conn: Conn) -> tuple[Any, ...] | None:
            return await (await conn.execute(sql, args)).fetchone()

        return await self._made(call)  # a read: its answer made again is as good

    async def load(self, game_id: str) -> GameRecord | None:
        row = await self._one(LOAD_GAME, (game_id,))
        return None if row is None else record_from_row(row)

    async def load_by_code(self, code: str) -> GameRecord | None:
        row = await self._one(LOAD_BY_CODE, (code,))
        return None if row is None else record_from_row(row)

    async def version(self, game_id: str) -> int | None:
        row = await self._one(VERSION, (game_id,))
        return None if row is None else int(row[0])

    async def update(self, rec: GameRecord, expected_version: int,
                     expected_updated: float | None = None) -> bool:
        args = update_args(rec, expected_version, expected_updated)

        async def call(conn: Conn) -> bool:
            return (await conn.execute(UPDATE_GAME, args)).rowcount == 1

        return await self._made(call, done=bool)

    async def load_person(self, person_id: str) -> PersonRecord | None:
        row = await self._one(LOAD_PERSON, (person_id,))
        return None if row is None else person_from_row(row)

    async def save_person(self, rec: PersonRecord, expected_updated: float | None = None) -> bool:
        query = save_person_query(rec, expected_updated)

        async def call(conn: Conn) -> bool:
            return (await conn.execute(*query)).rowcount == 1

        return await self._made(call, done=bool)
