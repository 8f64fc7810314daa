"""Helpers for the tests of tables with friends: a real server (event streams need one: the
test client waits for a response's end), readers of event streams, and the check that no view
holds a card hidden from its viewer, against the round's own history."""

from __future__ import annotations

import contextlib
import json
import re
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
import uvicorn

from scopone.web import Settings, create_app
from scopone.web.schemas import CARD_PATTERN

from .test_server import _free_port

T = 60.0  # a guard against a hang on a loaded machine, never a measure
CARD = re.compile(CARD_PATTERN)


class LiveServer:
    """The app under uvicorn in a thread of this process."""

    def __init__(self, settings: Settings) -> None:
        self.app = create_app(settings)
        self.port = _free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        config = uvicorn.Config(self.app, host="127.0.0.1", port=self.port, log_level="warning",
                                access_log=False, timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + T
        while not self.server.started:  # polling for readiness, not measuring anything
            assert self.thread.is_alive() and time.monotonic() < deadline, "server did not start"
            time.sleep(0.02)
        self.http = httpx.Client(base_url=self.base, timeout=T)

    def stop(self) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(T)


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


class Stream:
    """One viewer's event stream in a thread of its own, reconnecting (with Last-Event-ID)
    when the connection ends, until ``close``."""

    def __init__(self, base: str, code: str, token: str | None = None,
                 reconnect: bool = False, path: str | None = None,
                 event: str = "table") -> None:
        # ``path``/``event``: another stream than a table's (a game played alone: "game").
        self.url = f"{base}{path or f'/api/tables/{code}/events'}"
        self.event = event
        self.token = token
        self.reconnect = reconnect
        self.events: list[tuple[int, dict[str, Any], float]] = []  # (id, view, arrival)
        self.pings = 0
        self.connections = 0
        self._cond = threading.Condition()
        self._closed = False
        self._response: httpx.Response | None = None
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    @property
    def last_id(self) -> int | None:
        with self._cond:
            return self.events[-1][0] if self.events else None

    def _run(self) -> None:
        while not self._closed:
            headers = auth(self.token)
            if self.last_id is not None:
                headers["Last-Event-ID"] = str(self.last_id)
            try:
                with httpx.stream("GET", self.url, headers=headers,
                                  timeout=httpx.Timeout(T, read=T)) as r:
                    self._response = r
                    assert r.status_code == 200, r.read()
                    assert r.headers["content-type"].startswith("text/event-stream")
                    self.connections += 1
                    self._read(r)
            except (httpx.HTTPError, RuntimeError):
                pass
            if not self.reconnect:
                return
            time.sleep(0.1)

    def _read(self, r: httpx.Response) -> None:
        fields: dict[str, str] = {}
        for line in r.iter_lines():
            if self._closed:
                return
            if line == "":
                if fields:
                    assert fields["event"] == self.event
                    view = json.loads(fields["data"])
                    assert int(fields["id"]) == view["version"]
                    with self._cond:
                        self.events.append((int(fields["id"]), view, time.monotonic()))
                        self._cond.notify_all()
                fields = {}
            elif line.startswith(":"):
                self.pings += 1
            else:
                name, _, value = line.partition(":")
                fields[name] = value.removeprefix(" ")

    def wait(self, pred: Callable[[dict[str, Any]], bool], timeout: float = T) -> dict[str, Any]:
        """The first view (newest first) that satisfies ``pred``, waiting for it."""
        deadline = time.monotonic() + timeout
        with self._cond:
            while True:
                for _, view, _ in reversed(self.events):
                    if pred(view):
                        return view
                left = deadline - time.monotonic()
                last = self.events[-1][1] if self.events else None
                assert left > 0, f"no such event; last: {last}"
                self._cond.wait(left)

    def wait_version(self, version: int, timeout: float = T) -> dict[str, Any]:
        return self.wait(lambda v: v["version"] >= version, timeout)

    def latest(self) -> dict[str, Any]:
        """The newest view, waiting for the first: a stream another viewer's stream has seen
        connect may not have read its own first view yet (under load, at the CI's speed)."""
        return self.wait(lambda _: True)

    def close(self) -> None:
        self._closed = True
        if self._response is not None:
            # Closing the response from another thread does not wake the reader blocked on the
            # socket, so the server would see the page go only with the next event or ping (up
            # to 15 s later): shutting the socket down ends both at once, like a closed tab.
            with contextlib.suppress(Exception):
                stream = self._response.extensions["network_stream"]
                stream.get_extra_info("socket").shutdown(socket.SHUT_RDWR)
            with contextlib.suppress(Exception):
                self._response.close()
        self._thread.join(5)


def settled(view: dict[str, Any]) -> dict[str, Any]:
    """A table view as the table's state: the seconds on its turn clock, which run down
    between two reads of one version, checked and left out (a copy; the view is unchanged)."""
    out = json.loads(json.dumps(view))
    clock = out["game"] and out["game"]["clock"]
    if clock:
        assert 0 <= clock.pop("seconds") <= 120  # the longest away time of a table
    return dict(out)


# ----- what a viewer may see ----------------------------------------------------------------


def cards_in(obj: Any) -> set[str]:
    """Every card code anywhere in a JSON value."""
    if isinstance(obj, str):
        return {obj} if CARD.match(obj) else set()
    if isinstance(obj, dict):
        return set().union(*(cards_in(v) for v in obj.values())) if obj else set()
    if isinstance(obj, list):
        return set().union(*(cards_in(v) for v in obj)) if obj else set()
    return set()


class Visibility:
    """Collects (viewer seat, view) pairs and, once each round's whole history is known,
    checks that no view held a card its viewer could not see: its own hand, the table, or
    what has been played and captured (all public). Scientifico: the table starts empty."""

    def __init__(self) -> None:
        self.seen: list[tuple[int | None, dict[str, Any]]] = []
        self.finals: dict[int, list[dict[str, Any]]] = {}

    def add(self, seat: int | None, view: dict[str, Any]) -> None:
        self.seen.append((seat, view))
        g = view.get("game")
        if g and g["status"] in ("round_over", "match_over") and len(g["history"]) == 40:
            self.finals[g["round_number"]] = g["history"]

    def check(self) -> int:
        checked = 0
        for seat, view in self.seen:
            assert view["you"] == seat
            g = view["game"]
            if g is None:
                assert cards_in(view) == set(), view
                continue
            assert g["seat"] == seat
            final = self.finals[g["round_number"]]
            history = g["history"]
            assert history == final[:len(history)], "a history that did not happen"
            table: set[str] = set()
            for play in history:
                if play["capture"]:
                    table -= set(play["capture"])
                else:
                    table.add(play["card"])
            public = table | {p["card"] for p in history}
            own: set[str] = set()
            if seat is not None:
                dealt = {p["card"] for p in final if p["seat"] == seat}
                own = dealt - {p["card"] for p in history if p["seat"] == seat}
            assert set(g["hand"]) == own, (seat, g["hand"], own)
            # At the round's end the last taker sweeps the table (public cards all the same).
            over = g["status"] in ("round_over", "match_over")
            assert set(g["table"]) == (set() if over else table)
            hidden = cards_in(view) - own - public
            assert not hidden, f"seat {seat} was shown hidden cards {hidden}"
            if g["legal"]:
                assert g["status"] == "your_turn" and g["turn"] == seat
            checked += 1
        return checked
