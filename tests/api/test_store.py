"""The store interface on both databases: the version rule, schema versions, people, clean-up,
and the notices that carry one process's changes to the others."""

from __future__ import annotations

import random
import sqlite3
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from scopone.engine import Match, Rules
from scopone.web.store import (
    SCHEMA_VERSION,
    GameRecord,
    PersonRecord,
    SchemaTooNew,
    Store,
    open_store,
)
from scopone.web.store import sqlite as sqlite_store

WAIT = 10.0  # seconds a notice may take on a loaded machine: a guard, not a measure


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = open_store(store_url)
    yield s
    s.close()


def _record(code: str | None = None) -> GameRecord:
    return GameRecord.new(Match(Rules(), random.Random(5)), "normal",
                          meta={"table": {"seats": [None] * 4}}, code=code)


def test_a_record_comes_back_as_it_went_in(store: Store) -> None:
    rec = _record(code="abc123")
    store.insert(rec)
    back = store.load(rec.id)
    assert back is not None
    assert (back.id, back.version, back.level, back.seed, back.meta, back.code) == (
        rec.id, 0, "normal", rec.seed, rec.meta, "abc123")
    assert back.match.to_dict() == rec.match.to_dict()
    by_code = store.load_by_code("abc123")
    assert by_code is not None and by_code.id == rec.id
    assert store.load("nope") is None and store.load_by_code("nope") is None
    assert store.version(rec.id) == 0 and store.version("nope") is None


def test_update_holds_the_version_rule(store: Store) -> None:
    rec = _record()
    store.insert(rec)
    rec.version = 1
    rec.meta["note"] = "first"
    assert store.update(rec, 0)
    stale = _record()
    stale.id, stale.version = rec.id, 1
    assert not store.update(stale, 0)  # based on version 0, which is gone
    back = store.load(rec.id)
    assert back is not None and back.version == 1 and back.meta["note"] == "first"


def test_invite_codes_are_unique(store: Store) -> None:
    store.insert(_record(code="same"))
    with pytest.raises(Exception):  # noqa: B017 - each driver raises its own IntegrityError
        store.insert(_record(code="same"))


def test_people_are_kept_and_changed_only_from_the_copy_stored(store: Store) -> None:
    """A person is made once, and changed only from the copy stored last: a change based on
    an older copy (another process's change came between) stores nothing and says so."""
    now = time.time()
    assert store.save_person(PersonRecord("p1", {"rounds": 1}, now, now))
    assert not store.save_person(PersonRecord("p1", {"rounds": 9}, now, now))  # made already
    assert store.save_person(PersonRecord("p1", {"rounds": 2}, now, now + 1), now)
    assert not store.save_person(PersonRecord("p1", {"rounds": 3}, now, now + 2), now)  # stale
    got = store.load_person("p1")
    assert got is not None and got.data == {"rounds": 2} and got.updated == now + 1
    assert store.load_person("p2") is None
    assert not store.save_person(PersonRecord("p2", {"rounds": 1}, now, now + 1), now)
    assert store.load_person("p2") is None


def test_a_write_made_again_after_its_answer_was_lost_is_done_once(pg_url: str) -> None:
    """PostgreSQL may have done a write whose answer never came (``postgres_answer``: the call
    is then made again off the loop). Made again, the same write answers as done and is not
    done twice; a write of another call still finds the row changed. (Before, a game made
    again failed on its id, and a count made again was refused, so its next try, on the copy
    holding it, counted it twice.)"""
    store = open_store(pg_url)
    try:
        rec = _record()
        store.insert(rec)
        store.insert(rec)  # the same game again: stored, once
        other = _record()
        other.id = rec.id
        with pytest.raises(Exception):  # noqa: B017 - another game with its id: refused
            store.insert(other)
        rec.version, rec.updated = 1, rec.updated + 1
        assert store.update(rec, 0) and store.update(rec, 0)
        stale = _record()
        stale.id, stale.version, stale.updated = rec.id, 1, rec.updated + 5
        assert not store.update(stale, 0)  # another call's write, based on version 0
        # A coach's count: the same version, a new time, only over the copy it read.
        before = rec.updated
        rec.meta["hints"], rec.updated = 1, before + 1
        assert store.update(rec, 1, before) and store.update(rec, 1, before)
        stale.meta["hints"], stale.updated = 1, before + 2
        assert not store.update(stale, 1, before)
        back = store.load(rec.id)
        assert back is not None and (back.version, back.meta["hints"], back.updated) == (
            1, 1, before + 1)
        now = time.time()
        person = PersonRecord("p1", {"rounds": 1}, now, now)
        assert store.save_person(person) and store.save_person(person)
        assert not store.save_person(PersonRecord("p1", {"rounds": 1}, now, now + 1))
        person = PersonRecord("p1", {"rounds": 2}, now, now + 1)
        assert store.save_person(person, now) and store.save_person(person, now)
        assert not store.save_person(PersonRecord("p1", {"rounds": 3}, now, now + 1), now)
        got = store.load_person("p1")
        assert got is not None and (got.data, got.updated) == ({"rounds": 2}, now + 1)
    finally:
        store.close()


def test_old_games_are_removed(store: Store) -> None:
    fresh, old_done, abandoned = _record(), _record(), _record()
    old_done.match.winner = 0
    for rec, age in ((fresh, 0), (old_done, 2 * 3600), (abandoned, 10 * 86400)):
        rec.updated -= age
        store.insert(rec)
    now = time.time()
    removed = store.remove_old(finished_before=now - 3600, idle_before=now - 7 * 86400)
    assert removed == 2
    assert store.load(fresh.id) is not None
    assert store.load(old_done.id) is None and store.load(abandoned.id) is None


def test_a_sqlite_file_gives_the_space_of_swept_rows_back(tmp_path: Path) -> None:
    """After a sweep, the file and its write-ahead log shrink instead of keeping their
    high-water mark (25 MB and 29 MB after 6,000 games, QA helper-79)."""
    path = tmp_path / "games.sqlite3"
    store = open_store(path)
    try:
        old = time.time() - 30 * 86400
        for n in range(400):
            rec = _record()
            rec.updated = old
            store.insert(rec)
            store.save_person(PersonRecord(f"p{n}", {"rounds": 0, "pad": "x" * 2000}, old, old))
        full = path.stat().st_size
        assert store.remove_old(old + 1, old + 1) == 400
        assert store.remove_idle_people(old + 1) == 400
        store.insert(_record())  # the log starts over (cut back) at the next write
        con = sqlite3.connect(path)
        try:
            assert con.execute("PRAGMA freelist_count").fetchone()[0] == 0
            con.execute("PRAGMA wal_checkpoint(PASSIVE)")
        finally:
            con.close()
        assert path.stat().st_size < full / 4, (path.stat().st_size, full)
        wal = path.with_name(path.name + "-wal")
        assert wal.stat().st_size <= sqlite_store.WAL_LIMIT_BYTES
    finally:
        store.close()


def test_the_schema_version_is_written_and_a_newer_one_refused(tmp_path: Path) -> None:
    path = tmp_path / "g.sqlite3"
    open_store(path).close()
    con = sqlite3.connect(path)
    assert con.execute("SELECT version FROM schema_info").fetchone()[0] == SCHEMA_VERSION
    con.execute("UPDATE schema_info SET version = ?", (SCHEMA_VERSION + 1,))
    con.commit()
    con.close()
    with pytest.raises(SchemaTooNew):
        open_store(path)


def test_a_newer_postgresql_schema_is_refused(pg_url: str) -> None:
    import psycopg

    open_store(pg_url).close()
    with psycopg.connect(pg_url, autocommit=True) as conn:
        conn.execute("UPDATE schema_info SET version = %s", (SCHEMA_VERSION + 1,))
    with pytest.raises(SchemaTooNew):
        open_store(pg_url)


def test_a_first_release_database_is_upgraded_in_place(tmp_path: Path) -> None:
    """Version 1 had one table without meta, code and finished: its games carry on."""
    path = tmp_path / "v1.sqlite3"
    rec = _record()
    con = sqlite3.connect(path)
    con.execute("CREATE TABLE games (id TEXT PRIMARY KEY, version INTEGER NOT NULL, level TEXT"
                " NOT NULL, seed TEXT NOT NULL, state TEXT NOT NULL, created REAL NOT NULL,"
                " updated REAL NOT NULL)")
    from scopone.web.store.base import dump_state

    con.execute("INSERT INTO games VALUES (?, 3, 'hard', ?, ?, ?, ?)",
                (rec.id, rec.seed, dump_state(rec.match), rec.created, rec.updated))
    con.commit()
    con.close()
    store = open_store(path)
    try:
        back = store.load(rec.id)
        assert back is not None and back.version == 3 and back.meta == {} and back.code is None
        assert back.match.to_dict() == rec.match.to_dict()
    finally:
        store.close()


def _sql(store_url: str, *statements: str) -> None:
    """Runs ``statements`` on the database behind ``store_url``, outside any store."""
    if store_url.startswith("postgresql://"):
        import psycopg

        with psycopg.connect(store_url, autocommit=True) as conn:
            for sql in statements:
                conn.execute(sql)  # type: ignore[call-overload]  # the test's own text
    else:
        con = sqlite3.connect(store_url)
        for sql in statements:
            con.execute(sql)
        con.commit()
        con.close()


def test_a_schema_2_database_gets_the_heartbeats_in_place(store_url: str) -> None:
    """Version 3 added the processes' heartbeats: a database of version 2 keeps its games and
    gains the table."""
    store = open_store(store_url)
    rec = _record()
    store.insert(rec)
    store.close()
    _sql(store_url, "DROP TABLE processes", "UPDATE schema_info SET version = 2")
    store = open_store(store_url)
    try:
        assert store.load(rec.id) is not None
        assert set(store.beat("here:1:a")) == {"here:1:a"}
    finally:
        store.close()
    store = open_store(store_url)  # and opens again as it is now
    store.close()


def test_heartbeats_tell_each_process_how_long_the_others_were_silent(
        store: Store, store_url: str) -> None:
    """Ages by the database's clock; a process that said it stops is silent for ever; a beat
    counts again after it; beats older than a week are removed."""
    assert store.beat("a:1:x") == {"a:1:x": pytest.approx(0.0, abs=1.0)}
    time.sleep(0.2)
    ages = store.beat("b:2:y")
    assert set(ages) == {"a:1:x", "b:2:y"}
    assert 0.2 <= ages["a:1:x"] < 30 and ages["b:2:y"] < ages["a:1:x"]
    store.forget("a:1:x")
    assert store.beat("b:2:y")["a:1:x"] == float("inf")
    store.beat("a:1:x")  # the same name heard again (never made again in practice)
    assert store.beat("b:2:y")["a:1:x"] < 30
    old = "strftime('%s','now') - 8 * 86400" if store.kind == "sqlite" else \
        "clock_timestamp() - interval '8 days'"
    _sql(store_url, f"UPDATE processes SET seen = {old} WHERE name = 'a:1:x'")
    assert set(store.beat("b:2:y")) == {"b:2:y"}


class _Heard:
    """Collects (id, version) notices from a store's listener thread."""

    def __init__(self) -> None:
        self.notes: list[tuple[str, int]] = []
        self.watched: dict[str, int] = {}
        self._cond = threading.Condition()

    def __call__(self, gid: str, version: int) -> None:
        with self._cond:
            self.notes.append((gid, version))
            self.watched[gid] = max(version, self.watched.get(gid, 0))
            self._cond.notify_all()

    @classmethod
    def listening(cls, writer: Store, reader: Store) -> tuple[GameRecord, _Heard]:
        """A new game stored by ``writer``, watched at version 0 by ``reader``'s listener."""
        rec = _record()
        writer.insert(rec)
        heard = cls()
        heard.watched[rec.id] = 0
        reader.listen(heard, lambda: dict(heard.watched))
        return rec, heard

    def wait_for(self, note: tuple[str, int]) -> bool:
        with self._cond:
            return self._cond.wait_for(lambda: note in self.notes, timeout=WAIT)


def test_another_process_hears_of_every_committed_change(store_url: str) -> None:
    """Two stores on one database stand for two processes: what one commits, the other's
    listener reports (ids and versions only)."""
    writer, reader = open_store(store_url), open_store(store_url)
    try:
        rec, heard = _Heard.listening(writer, reader)
        time.sleep(0.3)  # the listener is up (LISTEN issued) before the change
        for v in (1, 2):
            rec.version = v
            assert writer.update(rec, v - 1)
            assert heard.wait_for((rec.id, v)), heard.notes
        # A refused change (an old version) announces nothing: only the real version 3 comes.
        rec.version = 9
        assert not writer.update(rec, 0)
        rec.version = 3
        assert writer.update(rec, 2)
        assert heard.wait_for((rec.id, 3)), heard.notes
        assert (rec.id, 9) not in heard.notes
    finally:
        writer.close()
        reader.close()


def test_a_process_alone_on_its_sqlite_file_does_not_look_for_changes(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The listener asks which watched games moved only when another process committed: its
    own commits (a card every millisecond under load) cost it nothing. Then a change by
    another process is still heard."""
    statements: list[str] = []
    real_connect = sqlite_store._connect

    def traced(path: Path) -> sqlite3.Connection:
        db = real_connect(path)
        db.set_trace_callback(statements.append)
        return db

    monkeypatch.setattr(sqlite_store, "_connect", traced)
    path = tmp_path / "games.sqlite3"
    alone = open_store(path)
    try:
        rec, heard = _Heard.listening(alone, alone)

        def looks() -> int:
            return sum("PRAGMA data_version" in sql for sql in statements)

        for v in range(1, 11):
            rec.version = v
            assert alone.update(rec, v - 1)
            seen = looks()
            deadline = time.monotonic() + WAIT
            while looks() < seen + 2 and time.monotonic() < deadline:
                time.sleep(0.005)  # the listener looks twice after each commit
        asked = [sql for sql in statements if "WHERE id IN" in sql]
        assert asked == []
        assert heard.notes == []

        other = open_store(path)  # another process on the same file
        try:
            rec.version = 11
            assert other.update(rec, 10)
        finally:
            other.close()
        assert heard.wait_for((rec.id, 11)), heard.notes
    finally:
        alone.close()


def test_the_postgresql_listener_reconnects_and_catches_up(pg_url: str) -> None:
    """Its connection killed by the server, the listener connects again and reports the
    change it missed meanwhile (it looks at the versions of what it watches)."""
    import psycopg

    writer, reader = open_store(pg_url), open_store(pg_url)
    try:
        rec, heard = _Heard.listening(writer, reader)
        time.sleep(0.3)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE query LIKE 'LISTEN scopone_games%' AND pid <> pg_backend_pid()"
            ).fetchall()
        assert killed
        rec.version = 1
        assert writer.update(rec, 0)  # while the listener is down, or just back
        assert heard.wait_for((rec.id, 1)), heard.notes
        rec.version = 2
        assert writer.update(rec, 1)  # and it listens again afterwards
        assert heard.wait_for((rec.id, 2)), heard.notes
    finally:
        writer.close()
        reader.close()


def test_the_postgresql_pool_replaces_connections_the_server_closed(pg_url: str) -> None:
    """After a PostgreSQL restart (here: the server ends the pool's connections) the pool's
    idle connections are dead; each is checked before it serves a request and replaced, so no
    request fails with it (the first few after a restart each answered 500)."""
    import psycopg

    store = open_store(pg_url + "&application_name=scopone_pool_check")
    try:
        rec = _record()
        store.insert(rec)
        with psycopg.connect(pg_url, autocommit=True) as admin:
            killed = admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE application_name = 'scopone_pool_check'").fetchall()
            assert killed
            # Until those backends have ended (their farewell then waits on each socket).
            deadline = time.monotonic() + WAIT
            while admin.execute("SELECT count(*) FROM pg_stat_activity"
                                " WHERE application_name = 'scopone_pool_check'"
                                ).fetchone() != (0,):
                assert time.monotonic() < deadline, "the backends did not end"
                time.sleep(0.01)
        for _ in range(5):
            got = store.load(rec.id)
            assert got is not None and got.id == rec.id
    finally:
        store.close()


def test_at_once_a_sqlite_call_that_would_wait_does_nothing_and_says_so(tmp_path: Path) -> None:
    """``at_once`` (a call made on the event loop): with the file held by another program, a
    write says ``WouldWait`` at once and stores nothing, a read still answers (WAL mode), and
    so does a write once the file is free; with the store's own connection busy on a thread, a
    call says ``WouldWait`` rather than wait for it. Outside ``at_once`` the same write waits
    for the file, as always (the store's threads)."""
    from scopone.web.store import WouldWait

    s = open_store(tmp_path / "games.sqlite3")
    try:
        rec = _record()
        s.insert(rec)
        rec.version = 1
        other = sqlite3.connect(str(tmp_path / "games.sqlite3"), isolation_level=None,
                                check_same_thread=False)
        other.execute("BEGIN IMMEDIATE")
        start = time.monotonic()
        with s.at_once(), pytest.raises(WouldWait):
            s.update(rec, 0)
        assert time.monotonic() - start < 1.0  # not the busy timeout's 5 s
        with s.at_once():
            assert s.version(rec.id) == 0  # nothing stored, and the read answered
        freed = threading.Timer(0.3, lambda: other.execute("ROLLBACK"))
        freed.start()
        assert s.update(rec, 0)  # outside: waits for the file, then stores
        freed.join()
        rec.version = 2
        with s.at_once():
            assert s.update(rec, 1)
        held = threading.Event()
        done = threading.Event()

        def hold() -> None:
            with s._lock:  # type: ignore[attr-defined]  # a write of another thread
                held.set()
                done.wait(5)

        holder = threading.Thread(target=hold)
        holder.start()
        held.wait(5)
        rec.version = 3
        with s.at_once(), pytest.raises(WouldWait):
            s.update(rec, 2)
        done.set()
        holder.join()
        other.close()
        assert s.version(rec.id) == 2
    finally:
        s.close()
