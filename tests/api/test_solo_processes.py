"""A game played alone on two server processes (``serve --workers 2``, or two machines on one
PostgreSQL): its page's event stream is held by one process and its moves go to the other. The
process with the stream plays the computers' cards after each move stored by the other, woken
through the database alone (NOTIFY, or SQLite's data_version); killed, the game waits, and a
stream opened on the other process (the page reconnecting) plays on from where it was."""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from .tables_live import Stream, T
from .test_server import _free_port
from .test_tables_restart import Process

pytestmark = pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs /proc")


def _follow(base: str, game_id: str) -> Stream:
    # "normal": the servers' table pace (0.05 s in Process), one version a card.
    return Stream(base, "", path=f"/api/games/{game_id}/events?speed=normal", event="game",
                  reconnect=False)


def _play_mine(http: httpx.Client, stream: Stream, cards: int,
               rng: random.Random) -> dict[str, Any]:
    """Seat 0 plays ``cards`` cards through ``http`` whenever the stream shows its turn; the
    newest view of the stream then (the computers' cards after the last one come from the
    stream's process)."""
    after = -1  # the version of seat 0's last card
    while True:
        # A guard far above the pace (0.05 s), far below the 30 s a driver that heard nothing
        # of the other process's change would sleep before it looked again.
        view = stream.wait(lambda v, after=after: v["version"] > after
                           and v["status"] != "computer_turn",
                           timeout=10)
        assert view["status"] == "your_turn", view["status"]  # 9 cards: the round goes on
        if cards == 0:
            return view
        r = http.post(f"/api/games/{view['id']}/moves",
                      json={"version": view["version"], **rng.choice(view["legal"])})
        assert r.status_code == 200, r.text  # the computers wait for seat 0: never stale
        after = r.json()["version"]
        cards -= 1


def test_the_process_with_the_stream_plays_after_moves_stored_by_another(
        tmp_path: Path, store_url: str) -> None:
    db = store_url if store_url.startswith("postgresql://") else str(tmp_path / "g.sqlite3")
    log = tmp_path / "server.log"
    a = Process(_free_port(), db, log)
    b = Process(_free_port(), db, log)
    rng = random.Random(5)
    streams: list[Stream] = []
    try:
        with httpx.Client(base_url=a.base, timeout=T) as http:
            r = http.post("/api/games", json={"level": "easy"})
            assert r.status_code == 201, r.text
            gid = r.json()["id"]
            on_b = _follow(b.base, gid)
            streams.append(on_b)
            view = _play_mine(http, on_b, 4, rng)
            # Every card of the round so far: seat 0's four through a, the computers' by b,
            # and a never asked to play one (nobody follows the game there).
            plays = view["history"]
            assert [p["seat"] for p in plays if p["seat"] == 0] == [0] * 4
            assert len(plays) >= 16 and {p["seat"] for p in plays} == {0, 1, 2, 3}
            # Each version reached b's stream in order, each a new one.
            ids = [i for i, _, _ in on_b.events]
            assert ids == sorted(set(ids))
            # b goes away mid-game: nobody follows the game, so its computers wait...
            b.kill()
            on_b.close()
            r = http.post(f"/api/games/{gid}/moves",
                          json={"version": view["version"], **rng.choice(view["legal"])})
            assert r.status_code == 200, r.text
            waiting = r.json()
            assert waiting["status"] == "computer_turn"
            time.sleep(0.5)  # ten times the pace: not a measure, a time in which nothing happens
            assert http.get(f"/api/games/{gid}").json()["version"] == waiting["version"]
            # ...until the page reconnects, to a this time: a plays on from there.
            on_a = _follow(a.base, gid)
            streams.append(on_a)
            view = _play_mine(http, on_a, 4, rng)
            # The computers' three cards after the one a stored, then four rounds of the table.
            assert len(view["history"]) == len(waiting["history"]) + 3 + 4 * 4
            assert view["history"][:len(waiting["history"])] == waiting["history"]
    finally:
        for s in streams:
            s.close()
        a.stop()
        b.stop()
