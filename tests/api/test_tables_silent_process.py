"""A server process that falls silent without dying (a machine cut off from the others, a
frozen process: here SIGSTOP, whose pid lives on) is judged gone by its heartbeat
(``scopone.web.liveness``): another process takes its table over and shows the person whose
page was connected to it offline, so the computer plays their card after the grace instead of
the table waiting for ever. Heard again, the process tells the table its page is still there."""

from __future__ import annotations

import signal
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .tables_live import Stream, T, auth
from .test_server import _free_port
from .test_tables_restart import Process

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")

STALE = "1.5"  # seconds of silence judged gone (beats every 0.25 s)
GRACE = "1"  # an offline person's grace before the computer plays their card


def _anna(view: dict[str, Any]) -> dict[str, Any]:
    seat: dict[str, Any] = view["seats"][0]
    return seat


def _until_annas_turn(http: httpx.Client, b: Process, code: str, carla: str,
                      anna: Stream, streams: dict[str, Stream]) -> dict[str, Any]:
    """Carla plays her cards (from process B) until it is Anna's turn."""
    deadline = time.monotonic() + 4 * T
    acted = -1
    while time.monotonic() < deadline:
        view = anna.latest()
        if view["game"] is not None and view["game"]["status"] == "your_turn":
            return view
        mine = streams["carla"].latest()
        game = mine["game"]
        if game is not None and game["status"] == "your_turn" and mine["version"] > acted:
            r = http.post(f"{b.base}/api/tables/{code}/moves", headers=auth(carla),
                          json={"version": mine["version"], **game["legal"][0]})
            assert r.status_code in (200, 409), r.text
            acted = mine["version"]
        time.sleep(0.01)
    raise AssertionError("Anna's turn did not come")


def test_a_silent_process_is_judged_gone_and_tells_its_streams_again_when_heard(
        tmp_path: Path, store_url: str) -> None:
    db = store_url if store_url.startswith("postgresql://") else str(tmp_path / "t.sqlite3")
    log = tmp_path / "server.log"
    env = {"SCOPONE_PROCESS_STALE_SECONDS": STALE, "SCOPONE_TABLE_RECONNECT_SECONDS": GRACE}
    a = Process(_free_port(), db, log, **env)
    b = Process(_free_port(), db, log, **env)
    http = httpx.Client(timeout=T)
    streams: dict[str, Stream] = {}
    stopped = False
    try:
        # Anna (host) and Carla with two computers, no time limit; Anna's page on process
        # A, Carla's on process B.
        r = http.post(a.base + "/api/tables",
                      json={"name": "Anna", "level": "easy", "away_seconds": None})
        code, anna_token = r.json()["table"]["code"], r.json()["token"]
        r = http.post(f"{b.base}/api/tables/{code}/seats/2", json={"name": "Carla"})
        carla = r.json()["token"]
        streams["anna"] = anna = Stream(a.base, code, anna_token)
        streams["carla"] = watcher = Stream(b.base, code, carla)
        lobby = watcher.wait(lambda v: _anna(v)["connected"] and v["seats"][2]["connected"])
        r = http.post(f"{a.base}/api/tables/{code}/start", json={"version": lobby["version"]},
                      headers=auth(anna_token))
        assert r.status_code == 200, r.text
        turn = _until_annas_turn(http, b, code, carla, anna, streams)
        played = len(turn["game"]["history"])

        a.proc.send_signal(signal.SIGSTOP)
        stopped = True
        # B judges A gone once it is silent 1.5 s: Anna is offline from then, and after her
        # grace the computer plays her card (she is away until she is back). Before the
        # heartbeat a live pid kept her connected, and with no time limit nobody played.
        offline = lambda v: v["version"] > turn["version"] and not _anna(v)["connected"]  # noqa: E731
        watcher.wait(offline)
        # The first such view (``wait`` gives the newest: on a loaded machine the view after
        # her card may have come in before this thread woke, and it shows her offline too).
        off = next(v for _, v, _ in list(watcher.events) if offline(v))
        assert off["game"]["history"][played:] == []  # nothing played before she went offline
        mine = watcher.wait(lambda v: v["version"] > off["version"]
                            and len(v["game"]["history"]) > played)
        assert mine["game"]["history"][played]["seat"] == 0
        assert _anna(mine)["away"] is True

        a.proc.send_signal(signal.SIGCONT)
        stopped = False
        # A is heard again and tells the table that Anna's page is still open on it.
        back = watcher.wait(lambda v: v["version"] > mine["version"] and _anna(v)["connected"])
        assert anna.wait(lambda v: v["version"] >= back["version"])["seats"][0]["connected"]
    finally:
        if stopped:
            a.proc.send_signal(signal.SIGCONT)
        for stream in streams.values():
            stream.close()
        http.close()
        a.stop()
        b.stop()
