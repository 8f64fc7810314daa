"""What a store keeps and the small interface every database behind it implements.

The service never writes SQL: it loads a ``GameRecord``, changes it, and asks the store to write
it back only if nobody else has in the meantime (``update(rec, expected_version)``). That check
is the version rule of SPEC §5, and it holds across processes and machines because the database
makes it, not the process.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from typing import Any, Protocol

from ...engine import Match

#: The schema this code reads and writes; a store upgrades an older database at start and
#: refuses a newer one (written by a later release) rather than damage it.
SCHEMA_VERSION = 3

#: How long a process's heartbeat is kept after its last (``Store.beat``): a table left with a
#: stream or lease of a process forgotten since is judged by this machine's pids alone.
KEEP_BEATS_SECONDS = 7 * 24 * 3600.0

#: Called with (game id, version) for every change committed by any process on the database.
Listener = Callable[[str, int], None]


@dataclass(slots=True)
class GameRecord:
    """A stored game (a table of four seats). ``seed`` and ``match`` (every hand, the deck's
    rng) never leave the server.

    ``meta`` holds what the table keeps beside the cards (its seats, people's names, hashed seat
    tokens, options, the coach's reviews): JSON-able data owned by the modules that use it.
    ``code`` is the table's invite code, or None for a game nobody is invited to.
    """

    id: str
    version: int
    level: str
    seed: str  # secret per game; computer players' rng derives from it and the version
    match: Match
    created: float
    updated: float
    meta: dict[str, Any] = field(default_factory=dict)
    code: str | None = None

    @classmethod
    def new(cls, match: Match, level: str, meta: dict[str, Any] | None = None,
            code: str | None = None) -> GameRecord:
        """A new game at version 0 with a fresh random id (128 bits) and secret seed."""
        now = time.time()
        return cls(secrets.token_urlsafe(16), 0, level, secrets.token_hex(16), match, now, now,
                   meta or {}, code)

    @property
    def finished(self) -> bool:
        return self.match.winner is not None


@dataclass(slots=True)
class PersonRecord:
    """An anonymous person (no login): their id is a secret the browser keeps; ``data`` is what
    the service remembers for them (statistics), JSON-able."""

    id: str
    data: dict[str, Any]
    created: float
    updated: float


class AtOnceFlag:
    """Whether this thread's calls are inside ``Store.at_once``: the event loop's thread sets
    it around each of its calls, the store's other threads never do."""

    def __init__(self) -> None:
        self._local = threading.local()

    @contextmanager
    def inside(self) -> Iterator[None]:
        self._local.on = True
        try:
            yield
        finally:
            self._local.on = False

    @property
    def on(self) -> bool:
        return bool(getattr(self._local, "on", False))


class AsyncCalls(Protocol):
    """The store's calls awaited on the event loop, for a database whose driver can
    (PostgreSQL): where ``OffLoop`` makes again a call that would wait on the loop
    (``Store.at_once``). Each as ``Store``'s of the same name."""

    async def open(self) -> None:
        """Binds them to the running loop (the server's, at its start)."""

    def here(self) -> bool:
        """Whether the running loop is the one they were opened on."""

    async def close(self) -> None: ...

    async def ping(self) -> bool: ...

    async def insert(self, rec: GameRecord) -> None: ...

    async def load(self, game_id: str) -> GameRecord | None: ...

    async def load_by_code(self, code: str) -> GameRecord | None: ...

    async def version(self, game_id: str) -> int | None: ...

    async def update(self, rec: GameRecord, expected_version: int,
                     expected_updated: float | None = None) -> bool: ...

    async def load_person(self, person_id: str) -> PersonRecord | None: ...

    async def save_person(self, rec: PersonRecord,
                          expected_updated: float | None = None) -> bool: ...


class Store(Protocol):
    """One database. Every method is short and synchronous; writes are committed on return."""

    #: ``"sqlite"`` or ``"postgresql"``.
    kind: str

    def close(self) -> None: ...

    def at_once(self) -> AbstractContextManager[None]:
        """Inside it, a call that would wait raises ``WouldWait`` instead, having done nothing
        (a store whose calls cannot tell makes them as always)."""

    def async_calls(self) -> AsyncCalls | None:
        """New async calls (``AsyncCalls``), or None for a database whose driver has none
        (SQLite: a call that would wait goes to a thread)."""

    def ping(self) -> bool:
        """Whether the database answers a trivial query (what ``/healthz`` reports)."""

    def ping_fresh(self) -> bool:
        """``ping`` asked on a connection made for the question alone, where the database
        keeps a pool of them (PostgreSQL): whether it is there after a call's connection was
        ended under it (``ObservedStore``). A stopped server refuses a new connection at
        once, where the pool's ping waited for one it could not make."""

    def insert(self, rec: GameRecord) -> None: ...

    def load(self, game_id: str) -> GameRecord | None: ...

    def load_by_code(self, code: str) -> GameRecord | None: ...

    def version(self, game_id: str) -> int | None:
        """The stored version alone: cheap, for knowing whether a cached copy is current."""

    def update(self, rec: GameRecord, expected_version: int,
               expected_updated: float | None = None) -> bool:
        """Write ``rec`` if the stored version is still ``expected_version`` (and, when given,
        its ``updated`` still ``expected_updated``: the coach's counts change a game without a
        new version); False otherwise. A successful write is announced to every process's
        listener (``listen``)."""

    def remove_old(self, finished_before: float, idle_before: float) -> int:
        """Deletes games finished and untouched since ``finished_before``, and any game
        untouched since ``idle_before`` (abandoned); returns how many."""

    def remove_idle_people(self, idle_before: float) -> int:
        """Deletes the people no round was ever counted for (``rounds`` 0: their statistics
        page says "no statistics yet" anyway) and untouched since ``idle_before``; returns how
        many. Any client may send a new person id with each game it makes: those rows went
        on growing for ever (QA helper-79)."""

    def load_person(self, person_id: str) -> PersonRecord | None: ...

    def save_person(self, rec: PersonRecord, expected_updated: float | None = None) -> bool:
        """Stores the person if nobody else has meanwhile: with ``expected_updated`` None, a
        new person, stored only if none has the id; else only if the stored one was last
        updated at ``expected_updated`` (another process's change in between is not lost: the
        caller reads it and changes it again). False: nothing stored."""

    def beat(self, process: str) -> dict[str, float]:
        """Records that ``process`` (a server process, ``table.process_name``) is alive now, by
        the database's clock, and returns every process known to the database with the seconds
        since its last beat (infinite for one that ended: ``forget``). Beats older than
        ``KEEP_BEATS_SECONDS`` are removed. What ``scopone.web.liveness`` judges by: the
        database's clock, so machines whose clocks disagree do not judge each other wrongly."""

    def forget(self, process: str) -> None:
        """``process`` stops: the others judge it gone at their next look, not a silence
        later."""

    def listen(self, listener: Listener, watched: Callable[[], dict[str, int]]) -> None:
        """Calls ``listener(id, version)`` for changes committed by *other* processes, from a
        thread of the store's, until ``close``. ``watched`` gives the ids this process cares
        about with the versions it knows; a store that may have missed notices (a dropped
        connection) uses it to look again."""


def dump_state(match: Match) -> str:
    return json.dumps(match.to_dict(), separators=(",", ":"))


def dump_meta(meta: dict[str, Any]) -> str:
    return json.dumps(meta, separators=(",", ":"))


def record_from_row(row: tuple[Any, ...]) -> GameRecord:
    """A record from the columns ``ROW_COLUMNS`` in that order (both stores select them)."""
    gid, version, level, seed, state, meta, code, created, updated = row
    return GameRecord(gid, version, level, seed, Match.from_dict(json.loads(state)), created,
                      updated, json.loads(meta) if meta else {}, code)


ROW_COLUMNS = "id, version, level, seed, state, meta, code, created, updated"
