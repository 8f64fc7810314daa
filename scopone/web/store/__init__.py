"""Where games live: one interface (``Store``), one module per database.

``open_store(url)`` picks the database from one setting: a ``postgresql://`` URL for PostgreSQL,
``sqlite:///PATH`` or a plain path for a SQLite file.
"""

from __future__ import annotations

from pathlib import Path

from .base import SCHEMA_VERSION, GameRecord, Listener, PersonRecord, Store
from .errors import DatabaseAway, SchemaTooNew, WouldWait, log_failure, unavailable
from .observed import ObservedStore
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


__all__ = ["SCHEMA_VERSION", "DatabaseAway", "GameRecord", "Listener", "ObservedStore",
           "PersonRecord", "SchemaTooNew", "SqliteStore", "Store", "WouldWait", "log_failure",
           "open_store", "unavailable"]
