"""``ObservedStore``: the outage noted for the turn clocks, and a database known to be away not
asked again (each call waited its 5 s on the event loop) until a probe hears it back. The real
outage, PostgreSQL cut off, is test_database_away.py's; here the failures are made by hand to
tell which of them count."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import psycopg
import pytest

from scopone.web.store import DatabaseAway, ObservedStore, log_failure, open_store
from scopone.web.store import observed as observed_module

WAIT = 10.0  # a guard on a loaded machine, never a measure


@pytest.fixture
def store(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[ObservedStore]:
    monkeypatch.setattr(observed_module, "PROBE_SECONDS", 0.01)
    s = ObservedStore(open_store(tmp_path / "games.sqlite3"))
    yield s
    s.close()


def _failing(store: ObservedStore, monkeypatch: pytest.MonkeyPatch, exc: Exception
             ) -> list[str]:
    """``version`` raises ``exc``; returns the list each call of it is noted in."""
    calls: list[str] = []

    def version(game_id: str) -> Any:
        calls.append(game_id)
        raise exc

    monkeypatch.setattr(store.inner, "version", version)
    return calls


def test_a_database_away_as_a_whole_is_not_asked_until_a_probe_hears_it_back(
        store: ObservedStore, monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _failing(store, monkeypatch, psycopg.OperationalError("connection refused"))
    pings = iter([False, False, True])
    monkeypatch.setattr(store.inner, "ping", lambda: next(pings))
    with pytest.raises(psycopg.OperationalError):
        store.version("g")
    assert store.away and store.away_at is not None
    with pytest.raises(DatabaseAway):
        store.load("g")  # failed without asking
    assert not store.ping()  # /healthz: 503 without a wait
    assert calls == ["g"]
    deadline = time.monotonic() + WAIT
    while store.away:  # the third ping answers
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert store.load("g") is None  # asked again


def test_a_call_that_waited_out_the_outage_does_not_judge_the_database_away_again(
        store: ObservedStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A call begun before the outage was seen (a heartbeat's, waiting its 5 s for a
    connection) fails after a probe heard the database back: its failure says nothing of the
    database now. It made every call fail again until the next probe (QA helper-54: about
    2 s after the database was back)."""
    import threading

    release = threading.Event()
    begun = threading.Event()

    def load(game_id: str) -> Any:
        begun.set()
        release.wait(WAIT)
        raise psycopg.OperationalError("connection timeout expired")

    monkeypatch.setattr(store.inner, "load", load)
    _failing(store, monkeypatch, psycopg.OperationalError("connection refused"))
    monkeypatch.setattr(store.inner, "ping", lambda: True)
    failed: list[BaseException] = []

    def waiting() -> None:
        try:
            store.load("g")
        except BaseException as exc:
            failed.append(exc)

    thread = threading.Thread(target=waiting)
    thread.start()
    assert begun.wait(WAIT)
    with pytest.raises(psycopg.OperationalError):
        store.version("g")  # the outage seen
    assert store.away
    deadline = time.monotonic() + WAIT
    while store.away:  # heard back
        assert time.monotonic() < deadline
        time.sleep(0.01)
    noted = store.away_at
    release.set()
    thread.join(WAIT)
    assert len(failed) == 1 and isinstance(failed[0], psycopg.OperationalError)
    assert not store.away
    assert store.away_at is not None and noted is not None and store.away_at >= noted
    # A call begun after the database was heard back still judges it away.
    with pytest.raises(psycopg.OperationalError):
        store.version("g")
    assert store.away


@pytest.mark.parametrize("exc", [
    psycopg.errors.LockNotAvailable("canceling statement due to lock timeout"),
    psycopg.errors.QueryCanceled("canceling statement due to statement timeout"),
    psycopg.errors.ReadOnlySqlTransaction("read-only transaction"),
])
def test_one_row_locked_or_one_slow_statement_stops_nothing_else(
        store: ObservedStore, monkeypatch: pytest.MonkeyPatch, exc: Exception) -> None:
    _failing(store, monkeypatch, exc)
    with pytest.raises(type(exc)):
        store.version("g")
    assert store.away_at is not None  # a turn it touched still gets its time again
    assert not store.away and store.load("g") is None


def test_an_unanswered_ping_is_the_database_away(
        store: ObservedStore, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store.inner, "ping", lambda: False)
    assert not store.ping()
    assert store.away
    with pytest.raises(DatabaseAway):
        store.load("g")


def test_a_failure_is_logged_as_much_as_an_operator_needs(
        caplog: pytest.LogCaptureFixture) -> None:
    log = logging.getLogger("test")
    caplog.set_level(logging.DEBUG, "test")
    locked = psycopg.errors.LockNotAvailable(
        "canceling statement due to lock timeout\n"
        "CONTEXT:  while updating tuple (0,1) in relation \"games\"\n")
    for exc in (DatabaseAway(), psycopg.OperationalError("connection refused"), locked,
                KeyError("a bug")):
        log_failure(log, "could not", exc)
    [away, refused, timeout, bug] = caplog.records
    assert away.levelno == logging.DEBUG  # the store said it once already
    assert refused.levelno == logging.WARNING and refused.exc_info is None
    assert "connection refused" in refused.getMessage()
    # One line, PostgreSQL's context on it (it wrote two or three).
    assert timeout.getMessage() == ('could not: canceling statement due to lock timeout; '
                                    'CONTEXT:  while updating tuple (0,1) in relation "games"')
    assert bug.levelno == logging.ERROR and bug.exc_info is not None


def test_the_outage_is_told_from_the_first_call_that_failed(
        store: ObservedStore, monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    """QA: "answers again, after 1.3 s" of a 15 s pause: it was counted from when the database
    was judged away, after the failing call's own wait (up to 11 s). Now from that call's
    start."""
    def version(game_id: str) -> Any:
        time.sleep(0.4)  # a wait for a connection that never comes
        raise psycopg.OperationalError("connection refused")

    monkeypatch.setattr(store.inner, "version", version)
    pings = iter([False, True])
    monkeypatch.setattr(store.inner, "ping", lambda: next(pings))
    caplog.set_level(logging.WARNING, logger="scopone.web.store.observed")
    with pytest.raises(psycopg.OperationalError):
        store.version("g")
    deadline = time.monotonic() + WAIT
    while store.away:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    told = [r.getMessage() for r in caplog.records
            if r.getMessage().startswith("the database answers again")]
    assert len(told) == 1, told
    seconds = float(told[0].split(", ")[1].split(" s ")[0])
    assert seconds >= 0.4, told


def test_calls_whose_connections_were_ended_at_once_have_the_database_asked_once(
        store: ObservedStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL ends every connection of the process at once (a pooler restarted, an
    idle-connection killer): each call on one fails (``ConnectionLost``: 503), and the database
    is asked once, off the caller's thread, whether it answers; calls go on meanwhile, and
    nothing is judged away when it answers. (Each judged it away before: every call refused
    until the probe heard it again.) test_store_connections_ended.py ends real connections."""
    import threading

    from scopone.web.store.errors import ConnectionLost

    calls = _failing(store, monkeypatch, ConnectionLost("server closed the connection"))
    asked = threading.Event()
    answer = threading.Event()
    pings: list[bool] = []

    def ping() -> bool:
        pings.append(True)
        asked.set()
        assert answer.wait(WAIT)
        return True

    monkeypatch.setattr(store.inner, "ping_fresh", ping)
    for _ in range(3):
        with pytest.raises(ConnectionLost):
            store.version("g")
    assert asked.wait(WAIT)
    assert not store.away and store.away_at is not None
    assert store.load("g") is None  # not refused while the question waits
    answer.set()
    deadline = time.monotonic() + WAIT
    while store._asker is not None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert pings == [True] and calls == ["g"] * 3
    assert not store.away and store.load("g") is None
