"""Which server processes are alive, on every machine that shares the database.

A table names processes twice: its driver's lease and the seats' event streams. When such a
process dies, what it left must go: its tables taken over and their clocks started again, its
seats' people shown offline so the computer plays for them after the grace, not counted
connected for ever. This machine's processes are judged by their pids, at once
(``table.pid_gone``). Every process also records a heartbeat in the database every
``stale / 6`` seconds (``Store.beat``), so a process of another machine, or one of this
machine's that is frozen or cut off from the database, is judged gone once it has been silent
``stale`` seconds, by the database's clock; one that stopped cleanly says so (``Store.forget``)
and is judged gone at the others' next look. A process never heard of (started since the last
look, or before heartbeats were kept) is not judged. Silence is judged only over a time this
process itself was heard throughout: after an outage of the database (or a lock, or this process
stopped) every process was silent alike, and each would judge the others gone and undo what
they tell it; so a process that was silent longer than ``stale`` judges nobody by heartbeat
until it has been heard ``stale`` again (a goodbye, ``forget``, is judged at once).

A process that was silent longer than ``stale`` and is heard again may have been judged gone by
the others, which then dropped its streams: it tells them again (``on_back``).
"""

from __future__ import annotations

import asyncio
import logging
import math
import time
from collections.abc import Awaitable, Callable

from . import table as t
from .store import Store, log_failure

log = logging.getLogger(__name__)

#: A process silent this long is judged gone by the others (``Settings.process_stale_seconds``).
STALE_SECONDS = 30.0
#: Beats per silence judged gone: a process that misses a few beats is not judged.
BEATS_PER_STALE = 6


async def _nothing() -> None:
    return None


class Liveness:
    def __init__(self, store: Store, process: str, stale: float = STALE_SECONDS) -> None:
        self.store = store
        self.process = process  # this process's name, ``table.process_name``
        self.stale = stale
        # The processes other than this one judged gone at the last look; none while the
        # database could not be read (nobody is judged on news that old).
        self._gone: frozenset[str] = frozenset()
        self._last_beat: float | None = None  # time.monotonic() of the last beat stored
        # What the last look that reached the database read: each process's seconds since its
        # beat, by the database's clock, and when (time.monotonic()) it was read.
        self._ages: dict[str, float] = {}
        self._looked: float | None = None
        # Since when (time.monotonic()) this process has been heard with no silence longer
        # than ``stale``: the others' silence is judged only once it covers ``stale``.
        self._heard_since: float | None = time.monotonic()
        # Set by the app: called when processes are newly judged gone (the drivers look at
        # their tables again), and when this process is heard again after a silence.
        self.on_gone: Callable[[], None] = lambda: None
        self.on_back: Callable[[], Awaitable[None]] = _nothing
        self._task: asyncio.Task[None] | None = None

    @property
    def every(self) -> float:
        """Seconds between two beats."""
        return self.stale / BEATS_PER_STALE

    def gone(self, name: str) -> bool:
        """Whether the process ``name`` is known to be gone (never this one)."""
        return name != self.process and (name in self._gone or t.pid_gone(name))

    def look(self) -> bool:
        """Beats once and reads the others' beats (a short blocking call: run it off the event
        loop); True if the database answered."""
        try:
            ages = self.store.beat(self.process)
        except Exception as exc:
            log_failure(log, "could not store this process's heartbeat", exc)
            self._gone = frozenset()
            self._heard_since = None
            return False
        for name, age in list(ages.items()):
            if name != self.process and age != math.inf and t.pid_gone(name):
                # This machine's process whose pid is gone (a kill -9, a crash) is gone for
                # sure: marked ended, so no process shows its heartbeat on /metrics any more
                # (its age grew there for the week a beat is kept: QA).
                try:
                    self.store.forget(name)
                except Exception as exc:
                    log_failure(log, "could not mark a dead process ended", exc)
                ages[name] = math.inf
        now = time.monotonic()
        if self._heard_since is None or (self._looked is not None
                                         and now - self._looked > self.stale):
            self._heard_since = now  # silent itself: the others' silence proves nothing yet
        judging = now - self._heard_since >= self.stale
        self._gone = frozenset(name for name, age in ages.items() if name != self.process
                               and (age == float("inf") or (judging and age > self.stale)))
        self._ages, self._looked = dict(ages), now
        return True

    def heard(self) -> dict[str, float] | None:
        """None before the database was first read; then every process it knows that has not
        ended, with the seconds since its last beat as of now: the last look's ages and the
        time since that look, so a process that can no longer reach the database sees every
        age grow, its own included (the operator's gauge, ``/metrics``)."""
        if self._looked is None:
            return None
        since = time.monotonic() - self._looked
        return {name: age + since for name, age in self._ages.items() if age != float("inf")}

    async def beat_once(self) -> None:
        """One beat as ``run`` makes it: the others newly judged gone are told to the drivers,
        and a silence longer than ``stale`` (the database out of reach, the process stopped)
        ends with ``on_back`` a beat later, once every other process has seen this one
        alive again (before that, one could drop what this process tells it)."""
        before = self._gone
        if not await asyncio.to_thread(self.look):
            return
        now = time.monotonic()
        silent = self._last_beat is not None and now - self._last_beat > self.stale
        self._last_beat = now
        if self._gone - before:
            self.on_gone()
        if silent:
            log.warning("this process was silent for longer than %.0f s: telling its streams "
                        "again", self.stale)
            await asyncio.sleep(self.every * 1.5)
            await self.on_back()

    async def run(self) -> None:
        while True:
            try:
                await self.beat_once()
            except Exception:
                log.exception("the heartbeat failed")
            await asyncio.sleep(self.every)

    def start(self) -> None:
        self._task = asyncio.get_running_loop().create_task(self.run())

    async def close(self) -> None:
        """This process stops: its beats end and the others are told at once."""
        if self._task is not None:
            self._task.cancel()
        try:
            await asyncio.to_thread(self.store.forget, self.process)
        except Exception as exc:
            log_failure(log, "could not tell the other processes that this one stops", exc)
