"""Why a store refuses to open, and which of its errors say the database is away for now."""

from __future__ import annotations

import logging
import sqlite3
import sys


class SchemaTooNew(RuntimeError):
    """The database was written by a later release: opening it could damage it."""

    def __init__(self, found: int, supported: int) -> None:
        super().__init__(f"database schema version {found} is newer than this release's "
                         f"({supported}); upgrade the server")
        self.found = found
        self.supported = supported


#: SQLite's answers that say the database cannot take a write now, not that the code is wrong:
#: busy or locked by another process past the busy timeout, the disk full, the file read-only,
#: an I/O error, the file gone.
SQLITE_AWAY = frozenset({5, 6, 8, 10, 13, 14})  # BUSY, LOCKED, READONLY, IOERR, FULL, CANTOPEN


class WouldWait(RuntimeError):
    """A call made inside ``Store.at_once`` that would have had to wait (for the store's own
    connection, or for another process's write on the file): nothing was done, and the caller
    makes it again where waiting holds up nobody else (``OffLoop``)."""


class PoolBusy(RuntimeError):
    """Every connection a process may hold for calls that wait was taken, each by a call
    waiting (a lock, a slow statement), past the wait for one: a 503 like the others, but not
    the database away (its other rows still answer), so no reason to refuse every call."""

    def __init__(self) -> None:
        super().__init__("every connection is held by a call that waits")


class ConnectionLost(RuntimeError):
    """PostgreSQL ended the connection a call was made on, under the call (its backend killed
    by an idle-connection killer or an operator, a pooler or the server restarting): a 503
    like the others, but by itself not the database away. Every connection of a process is
    ended at once so, and the others it makes answer in milliseconds: this one call judged a
    database that answers away, and every call of the process was refused until a probe heard
    it again (QA helper-60, F2; helper-62: 2 of 60 drops). ``ObservedStore`` asks the database
    at once instead, and judges it away only if it does not answer; ``AsyncPostgres`` makes
    the call once more first. The driver's own error is its cause (``__cause__``)."""


class DatabaseAway(RuntimeError):
    """Raised at once, without asking the database, while it is known to be away
    (``ObservedStore``): a 503 like the failure that showed it away."""

    def __init__(self) -> None:
        super().__init__("the database is away: not asked again until it answers")


def unavailable(exc: BaseException) -> bool:
    """Whether ``exc`` says the database cannot serve now (PostgreSQL down, restarting or
    read-only, a lock or a statement past its timeout, no connection free in time; SQLite
    locked by another process, its disk full), not that a request or the code is wrong. 503,
    which a client may retry; never a 500. PostgreSQL's errors are looked up only if its driver
    was imported: nothing else raises them.

    >>> import sqlite3
    >>> err = sqlite3.OperationalError("database is locked"); err.sqlite_errorcode = 5
    >>> unavailable(err), unavailable(sqlite3.OperationalError("no such table: games"))
    (True, False)
    """
    if isinstance(exc, (DatabaseAway, PoolBusy, ConnectionLost)):
        return True
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) in SQLITE_AWAY
    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and isinstance(
        exc, (psycopg.OperationalError, psycopg.errors.ReadOnlySqlTransaction))


def whole_database_away(exc: BaseException) -> bool:
    """Whether ``exc`` (``unavailable``) says the database as a whole cannot be reached now
    (PostgreSQL down or cut off: no connection in time, no answer in time), so the next call
    would wait as long for the same answer. Not a lock or a statement past its timeout (one
    row or one query: the others go on), nor a read-only database, whose reads still answer.
    Nor one connection the server ended under its call (``ConnectionLost``: asked first).
    Nor SQLite's file locked by another program: its reads still answer, and the one
    connection a probe would hold while it waits is every request's.

    >>> import sqlite3
    >>> err = sqlite3.OperationalError("database is locked"); err.sqlite_errorcode = 5
    >>> whole_database_away(err), whole_database_away(DatabaseAway())
    (False, False)
    >>> whole_database_away(ConnectionLost("server closed the connection unexpectedly"))
    False
    """
    psycopg = sys.modules.get("psycopg")
    if psycopg is None or not isinstance(exc, psycopg.OperationalError):
        return False
    return not isinstance(exc, (psycopg.errors.LockNotAvailable, psycopg.errors.QueryCanceled))


def log_failure(log: logging.Logger, what: str, exc: BaseException) -> None:
    """Logs that ``what`` failed, as much as an operator needs: a database known to be away
    was said once already (``ObservedStore``); a database away is one line (it says what, and
    the outage is not the code's fault; PostgreSQL's ``CONTEXT:`` lines joined to it, QA
    helper-54); anything else with its traceback."""
    if isinstance(exc, DatabaseAway):
        log.debug("%s: %s", what, exc)
    elif unavailable(exc):
        log.warning("%s: %s", what, "; ".join(filter(None, str(exc).splitlines())))
    else:
        log.error("%s", what, exc_info=exc)
