"""Which processes are gone (``scopone.web.liveness``), on both databases: another machine's
process by its heartbeat, this machine's by its pid; never this process, never one not heard
of; nobody by heartbeat while the database cannot be read."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from scopone.web import table as t
from scopone.web.liveness import Liveness
from scopone.web.store import Store, open_store

from .aio import run_alone

STALE = 0.2  # seconds: the test waits past it with a margin, never measures it
ME = "here.example:10:me"
OTHER = "elsewhere.example:20:other"


@pytest.fixture
def store(store_url: str) -> Iterator[Store]:
    s = open_store(store_url)
    yield s
    s.close()


def _silent_past_stale(*beating: Callable[[], object]) -> None:
    """Longer than ``STALE`` passes; ``beating`` are called meanwhile as a process's heartbeat
    calls its look (a process judges others' silence only over a time it was heard itself)."""
    end = time.monotonic() + STALE * 2
    while True:
        for beat in beating:
            beat()
        if time.monotonic() >= end:
            return
        time.sleep(STALE / 6)


def test_another_machines_process_is_gone_once_silent_and_alive_once_heard(
        store: Store) -> None:
    me = Liveness(store, ME, STALE)
    assert not me.gone(OTHER)  # never heard of: not judged
    store.beat(OTHER)
    assert me.look()
    assert not me.gone(OTHER)
    _silent_past_stale(me.look)
    assert me.look()
    assert me.gone(OTHER)
    assert not me.gone(ME)  # this process, silent as long, beat at this look
    store.beat(OTHER)  # heard again
    assert me.look() and not me.gone(OTHER)


def test_this_process_is_never_gone_to_itself(store: Store) -> None:
    me = Liveness(store, ME, STALE)
    store.forget(ME)
    me._gone = frozenset({ME})  # whatever was read
    assert not me.gone(ME)


def test_a_process_that_stopped_is_gone_at_the_next_look(store: Store) -> None:
    me = Liveness(store, ME, stale=3600.0)
    other = Liveness(store, OTHER, stale=3600.0)
    assert other.look() and me.look()
    assert not me.gone(OTHER)
    run_alone(other.close())
    assert me.look() and me.gone(OTHER)


def test_a_dead_pid_on_this_machine_is_gone_without_a_heartbeat(store: Store) -> None:
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = f"{t.machine()}:{done.stdout.strip()}:abcd"
    me = Liveness(store, ME, STALE)
    assert me.gone(dead)  # before any look
    assert not me.gone(t.process_name())  # this test's own process, alive


def test_a_dead_pid_on_this_machine_is_marked_ended_for_every_process(store: Store) -> None:
    """A process of this machine killed (its pid gone, no goodbye) left its heartbeat behind:
    the next look marks it ended, so no process shows it on /metrics any more (its age grew
    there for the week a beat is kept)."""
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    dead = f"{t.machine()}:{done.stdout.strip()}:abcd"
    store.beat(dead)
    me = Liveness(store, ME, 3600.0)
    assert me.look()
    heard = me.heard()
    assert heard is not None and dead not in heard and ME in heard
    assert store.beat(OTHER)[dead] == float("inf")  # ended for everyone, not only here
    assert me.gone(dead)


def test_nobody_is_judged_by_heartbeat_while_the_database_cannot_be_read(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    me = Liveness(store, ME, STALE)
    store.beat(OTHER)
    _silent_past_stale(me.look)
    assert me.look() and me.gone(OTHER)

    def away(process: str) -> dict[str, float]:
        raise OSError("the database is away")

    monkeypatch.setattr(store, "beat", away)
    assert not me.look()
    assert not me.gone(OTHER)


def test_processes_newly_gone_wake_the_drivers_once(store: Store) -> None:
    me = Liveness(store, ME, STALE)
    woken: list[float] = []
    me.on_gone = lambda: woken.append(time.monotonic())
    store.beat(OTHER)
    run_alone(me.beat_once())
    assert woken == []
    _silent_past_stale(lambda: run_alone(me.beat_once()))
    run_alone(me.beat_once())
    assert len(woken) == 1
    run_alone(me.beat_once())  # still gone: nothing new
    assert len(woken) == 1


def test_a_process_heard_after_a_silence_tells_its_streams_again(store: Store) -> None:
    """Silent longer than ``stale`` (the database away, the process stopped), it may have been
    judged gone: once it beats again, and a beat later (when every other process has seen it
    alive), ``on_back``; not after an ordinary beat."""
    me = Liveness(store, ME, STALE)
    told: list[str] = []

    async def tell() -> None:
        told.append("again")

    me.on_back = tell
    run_alone(me.beat_once())
    run_alone(me.beat_once())
    assert told == []
    _silent_past_stale()
    run_alone(me.beat_once())
    assert told == ["again"]


def test_the_heartbeat_runs_with_the_app_and_ends_with_a_goodbye(tmp_path: Path) -> None:
    """The app beats while it serves and says it stops on its way out."""
    from fastapi.testclient import TestClient

    from scopone.web import Settings, create_app

    db = tmp_path / "g.sqlite3"
    app = create_app(Settings(db_path=db, ai_processes=False, process_stale_seconds=60.0))
    with TestClient(app):
        name = app.state.tables.process
        store = open_store(db)
        try:
            deadline = time.monotonic() + 30
            while name not in store.beat("watcher:1:w"):  # polling for the first beat
                assert time.monotonic() < deadline, "the app never beat"
                time.sleep(0.05)
        finally:
            store.close()
    store = open_store(db)
    try:
        assert store.beat("watcher:1:w")[name] == float("inf")
    finally:
        store.close()


def test_heard_ages_grow_while_the_database_is_away(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """What ``/metrics`` shows: nothing before the first look; then each process that has not
    ended with its seconds since its beat, growing from the last look while the database
    cannot be read, this process's own included."""
    me = Liveness(store, ME, STALE)
    assert me.heard() is None
    store.beat(OTHER)
    store.beat("stopped.example:3:gone")
    store.forget("stopped.example:3:gone")
    assert me.look()
    first = me.heard()
    assert first is not None and set(first) == {ME, OTHER}
    assert first[ME] < STALE

    def away(process: str) -> dict[str, float]:
        raise OSError("the database is away")

    monkeypatch.setattr(store, "beat", away)
    _silent_past_stale()
    assert not me.look()
    later = me.heard()
    assert later is not None and set(later) == {ME, OTHER}
    assert later[ME] > STALE and later[OTHER] > first[OTHER] + STALE


def test_after_its_own_silence_a_process_judges_nobody_until_heard_again_a_while(
        store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database away (or locked, or this process stopped) silences every process alike:
    on its first look after, each found the others silent past ``stale`` and judged them gone,
    dropping the streams they had just told again (QA: a connected person shown offline after
    a 20 s outage, two processes). Now a process judges silence only over a time it was heard
    itself; a goodbye still counts at once."""
    me = Liveness(store, ME, STALE)
    _silent_past_stale(me.look)
    store.beat(OTHER)
    store.beat("stopped.example:3:gone")

    def away(process: str) -> dict[str, float]:
        raise OSError("the database is away")

    with monkeypatch.context() as m:
        m.setattr(store, "beat", away)
        _silent_past_stale(me.look)  # nobody heard, this process neither
    store.forget("stopped.example:3:gone")
    assert me.look()
    assert not me.gone(OTHER)  # silent, but so was this process
    assert me.gone("stopped.example:3:gone")  # said goodbye
    _silent_past_stale(me.look)  # heard again for longer than stale: OTHER still silent
    assert me.look() and me.gone(OTHER)
    # A look that came only after a long pause (the process stopped, a lock held) is a
    # silence of its own too.
    store.beat(OTHER)
    time.sleep(STALE * 2)
    assert me.look() and not me.gone(OTHER)
