"""A game or table swept away while a page still follows its event stream (QA helper-79).

The sweep deletes old games and tables without any news on the push hub, and the streams only
looked at the store again on news: a page's stream of a swept game or table went on pinging
(measured under ``serve --workers 2``: pings at 15, 30, 45 s and on) until its own end
(``events_max_seconds``, 5 minutes by default), and only the reconnection then met the 404 the
page handles (a new match; the table's "missing"). Now a quiet stream asks the store at each
ping whether its game is still there, and ends."""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from scopone.web import events, solo

from .conftest import make_settings
from .tables_live import LiveServer, auth

PING = 0.2  # seconds: the streams' ping, shortened so a quiet stream looks soon
ENDS_WITHIN = 5.0  # seconds after the sweep (the old code pinged until the stream's end)


@pytest.fixture
def live(tmp_path: Path, store_url: str, monkeypatch: pytest.MonkeyPatch
         ) -> Iterator[LiveServer]:
    monkeypatch.setattr(events, "PING_SECONDS", PING)
    monkeypatch.setattr(solo, "PING_SECONDS", PING)
    # A long pace: no computer card comes to wake a stream with news.
    server = LiveServer(make_settings(tmp_path, store_url, table_pace=30.0, fast_pace=30.0,
                                      events_max_seconds=60.0))
    yield server
    server.stop()


def _follow_then_sweep(live: LiveServer, path: str, headers: dict[str, str]) -> list[str]:
    """Opens the stream, sweeps everything once its first event came, and returns what the
    stream sent after the sweep until it ended (or ``ENDS_WITHIN`` passed: "still open")."""
    after: list[str] = []
    swept_at = None
    with httpx.Client(base_url=live.base, timeout=10.0) as client, \
            client.stream("GET", path, headers=headers) as resp:
        assert resp.status_code == 200
        for line in resp.iter_lines():
            if swept_at is None:
                if line.startswith("data: "):
                    store = live.app.state.service.store
                    assert store.remove_old(time.time() + 60, time.time() + 60) == 1
                    swept_at = time.monotonic()
                continue
            if line:
                after.append(line)
            if time.monotonic() - swept_at > ENDS_WITHIN:
                return [*after, "still open"]
    return after


def test_the_stream_of_a_game_swept_away_ends_at_its_next_ping(live: LiveServer) -> None:
    game = live.http.post("/api/games", json={"level": "easy"}).json()
    sent = _follow_then_sweep(live, f"/api/games/{game['id']}/events", {})
    assert sent == [": ping"]  # the one that found the game gone
    assert live.http.get(f"/api/games/{game['id']}/events").status_code == 404


@pytest.mark.parametrize("viewer", ["host", "spectator"])
def test_the_stream_of_a_table_swept_away_ends_at_its_next_ping(
        live: LiveServer, viewer: str) -> None:
    r = live.http.post("/api/tables", json={"name": "Ada"})
    assert r.status_code == 201, r.text
    code, token = r.json()["table"]["code"], r.json()["token"]
    headers = auth(token) if viewer == "host" else {}
    sent = _follow_then_sweep(live, f"/api/tables/{code}/events", headers)
    assert sent == [": ping"]  # the one that found the table gone
    assert live.http.get(f"/api/tables/{code}/events", headers=headers).status_code == 404
