"""PostgreSQL's calls awaited on the server's loop (``AsyncPostgres`` through ``OffLoop``): the
same answers and the same rules as the synchronous store's, and the synchronous store left alone
on that loop (on any other, it makes the calls as before)."""

from __future__ import annotations

import random
from typing import Any

import pytest

from scopone.engine import Match, Rules
from scopone.web.store import GameRecord, ObservedStore, PersonRecord, open_store
from scopone.web.store.offloop import OffLoop

from .aio import run_alone

CALLS = ("ping", "insert", "load", "load_by_code", "version", "update", "load_person",
         "save_person")


def _record(code: str | None = None) -> GameRecord:
    return GameRecord.new(Match(Rules(), random.Random(7)), "normal", meta={"n": 1}, code=code)


def _no_sync_calls(monkeypatch: pytest.MonkeyPatch, store: Any) -> None:
    def refused(*args: Any) -> Any:
        raise AssertionError("a synchronous store call on the server's loop")
    for name in CALLS:
        monkeypatch.setattr(store, name, refused)


def test_the_awaited_calls_answer_as_the_store_does(pg_url: str,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    store = ObservedStore(open_store(pg_url))
    direct = open_store(pg_url)  # what another process sees
    db = OffLoop(store)
    rec = _record(code="async1")

    async def scenario() -> None:
        await db.open()
        try:
            _no_sync_calls(monkeypatch, store.inner)
            assert await db.ping()
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
            assert not await db.update(rec, 0)
            rec.updated += 1
            assert not await db.update(rec, 1, expected_updated=rec.updated - 5)
            assert await db.update(rec, 1, expected_updated=rec.updated - 1)
            # A person: new only if absent, then only over the copy stored last.
            person = PersonRecord("p" * 32, {"rounds": 1}, 1.0, 1.0)
            assert await db.save_person(person)
            assert not await db.save_person(person)
            person.data, person.updated = {"rounds": 2}, 2.0
            assert not await db.save_person(person, expected_updated=0.5)
            assert await db.save_person(person, expected_updated=1.0)
            got = await db.load_person("p" * 32)
            assert got is not None and (got.data, got.updated) == ({"rounds": 2}, 2.0)
        finally:
            await db.close()

    try:
        run_alone(scenario())
        stored = direct.load(rec.id)
        assert stored is not None and (stored.version, stored.meta) == (1, {"n": 2})
    finally:
        direct.close()
        store.close()


def test_a_loop_the_calls_were_not_opened_on_uses_the_store_itself(pg_url: str) -> None:
    """Tests and scripts run a service on loops of their own: there the store's synchronous
    calls are made, as before (the async pool serves only the loop it was opened on)."""
    store = open_store(pg_url)
    db = OffLoop(store)
    rec = _record()
    made: list[str] = []
    real = store.version

    def version(game_id: str) -> int | None:
        made.append(game_id)
        return real(game_id)
    store.version = version  # type: ignore[method-assign]

    async def elsewhere() -> int | None:
        return await db.version(rec.id)

    async def scenario() -> None:
        await db.insert(rec)  # not opened yet: the store's own call
        assert run_alone(elsewhere()) == 0 and made == [rec.id]
        await db.open()
        try:
            assert await db.version(rec.id) == 0 and made == [rec.id]  # the pool's
            assert run_alone(elsewhere()) == 0 and made == [rec.id, rec.id]  # another loop
        finally:
            await db.close()

    try:
        run_alone(scenario())
    finally:
        store.close()


def test_an_error_of_an_awaited_call_is_observed(pg_url: str) -> None:
    """The database away for an awaited call (no connection in time) is seen by the
    ``ObservedStore`` as for its own calls: noted, and the calls after it fail at once."""
    from scopone.web.store import DatabaseAway

    store = ObservedStore(open_store(pg_url))
    db = OffLoop(store)

    async def scenario() -> None:
        await db.open()
        calls: Any = db._async  # ObservedCalls, then the AsyncPostgres
        assert calls is not None
        pool = calls.inner._pool
        await pool.close()  # every call now fails as with PostgreSQL away
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
