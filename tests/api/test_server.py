"""The real server: ``python -m scopone serve`` killed outright loses nothing, leaves nothing."""

from __future__ import annotations

import contextlib
import os
import re
import signal
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path

import httpx
import pytest

from scopone.web.store import open_store

T = 60  # generous request timeouts: a guard on a loaded machine, never a measure

pytestmark = pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="needs /proc")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _tagged(tag: str) -> list[int]:
    """Processes whose environment carries ``tag``: the server and everything it started."""
    found = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                if tag.encode() in (p / "environ").read_bytes():
                    found.append(int(p.name))
            except OSError:
                pass
    return found


def _serve(db: Path, tag: str, *options: str) -> tuple[subprocess.Popen[bytes], str]:
    port = _free_port()
    env = {**os.environ, "SCOPONE_TEST_TAG": tag}
    proc = subprocess.Popen([sys.executable, "-m", "scopone", "serve", "--port", str(port),
                             "--db", str(db), *options], env=env, stdout=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    for _ in range(300):  # polling for readiness, not measuring anything
        assert proc.poll() is None, "server exited"
        try:
            httpx.get(base + "/openapi.json", timeout=2)
            return proc, base
        except httpx.TransportError:
            time.sleep(0.1)
    proc.kill()
    raise AssertionError("server did not start")


def _wait_gone(tag: str) -> list[int]:
    for _ in range(100):
        left = _tagged(tag)
        if not left:
            return left
        time.sleep(0.1)
    return _tagged(tag)


def test_a_killed_server_loses_nothing_and_leaves_no_workers(tmp_path: Path) -> None:
    tag = uuid.uuid4().hex
    db = tmp_path / "data" / "games.sqlite3"
    proc, base = _serve(db, tag)
    try:
        game = httpx.post(base + "/api/games", json={"level": "easy"}, timeout=T).json()
        while game["status"] == "computer_turn":  # a move made in a worker process
            game = httpx.post(f"{base}/api/games/{game['id']}/advance",
                              json={"version": game["version"]}, timeout=T).json()
        assert game["status"] == "your_turn"
        workers = [p for p in _tagged(tag) if p != proc.pid]
        assert workers  # the worker processes exist...
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        assert _wait_gone(tag) == []  # ...and die with the server, though it ran no shutdown
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    proc, base = _serve(db, tag)
    try:
        again = httpx.get(f"{base}/api/games/{game['id']}", timeout=T).json()
        assert again == game
        move = {"version": again["version"], **again["legal"][0]}
        r = httpx.post(f"{base}/api/games/{game['id']}/moves", json=move, timeout=T)
        assert r.status_code == 200 and r.json()["version"] == game["version"] + 1
        # Worker processes killed under it: the next computer move gets a fresh pool.
        workers = [p for p in _tagged(tag) if b"spawn_main" in Path(f"/proc/{p}/cmdline")
                   .read_bytes()]
        assert workers
        for pid in workers:
            # The pool may end a worker itself once it sees a sibling die: gone either way.
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)
        r = httpx.post(f"{base}/api/games/{game['id']}/advance",
                       json={"version": game["version"] + 1}, timeout=T)
        assert r.status_code == 200 and len(r.json()["history"]) == len(game["history"]) + 2
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert _wait_gone(tag) == []  # a clean stop leaves nothing either


@pytest.mark.parametrize(("stop", "workers"), [(signal.SIGTERM, 1), (signal.SIGINT, 1),
                                               (signal.SIGTERM, 2)])
def test_a_stopped_server_ends_its_event_streams_and_exits(
        tmp_path: Path, stop: signal.Signals, workers: int) -> None:
    """Told to stop (a deploy's SIGTERM, Ctrl-C), the server ends the pages' event streams at
    once, each cleanly (its browser reconnects and catches up), and exits; it used to wait
    for every stream's own end, minutes away (``events_max_seconds``), and be killed."""
    tag = uuid.uuid4().hex
    proc, base = _serve(tmp_path / "games.sqlite3", tag, "--workers", str(workers))
    try:
        game = httpx.post(base + "/api/games", json={"level": "easy"}, timeout=T).json()
        r = httpx.post(base + "/api/tables", json={"name": "Anna"}, timeout=T).json()
        code, token = r["table"]["code"], r["token"]
        with contextlib.ExitStack() as open_streams:
            streams = [open_streams.enter_context(httpx.stream("GET", url, headers=headers,
                                                               timeout=T))
                       for url, headers in (
                           (f"{base}/api/games/{game['id']}/events", {}),
                           (f"{base}/api/tables/{code}/events",
                            {"Authorization": f"Bearer {token}"}))]
            lines = [s.iter_lines() for s in streams]
            for each in lines:  # each stream is open and has sent its first view
                assert next(line for line in each if line.startswith("id: "))
            proc.send_signal(stop)
            # A guard against waiting for ever, far below the streams' own end (300 s). uvicorn
            # ends by the signal it was stopped with, once it has shut down.
            assert proc.wait(timeout=30) in (0, -stop, 128 + stop)
            for each in lines:
                list(each)  # ends cleanly: a broken stream would raise here
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    assert _wait_gone(tag) == []
    # Anna's seat is stored as gone on the way out: no process is left to say so later, and
    # a table on another machine would count her connected for ever.
    store = open_store(str(tmp_path / "games.sqlite3"))
    try:
        rec = store.load_by_code(code)
    finally:
        store.close()
    assert rec is not None
    anna = rec.meta["table"]["seats"][0]
    assert anna["connected"] is False and anna["streams"] == {} and anna["gone_since"]


def test_the_servers_log_lines_say_when_and_who(tmp_path: Path) -> None:
    """The app's warnings (a database away, a failed card) carry their time, level and
    logger, as the server's own lines do: they went out as the bare message. The connection
    pool's warnings (several a second in an outage) stay out, and so do uvicorn's INFO lines
    (a worker that died excepted: test_processes)."""
    code = ("import logging, logging.config\n"
            "import scopone.web.store.postgres\n"  # imported before, as `serve` does
            "from scopone.web.logs import log_config\n"
            "logging.config.dictConfig(log_config())\n"
            "logging.getLogger('scopone.web.store.observed').warning('the database is away')\n"
            "logging.getLogger('psycopg.pool').warning('discarding closed connection')\n"
            "logging.getLogger('scopone.web.app').info('removed 2 old games')\n"
            "logging.getLogger('uvicorn.error').warning('uvicorn speaks')\n"
            "logging.getLogger('uvicorn.error').info('Started server process [7]')\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=T, check=True)
    stamp = r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3}"
    lines = done.stderr.splitlines()
    assert len(lines) == 3, done.stderr
    assert re.fullmatch(stamp + r" WARNING scopone\.web\.store\.observed: the database is away",
                        lines[0])
    assert re.fullmatch(stamp + r" INFO scopone\.web\.app: removed 2 old games", lines[1])
    assert re.fullmatch(stamp + r" WARNING: +uvicorn speaks", lines[2])


def test_a_server_that_cannot_reach_its_database_says_so_in_one_line(tmp_path: Path) -> None:
    """PostgreSQL not there at the start: one line naming where (not the password) and exit
    status 1, not psycopg's traceback."""
    url = f"postgresql://scopone:secret@127.0.0.1:{_free_port()}/games"
    done = subprocess.run([sys.executable, "-m", "scopone", "serve", "--port",
                           str(_free_port()), "--database-url", url],
                          capture_output=True, text=True, timeout=T)
    assert done.returncode == 1
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in done.stderr, done.stderr
    assert lines[0].startswith("Scopone: cannot reach the database (postgresql://127.0.0.1:")
    assert "secret" not in done.stderr
