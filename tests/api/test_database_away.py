"""The database holding a request up: a lock another program keeps, SQLite busy past its
timeout. The request answers 503 "database unavailable" within seconds (never a 500, never
psycopg's 30 s wait that held every request of the process), nothing changes, and once the
lock goes the same move is taken."""

from __future__ import annotations

import json
import logging
import random
import sqlite3
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from scopone.web import create_app

from .conftest import Api, client_of, make_settings

SECONDS_AT_MOST = 15.0  # the lock's 5 s and the statement's, with a loaded machine's margin


def _your_turn(api: Any) -> dict[str, Any]:
    rng = random.Random(2)
    return api.until(api.create(), "your_turn", rng)


def _refused_then_taken(api: Any, game: dict[str, Any], held: Any) -> None:
    """A move while ``held`` (a context holding the lock) is refused in time, changing
    nothing; the same move goes in once the lock is gone."""
    move = {"version": game["version"], **game["legal"][0]}
    store = api.app.state.service.store
    assert store.away_at is None
    with held:
        start = time.monotonic()
        r = api.client.post(f"/api/games/{game['id']}/moves", json=move)
        waited = time.monotonic() - start
    assert r.status_code == 503 and r.json() == {"detail": "database unavailable"}, r.text
    assert r.headers["retry-after"] == "2", r.headers  # when a client may try again
    assert waited < SECONDS_AT_MOST, waited
    # Noted, so a table's driver gives a person's turn the outage touched its time again.
    assert store.away_at is not None
    assert api.get(game["id"]) == game
    r = api.client.post(f"/api/games/{game['id']}/moves", json=move)
    assert r.status_code == 200 and r.json()["version"] > game["version"], r.text


class _RowLocked:
    """Another program's transaction holding the game's row (``SELECT ... FOR UPDATE``)."""

    def __init__(self, url: str, gid: str) -> None:
        import psycopg

        self.conn = psycopg.connect(url)
        self.gid = gid

    def __enter__(self) -> None:
        # Ended by the server after 20 s, so a request that waits for the lock (as psycopg's
        # own timeout let it) fails this test instead of waiting on it for ever.
        self.conn.execute("SET idle_in_transaction_session_timeout = '20s'")
        self.conn.execute("SELECT 1 FROM games WHERE id = %s FOR UPDATE", (self.gid,))

    def __exit__(self, *exc: object) -> None:
        try:
            self.conn.rollback()
        finally:
            self.conn.close()


class _FileLocked:
    """Another program's write transaction on the SQLite file (``BEGIN IMMEDIATE``)."""

    def __init__(self, path: str) -> None:
        self.db = sqlite3.connect(path, isolation_level=None)

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, *exc: object) -> None:
        self.db.execute("ROLLBACK")
        self.db.close()


def _api(tmp_path: Path, store_url: str = "") -> Api:
    app = create_app(make_settings(tmp_path, store_url))
    return Api(client_of(app), app)


def test_a_row_locked_by_another_program_answers_503_in_seconds(
        tmp_path: Path, pg_url: str) -> None:
    api = _api(tmp_path, pg_url)
    with api.client:
        game = _your_turn(api)
        _refused_then_taken(api, game, _RowLocked(pg_url, game["id"]))


def test_a_sqlite_file_locked_by_another_program_answers_503(tmp_path: Path) -> None:
    api = _api(tmp_path)
    with api.client:
        game = _your_turn(api)
        path = str(api.app.state.settings.db_path)
        _refused_then_taken(api, game, _FileLocked(path))


def _answered_while_waiting(api: Api, game: dict[str, Any], held: Any, waiting_for: Any,
                            path: str) -> float:
    """While ``held``, a move of ``game`` waits for the database (``waiting_for()`` says once
    it does); ``path`` is asked meanwhile. Returns how long it took, after checking that it
    was answered, with 200, while the move still waited: the store's calls are made off the
    event loop (before, the process answered nothing until the move's wait was over)."""
    move = {"version": game["version"], **game["legal"][0]}
    with held, ThreadPoolExecutor(1) as pool:
        waiting = pool.submit(api.client.post, f"/api/games/{game['id']}/moves", json=move)
        deadline = time.monotonic() + 4.0  # the lock's wait is 5 s
        while not waiting_for():
            assert time.monotonic() < deadline and not waiting.done(), "the move never waited"
            time.sleep(0.02)
        start = time.monotonic()
        r = api.client.get(path)
        took = time.monotonic() - start
        assert r.status_code == 200, r.text
        assert not waiting.done(), f"answered only after the move's wait ({took:.1f} s)"
        assert waiting.result().status_code == 503
    return took


def test_a_move_waiting_for_a_locked_sqlite_file_holds_up_no_other_request(
        tmp_path: Path) -> None:
    """Another program holds the SQLite file: a move waits for it (the writes' connection is
    busy), and the metrics, a page and another game (read on the readers' connection, which
    WAL mode never makes wait for a write) are answered meanwhile."""
    api = _api(tmp_path)
    with api.client:
        game = _your_turn(api)
        other = api.create()
        path = str(api.app.state.settings.db_path)
        inner = api.app.state.service.store.inner  # the ObservedStore's SqliteStore
        calls = api.app.state.service.db
        for page in ("/metrics", "/", f"/api/games/{other['id']}"):
            waited = calls.waited
            _answered_while_waiting(api, game, _FileLocked(path), inner._lock.locked, page)
            assert calls.waited > waited  # tried on the loop first, then on a thread
            # Refused (nothing stored): the same move is the next one tried.
            assert api.get(game["id"]) == game


def _waiting_for_a_lock(url: str) -> Any:
    """Whether a statement of another connection waits for a lock now (PostgreSQL's view)."""
    import psycopg

    def waiting() -> bool:
        with psycopg.connect(url, autocommit=True) as conn:
            row = conn.execute("SELECT count(*) FROM pg_stat_activity"
                               " WHERE wait_event_type = 'Lock'").fetchone()
        return bool(row and row[0])
    return waiting


def test_a_move_waiting_for_a_locked_postgresql_row_holds_up_no_other_request(
        tmp_path: Path, pg_url: str) -> None:
    """Another program holds a game's row: a move waits for it (up to the 5 s lock timeout),
    and the metrics, a page, another game and the health check are answered meanwhile: the
    loop's calls are awaited on psycopg's async pool (before, made with the synchronous driver
    on the loop, nothing was answered until the move's wait was over)."""
    api = _api(tmp_path, pg_url)
    with api.client:
        game = _your_turn(api)
        other = api.create()
        calls = api.app.state.service.db
        for page in ("/metrics", "/", f"/api/games/{other['id']}", "/healthz"):
            waited = calls.waited
            took = _answered_while_waiting(api, game, _RowLocked(pg_url, game["id"]),
                                           _waiting_for_a_lock(pg_url), page)
            assert took < 2.0, (page, took)
            assert calls.waited > waited  # tried on the loop first, then on the async pool
            # A lock past its timeout is one row's trouble, not the database away.
            assert not api.app.state.service.store.away
            assert api.get(game["id"]) == game  # refused: nothing stored


def test_a_postgresql_that_hangs_holds_up_no_other_request(
        tmp_path: Path, pg_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL hangs with its connections open (stopped by a signal, its storage stalled:
    ``CutLine.hang``): a move waits for its answer (the loop's call gives up after a quarter
    second, the async pool's after ``answer_seconds``, shortened here), and a page and the
    metrics are answered meanwhile; the move then answers 503 and the database is judged away.
    Once it answers again, play goes on, the move made at most once. Before, the loop's call
    waited as long as the hang, and nothing was answered (QA helper-54: 12 s)."""
    from scopone.web.store.postgres_answer import Answering, AsyncAnswering

    from .cutline import CutLine

    answer = 2.0
    monkeypatch.setattr(Answering, "answer_seconds", answer)
    monkeypatch.setattr(AsyncAnswering, "answer_seconds", answer)
    line = CutLine(pg_url)
    api = _api(tmp_path, line.url)
    try:
        with api.client:
            game = _your_turn(api)
            calls = api.app.state.service.db
            store = api.app.state.service.store
            move = {"version": game["version"], **game["legal"][0]}
            line.hang()
            with ThreadPoolExecutor(1) as pool:
                start = time.monotonic()
                waiting = pool.submit(api.client.post, f"/api/games/{game['id']}/moves",
                                      json=move)
                try:
                    while not calls.waited:  # given up on the loop, made again off it
                        assert time.monotonic() - start < 1.5 and not waiting.done()
                        time.sleep(0.01)
                    for page in ("/metrics", "/"):
                        asked = time.monotonic()
                        r = api.client.get(page)
                        assert r.status_code == 200, r.text
                        assert time.monotonic() - asked < 1.0, page
                        assert not waiting.done(), page
                except BaseException:
                    line.answer()  # else the move waits for ever, and the test with it
                    raise
                refused = waiting.result()
                took = time.monotonic() - start
            assert refused.status_code == 503, refused.text
            assert refused.json() == {"detail": "database unavailable"}
            assert took < answer + SECONDS_AT_MOST, took
            assert store.away
            line.answer()
            deadline = time.monotonic() + SECONDS_AT_MOST
            while (r := api.client.get(f"/api/games/{game['id']}")).status_code == 503:
                assert time.monotonic() < deadline, "still away after it answered again"
                time.sleep(0.1)
            after = r.json()
            # The hung server may still make the statements it took before it stopped: the
            # move then stands (made once: every write is conditional on the version read).
            if after["version"] == game["version"]:
                assert after == game
                r = api.client.post(f"/api/games/{game['id']}/moves", json=move)
                assert r.status_code == 200, r.text
            else:
                r = api.client.post(f"/api/games/{game['id']}/moves", json=move)
                assert r.status_code == 409, r.text
                assert after["version"] > game["version"]
    finally:
        line.close()


def test_a_seat_stream_whose_opening_the_database_refuses_answers_503(tmp_path: Path) -> None:
    """Opening a seat's stream stores the seat as connected. With the file locked, that
    write is refused: the stream answers 503 (before, 200 and then it broke off, logged as an
    unhandled error); once the lock goes, the stream opens and the seat is connected."""
    from .tables_live import LiveServer, auth

    live = LiveServer(make_settings(tmp_path))
    try:
        r = live.http.post("/api/tables", json={"name": "Anna"})
        code, token = r.json()["table"]["code"], r.json()["token"]
        url = f"/api/tables/{code}/events"
        with _FileLocked(str(live.app.state.settings.db_path)):
            start = time.monotonic()
            refused = live.http.get(url, headers=auth(token))
            waited = time.monotonic() - start
        assert refused.status_code == 503, refused.text
        assert refused.json() == {"detail": "database unavailable"}
        assert waited < SECONDS_AT_MOST, waited
        with live.http.stream("GET", url, headers=auth(token)) as stream:
            assert stream.status_code == 200
            for line in stream.iter_lines():
                if line.startswith("data: "):
                    seats = json.loads(line[6:])["seats"]
                    if seats[0]["connected"]:
                        break
    finally:
        live.stop()


def test_while_postgresql_is_away_requests_fail_at_once_and_play_resumes_when_it_is_back(
        tmp_path: Path, pg_url: str) -> None:
    """PostgreSQL cut off (``CutLine``): the first request finds it away after its wait for a
    connection; the ones after it answer 503 at once instead of each waiting as long (they
    queued on the process: 5, 10, 15, 19 s), ``/healthz`` too. Once the line is back, play
    goes on within seconds and nothing was lost."""
    from .cutline import CutLine

    line = CutLine(pg_url)
    api = _api(tmp_path, line.url)
    try:
        with api.client:
            game = _your_turn(api)
            line.cut()
            start = time.monotonic()
            first = api.client.get(f"/api/games/{game['id']}")
            assert first.status_code == 503, first.text
            assert time.monotonic() - start < SECONDS_AT_MOST
            for path in (f"/api/games/{game['id']}", "/api/games", "/healthz"):
                start = time.monotonic()
                r = (api.client.post(path, json={"level": "easy"}) if path == "/api/games"
                     else api.client.get(path))
                assert r.status_code == 503, (path, r.text)
                assert r.headers["retry-after"] == "2", (path, r.headers)
                assert time.monotonic() - start < 1.0, path  # not another wait
            line.mend()
            deadline = time.monotonic() + SECONDS_AT_MOST
            while (r := api.client.get(f"/api/games/{game['id']}")).status_code == 503:
                assert time.monotonic() < deadline, "still away after the line was mended"
                time.sleep(0.1)
            assert r.json() == game  # nothing lost, nothing changed
            move = {"version": game["version"], **game["legal"][0]}
            r = api.client.post(f"/api/games/{game['id']}/moves", json=move)
            assert r.status_code == 200, r.text
    finally:
        line.close()


def test_streams_stay_open_while_postgresql_is_away_and_bring_the_news_after(
        tmp_path: Path, pg_url: str, caplog: pytest.LogCaptureFixture) -> None:
    """News of a newer version (another process's commit) while PostgreSQL is cut off: the
    stream's read of it failed, and the stream broke off mid-answer with a traceback in the
    log (QA: 2 to 7 streams at each outage). Now a table's and a game's stream stay open,
    pinging, and bring the news once the database is back, on the same connection."""
    import psycopg

    from .cutline import CutLine
    from .tables_live import LiveServer, Stream

    line = CutLine(pg_url)
    live = LiveServer(make_settings(tmp_path, line.url, fast_pace=0.02))
    streams: list[Stream] = []
    try:
        r = live.http.post("/api/tables", json={"name": "Anna"})
        code, anna = r.json()["table"]["code"], r.json()["token"]
        table = Stream(live.base, code, anna)
        game = live.http.post("/api/games", json={"level": "easy"}).json()
        solo = Stream(live.base, "", path=f"/api/games/{game['id']}/events?speed=fast",
                      event="game")
        streams += [table, solo]
        first = table.wait(lambda v: v["seats"][0]["connected"])
        mine = solo.wait(lambda v: v["status"] == "your_turn")
        with psycopg.connect(pg_url) as conn:
            row = conn.execute("SELECT id FROM games WHERE code = %s", (code,)).fetchone()
        assert row is not None
        hub = live.app.state.service.hub
        line.cut()
        # What another process's commit would tell this one (over PostgreSQL's NOTIFY).
        hub.publish_threadsafe(row[0], first["version"] + 1)
        hub.publish_threadsafe(game["id"], mine["version"] + 1)
        deadline = time.monotonic() + SECONDS_AT_MOST
        while table.pings < 2 or solo.pings < 2:  # each has met the database away, and waits
            assert time.monotonic() < deadline, (table.pings, solo.pings)
            time.sleep(0.05)
        line.mend()
        deadline = time.monotonic() + SECONDS_AT_MOST
        while (r := live.http.post(f"/api/tables/{code}/seats/2",
                                   json={"name": "Carla"})).status_code == 503:
            assert time.monotonic() < deadline, "still away after the line was mended"
            time.sleep(0.1)
        assert r.status_code == 201, r.text
        table.wait(lambda v: v["seats"][2]["name"] == "Carla")
        moved = live.http.post(f"/api/games/{game['id']}/moves",
                               json={"version": mine["version"], **mine["legal"][0]})
        assert moved.status_code == 200, moved.text
        solo.wait_version(moved.json()["version"])
        assert (table.connections, solo.connections) == (1, 1)
        failed = [rec.getMessage() for rec in caplog.records if rec.levelno >= logging.ERROR]
        assert not failed, failed
    finally:
        for s in streams:
            s.close()
        live.stop()
        line.close()
