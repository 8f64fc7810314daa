"""Games in SQLite: one row per game, written after every change, so a restart loses nothing."""

from __future__ import annotations

import json
import secrets
import sqlite3
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from ..engine import Match

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    version INTEGER NOT NULL,
    level TEXT NOT NULL,
    seed TEXT NOT NULL,
    state TEXT NOT NULL,
    created REAL NOT NULL,
    updated REAL NOT NULL
)
"""


@dataclass(slots=True)
class GameRecord:
    """A stored game. ``seed`` and ``match`` (every hand, the deck's rng) never leave the server."""

    id: str
    version: int
    level: str
    seed: str  # secret per game; computer players' rng derives from it and the version
    match: Match
    created: float
    updated: float

    @classmethod
    def new(cls, match: Match, level: str) -> GameRecord:
        """A new game at version 0 with a fresh random id (128 bits) and secret seed."""
        now = time.time()
        return cls(secrets.token_urlsafe(16), 0, level, secrets.token_hex(16), match, now, now)


class GameStore:
    """A SQLite file in WAL mode; every write is committed before the request is answered."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        # One connection shared by the event loop and test threads, guarded by a lock; every
        # statement is short, so the lock is never held for long.
        self._db = sqlite3.connect(str(path), check_same_thread=False, isolation_level=None)
        self._lock = threading.Lock()
        with self._lock:
            self._db.execute("PRAGMA journal_mode=WAL")
            # In WAL mode NORMAL survives a killed process (only power loss could drop the
            # last commits), at a fraction of FULL's fsync cost.
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA busy_timeout=5000")
            self._db.execute(_SCHEMA)

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def insert(self, rec: GameRecord) -> None:
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, version, level, seed, state, created, updated)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (rec.id, rec.version, rec.level, rec.seed, _dump(rec.match), rec.created,
                 rec.updated),
            )

    def load(self, game_id: str) -> GameRecord | None:
        with self._lock:
            row = self._db.execute(
                "SELECT id, version, level, seed, state, created, updated FROM games WHERE id = ?",
                (game_id,),
            ).fetchone()
        if row is None:
            return None
        gid, version, level, seed, state, created, updated = row
        return GameRecord(gid, version, level, seed, Match.from_dict(json.loads(state)),
                          created, updated)

    def update(self, rec: GameRecord, expected_version: int) -> bool:
        """Write ``rec`` if the stored version is still ``expected_version``; False otherwise.

        The check makes the version rule hold even against another process on the same file.
        """
        with self._lock:
            cur = self._db.execute(
                "UPDATE games SET version = ?, level = ?, state = ?, updated = ?"
                " WHERE id = ? AND version = ?",
                (rec.version, rec.level, _dump(rec.match), rec.updated, rec.id,
                 expected_version),
            )
            return cur.rowcount == 1


def _dump(match: Match) -> str:
    return json.dumps(match.to_dict(), separators=(",", ":"))
