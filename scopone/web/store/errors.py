"""Why a store refuses to open, and which of its errors say the database is away for now."""

from __future__ import annotations

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
    if isinstance(exc, sqlite3.Error):
        return getattr(exc, "sqlite_errorcode", None) in SQLITE_AWAY
    psycopg = sys.modules.get("psycopg")
    return psycopg is not None and isinstance(
        exc, (psycopg.OperationalError, psycopg.errors.ReadOnlySqlTransaction))
