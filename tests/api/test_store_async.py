"""PostgreSQL's calls of the server's loop that would wait (``PostgresStore.at_once``), made
again on psycopg's async pool (``AsyncPostgres``, through ``OffLoop``): the same answers and
rules as the synchronous store's, the loop free meanwhile, failures observed."""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import random
from collections.abc import Iterator
from typing import Any

import pytest

from scopone.engine import Match, Rules
from scopone.web.store import GameRecord, ObservedStore, PersonRecord, open_store
from scopone.web.store.offloop import OffLoop

from .aio import run_alone
from .cutline import CutLine


def _record(code: str | None = None) -> GameRecord:
    return GameRecord.new(Match(Rules(), random.Random(7)), "normal", meta={"n": 1}, code=code)


class _Ticks:
    """Counts the event loop's turns of 10 ms while inside: whether it went on meanwhile."""

    def __init__(self) -> None:
        self.count = 0

    async def _tick(self) -> None:
        while True:
            await asyncio.sleep(0.01)
            self.count += 1

    async def __aenter__(self) -> _Ticks:
        self._task = asyncio.get_running_loop().create_task(self._tick())
        return self

    async def __aexit__(self, *exc: object) -> None:
        self._task.cancel()


@contextlib.contextmanager
def _through_a_line(pg_url: str) -> Iterator[tuple[CutLine, ObservedStore, OffLoop]]:
    """A store whose connections go through a line the test can hang (``CutLine``), with the
    calls of the loop made on it: the line answers again, and both close, after."""
    line = CutLine(pg_url)
    store = ObservedStore(open_store(line.url))
    try:
        yield line, store, OffLoop(store)
    finally:
        line.answer()
        store.close()
        line.close()


def test_the_awaited_calls_answer_as_the_store_does(pg_url: str) -> None:
    """The async pool's calls (where the loop's calls that would wait are made) give the same
    answers and keep the same rules as the synchronous store's."""
    store = ObservedStore(open_store(pg_url))
    direct = open_store(pg_url)  # what another process sees
    rec = _record(code="async1")

    async def scenario() -> None:
        db = store.async_calls()
        assert db is not None
        await db.open()
        try:
            assert db.here() and await db.ping()
            await db.insert(rec)
            back = await db.load(rec.id)
            assert back is not None and back.match.to_dict() == rec.match.to_dict()
            assert (back.seed, back.meta, back.code) == (rec.seed, {"n": 1}, "async1")
            by_code = await db.load_by_code("async1")
            assert by_code is not None and by_code.id == rec.id
            assert await db.version(rec.id) == 0
            # A key PostgreSQL cannot hold names nothing, as in the synchronous store.
            assert await db.load("a\x00b") is None and await db.version("x\x00") is None
            assert await db.load("nope") is None and await db.load_by_code("nope") is None
            # The version rule, and the coach's rule on ``updated``.
            rec.version, rec.meta = 1, {"n": 2}
            assert await db.update(rec, 0)
            assert await db.update(rec, 0)  # the same write made again: done once
            assert not await db.update(dataclasses.replace(rec, updated=rec.updated + 7), 0)
            rec.updated += 1
            assert not await db.update(rec, 1, expected_updated=rec.updated - 5)
            assert await db.update(rec, 1, expected_updated=rec.updated - 1)
            # A person: new only if absent, then only over the copy stored last.
            person = PersonRecord("p" * 32, {"rounds": 1}, 1.0, 1.0)
            assert await db.save_person(person)
            assert await db.save_person(person)  # made again: done once
            assert not await db.save_person(PersonRecord("p" * 32, {"rounds": 7}, 1.0, 1.5))
            person.data, person.updated = {"rounds": 2}, 2.0
            assert not await db.save_person(person, expected_updated=0.5)
            assert await db.save_person(person, expected_updated=1.0)
            got = await db.load_person("p" * 32)
            assert got is not None and (got.data, got.updated) == ({"rounds": 2}, 2.0)
        finally:
            await db.close()
        assert not db.here()

    try:
        run_alone(scenario())
        stored = direct.load(rec.id)
        assert stored is not None and (stored.version, stored.meta) == (1, {"n": 2})
    finally:
        direct.close()
        store.close()


@pytest.mark.parametrize("opened", [True, False], ids=["async pool", "thread"])
def test_a_loop_call_that_would_wait_for_a_lock_is_made_again_off_the_loop(
        pg_url: str, opened: bool) -> None:
    """A row held locked by another transaction: the call made at once on the loop gives up
    after a moment (``WouldWait``, nothing done) and is made again where it may wait, the
    async pool on the loop it was opened on, a thread on any other, while the loop goes on;
    once the lock goes, it is stored."""
    import psycopg

    store = open_store(pg_url)
    db = OffLoop(store)
    rec = _record()
    store.insert(rec)
    holder = psycopg.connect(pg_url)

    async def scenario() -> int:
        if opened:
            await db.open()
        try:
            # A row nobody holds: every call answered at once on the loop.
            for _ in range(3):
                assert await db.version(rec.id) == 0
                assert await db.load(rec.id) is not None
            assert db.waited == 0
            holder.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (rec.id,))
            async with _Ticks() as ticks:
                asyncio.get_running_loop().call_later(0.5, holder.rollback)
                rec.version = 1
                assert await db.update(rec, 0)  # after the lock went
            return ticks.count
        finally:
            await db.close()

    try:
        ticks = run_alone(scenario())
        assert db.waited == 1
        assert ticks >= 10, ticks  # the loop went on meanwhile (0.5 s: about 50 ticks)
        assert store.version(rec.id) == 1
    finally:
        holder.close()
        store.close()


def test_an_error_of_an_awaited_call_is_observed(pg_url: str) -> None:
    """The database away for an awaited call (no connection in time) is seen by the
    ``ObservedStore`` as for its own calls: noted, and the calls after it fail at once."""
    from scopone.web.store import DatabaseAway

    store = ObservedStore(open_store(pg_url))

    async def scenario() -> None:
        db: Any = store.async_calls()  # ObservedCalls, then the AsyncPostgres
        await db.open()
        await db.inner._pool.close()  # every call now fails as with PostgreSQL away
        with pytest.raises(Exception) as first:
            await db.load("x" * 22)
        assert not isinstance(first.value, DatabaseAway)
        assert store.away and store.away_at is not None
        with pytest.raises(DatabaseAway):
            await db.load("x" * 22)
        assert not await db.ping()
        await db.close()

    try:
        run_alone(scenario())
    finally:
        store.close()


def _end_every_connection(pg_url: str, name: str, opened: int = 0) -> None:
    """PostgreSQL ends every connection of the store named ``name`` (as in a restart), once
    ``opened`` of them are open; returns when they have ended."""
    import time

    import psycopg

    with psycopg.connect(pg_url, autocommit=True) as admin:
        def until(done: Any, what: str) -> None:
            deadline = time.monotonic() + 10.0
            while True:
                row = admin.execute("SELECT count(*) FROM pg_stat_activity"
                                    " WHERE application_name = %s", (name,)).fetchone()
                if done(int(row[0]) if row else 0):
                    return
                assert time.monotonic() < deadline, what
                time.sleep(0.01)

        until(lambda n: n >= opened, "the store's connections never opened")
        admin.execute("SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                      " WHERE application_name = %s", (name,))
        until(lambda n: n == 0, "the backends did not end")


def test_after_postgresql_ended_every_connection_the_loops_calls_still_answer(
        pg_url: str) -> None:
    """A PostgreSQL restart (here: the server ends every connection of the store's) leaves the
    loop's connection and the async pool's dead: each is checked before it serves and replaced,
    a call that would wait for that meanwhile made again on the async pool, so no call fails."""
    name = "scopone_async_restart"
    store = ObservedStore(open_store(pg_url + f"&application_name={name}"))
    db = OffLoop(store)
    rec = _record()

    async def scenario() -> None:
        await db.open()
        try:
            await db.insert(rec)
            # The threads' pool, the loop's connection and the async pool's first, opened in
            # the background.
            _end_every_connection(pg_url, name, opened=3)
            for _ in range(5):
                got = await db.load(rec.id)
                assert got is not None and got.id == rec.id
            rec.version = 1
            assert await db.update(rec, 0)
            assert not store.away
        finally:
            await db.close()

    try:
        run_alone(scenario())
    finally:
        store.close()


def test_calls_waiting_on_every_connection_are_refused_without_the_database_away(
        pg_url: str) -> None:
    """More calls waiting for locks than the async pool has connections: the one that finds
    none free in time is refused (``PoolBusy``: 503), and the database is not judged away,
    so the other games still answer (QA helper-54: 24 moves on locked games made the process
    refuse every call)."""
    import psycopg

    from scopone.web.store.errors import PoolBusy

    store = ObservedStore(open_store(pg_url))
    recs = [_record() for _ in range(3)]
    free = _record()
    for rec in [*recs, free]:
        store.insert(rec)
    holder = psycopg.connect(pg_url)

    async def scenario() -> list[Any]:
        calls: Any = store.async_calls()
        calls.inner._size = 2  # a pool of two, as if the other six waited already
        await calls.open()
        calls.inner.wait = 0.5
        try:
            holder.execute("SELECT 1 FROM games WHERE id = ANY(%s) FOR UPDATE",
                           ([r.id for r in recs],))
            asyncio.get_running_loop().call_later(2.0, holder.rollback)
            for rec in recs:
                rec.version = 1
            answers = await asyncio.gather(*(calls.update(r, 0) for r in recs),
                                           return_exceptions=True)
            assert not store.away
            assert await calls.load(free.id) is not None  # another game still answers
            return answers
        finally:
            await calls.close()

    try:
        answers = run_alone(scenario())
        assert sum(isinstance(a, PoolBusy) for a in answers) == 1, answers
        assert sorted(a for a in answers if isinstance(a, bool)) == [True, True], answers
    finally:
        holder.close()
        store.close()


def test_after_a_restart_the_async_pools_ended_connections_are_replaced_at_once(
        pg_url: str) -> None:
    """After a burst of waits the async pool keeps several idle connections; a PostgreSQL
    restart ends them all. The next call takes one after another, closing each ended one, and
    answers in well under a second (the pool's own check waited 1 s, then 2 s, between them:
    a 5 s wait, a 503 and the database judged away, QA helper-54)."""
    import time

    import psycopg

    name = "scopone_async_grown"
    store = ObservedStore(open_store(pg_url + f"&application_name={name}"))
    rec = _record()
    store.insert(rec)

    async def scenario() -> float:
        calls: Any = store.async_calls()
        await calls.open()
        try:
            # Six calls at once: the pool grows to six connections, idle after.
            with psycopg.connect(pg_url, autocommit=True) as admin:
                with admin.transaction():
                    admin.execute("LOCK TABLE games IN ACCESS EXCLUSIVE MODE")
                    waits = [asyncio.ensure_future(calls.load(rec.id)) for _ in range(6)]
                    await asyncio.sleep(0.5)
                assert all(r is not None for r in await asyncio.gather(*waits))
                assert calls.inner._pool.get_stats()["pool_size"] >= 6
            _end_every_connection(pg_url, name)
            start = time.monotonic()
            assert await calls.load(rec.id) is not None
            took = time.monotonic() - start
            assert not store.away
            return took
        finally:
            await calls.close()

    try:
        took = run_alone(scenario())
        assert took < 0.9, took
    finally:
        store.close()


def test_a_postgresql_that_hangs_holds_the_loop_a_moment_and_is_judged_away(
        pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL hangs with its connections open (stopped by a signal, its storage stalled:
    what is sent is acknowledged, nothing answers; neither its statement timeout nor TCP's
    fire). The loop's call gives up after a quarter second and is made again on the async
    pool, where it waits for an answer only so long (``postgres_answer``; shortened here), the
    loop ticking on meanwhile; then the database is judged away, and the calls after it fail at
    once until it answers again. Before, the loop's call waited as long as the hang, holding up
    every request of the process (QA helper-54: ``/`` took 12 s in a 12 s freeze)."""
    import threading
    import time

    import psycopg

    from scopone.web.store import DatabaseAway
    from scopone.web.store.postgres_answer import (
        AT_ONCE_ANSWER_SECONDS,
        Answering,
        AsyncAnswering,
        NoAnswer,
    )

    answer = 1.5
    monkeypatch.setattr(Answering, "answer_seconds", answer)  # the probe's thread
    monkeypatch.setattr(AsyncAnswering, "answer_seconds", answer)
    rec = _record()

    async def scenario(line: CutLine, store: ObservedStore, db: OffLoop) -> None:
        await db.open()
        try:
            await db.insert(rec)
            assert await db._async.ping()  # type: ignore[union-attr]  # a connection held
            line.hang()
            # Answers again in any case, so that a loop held by the hang fails this test
            # instead of waiting on it for ever.
            watchdog = threading.Timer(answer + 5.0, line.answer)
            watchdog.start()
            start = time.monotonic()
            async with _Ticks() as ticks:
                with pytest.raises(psycopg.OperationalError) as failed:
                    await db.load(rec.id)
            took = time.monotonic() - start
            assert isinstance(failed.value, NoAnswer), failed.value
            assert db.waited == 1  # given up on the loop, made again on the async pool
            assert answer <= took < answer + AT_ONCE_ANSWER_SECONDS + 1.0, took
            assert ticks.count >= 50, ticks.count  # the loop went on: about 150 in 1.5 s
            assert store.away
            start = time.monotonic()
            with pytest.raises(DatabaseAway):
                await db.load(rec.id)
            assert time.monotonic() - start < 0.1
            watchdog.cancel()
            line.answer()
            deadline = time.monotonic() + 15.0
            while store.away:
                assert time.monotonic() < deadline, "still away after it answered again"
                await asyncio.sleep(0.1)
            got = await db.load(rec.id)
            assert got is not None and got.id == rec.id
        finally:
            line.answer()
            await db.close()

    with _through_a_line(pg_url) as through:
        run_alone(scenario(*through))


def test_a_ping_hears_of_a_postgresql_that_hangs_within_its_own_two_seconds(
        pg_url: str) -> None:
    """``/healthz``'s ping, and the probe's that hears the database back, wait for the answer
    to ``SELECT 1`` only ``PING_ANSWER_SECONDS``, not the eleven a statement may take: a load
    balancer hears of a PostgreSQL that hangs in about two seconds (stop 42 measured 11.3 s on
    a process whose async pool held a connection)."""
    import threading
    import time

    from scopone.web.store.postgres_answer import AT_ONCE_ANSWER_SECONDS

    ping_seconds = 2.0  # ``postgres_answer.PING_ANSWER_SECONDS``

    async def scenario(line: CutLine, store: ObservedStore, db: OffLoop) -> None:
        await db.open()
        try:
            assert await db.ping()  # the loop's connection held
            assert await db._async.ping()  # type: ignore[union-attr]  # and the async pool's
            line.hang()
            # Answers again in any case: a ping that waits the statement's 11 s fails here.
            watchdog = threading.Timer(ping_seconds + 4.0, line.answer)
            watchdog.start()
            start = time.monotonic()
            ok = await db.ping()
            took = time.monotonic() - start
            assert not ok
            assert took < ping_seconds + AT_ONCE_ANSWER_SECONDS + 1.0, took
            assert store.away
            # The threads' ping, as the probe makes it while the database is away.
            start = time.monotonic()
            assert not store.inner.ping()
            took = time.monotonic() - start
            assert took < ping_seconds + 1.0, took
            watchdog.cancel()
        finally:
            line.answer()
            await db.close()

    with _through_a_line(pg_url) as through:
        run_alone(scenario(*through))


def test_a_call_cancelled_with_its_request_is_no_warning_and_leaves_the_pool_whole(
        pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """A call awaited on the async pool whose request is cancelled (a stream closed, a client
    gone), and cancelled again at each await as anyio does: psycopg's cancellation of the
    statement is interrupted and it closes the connection. That is logged no more (it read as
    a fault, helper-54), and the pool's next calls answer on a connection made anew."""
    import logging

    from scopone.web.store.postgres_async import AsyncPostgres, CallerGone

    db = AsyncPostgres(pg_url)

    async def scenario() -> None:
        await db.open()
        try:
            async def slow() -> None:
                async with db._connection() as conn:
                    await conn.execute("SELECT pg_sleep(2)")

            task = asyncio.get_running_loop().create_task(slow())
            await asyncio.sleep(0.3)
            for _ in range(3):  # once, then at each await of psycopg's own clean-up
                task.cancel()
                await asyncio.sleep(0)
            with pytest.raises(asyncio.CancelledError):
                await task
            assert await db.ping()
        finally:
            await db.close()

    with caplog.at_level(logging.INFO, logger="psycopg"):
        run_alone(scenario())
    assert not [r for r in caplog.records if r.name.startswith("psycopg")], caplog.text
    # Any other interruption of psycopg's clean-up still warns.
    other = logging.LogRecord("psycopg", logging.WARNING, __file__, 1,
                              "query cancellation interrupted (%s): closing connection",
                              ("OperationalError",), None)
    assert CallerGone().filter(other)
