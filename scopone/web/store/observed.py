"""A store that remembers when the database last failed this process, and does not wait on a
database it knows is away (``ObservedStore``).

Why: time the database was away must count against nobody's turn. A person whose card the
database refused (503) may have tried to play all through an outage; when it is back, the
table's driver would find their time run out and play the computer's card for them, their own
card then refused as stale and the person marked away. The driver asks ``away_at`` instead, and
gives a turn the outage touched its time again (``scopone.web.driver``). Every store call goes
through here, the heartbeat's included, so an outage of more than a beat (5 s) is seen by every
process, not only the one whose request it failed.

Why not wait: with PostgreSQL down each store call waits its 5 s for a connection before
failing. While those calls were made on the event loop, the process's other requests (a rule
page, a stream's ping) waited behind them and the waits added up: four requests queued answered
503 after 5, 10, 15 and 19 s, a person's card waited 47 s in an outage of 50 s. Off the loop
(``async_calls``) each request would still wait its own 5 s, and the tables' drivers, trying
again every second, would each hold a connection attempt open all the time. So once
a call finds PostgreSQL away as a whole (``whole_database_away``), the calls after it fail at
once (``DatabaseAway``: 503) while a thread of its own asks the database, off the loop, whether
it answers again; the first answer lets every call through again.

Not one connection lost (``ConnectionLost``): PostgreSQL ends every connection of a process at
once when an idle-connection killer or an operator ends its backends, or a pooler restarts,
and the connections made after answer in milliseconds. Judged away on that, the process
refused every call for the probe's half second while the database answered (QA helper-60, F2).
So a call whose connection was ended under it has the database asked at once, off the loop
(a thread's ``ping_fresh``, on a connection of its own), and judged away only if it does not
answer: PostgreSQL stopped or restarting ends its connections so too, and refuses that
connection at once (through the pool the answer waited out the pool's 2 s, and the calls begun
meanwhile their 5 s each before their 503).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Awaitable, Callable
from contextlib import AbstractContextManager
from typing import ParamSpec, TypeVar

from .base import AsyncCalls, GameRecord, Listener, PersonRecord, Store
from .errors import ConnectionLost, DatabaseAway, unavailable, whole_database_away

log = logging.getLogger(__name__)

#: Seconds between two questions to a database known to be away (each waits up to the ping's
#: own 2 s): the process hears it back within about 2.5 s.
PROBE_SECONDS = 0.5

P = ParamSpec("P")
R = TypeVar("R")


class ObservedStore:
    """``inner``, whose calls that fail with the database away (``unavailable``) are noted,
    and which fails its calls at once while PostgreSQL is known to be away (``away``)."""

    def __init__(self, inner: Store) -> None:
        self.inner = inner
        self.kind = inner.kind
        #: When (``time.time()``) a call last failed with the database away; None: never.
        self.away_at: float | None = None
        self._away = threading.Event()  # set while the database is known to be away
        self._closing = threading.Event()
        self._probe: threading.Thread | None = None
        #: The thread asking whether the database answers after a call lost its connection
        #: (``_ask``), while it asks; one at a time, as a drop ends every call's at once.
        self._asker: threading.Thread | None = None
        self._lock = threading.Lock()
        #: Times a probe heard the database back. A call begun before the last of them that
        #: fails after it (it waited out the outage: a heartbeat's wait for a connection) says
        #: nothing of the database now, and made it judged away again for a probe's 0.5-2.5 s
        #: (QA helper-54).
        self._heard = 0
        #: When (``time.monotonic()``) the first call that failed with the database away since
        #: it was last heard began: an outage is told from there, not from when it was judged
        #: away (a call's wait for a connection and a ping's for its answer come first).
        self._failing_since: float | None = None

    @property
    def away(self) -> bool:
        """Whether calls fail at once now, the database known to be away."""
        return self._away.is_set()

    @property
    def heard(self) -> int:
        """Times a probe heard the database back (a call's failure counts only if it began
        after the last)."""
        return self._heard

    def _call(self, fn: Callable[P, R], *args: P.args, **kwargs: P.kwargs) -> R:
        self._not_away()
        heard, begun = self._heard, time.monotonic()
        try:
            return fn(*args, **kwargs)
        except Exception as exc:
            self._failed(exc, heard, begun)
            raise

    async def call_async(self, fn: Callable[P, Awaitable[R]], *args: P.args,
                         **kwargs: P.kwargs) -> R:
        """``_call`` for a call of the async face (``async_calls``)."""
        self._not_away()
        heard, begun = self._heard, time.monotonic()
        try:
            return await fn(*args, **kwargs)
        except Exception as exc:
            self._failed(exc, heard, begun)
            raise

    def _not_away(self) -> None:
        if self._away.is_set():
            self.away_at = time.time()
            raise DatabaseAway()

    def _failed(self, exc: Exception, heard: int, begun: float) -> None:
        """``exc`` ended a call begun at ``begun`` when the probe had heard the database back
        ``heard`` times."""
        if unavailable(exc):
            self.away_at = time.time()
            if whole_database_away(exc):
                self._known_away(heard, begun)
            elif isinstance(exc, ConnectionLost):
                self._ask(heard, begun)

    def _ask(self, heard: int, begun: float) -> None:
        """A call begun at ``begun`` (the database heard back ``heard`` times) lost its
        connection (``ConnectionLost``): whether the database answers is asked at once, off
        the loop; calls go on meanwhile."""
        with self._lock:
            if self._asker is not None or self._away.is_set() or self._closing.is_set():
                return  # asked already, or known away
            self._asker = threading.Thread(target=self._answers, args=(heard, begun),
                                           name="store-ask", daemon=True)
            self._asker.start()

    def _answers(self, heard: int, begun: float) -> None:
        try:
            # On a connection of its own: a stopped server refuses it at once, where the
            # pool's ping waited its 2 s for a connection, and the calls begun meanwhile their
            # 5 s each. The probe that hears it back (``_until_back``) stays on the pool: let
            # through while the pool still backed off after the outage, calls failed and
            # judged it away again.
            if not self.inner.ping_fresh():
                self._known_away(heard, begun)  # the outage told from the call that failed
        finally:
            with self._lock:
                self._asker = None

    def _known_away(self, heard: int, begun: float) -> None:
        with self._lock:
            if heard == self._heard and not self._closing.is_set():
                since = self._failing_since
                self._failing_since = begun if since is None else min(since, begun)
            if self._away.is_set() or self._closing.is_set() or heard != self._heard:
                return
            log.warning("the database is away: its calls fail at once until it answers again")
            self._away.set()
            self._probe = threading.Thread(target=self._until_back, name="store-probe",
                                           daemon=True)
            self._probe.start()

    def _until_back(self) -> None:
        while not self._closing.wait(PROBE_SECONDS):
            if self.inner.ping():
                with self._lock:
                    since = self._failing_since
                    self._failing_since = None
                    self._heard += 1
                    self._away.clear()
                log.warning("the database answers again, %.1f s after the first call that"
                            " failed began", time.monotonic() - (since or time.monotonic()))
                return

    def close(self) -> None:
        self._closing.set()
        with self._lock:
            asker = self._asker
        if asker is not None:
            asker.join()  # before the probe: a ping that fails may start it
        if self._probe is not None:
            self._probe.join()
        self.inner.close()

    def at_once(self) -> AbstractContextManager[None]:
        return self.inner.at_once()

    def async_calls(self) -> AsyncCalls | None:
        inner = self.inner.async_calls()
        return None if inner is None else ObservedCalls(self, inner)

    def ping(self) -> bool:
        return self._answer_of(self.inner.ping)

    def ping_fresh(self) -> bool:
        return self._answer_of(self.inner.ping_fresh)

    def _answer_of(self, ping: Callable[[], bool]) -> bool:
        if self._away.is_set():
            return False
        heard, begun = self._heard, time.monotonic()
        return self.pinged(ping(), heard, begun)

    def pinged(self, ok: bool, heard: int, begun: float) -> bool:
        """``ok``, the answer of a ping begun at ``begun`` when the database had been heard
        back ``heard`` times; no answer within its own 2 s: away as a whole."""
        if not ok:
            self.away_at = time.time()
            self._known_away(heard, begun)
        return ok

    def insert(self, rec: GameRecord) -> None:
        self._call(self.inner.insert, rec)

    def load(self, game_id: str) -> GameRecord | None:
        return self._call(self.inner.load, game_id)

    def load_by_code(self, code: str) -> GameRecord | None:
        return self._call(self.inner.load_by_code, code)

    def version(self, game_id: str) -> int | None:
        return self._call(self.inner.version, game_id)

    def update(self, rec: GameRecord, expected_version: int,
               expected_updated: float | None = None) -> bool:
        return self._call(self.inner.update, rec, expected_version, expected_updated)

    def remove_old(self, finished_before: float, idle_before: float) -> int:
        return self._call(self.inner.remove_old, finished_before, idle_before)

    def remove_idle_people(self, idle_before: float) -> int:
        return self._call(self.inner.remove_idle_people, idle_before)

    def load_person(self, person_id: str) -> PersonRecord | None:
        return self._call(self.inner.load_person, person_id)

    def save_person(self, rec: PersonRecord, expected_updated: float | None = None) -> bool:
        return self._call(self.inner.save_person, rec, expected_updated)

    def beat(self, process: str) -> dict[str, float]:
        return self._call(self.inner.beat, process)

    def forget(self, process: str) -> None:
        self._call(self.inner.forget, process)

    def listen(self, listener: Listener, watched: Callable[[], dict[str, int]]) -> None:
        self.inner.listen(listener, watched)


class ObservedCalls:
    """The async face of an ``ObservedStore``'s inner store, observed as its own calls are."""

    def __init__(self, observed: ObservedStore, inner: AsyncCalls) -> None:
        self.observed = observed
        self.inner = inner

    async def open(self) -> None:
        await self.inner.open()

    def here(self) -> bool:
        return self.inner.here()

    async def close(self) -> None:
        await self.inner.close()

    async def ping(self) -> bool:
        if self.observed.away:
            return False
        heard, begun = self.observed.heard, time.monotonic()
        return self.observed.pinged(await self.inner.ping(), heard, begun)

    async def insert(self, rec: GameRecord) -> None:
        await self.observed.call_async(self.inner.insert, rec)

    async def load(self, game_id: str) -> GameRecord | None:
        return await self.observed.call_async(self.inner.load, game_id)

    async def load_by_code(self, code: str) -> GameRecord | None:
        return await self.observed.call_async(self.inner.load_by_code, code)

    async def version(self, game_id: str) -> int | None:
        return await self.observed.call_async(self.inner.version, game_id)

    async def update(self, rec: GameRecord, expected_version: int,
                     expected_updated: float | None = None) -> bool:
        return await self.observed.call_async(self.inner.update, rec, expected_version,
                                              expected_updated)

    async def load_person(self, person_id: str) -> PersonRecord | None:
        return await self.observed.call_async(self.inner.load_person, person_id)

    async def save_person(self, rec: PersonRecord, expected_updated: float | None = None) -> bool:
        return await self.observed.call_async(self.inner.save_person, rec, expected_updated)
