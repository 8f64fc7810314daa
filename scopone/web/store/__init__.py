"""Where games live: one interface (``Store``), one module per database.

``open_store(url)`` picks the database from one setting: a ``postgresql://`` URL for PostgreSQL,
``sqlite:///PATH`` or a plain path for a SQLite file.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from .base import SCHEMA_VERSION, GameRecord, Listener, PersonRecord, Store
from .errors import SchemaTooNew
from .sqlite import SqliteStore


def open_store(url: str | Path) -> Store:
    """The store for ``url``; PostgreSQL's driver is imported only when it is used.

    >>> open_store("postgres-typo://x")
    Traceback (most recent call last):
    ...
    ValueError: unknown database URL scheme: 'postgres-typo'
    """
    text = str(url)
    scheme, sep, rest = text.partition("://")
    if not sep:
        return SqliteStore(Path(text))
    if scheme in ("postgresql", "postgres"):
        from .postgres import PostgresStore

        return PostgresStore(text)
    if scheme == "sqlite":
        # sqlite:///relative/path or sqlite:////absolute/path, as SQLAlchemy writes them.
        return SqliteStore(Path(rest[1:] if rest.startswith("/") else rest))
    raise ValueError(f"unknown database URL scheme: {scheme!r}")


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


__all__ = ["SCHEMA_VERSION", "GameRecord", "Listener", "PersonRecord", "SchemaTooNew",
           "SqliteStore", "Store", "open_store", "unavailable"]
