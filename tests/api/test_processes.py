"""Several server processes on one database: any of them serves any game, the version rule
holds between them, and a killed one loses nothing."""

from __future__ import annotations

import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .test_server import _free_port

T = 60  # generous request timeouts: a guard on a loaded machine, never a measure

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


class Server:
    """``python -m scopone serve`` in a process of its own, stopped at the end."""

    def __init__(self, *args: str, log: Path | None = None) -> None:
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        # Its log (standard error) goes to ``log`` when given, else to the tests' own.
        self._log = open(log, "w") if log is not None else None  # noqa: SIM115  # closed in stop
        # Processes for Hard as in production; these tests play Normal, decided inline.
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "scopone", "serve", "--port", str(self.port), *args],
            env={**os.environ, "SCOPONE_AI_WORKERS": "1"}, stdout=subprocess.DEVNULL,
            stderr=self._log)
        self.http = httpx.Client(base_url=self.base, timeout=T)
        for _ in range(300):  # polling for readiness, not measuring anything
            assert self.proc.poll() is None, "server exited"
            try:
                if self.http.get("/openapi.json").status_code == 200:
                    return
            except httpx.TransportError:
                time.sleep(0.1)
        raise AssertionError("server did not start")

    def stop(self) -> None:
        self.http.close()
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        if self._log is not None:
            self._log.close()


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        s.stop()


def _step(http: httpx.Client, game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    gid, v = game["id"], game["version"]
    if game["status"] == "your_turn":
        r = http.post(f"/api/games/{gid}/moves", json={"version": v, **rng.choice(game["legal"])})
    elif game["status"] == "computer_turn":
        r = http.post(f"/api/games/{gid}/advance", json={"version": v})
    else:
        r = http.post(f"/api/games/{gid}/next-round", json={"version": v})
    assert r.status_code == 200, r.text
    return dict(r.json())


def _race(urls: list[str], path: str, body: dict[str, Any]) -> list[int]:
    """The same request sent to every url at the same moment; their status codes."""
    codes: list[int] = []
    gate = threading.Barrier(len(urls))

    def send(url: str) -> None:
        with httpx.Client(timeout=T) as c:
            gate.wait()
            codes.append(c.post(url + path, json=body).status_code)

    threads = [threading.Thread(target=send, args=(u,)) for u in urls]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sorted(codes)


def _until_human(http: httpx.Client, game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    while game["status"] != "your_turn":
        game = _step(http, game, rng)
    return game


def test_two_processes_on_one_postgresql(pg_url: str, servers: list[Server]) -> None:
    a = Server("--database-url", pg_url)
    servers.append(a)
    b = Server("--database-url", pg_url)
    servers.append(b)
    rng = random.Random(4)
    r = a.http.post("/api/games", json={"level": "normal"})
    assert r.status_code == 201
    game = r.json()
    gid = game["id"]
    assert b.http.get(f"/api/games/{gid}").json() == game  # created on a, read on b
    # Played alternately on both: each sees the other's changes at once.
    for n in range(12):
        game = _step((a, b)[n % 2].http, game, rng)
    assert a.http.get(f"/api/games/{gid}").json() == b.http.get(f"/api/games/{gid}").json()
    # The same move on the same version sent to both at once: one wins, one gets 409.
    game = _until_human(a.http, game, rng)
    move = {"version": game["version"], **game["legal"][0]}
    assert _race([a.base, b.base], f"/api/games/{gid}/moves", move) == [200, 409]
    after = b.http.get(f"/api/games/{gid}").json()
    assert after["version"] == game["version"] + 1
    assert len(after["history"]) == len(game["history"]) + 1
    # One process killed outright mid-game: the other serves the game on, nothing lost.
    a.proc.send_signal(signal.SIGKILL)
    a.proc.wait()
    game = after
    for _ in range(10):
        game = _step(b.http, game, rng)
    assert b.http.get(f"/api/games/{gid}").json()["version"] == after["version"] + 10


def _worker_pids(parent: int) -> list[int]:
    """uvicorn's worker processes: children of the server that themselves serve HTTP (the
    Hard pools' processes are their grandchildren)."""
    out = []
    for p in Path("/proc").iterdir():
        if p.name.isdigit():
            try:
                ppid = int((p / "stat").read_text().rsplit(")", 1)[1].split()[1])
                cmd = (p / "cmdline").read_bytes()
            except (OSError, IndexError, ValueError):
                continue
            if ppid == parent and b"multiprocessing" in cmd and b"spawn_main" in cmd:
                out.append(int(p.name))
    return out


def test_two_workers_on_one_sqlite_file(tmp_path: Path, servers: list[Server]) -> None:
    log = tmp_path / "serve.log"
    s = Server("--db", str(tmp_path / "g.sqlite3"), "--workers", "2", log=log)
    servers.append(s)
    rng = random.Random(8)
    # Many games, created and played over fresh connections, land on both workers.
    games = []
    for _ in range(6):
        with httpx.Client(base_url=s.base, timeout=T) as c:
            r = c.post("/api/games", json={"level": "normal"})
            assert r.status_code == 201
            games.append(r.json())
    game = _until_human(s.http, games[0], rng)
    gid = game["id"]
    move = {"version": game["version"], **game["legal"][0]}
    # Eight connections at once (the kernel spreads them over both workers): one wins.
    codes = _race([s.base] * 8, f"/api/games/{gid}/moves", move)
    assert codes == [200] + [409] * 7
    assert s.http.get(f"/api/games/{gid}").json()["version"] == game["version"] + 1
    # Whichever worker answers /metrics counts both workers' requests: all seven refused moves
    # (the kernel spread them over the two; one worker alone would count only its own).
    refused = [line for line in s.http.get("/metrics").text.splitlines()
               if line.startswith("scopone_http_requests_total{")
               and 'route="/api/games/{game_id}/moves"' in line and 'status="409"' in line]
    assert len(refused) == 1 and float(refused[0].rsplit(" ", 1)[1]) == 7, refused
    # A worker killed mid-game: the other (and the one that replaces it) carry on.
    workers = _worker_pids(s.proc.pid)
    assert len(workers) == 2, workers
    os.kill(workers[0], signal.SIGKILL)
    # From here a fresh connection per request: one kept open may have been on the dead worker.
    with httpx.Client(base_url=s.base, timeout=T, limits=httpx.Limits(
            max_keepalive_connections=0)) as fresh:
        game = fresh.get(f"/api/games/{gid}").json()
        for _ in range(10):
            game = _step(fresh, game, rng)
        for g in games[1:]:
            assert fresh.get(f"/api/games/{g['id']}").json()["version"] == g["version"]
    # The log says so (uvicorn said it at INFO, under the server's level: no line at all),
    # and nothing else of uvicorn's own at INFO (started, waiting for the app...).
    deadline = time.monotonic() + T
    while f"[{workers[0]}] died" not in log.read_text():  # the supervisor looks twice a second
        assert time.monotonic() < deadline, log.read_text()
        time.sleep(0.1)
    lines = log.read_text().splitlines()
    died = [line for line in lines if f"Child process [{workers[0]}] died" in line]
    assert len(died) == 1 and " WARNING: " in died[0] and "replaces it" in died[0], lines
    assert not [line for line in lines if " INFO: " in line], lines
