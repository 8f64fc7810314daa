"""The store on PostgreSQL (psycopg 3 and its pool): many processes and machines, one database.

Every committed change also sends ``NOTIFY scopone_games, 'id:version'`` in its own transaction,
so it is delivered exactly when the change is visible; each process LISTENs on one connection of
its own and reconnects by itself. The payload holds ids and versions only, never state.
"""

from __future__ import annotations

import json
import logging
import math
import select
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import psycopg
from psycopg_pool import ConnectionPool, PoolTimeout

from .base import (
    KEEP_BEATS_SECONDS,
    ROW_COLUMNS,
    SCHEMA_VERSION,
    AsyncCalls,
    AtOnceFlag,
    GameRecord,
    Listener,
    PersonRecord,
    dump_meta,
    dump_state,
    record_from_row,
)
from .errors import ConnectionLost, SchemaTooNew, WouldWait
from .postgres_answer import (
    PING_ANSWER_SECONDS,
    Answering,
    LoopAnswering,
    NoAnswer,
    answering_within,
)

log = logging.getLogger(__name__)
# The pool warns of every connection it could not make: during an outage, several lines a
# second (the probe of ``ObservedStore`` asks every half second). That store says when the
# database goes away and when it is back; the pool's errors still show.
logging.getLogger("psycopg.pool").setLevel(logging.ERROR)

CHANNEL = "scopone_games"

_CREATE = [
    "CREATE TABLE schema_info (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)",
    """CREATE TABLE games (
        id TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        level TEXT NOT NULL,
        seed TEXT NOT NULL,
        state TEXT NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}',
        code TEXT UNIQUE,
        finished BOOLEAN NOT NULL DEFAULT FALSE,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    )""",
    "CREATE INDEX games_updated ON games (updated)",
    """CREATE TABLE people (
        id TEXT PRIMARY KEY,
        data TEXT NOT NULL,
        created DOUBLE PRECISION NOT NULL,
        updated DOUBLE PRECISION NOT NULL
    )""",
]

# Version 3 added the processes' heartbeats (scopone.web.liveness); their times are the
# database server's, so the machines' own clocks never enter a judgement.
_PROCESSES = [
    """CREATE TABLE processes (
        name TEXT PRIMARY KEY,
        seen TIMESTAMPTZ NOT NULL,
        ended BOOLEAN NOT NULL DEFAULT FALSE
    )""",
]
_CREATE += _PROCESSES

#: Seconds between attempts while the listening connection is down.
RECONNECT_SECONDS = 0.5
#: The longest a request waits for the database: a database that hangs (stopped, a lock held,
#: a network gone) would hold the request for psycopg's own 30 s (and, when the calls were made
#: on the event loop, every request of the process); past these it answers 503 "database
#: unavailable" instead. A connection: from the pool, or a new one.
WAIT_SECONDS = 5.0
#: A lock another transaction holds, and any one statement (the longest we make, a sweep of
#: old games, takes milliseconds).
LOCK_TIMEOUT = "5s"
STATEMENT_TIMEOUT = "10s"  # the server's: one that hangs answers nothing (``postgres_answer``)
#: Inside ``at_once`` (a call on the server's event loop): a lock is waited for this long and a
#: statement may take this long; past them the call would wait (``WouldWait``: PostgreSQL rolls
#: the cancelled statement back, nothing is done) and ``OffLoop`` makes it again on psycopg's
#: async pool with the full timeouts. A lock held a moment by another process's write of the
#: same game is waited for on the loop; a lock held by a stuck transaction is not.
AT_ONCE_LOCK_TIMEOUT = "10ms"
AT_ONCE_STATEMENT_TIMEOUT = "100ms"
#: ... and the loop's connection, held by nobody else, is waited for only this long (the pool
#: refuses a wait of 0 outright, a free connection or not).
AT_ONCE_CONNECTION_SECONDS = 0.005
#: How long the pool retries a connection it could not make before it gives up and makes a
#: fresh one at the next request. Its retries back off exponentially (1, 2, 4... s), so with
#: psycopg's 5 minutes a process heard the database again up to two minutes after it was back.
RECONNECT_TIMEOUT = 10.0
#: The longest the question "is the database there?" after a call lost its connection waits
#: for a connection of its own (``PostgresStore.ping_fresh``): libpq's least, and the pool's
#: ping's own wait. A stopped server refuses one at once.
FRESH_CONNECT_SECONDS = 2
#: How libpq writes what the server itself said to a connection it refused: the severity, in
#: the server's language, then two spaces ("FATAL:  too many connections for role ..."). A
#: refused connection has no SQLSTATE in psycopg, only this text; libpq's own failures
#: (refused, no answer in time, the line reset) have no such word.
SERVER_SAID = ":  "
#: What PostgreSQL says to every connection while it stops or starts (SQLSTATE 57P03: "the
#: database system is shutting down", "... starting up", "... in recovery mode", "... not yet
#: accepting connections").
NOT_ACCEPTING = "the database system is "


def ended(conn: psycopg.Connection[Any] | psycopg.AsyncConnection[Any]) -> bool:
    """Whether ``conn`` is closed or the server ended it: an idle connection has nothing to
    read, while one the server ended (PostgreSQL restarting, or killed) has its farewell or
    its end waiting. One system call; a ``SELECT 1`` (``ConnectionPool.check_connection``) cost
    a round trip a request, about 12% more server CPU a card as the page plays (loadbench)."""
    if conn.closed or conn.broken:
        return True
    readable, _, _ = select.select([conn.fileno()], [], [], 0)
    return bool(readable)


def _alive(conn: psycopg.Connection[Any]) -> None:
    """The loop's pool's check of its one connection before it serves (``ended``)."""
    if ended(conn):
        conn.close()  # closed, the pool replaces it (an open one it would hand out again)
        raise psycopg.OperationalError("the server ended the connection")


@contextmanager
def checked(pool: ConnectionPool[Any],
            timeout: float | None = None) -> Iterator[psycopg.Connection[Any]]:
    """A connection of ``pool``, checked before it serves (``ended``) here, not by the pool:
    past the second connection that fails its check the pool waits a second, then two, then
    four before the next, while the one it makes for each is ready in milliseconds behind
    the others. So once PostgreSQL had ended every connection (a backend killed, a pooler
    restarted), a pool grown to a few took up the whole wait: the heartbeat failed after 5 s
    with the database up, and the process refused every call as away (QA helper-60, F2).
    Here each ended one is closed and handed back at once (the pool makes another) and the
    next one taken, as the async pool's (``AsyncPostgres._connection``)."""
    deadline = time.monotonic() + (pool.timeout if timeout is None else timeout)
    while True:
        conn = pool.getconn(max(deadline - time.monotonic(), 0.001))
        if not ended(conn):
            break
        conn.close()
        pool.putconn(conn)
    try:
        with conn:
            yield conn
    except psycopg.OperationalError as exc:
        if conn.broken:  # ended under the call: not, by itself, the database away
            raise ConnectionLost(str(exc)) from exc
        raise
    finally:
        pool.putconn(conn)


def refused_as_away(exc: psycopg.OperationalError) -> bool:
    """Whether a new connection that failed with ``exc`` says the server is away: nothing
    answered it (no server listening, no answer in time, the line reset), or the server said
    it is stopping or starting. Not a server that refused this one connection while it serves
    others (too many connections, a role's limit, a login refused): the pool's connections may
    still answer. (In a server's language other than English, a server stopping reads as one
    refusing this connection: the pool is asked then, as before.)

    >>> refused_as_away(psycopg.OperationalError('connection failed: connection to server at'
    ...     ' "127.0.0.1", port 5432 failed: Connection refused'))
    True
    >>> refused_as_away(psycopg.OperationalError('connection failed: connection to server at'
    ...     ' "127.0.0.1", port 5432 failed: FATAL:  the database system is shutting down'))
    True
    >>> refused_as_away(psycopg.OperationalError('connection failed: connection to server at'
    ...     ' "127.0.0.1", port 5432 failed: FATAL:  sorry, too many clients already'))
    False
    """
    text = str(exc)
    return SERVER_SAID not in text or NOT_ACCEPTING in text


def _timeouts(conn: psycopg.Connection[Any]) -> None:
    """Each new connection of the pool waits for a lock or a statement only so long."""
    conn.execute(f"SET lock_timeout = '{LOCK_TIMEOUT}'")
    conn.execute(f"SET statement_timeout = '{STATEMENT_TIMEOUT}'")


def _at_once_timeouts(conn: psycopg.Connection[Any]) -> None:
    conn.execute(f"SET lock_timeout = '{AT_ONCE_LOCK_TIMEOUT}'")
    conn.execute(f"SET statement_timeout = '{AT_ONCE_STATEMENT_TIMEOUT}'")


def storable(args: tuple[Any, ...]) -> bool:
    """False if a key holds a text PostgreSQL cannot hold (a NUL): it names nothing stored,
    and PostgreSQL refuses to compare one."""
    return not any(isinstance(a, str) and "\x00" in a for a in args)


# ----- the statements, made alike by the store's calls on threads and on the event loop -----

# Each write is done at most once however often it is made: a call whose answer did not come
# (``postgres_answer``: the server hung, or answered late) is made again off the loop, though
# the server may have done it; made again, it finds itself stored (the same times) and
# answers as done, where a write of another call still finds the row changed. (Else a game
# made twice failed on its id, and a hint or a round counted again, the count's next try
# adding it on top of itself.)
INSERT_GAME = ("INSERT INTO games (id, version, level, seed, state, meta, code, finished,"
               " created, updated) VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s)"
               " ON CONFLICT (id) DO UPDATE SET version = games.version"
               " WHERE games.created = excluded.created AND games.updated = excluded.updated")
LOAD_GAME = f"SELECT {ROW_COLUMNS} FROM games WHERE id = %s"
LOAD_BY_CODE = f"SELECT {ROW_COLUMNS} FROM games WHERE code = %s"
VERSION = "SELECT version FROM games WHERE id = %s"
# One statement, so one round trip in autocommit (not BEGIN, UPDATE, NOTIFY, COMMIT): the notice
# goes out at its commit, with the change it announces, and only if the version matched.
UPDATE_GAME = ("WITH changed AS (UPDATE games SET version = %s, level = %s, state = %s,"
               " meta = %s, code = %s, finished = %s, updated = %s"
               " WHERE id = %s AND (version = %s AND updated = coalesce(%s, updated)"
               " OR version = %s AND updated = %s)"  # or this write, stored already
               " RETURNING id) SELECT pg_notify(%s, %s) FROM changed")
LOAD_PERSON = "SELECT id, data, created, updated FROM people WHERE id = %s"


def insert_args(rec: GameRecord) -> tuple[Any, ...]:
    return (rec.id, rec.version, rec.level, rec.seed, dump_state(rec.match),
            dump_meta(rec.meta), rec.code, rec.finished, rec.created, rec.updated)


def inserted(rowcount: int, rec: GameRecord) -> None:
    """Refuses a new game whose id another game has (``INSERT_GAME`` stores nothing then)."""
    if rowcount != 1:
        raise psycopg.errors.UniqueViolation(f"a game with the id {rec.id} is stored already")


def update_args(rec: GameRecord, expected_version: int,
                expected_updated: float | None) -> tuple[Any, ...]:
    return (rec.version, rec.level, dump_state(rec.match), dump_meta(rec.meta), rec.code,
            rec.finished, rec.updated, rec.id, expected_version, expected_updated,
            rec.version, rec.updated, CHANNEL, f"{rec.id}:{rec.version}")


def person_from_row(row: tuple[Any, ...]) -> PersonRecord:
    return PersonRecord(row[0], json.loads(row[1]), row[2], row[3])


def save_person_query(rec: PersonRecord,
                      expected_updated: float | None) -> tuple[str, tuple[Any, ...]]:
    """A new person only if none has the id; else only over the copy stored last."""
    data = dump_meta(rec.data)
    if expected_updated is None:
        return ("INSERT INTO people (id, data, created, updated) VALUES (%s, %s, %s, %s)"
                " ON CONFLICT (id) DO UPDATE SET updated = excluded.updated"
                " WHERE people.updated = excluded.updated AND people.data = excluded.data",
                (rec.id, data, rec.created, rec.updated))
    return ("UPDATE people SET data = %s, updated = %s WHERE id = %s"
            " AND (updated = %s OR updated = %s AND data = %s)",  # or this write, stored
            (data, rec.updated, rec.id, expected_updated, rec.updated, data))


class PostgresStore:
    """PostgreSQL behind a small connection pool; the schema is made or checked at start."""

    kind = "postgresql"

    def __init__(self, url: str, pool_size: int = 4) -> None:
        self.url = url
        # Each connection is checked before it serves (``checked``): after PostgreSQL restarts,
        # the idle ones are dead, and each would fail the request it was given.
        self._pool = ConnectionPool(url, min_size=1, max_size=pool_size, open=True,
                                    kwargs={"autocommit": True,
                                            "connect_timeout": int(WAIT_SECONDS)},
                                    connection_class=Answering,
                                    name="scopone", configure=_timeouts,
                                    timeout=WAIT_SECONDS, reconnect_timeout=RECONNECT_TIMEOUT)
        # The event loop's calls (``at_once``): one connection, as the loop makes one call at
        # a time, with the short timeouts, its own and the server's (``LoopAnswering``: a
        # server that hangs, or a line cut without a reset, holds the loop a quarter second).
        self._at_once_pool = ConnectionPool(
            url, min_size=1, max_size=1, open=True,
            kwargs={"autocommit": True, "connect_timeout": int(WAIT_SECONDS)},
            connection_class=LoopAnswering, name="scopone-loop", check=_alive,
            configure=_at_once_timeouts,
            timeout=AT_ONCE_CONNECTION_SECONDS,
            reconnect_timeout=RECONNECT_TIMEOUT)
        self._at_once = AtOnceFlag()
        self._closed = threading.Event()
        self._listener: threading.Thread | None = None
        try:
            self._migrate()
        except BaseException:
            self._pool.close()
            self._at_once_pool.close()
            raise

    def _migrate(self) -> None:
        with checked(self._pool) as conn, conn.transaction():
            # Several processes may start at once: one upgrades, the others wait here.
            conn.execute("SELECT pg_advisory_xact_lock(7140001)")
            have = conn.execute("SELECT to_regclass('schema_info') IS NOT NULL").fetchone()
            found = 0
            if have and have[0]:
                row = conn.execute("SELECT version FROM schema_info").fetchone()
                found = int(row[0]) if row else 0
            if found > SCHEMA_VERSION:
                raise SchemaTooNew(found, SCHEMA_VERSION)
            # PostgreSQL support starts at schema 2: there is no older layout to upgrade.
            steps = {0: _CREATE, 2: _PROCESSES}.get(found, [])
            for sql in steps:
                conn.execute(sql)
            if found == 0:
                conn.execute("INSERT INTO schema_info (id, version) VALUES (1, %s)",
                             (SCHEMA_VERSION,))
            elif found < SCHEMA_VERSION:
                conn.execute("UPDATE schema_info SET version = %s", (SCHEMA_VERSION,))

    def close(self) -> None:
        self._closed.set()
        if self._listener is not None:
            self._listener.join(timeout=3)
        self._at_once_pool.close()
        self._pool.close()

    def async_calls(self) -> AsyncCalls:
        """Where a call of the server's event loop that would wait is made again: psycopg's
        async pool (``postgres_async``)."""
        from .postgres_async import AsyncPostgres

        return AsyncPostgres(self.url)

    @contextmanager
    def at_once(self) -> Iterator[None]:
        """Calls made inside (on the event loop) take the loop's own connection only if it is
        free, and wait for a lock or a statement only a moment (``AT_ONCE_*``): ``WouldWait``
        instead, nothing done. Almost every call is answered so, as fast as ever; the rare one
        that would wait is made again on the async pool (``OffLoop``). (Every call awaited on
        that pool cost a card 5-60% more of the server's CPU, the more the busier: stop 41.)"""
        with self._at_once.inside():
            yield

    @contextmanager
    def _connection(self, timeout: float | None = None) -> Iterator[psycopg.Connection[Any]]:
        """A connection of the pool; inside ``at_once``, the loop's own, or ``WouldWait``."""
        if not self._at_once.on:
            with checked(self._pool, timeout) as conn:
                yield conn
            return
        loop_conn: psycopg.Connection[Any] | None = None
        try:
            with self._at_once_pool.connection() as loop_conn:
                yield loop_conn
        except (PoolTimeout, psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled,
                NoAnswer) as exc:
            raise WouldWait() from exc
        except psycopg.OperationalError as exc:
            # The server ended the connection under the call (its backend killed, a pooler
            # or PostgreSQL restarting): made again off the loop on a connection of its own,
            # as a call with no answer is; else this one call judged a database that still
            # answers away, and every call of the process was refused (QA helper-60, F2).
            if loop_conn is not None and loop_conn.broken:
                raise WouldWait() from exc
            raise

    def ping(self) -> bool:
        # Asked once more on another connection if the server ended this one under it: when
        # it ends every connection of the process, the ping asking whether it still answers
        # (``ObservedStore``) may be given one it is ending a moment later.
        for _ in range(2):
            try:
                with self._connection(timeout=2.0) as conn, \
                        answering_within(conn, PING_ANSWER_SECONDS):
                    conn.execute("SELECT 1").fetchone()
            except ConnectionLost:
                continue
            except psycopg.Error:  # server away; the pool closed or exhausted (its errors too)
                return False
            return True
        return False

    def ping_fresh(self) -> bool:
        """``ping`` on a connection made for the question alone, closed after: whether the
        database is there once a call's connection was ended under it (``ObservedStore``).
        Asked through the pool, a stopped server's answer waited out the pool's wait for a
        connection it could not make (2 s), and the calls begun meanwhile up to their 5 s
        each before their 503; a connection of its own is refused at once (or accepted in
        milliseconds). A server that refuses only this connection (``refused_as_away``: too
        many connections) is asked on the pool's, which may still answer."""
        try:
            conn = Answering.connect(self.url, autocommit=True,
                                     connect_timeout=FRESH_CONNECT_SECONDS)
        except psycopg.OperationalError as exc:
            return False if refused_as_away(exc) else self.ping()
        try:
            with conn, answering_within(conn, PING_ANSWER_SECONDS):
                conn.execute("SELECT 1").fetchone()
        except psycopg.Error:  # ended or unanswered: the server stopping, or hung
            return False
        return True

    # ----- games ----------------------------------------------------------------------------

    def insert(self, rec: GameRecord) -> None:
        with self._connection() as conn:
            inserted(conn.execute(INSERT_GAME, insert_args(rec)).rowcount, rec)

    def _one(self, sql: str, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        if not storable(args):
            return None
        with self._connection() as conn:
            return conn.execute(sql, args).fetchone()

    def load(self, game_id: str) -> GameRecord | None:
        row = self._one(LOAD_GAME, (game_id,))
        return None if row is None else record_from_row(row)

    def load_by_code(self, code: str) -> GameRecord | None:
        row = self._one(LOAD_BY_CODE, (code,))
        return None if row is None else record_from_row(row)

    def version(self, game_id: str) -> int | None:
        row = self._one(VERSION, (game_id,))
        return None if row is None else int(row[0])

    def update(self, rec: GameRecord, expected_version: int,
               expected_updated: float | None = None) -> bool:
        with self._connection() as conn:
            cur = conn.execute(UPDATE_GAME, update_args(rec, expected_version, expected_updated))
            return cur.rowcount == 1

    def remove_old(self, finished_before: float, idle_before: float) -> int:
        with checked(self._pool) as conn:
            cur = conn.execute(
                "DELETE FROM games WHERE (finished AND updated < %s) OR updated < %s",
                (finished_before, idle_before))
            return cur.rowcount

    def remove_idle_people(self, idle_before: float) -> int:
        with checked(self._pool) as conn:
            cur = conn.execute("DELETE FROM people WHERE updated < %s"
                               " AND (data::jsonb ->> 'rounds')::int = 0", (idle_before,))
            return cur.rowcount

    # ----- people ---------------------------------------------------------------------------

    def load_person(self, person_id: str) -> PersonRecord | None:
        row = self._one(LOAD_PERSON, (person_id,))
        return None if row is None else person_from_row(row)

    def save_person(self, rec: PersonRecord, expected_updated: float | None = None) -> bool:
        with self._connection() as conn:
            return conn.execute(*save_person_query(rec, expected_updated)).rowcount == 1

    # ----- the processes' heartbeats ------------------------------------------------------

    def beat(self, process: str) -> dict[str, float]:
        with checked(self._pool) as conn, conn.transaction():
            conn.execute(
                "INSERT INTO processes (name, seen, ended) VALUES (%s, clock_timestamp(), FALSE)"
                " ON CONFLICT (name) DO UPDATE SET seen = excluded.seen, ended = FALSE",
                (process,))
            conn.execute("DELETE FROM processes WHERE seen < clock_timestamp()"
                         " - make_interval(secs => %s)", (KEEP_BEATS_SECONDS,))
            rows = conn.execute(
                "SELECT name, ended, extract(epoch FROM clock_timestamp() - seen)::float8"
                " FROM processes").fetchall()
        return {name: math.inf if ended else max(0.0, age) for name, ended, age in rows}

    def forget(self, process: str) -> None:
        with checked(self._pool) as conn:
            conn.execute("UPDATE processes SET ended = TRUE, seen = clock_timestamp()"
                         " WHERE name = %s", (process,))

    # ----- changes made by other processes --------------------------------------------------

    def listen(self, listener: Listener, watched: Callable[[], dict[str, int]]) -> None:
        self._listener = threading.Thread(target=self._listen, args=(listener, watched),
                                          name="scopone-pg-listen", daemon=True)
        self._listener.start()

    def _listen(self, listener: Listener, watched: Callable[[], dict[str, int]]) -> None:
        first = True
        down = False  # said once an outage, not at each attempt (twice a second)
        while not self._closed.is_set():
            try:
                with psycopg.connect(self.url, autocommit=True,
                                     connect_timeout=int(WAIT_SECONDS)) as conn:
                    conn.execute(f"LISTEN {CHANNEL}")
                    if down:
                        log.warning("listener connected again")
                        down = False
                    if not first:
                        # Notices sent while we were away are lost: look at what we watch.
                        self._resync(conn, listener, watched)
                    first = False
                    while not self._closed.is_set():
                        for note in conn.notifies(timeout=0.5):
                            gid, _, version = note.payload.rpartition(":")
                            listener(gid, int(version))
            except psycopg.Error as exc:
                if not down:
                    log.warning("listener lost its connection (%s); reconnecting",
                                type(exc).__name__)
                down = True
                first = False
                self._closed.wait(RECONNECT_SECONDS)

    @staticmethod
    def _resync(conn: psycopg.Connection[Any], listener: Listener,
                watched: Callable[[], dict[str, int]]) -> None:
        known = watched()
        if not known:
            return
        rows = conn.execute("SELECT id, version FROM games WHERE id = ANY(%s)",
                            (list(known),)).fetchall()
        for gid, version in rows:
            if version > known[gid]:
                listener(gid, version)
