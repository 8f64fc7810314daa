"""The push channel of a table: server-sent events, one stream per viewer.

Each event is ``id: <version>`` / ``event: table`` / ``data: <TableView for this viewer>``,
built from the stored record for this viewer alone (the hub only says "version N exists"). A
stream resumes after the version its browser last saw; a ``: ping`` comment every 15 s keeps
proxies and phones from dropping an idle connection. A seat's open streams mark it connected.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from typing import Any

import anyio
from starlette.responses import StreamingResponse
from starlette.types import Receive, Scope, Send

from . import table as t
from .push import Watch
from .store import GameRecord, log_failure, unavailable
from .store.offloop import OffLoop
from .tables import CACHED_TABLES, TableService

log = logging.getLogger(__name__)

PING_SECONDS = 15.0
#: How often a stream looks again while the database cannot answer (``wait_while_away``).
AWAY_SECONDS = 1.0
#: A seat whose last stream closed is shown as gone only after this long: a reload or a
#: reconnecting phone opens a new stream within it, and nobody sees a flicker.
GONE_AFTER_SECONDS = 3.0
#: Seconds between tries to store a seat as gone while the database refuses it.
RETRY_GONE_SECONDS = 2.0


def event_schema(event: str, view: str) -> dict[str, Any]:
    """One event of a stream as the OpenAPI document (before 3.2) describes the items of an
    event stream: ``id`` the version, ``event`` its name, ``data`` the ``view`` schema's JSON."""
    return {
        "type": "object",
        "required": ["id", "event", "data"],
        "properties": {
            "id": {"type": "string", "pattern": r"^\d+$"},
            "event": {"type": "string", "enum": [event]},
            "data": {"type": "string", "contentMediaType": "application/json",
                     "contentSchema": {"$ref": f"#/components/schemas/{view}"}},
        },
    }


def resume_from(last_event_id: str | None, after: str) -> int:
    """The version a viewer has seen: ``Last-Event-ID`` (what a browser sends back; anything
    that is not a version means nothing seen), else ``after`` (digits; empty: none), else none
    (-1). ``after`` is digits in the schema rather than an integer so that every schema-valid
    value reads as one (``1e+18`` is an integer to JSON Schema, not to a query parser).

    >>> resume_from("12", ""), resume_from("x", "3"), resume_from(None, "")
    (12, 3, -1)
    >>> resume_from("9" * 5000, "")  # longer than any version: no version either
    -1
    """
    if last_event_id is not None:
        seen = last_event_id.strip()
        if seen.isascii() and seen.isdigit() and len(seen) <= 18:
            return int(seen)
    return int(after) if after else -1


class EventStream(StreamingResponse):
    """``text/event-stream`` that notices a closed connection at once (listening for the
    disconnect while streaming), not at the next write: presence depends on it. (Not FastAPI's
    EventSourceResponse: as a route's response class it turns the route into a generator of
    events, and this route must answer 403 or 404 as JSON before any stream begins.)"""

    media_type = "text/event-stream"

    def __init__(self, content: AsyncIterator[bytes], status_code: int = 200,
                 headers: dict[str, str] | None = None,
                 on_close: Callable[[], None] = lambda: None) -> None:
        # ``status_code`` in the signature as Starlette's: the OpenAPI document reads it.
        super().__init__(content, status_code, headers)
        # Called once the stream ends, however: the viewer's presence, counted before the
        # response began (``Presence.enter``), is closed even when the stream never ran.
        self.on_close = on_close

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        try:
            with contextlib.suppress(OSError):
                async with anyio.create_task_group() as group:
                    async def run_then_stop(func: Callable[[], Awaitable[None]]) -> None:
                        await func()
                        group.cancel_scope.cancel()

                    group.start_soon(run_then_stop, partial(self.stream_response, send))
                    await run_then_stop(partial(self.listen_for_disconnect, receive))
        finally:
            self.on_close()


async def wait_while_away(exc: Exception, watch: Watch, left: float) -> bytes:
    """What a stream does when the store cannot answer now (``store.unavailable``: PostgreSQL
    restarting or cut off, SQLite locked): it stays open, waits a moment (or for news) and
    says it is alive, a ping; its viewer gets the news once the store answers again. (Cut
    instead, each stream left a traceback in the log, QA, and every page reconnecting at once
    would meet the same 503.) Anything else is a fault: raised."""
    if not unavailable(exc):
        raise exc
    await watch.changed(min(AWAY_SECONDS, left))
    return b": ping\n\n"


#: An event stream's headers: never cached, never buffered by a proxy.
STREAM_HEADERS = {"Cache-Control": "no-store", "X-Accel-Buffering": "no"}


async def swept(db: OffLoop, game_id: str) -> bool:
    """Whether the store no longer holds the game, asked by a stream quiet for a ping's while.
    The sweep (app ``_sweep_once``) deletes a game or table without any news: a stream that
    only looks again on news would keep pinging a page about a game gone until its own end
    (``events_max_seconds``, minutes; QA helper-79 measured pings at 15, 30, 45 s and on),
    and only then would the page's reconnection meet the 404 it handles. One cheap version
    query per quiet stream every 15 s. A store that fails to answer judges nothing gone."""
    try:
        return await db.version(game_id) is None
    except Exception:
        return False


async def _no_events() -> AsyncIterator[bytes]:
    return
    yield b""  # a generator that ends at once


def headers_only() -> EventStream:
    """A stream's answer to a ``HEAD`` (``head.head_only``): its status and headers, no viewer
    counted present, no computer played for it."""
    return EventStream(_no_events(), headers=STREAM_HEADERS)


#: How long a spectators' event, once built, is sent as it is to the table's other spectators
#: of the same version: a version reaches all its streams within milliseconds, and the turn
#: clock's seconds in it must not age by more than this.
SHARED_EVENT_SECONDS = 0.25


class SpectatorEvents:
    """The spectators' event of each table's newest version, built once for all of them: they
    all see the same view (no seat), and a thousand spectators of one table cost one view a
    version instead of a thousand (a QA pass measured 11 s of server CPU in 15 s of play)."""

    def __init__(self, tables: TableService) -> None:
        self.tables = tables
        self._kept: dict[str, tuple[int, float, bytes]] = {}  # game: (version, built, event)
        self.built = 0  # views built (for tests)

    def event(self, rec: GameRecord, table: dict[str, Any]) -> bytes:
        kept = self._kept.get(rec.id)
        now = time.monotonic()
        if kept is not None and kept[0] == rec.version and now - kept[1] <= SHARED_EVENT_SECONDS:
            return kept[2]
        data = table_event(rec.version, self.tables.view(rec, table, None).model_dump_json())
        self.built += 1
        self._kept.pop(rec.id, None)
        self._kept[rec.id] = (rec.version, now, data)
        if len(self._kept) > CACHED_TABLES:
            del self._kept[next(iter(self._kept))]  # the least recently built
        return data


def table_event(version: int, view_json: str) -> bytes:
    return f"id: {version}\nevent: table\ndata: {view_json}\n\n".encode()


class Presence:
    """This process's open streams per (game, seat); the store learns only the changes."""

    def __init__(self, tables: TableService, process: str) -> None:
        self.tables = tables
        self.process = process  # this process's name in the seats' ``streams``
        self.open: Counter[tuple[str, int]] = Counter()
        self.spectators: Counter[str] = Counter()
        # Every stream open here per table, seats' and spectators': what the driver asks for
        # at each of its steps, so counted as they open and close, not summed each time.
        self._per_table: Counter[str] = Counter()
        self.spectator_events = SpectatorEvents(tables)
        # The seats whose last stream here closed, waiting to be stored as gone.
        self._going: dict[tuple[str, int], asyncio.Task[None]] = {}
        # The seats whose first stream here is being stored as connected: a stream of the
        # same seat opening meanwhile (the person's other tab) waits for that write too.
        self._coming: dict[tuple[str, int], asyncio.Task[None]] = {}

    def streams(self, game_id: str) -> int:
        """The streams of the table open here, spectators' included: reason enough to drive
        it here (so a process judged gone elsewhere is noticed by a driver that runs)."""
        return self._per_table[game_id]

    def _count(self, game_id: str, change: int) -> None:
        self._per_table[game_id] += change
        if self._per_table[game_id] <= 0:
            del self._per_table[game_id]

    def spectating(self, game_id: str, change: int) -> None:
        """A spectator's stream opened (+1) or closed (-1): nothing to store."""
        self._count(game_id, change)
        self.spectators[game_id] += change
        if self.spectators[game_id] <= 0:
            del self.spectators[game_id]

    async def enter(self, game_id: str, seat: int | None) -> Callable[[], None]:
        """A viewer's stream opens: a seat's is stored as connected (the first one here), a
        spectator's only counted. Returns what closes it again. Called before the response
        starts, so a database that refuses the write answers 503, not a stream that breaks
        off after its 200; nothing stays counted then."""
        if seat is None:
            self.spectating(game_id, 1)
            return partial(self.spectating, game_id, -1)
        try:
            await self.opened(game_id, seat)
        except BaseException:
            self.closed(game_id, seat)
            raise
        return partial(self.closed, game_id, seat)

    async def opened(self, game_id: str, seat: int) -> None:
        """A seat's stream opens: stored as connected by its first stream here. A stream of
        the same seat that opens while that write is on its way (one person's two tabs, opened
        at once) shares its fate: refused with it when the database refuses it. It went on
        unrefused, and the seat stayed stored as never connected while that stream was open:
        the person shown offline while there, their card played by the computer (QA
        helper-77). The write is a task of its own, so a first stream that goes meanwhile
        does not cancel it for the others."""
        key = (game_id, seat)
        self._count(game_id, 1)
        self.open[key] += 1
        if self.open[key] == 1:
            write = asyncio.get_running_loop().create_task(
                self.tables.set_connected(game_id, seat, self.process, True))
            self._coming[key] = write
            write.add_done_callback(partial(self._came, key))
        storing = self._coming.get(key)
        if storing is not None:
            await asyncio.shield(storing)

    def _came(self, key: tuple[str, int], task: asyncio.Task[None]) -> None:
        if self._coming.get(key) is task:
            del self._coming[key]
        if not task.cancelled():
            # A refusal went to each stream that waited for the write (their 503s); with
            # every one of them gone meanwhile there is nobody to tell, and asyncio would log
            # the exception as never retrieved.
            task.exception()

    def closed(self, game_id: str, seat: int) -> None:
        key = (game_id, seat)
        self._count(game_id, -1)
        self.open[key] -= 1
        if self.open[key] <= 0:
            del self.open[key]
            old = self._going.pop(key, None)
            if old is not None:
                old.cancel()
            task = asyncio.get_running_loop().create_task(self._gone_later(game_id, seat))
            self._going[key] = task
            task.add_done_callback(partial(self._went, key))

    def _went(self, key: tuple[str, int], task: asyncio.Task[None]) -> None:
        if self._going.get(key) is task:
            del self._going[key]

    async def _gone_later(self, game_id: str, seat: int) -> None:
        """After the grace, the seat's last stream here is stored as gone; a write the
        database refused is tried again until it is stored or the seat's page is back (once
        lost, the seat counted connected for ever, and a table with no time limit waited on
        that person's turn)."""
        await asyncio.sleep(GONE_AFTER_SECONDS)
        while self.open[(game_id, seat)] == 0:
            self.open.pop((game_id, seat), None)
            try:
                await self.tables.set_connected(game_id, seat, self.process, False)
                return
            except Exception as exc:
                log_failure(log, "could not store a seat as gone; trying again", exc)
                await asyncio.sleep(RETRY_GONE_SECONDS)

    async def tell_again(self) -> None:
        """This process was silent long enough for the others to judge it gone and drop its
        streams from the seats (``scopone.web.liveness``): each seat with a stream open here
        is stored as connected again, where it is not."""
        for game_id, seat in list(self.open):
            try:
                await self.tables.set_connected(game_id, seat, self.process, True)
            except Exception as exc:
                log_failure(log, "could not store a seat as connected again", exc)

    async def close(self) -> None:
        """The server stops: every seat with a stream here is stored as gone now, not after
        the grace a reconnecting browser gets (this process will not be there to store it,
        and another machine's table would count them connected for ever)."""
        keys = set(self._going) | set(self.open)
        for task in self._going.values():
            task.cancel()
        self._going.clear()
        self.open.clear()
        for game_id, seat in keys:
            try:
                await self.tables.set_connected(game_id, seat, self.process, False)
            except Exception as exc:
                log_failure(log, "could not store a seat as gone on the way out", exc)


async def table_events(tables: TableService, presence: Presence, game_id: str,
                       seat: int | None, token: str | None,
                       after: int, max_seconds: float) -> AsyncIterator[bytes]:
    """The stream of one viewer, whose presence has been entered (``Presence.enter``): every
    version newer than ``after``, as that viewer sees it (several quick versions may arrive
    as the newest one: each event is the whole view), for ``max_seconds`` (then the client
    reconnects: no connection lives forever behind a proxy)."""
    digest = t.token_hash(token) if token is not None else None
    async with tables.hub.watch(game_id, after, stream=True) as watch:
        sent = after
        end = time.monotonic() + max_seconds
        known: int | None = None  # first the store's version, then the hub's news
        while (left := end - time.monotonic()) > 0 and not watch.closed:
            try:
                rec = await tables.record(game_id, known)
            except Exception as exc:
                yield await wait_while_away(exc, watch, left)
                continue
            table = t.table_of(rec) if rec is not None else None
            if rec is None or table is None:
                return  # the table was swept away
            if seat is not None and table["seats"][seat]["token"] != digest:
                return  # the seat went to the computer: this token opens nothing now
            if rec.version > sent:
                if seat is None:
                    yield presence.spectator_events.event(rec, table)
                else:
                    yield table_event(rec.version,
                                      tables.view(rec, table, seat).model_dump_json())
                sent = rec.version
            if not await watch.changed(min(PING_SECONDS, left)) and left > PING_SECONDS:
                yield b": ping\n\n"  # first: a slow store must not hold the ping back
                if await swept(tables.db, game_id):
                    return  # the table was swept away meanwhile: the page reconnects to a 404
            known = max(watch.version, rec.version)
