"""The store in one SQLite file (WAL mode): no set-up, the default for one machine."""

from __future__ import annotations

import json
import math
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .base import (
    KEEP_BEATS_SECONDS,
    ROW_COLUMNS,
    SCHEMA_VERSION,
    AtOnceFlag,
    GameRecord,
    Listener,
    PersonRecord,
    dump_meta,
    dump_state,
    record_from_row,
)
from .errors import SchemaTooNew, WouldWait

_CREATE = [
    "CREATE TABLE schema_info (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)",
    """CREATE TABLE games (
        id TEXT PRIMARY KEY,
        version INTEGER NOT NULL,
        level TEXT NOT NULL,
        seed TEXT NOT NULL,
        state TEXT NOT NULL,
        meta TEXT NOT NULL DEFAULT '{}',
        code TEXT,
        finished INTEGER NOT NULL DEFAULT 0,
        created REAL NOT NULL,
        updated REAL NOT NULL
    )""",
    "CREATE UNIQUE INDEX games_code ON games (code)",
    "CREATE INDEX games_updated ON games (updated)",
    """CREATE TABLE people (
        id TEXT PRIMARY KEY,
        data TEXT NOT NULL,
        created REAL NOT NULL,
        updated REAL NOT NULL
    )""",
]

# Version 3 added the processes' heartbeats (scopone.web.liveness).
_PROCESSES = [
    """CREATE TABLE processes (
        name TEXT PRIMARY KEY,
        seen REAL NOT NULL,
        ended INTEGER NOT NULL DEFAULT 0
    )""",
]
_CREATE += _PROCESSES

# Version 1 (the first release) had only the games table, without meta, code and finished.
_UPGRADE_FROM_1 = [
    "CREATE TABLE schema_info (id INTEGER PRIMARY KEY CHECK (id = 1), version INTEGER NOT NULL)",
    "ALTER TABLE games ADD COLUMN meta TEXT NOT NULL DEFAULT '{}'",
    "ALTER TABLE games ADD COLUMN code TEXT",
    "ALTER TABLE games ADD COLUMN finished INTEGER NOT NULL DEFAULT 0",
    "CREATE UNIQUE INDEX games_code ON games (code)",
    "CREATE INDEX games_updated ON games (updated)",
    _CREATE[4],
    *_PROCESSES,
]

#: How often the listener looks whether another process committed (a cheap pragma read).
POLL_SECONDS = 0.02


#: How long a call waits for another process's write on the file (off the event loop).
BUSY_MS = 5000

#: How long a call on the event loop waits for this store's connection while a call of another
#: thread holds it (a heartbeat, the listener, a write waiting for the file on the store's
#: threads): a statement's time, not a busy file's.
HELD_SECONDS = 0.005

#: The write-ahead log is cut back to this size whenever it starts over: a sweep of thousands
#: of games wrote tens of MB to it, and without a limit the file kept that size for ever.
WAL_LIMIT_BYTES = 4 * 1024 * 1024


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
    db.execute(f"PRAGMA busy_timeout={BUSY_MS}")
    db.execute(f"PRAGMA journal_size_limit={WAL_LIMIT_BYTES}")  # per connection
    return db


def _give_back(db: sqlite3.Connection, removed: int) -> None:
    """Gives the file's free pages back to the disk after rows were removed: the file stayed
    at its high-water mark (25 MB after 6,000 games swept, QA helper-79). Nothing on a file made
    before ``auto_vacuum`` was set, which reuses its free pages instead."""
    if removed:
        # A script: executed once, the pragma frees one page per step of its statement.
        db.executescript("PRAGMA incremental_vacuum")


def _busy(exc: sqlite3.OperationalError) -> bool:
    """Whether SQLite said the file is busy or locked (another connection's write)."""
    return (getattr(exc, "sqlite_errorcode", 0) & 0xFF) in (5, 6)  # BUSY, LOCKED


class SqliteStore:
    """A SQLite file in WAL mode; every write is committed before the request is answered.

    Several processes may share the file (``serve --workers N``): the conditional update keeps
    the version rule, and each process's listener notices the others' commits by polling
    ``PRAGMA data_version``.
    """

    kind = "sqlite"

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        # One connection for the writes, shared by the store's threads (``OffLoop``) and
        # guarded by a lock; every statement is short, but a write may wait for another
        # process's (up to the busy timeout), so the reads have a connection of their own: in
        # WAL mode they never wait for a write, and each sees every write committed before it.
        self._db = _connect(path)
        self._lock = threading.Lock()
        self._closed = threading.Event()
        self._listener: threading.Thread | None = None
        with self._lock:
            # A new file gives the pages of swept games back (``_give_back``); it must be said
            # before the first page is written, WAL's included. An older file keeps reusing
            # them without shrinking (README: how to convert it).
            self._db.execute("PRAGMA auto_vacuum=INCREMENTAL")
            self._db.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL survives a killed process (only power loss could drop the
            # last commits), at a fraction of FULL's fsync cost.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._migrate()
        self._reader = _connect(path)  # once the file is in WAL mode, with its tables
        self._read_lock = threading.Lock()
        self._waits = {id(self._db): BUSY_MS, id(self._reader): BUSY_MS}  # busy_timeout now
        self._at_once = AtOnceFlag()

    def async_calls(self) -> None:
        """None: Python's sqlite3 has no async face; ``at_once`` keeps the loop's calls short."""
        return None

    @contextmanager
    def at_once(self) -> Iterator[None]:
        """Calls made inside (on the event loop) wait for a connection only as long as a
        statement of another thread takes (``HELD_SECONDS``) and never for another process's
        write on the file: ``WouldWait`` instead, nothing done. Almost every call is answered
        so, in microseconds; the rare one that would wait is made again on a thread
        (``OffLoop``), where the busy timeout holds up nobody else. (Every call on a thread
        cost a card 25-50% more of the server's CPU, stop 40: GIL hand-offs.)"""
        with self._at_once.inside():
            yield

    @contextmanager
    def _holding(self, lock: threading.Lock,
                 db: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
        """``db`` under its ``lock``: waited for, or, inside ``at_once``, for a moment only,
        with no busy timeout."""
        if not self._at_once.on:
            with lock:
                self._wait(db, BUSY_MS)
                yield db
            return
        # Another thread's call holds it: a moment, the GIL given to it meanwhile, is what most
        # take; given up at once, every call of a busy loop went to a thread after the first
        # (each then finding the lock held by the one before: 1.5 times the CPU a request).
        if not lock.acquire(timeout=HELD_SECONDS):
            raise WouldWait
        try:
            self._wait(db, 0)
            try:
                yield db
            except sqlite3.OperationalError as exc:
                if _busy(exc):
                    raise WouldWait from exc
                raise
        finally:
            lock.release()

    def _wait(self, db: sqlite3.Connection, ms: int) -> None:
        """Sets ``db``'s busy timeout (its lock held), when it is another now."""
        if self._waits[id(db)] != ms:
            db.execute(f"PRAGMA busy_timeout={ms}")
            self._waits[id(db)] = ms

    def _migrate(self) -> None:
        db = self._db
        # IMMEDIATE: two workers starting together must not both upgrade.
        db.execute("BEGIN IMMEDIATE")
        try:
            tables = {r[0] for r in db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if "schema_info" in tables:
                found = db.execute("SELECT version FROM schema_info").fetchone()[0]
            else:
                found = 1 if "games" in tables else 0
            if found > SCHEMA_VERSION:
                raise SchemaTooNew(found, SCHEMA_VERSION)
            steps = {0: _CREATE, 1: _UPGRADE_FROM_1, 2: _PROCESSES}.get(found, [])
            for sql in steps:
                db.execute(sql)
            if found < SCHEMA_VERSION:
                db.execute("INSERT OR REPLACE INTO schema_info (id, version) VALUES (1, ?)",
                           (SCHEMA_VERSION,))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self._closed.set()
        if self._listener is not None:
            self._listener.join(timeout=2)
        with self._lock:
            self._db.close()
        with self._read_lock:
            self._reader.close()

    def ping(self) -> bool:
        try:
            with self._holding(self._read_lock, self._reader) as db:
                db.execute("SELECT 1").fetchone()
        except sqlite3.Error:  # a closed connection included
            return False
        return True

    def ping_fresh(self) -> bool:
        return self.ping()  # one file, its connections held for good: no pool to wait for

    # ----- games ----------------------------------------------------------------------------

    def insert(self, rec: GameRecord) -> None:
        with self._holding(self._lock, self._db) as db:
            db.execute(
                "INSERT INTO games (id, version, level, seed, state, meta, code, finished,"
                " created, updated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (rec.id, rec.version, rec.level, rec.seed, dump_state(rec.match),
                 dump_meta(rec.meta), rec.code, rec.finished, rec.created, rec.updated),
            )

    def _one(self, sql: str, args: tuple[Any, ...]) -> tuple[Any, ...] | None:
        """One row read on the readers' connection."""
        with self._holding(self._read_lock, self._reader) as db:
            row: tuple[Any, ...] | None = db.execute(sql, args).fetchone()
        return row

    def load(self, game_id: str) -> GameRecord | None:
        row = self._one(f"SELECT {ROW_COLUMNS} FROM games WHERE id = ?", (game_id,))
        return None if row is None else record_from_row(row)

    def load_by_code(self, code: str) -> GameRecord | None:
        row = self._one(f"SELECT {ROW_COLUMNS} FROM games WHERE code = ?", (code,))
        return None if row is None else record_from_row(row)

    def version(self, game_id: str) -> int | None:
        row = self._one("SELECT version FROM games WHERE id = ?", (game_id,))
        return None if row is None else int(row[0])

    def update(self, rec: GameRecord, expected_version: int,
               expected_updated: float | None = None) -> bool:
        """The check makes the version rule hold even against another process on the file."""
        with self._holding(self._lock, self._db) as db:
            cur = db.execute(
                "UPDATE games SET version = ?, level = ?, state = ?, meta = ?, code = ?,"
                " finished = ?, updated = ? WHERE id = ? AND version = ?"
                " AND updated = coalesce(?, updated)",
                (rec.version, rec.level, dump_state(rec.match), dump_meta(rec.meta), rec.code,
                 rec.finished, rec.updated, rec.id, expected_version, expected_updated),
            )
            return cur.rowcount == 1

    def remove_old(self, finished_before: float, idle_before: float) -> int:
        with self._holding(self._lock, self._db) as db:
            cur = db.execute(
                "DELETE FROM games WHERE (finished = 1 AND updated < ?) OR updated < ?",
                (finished_before, idle_before))
            _give_back(db, cur.rowcount)
            return cur.rowcount

    def remove_idle_people(self, idle_before: float) -> int:
        with self._holding(self._lock, self._db) as db:
            cur = db.execute("DELETE FROM people WHERE updated < ?"
                             " AND json_extract(data, '$.rounds') = 0", (idle_before,))
            _give_back(db, cur.rowcount)
            return cur.rowcount

    # ----- people ---------------------------------------------------------------------------

    def load_person(self, person_id: str) -> PersonRecord | None:
        row = self._one("SELECT id, data, created, updated FROM people WHERE id = ?",
                        (person_id,))
        if row is None:
            return None
        return PersonRecord(row[0], json.loads(row[1]), row[2], row[3])

    def save_person(self, rec: PersonRecord, expected_updated: float | None = None) -> bool:
        data = dump_meta(rec.data)
        with self._holding(self._lock, self._db) as db:
            if expected_updated is None:
                cur = db.execute(
                    "INSERT INTO people (id, data, created, updated) VALUES (?, ?, ?, ?)"
                    " ON CONFLICT (id) DO NOTHING", (rec.id, data, rec.created, rec.updated))
            else:
                cur = db.execute("UPDATE people SET data = ?, updated = ? WHERE id = ?"
                                 " AND updated = ?", (data, rec.updated, rec.id,
                                                      expected_updated))
            return cur.rowcount == 1

    # ----- the processes' heartbeats ------------------------------------------------------

    def beat(self, process: str) -> dict[str, float]:
        # One file is one machine's: its clock is the database's.
        now = time.time()
        with self._holding(self._lock, self._db) as db:
            db.execute("BEGIN IMMEDIATE")
            try:
                db.execute(
                    "INSERT INTO processes (name, seen, ended) VALUES (?, ?, 0)"
                    " ON CONFLICT (name) DO UPDATE SET seen = excluded.seen, ended = 0",
                    (process, now))
                db.execute("DELETE FROM processes WHERE seen < ?",
                                 (now - KEEP_BEATS_SECONDS,))
                rows = db.execute("SELECT name, seen, ended FROM processes").fetchall()
                db.execute("COMMIT")
            except BaseException:
                db.execute("ROLLBACK")
                raise
        return {name: math.inf if ended else max(0.0, now - seen) for name, seen, ended in rows}

    def forget(self, process: str) -> None:
        with self._holding(self._lock, self._db) as db:
            db.execute("UPDATE processes SET ended = 1, seen = ? WHERE name = ?",
                             (time.time(), process))

    # ----- changes made by other processes --------------------------------------------------

    def listen(self, listener: Listener, watched: Callable[[], dict[str, int]]) -> None:
        self._listener = threading.Thread(target=self._poll, args=(listener, watched),
                                          name="scopone-sqlite-listen", daemon=True)
        self._listener.start()

    def _others_committed(self) -> int:
        """A number that moves whenever another process commits to the file: the main
        connection's ``data_version``, which this process's own commits (made on that
        connection) leave alone. A process alone on its file so never looks for changes."""
        with self._lock:
            return int(self._db.execute("PRAGMA data_version").fetchone()[0])

    def _poll(self, listener: Listener, watched: Callable[[], dict[str, int]]) -> None:
        db = _connect(self.path)
        try:
            seen = self._others_committed()
            while not self._closed.wait(POLL_SECONDS):
                now = self._others_committed()
                if now == seen:
                    continue
                seen = now
                known = watched()
                if not known:
                    continue
                ids = list(known)
                for start in range(0, len(ids), 500):
                    chunk = ids[start:start + 500]
                    marks = ",".join("?" * len(chunk))
                    for gid, version in db.execute(
                            f"SELECT id, version FROM games WHERE id IN ({marks})", chunk):
                        if version > known[gid]:
                            listener(gid, version)
        finally:
            db.close()
