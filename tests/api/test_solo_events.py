"""A game played alone is a table with one person at seat 0 (SPEC §6): while its page follows
the game's event stream the server plays the computers' cards at the page's pace, never the
browser; nobody following, the computers wait; ``advance`` still plays a card at once (§5),
and the version settles a race. Every pushed view is seat 0's and holds no hidden card."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from .aio import run_alone
from .conftest import make_settings
from .tables_live import LiveServer, Stream, Visibility

# The fast pace of these servers: quick, and each card still a version of its own.
FAST = 0.02


@pytest.fixture
def live(tmp_path: Path, store_url: str) -> Iterator[LiveServer]:
    # The normal pace is long: a test at that speed sees the server wait between cards.
    server = LiveServer(make_settings(tmp_path, store_url, fast_pace=FAST, table_pace=30.0))
    yield server
    server.stop()


def _new_game(live: LiveServer, **body: Any) -> dict[str, Any]:
    r = live.http.post("/api/games", json={"level": "easy", **body})
    assert r.status_code == 201, r.text
    return dict(r.json())


def _follow(live: LiveServer, game_id: str, speed: str = "fast", **kw: Any) -> Stream:
    return Stream(live.base, "", path=f"/api/games/{game_id}/events?speed={speed}",
                  event="game", **kw)


def _as_seat_0(view: dict[str, Any]) -> dict[str, Any]:
    """A game view in the shape ``Visibility`` checks (a table view of seat 0)."""
    return {"you": 0, "game": {**view, "seat": 0}}


def _play(live: LiveServer, view: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    gid, version = view["id"], view["version"]
    if view["status"] == "round_over":
        r = live.http.post(f"/api/games/{gid}/next-round", json={"version": version})
    else:
        r = live.http.post(f"/api/games/{gid}/moves",
                           json={"version": version, **rng.choice(view["legal"])})
    assert r.status_code == 200, r.text
    return dict(r.json())


def test_the_server_plays_the_computers_of_a_followed_game(live: LiveServer) -> None:
    rng = random.Random(7)
    game = _new_game(live, target=11)
    seen = Visibility()
    stream = _follow(live, game["id"])
    try:
        done = -1
        while True:
            view = stream.wait(lambda v, after=done: v["version"] > after and v["status"] in (
                "your_turn", "round_over", "match_over"))
            done = view["version"]
            if view["status"] == "match_over":
                break
            answer = _play(live, view, rng)
            seen.add(0, _as_seat_0(answer))
            stream.wait_version(answer["version"])
    finally:
        stream.close()
    versions = [v for v, _, _ in stream.events]
    assert versions == sorted(set(versions)), "an event twice or out of order"
    computer_cards = 0
    for _, view, _ in stream.events:
        seen.add(0, _as_seat_0(view))
        last = view["history"][-1:] if view["status"] == "computer_turn" else []
        computer_cards += sum(1 for p in last if p["seat"] != 0)
    assert computer_cards > 10
    rounds = len(stream.latest()["rounds"])
    assert seen.check() >= 30 * rounds
    # Nobody asked (no advance): every computer card was the server's own.
    assert live.app.state.solo.cards_played == 30 * rounds


def _at_computer_turn(live: LiveServer) -> dict[str, Any]:
    """A new game whose next card is a computer's: played to it by seat 0 if need be."""
    game = _new_game(live)
    if game["status"] == "your_turn":
        game = _play(live, game, random.Random(1))
    assert game["status"] == "computer_turn"
    return game


def test_nobody_following_the_computers_wait_and_a_page_starts_them(
        live: LiveServer) -> None:
    game = _at_computer_turn(live)
    # No stream open: many paces pass and no computer plays (as a page closed leaves it).
    time.sleep(50 * FAST)
    assert live.http.get(f"/api/games/{game['id']}").json()["version"] == game["version"]
    # A HEAD of the stream (a monitor, curl -I) is no page following: nobody plays either.
    r = httpx.head(f"{live.base}/api/games/{game['id']}/events?speed=fast", timeout=5)
    assert r.status_code == 200 and r.content == b""
    assert not live.app.state.solo.followed(game["id"])
    time.sleep(50 * FAST)
    assert live.http.get(f"/api/games/{game['id']}").json()["version"] == game["version"]
    stream = _follow(live, game["id"])
    try:
        view = stream.wait(lambda v: v["status"] == "your_turn" and v["history"])
        assert view["version"] > game["version"]
        assert all(p["seat"] != 0 for p in view["history"][-1:])
    finally:
        stream.close()
    # The page closed (once the server has noticed): seat 0's card, then the computers wait.
    for _ in range(500):  # polling for the server's state, not measuring anything
        if not live.app.state.solo.followed(game["id"]):
            break
        time.sleep(0.01)
    assert not live.app.state.solo.followed(game["id"])
    now = _play(live, live.http.get(f"/api/games/{game['id']}").json(), random.Random(2))
    assert now["status"] == "computer_turn"
    time.sleep(50 * FAST)
    assert live.http.get(f"/api/games/{game['id']}").json()["version"] == now["version"]


def test_advance_plays_at_once_while_a_page_follows_and_the_version_settles_races(
        live: LiveServer) -> None:
    game = _at_computer_turn(live)
    gid, version = game["id"], game["version"]
    stream = _follow(live, gid, speed="normal")  # a card every 30 s: the server waits
    try:
        first = stream.wait_version(version)
        assert first["version"] == version  # the game as it is, at once
        r = live.http.post(f"/api/games/{gid}/advance", json={"version": version})
        assert r.status_code == 200, r.text
        assert r.json()["version"] == version + 1
        assert stream.wait_version(version + 1)["history"] == r.json()["history"]
        r = live.http.post(f"/api/games/{gid}/advance", json={"version": version})
        assert r.status_code == 409 and r.json()["detail"] == "stale version"
    finally:
        stream.close()
    assert live.app.state.solo.cards_played == 0


def test_a_stream_resumes_after_the_version_its_page_saw(live: LiveServer) -> None:
    game = _new_game(live)
    gid, version = game["id"], game["version"]
    headers = {"Last-Event-ID": str(version)}
    url = f"{live.base}/api/games/{gid}/events"
    # Seen already: nothing until the game changes (a ping at most; this read times out).
    with httpx.stream("GET", url + "?speed=normal", headers=headers,
                      timeout=httpx.Timeout(5.0, read=0.5)) as r:
        assert r.status_code == 200
        assert r.headers["content-type"].startswith("text/event-stream")
        assert r.headers["cache-control"] == "no-store"
        with pytest.raises(httpx.ReadTimeout):
            for line in r.iter_lines():
                assert not line.startswith("data:"), line
    # A version the game never had is no version seen: the game now.
    with httpx.stream("GET", f"{url}?after={version + 5}", timeout=5.0) as r:
        for line in r.iter_lines():
            if line.startswith("id:"):
                assert line == f"id: {version}"
                break


def test_refusals_of_the_game_stream(live: LiveServer) -> None:
    c = live.http
    gid = _new_game(live)["id"]
    r = c.get("/api/games/nosuchgame/events")
    assert r.status_code == 404 and r.json()["detail"] == "game not found"
    r = c.get(f"/api/games/{gid}/events?speed=slow")
    assert r.status_code == 422
    r = c.get(f"/api/games/{gid}/events?after=x")
    assert r.status_code == 422
    # A table's record is reached by its code and seat tokens only, never by its id.
    r = c.post("/api/tables", json={"name": "Anna"})
    table_id = live.app.state.service.store.load_by_code(r.json()["table"]["code"]).id
    r = c.get(f"/api/games/{table_id}/events")
    assert r.status_code == 404 and r.json()["detail"] == "game not found"


def test_peek_reads_the_copy_stored_last_only_while_the_store_holds_it(
        live: LiveServer) -> None:
    service = live.app.state.service
    game = _at_computer_turn(live)  # stored by this process: its copy is kept
    first, again = run_alone(service.peek(game["id"])), run_alone(service.peek(game["id"]))
    assert first is again and first.version == game["version"]
    # Another process changes the game: its row moves on, so the copy is no longer read.
    other = service.store.load(game["id"])
    other.level = "hard"
    other.version += 1
    assert service.store.update(other, other.version - 1)
    fresh, again = run_alone(service.peek(game["id"])), run_alone(service.peek(game["id"]))
    assert fresh is not again  # read from the store each time
    assert (fresh.version, fresh.level) == (game["version"] + 1, "hard")
