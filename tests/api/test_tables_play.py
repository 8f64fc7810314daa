"""Tables with friends played through the HTTP API with every event stream open: four people,
then one person and three computers (the server's driver). No answer and no pushed message
holds a card hidden from its viewer, checked against each round's own history."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import make_settings
from .tables_live import LiveServer, Stream, Visibility, auth


@pytest.fixture
def live(tmp_path: Path, store_url: str) -> Iterator[LiveServer]:
    server = LiveServer(make_settings(tmp_path, store_url, table_pace=0.01))
    yield server
    server.stop()


def _create(live: LiveServer, **body: Any) -> tuple[str, str]:
    r = live.http.post("/api/tables", json={"name": "Anna", "level": "easy", **body})
    assert r.status_code == 201, r.text
    return r.json()["table"]["code"], r.json()["token"]


def _sit(live: LiveServer, code: str, seat: int, name: str) -> str:
    r = live.http.post(f"/api/tables/{code}/seats/{seat}", json={"name": name})
    assert r.status_code == 201, r.text
    assert r.json()["seat"] == seat and r.json()["table"]["you"] == seat
    return str(r.json()["token"])


def _all_connected(view: dict[str, Any], people: set[int]) -> bool:
    return all(view["seats"][s]["connected"] for s in people)


def test_four_people_play_a_whole_match_and_see_only_their_own_cards(
        live: LiveServer) -> None:
    rng = random.Random(9)
    code, host = _create(live)
    tokens = [host] + [_sit(live, code, s, n) for s, n in ((1, "Bruno"), (2, "Carla"),
                                                           (3, "Dario"))]
    seen = Visibility()
    streams = [Stream(live.base, code, tok) for tok in tokens]
    spectator = Stream(live.base, code)
    viewers: list[tuple[int | None, Stream]] = [*enumerate(streams), (None, spectator)]
    try:
        lobby = spectator.wait(lambda v: _all_connected(v, {0, 1, 2, 3}))
        assert lobby["phase"] == "lobby" and lobby["game"] is None
        r = live.http.post(f"/api/tables/{code}/start", json={"version": lobby["version"]},
                           headers=auth(host))
        assert r.status_code == 200, r.text
        seen.add(0, r.json())
        version = r.json()["version"]
        moves = 0
        while True:
            clocks = []
            for _, stream in viewers:  # every viewer has the change pushed
                view = stream.wait_version(version)
                assert view["version"] == version
                clocks.append(view["game"] and view["game"]["clock"])
            game = spectator.latest()["game"]
            # Everyone sees the same clock: the person to play has 60 s (the default) before
            # the computer plays their card; nobody between rounds.
            if game["status"] in ("round_over", "match_over"):
                assert clocks == [None] * 5
            else:
                assert {(c["seat"], c["reason"]) for c in clocks} == {(game["turn"], "turn")}
                assert all(50 < c["seconds"] <= 60 for c in clocks)
            if game["status"] == "match_over":
                break
            if game["status"] == "round_over":
                seat = rng.randrange(4)
                r = live.http.post(f"/api/tables/{code}/next-round", json={"version": version},
                                   headers=auth(tokens[seat]))
            else:
                seat = game["turn"]
                mine = streams[seat].latest()["game"]
                assert mine["status"] == "your_turn" and mine["legal"]
                others = [streams[s].latest()["game"] for s in range(4) if s != seat]
                assert all(g["status"] == "their_turn" and not g["legal"] for g in others)
                r = live.http.post(f"/api/tables/{code}/moves",
                                   json={"version": version, **rng.choice(mine["legal"])},
                                   headers=auth(tokens[seat]))
                moves += 1
            assert r.status_code == 200, r.text
            assert r.json()["version"] == version + 1
            seen.add(seat, r.json())
            version += 1
        assert moves >= 40 and spectator.latest()["phase"] == "match_over"
    finally:
        for _, stream in viewers:
            stream.close()
    for seat, stream in viewers:
        for _, view, _ in stream.events:
            seen.add(seat, view)
    assert seen.check() > 5 * moves
    assert spectator.latest()["game"]["hand"] == []


def test_one_person_and_three_computers_the_server_plays_them(live: LiveServer) -> None:
    rng = random.Random(4)
    code, host = _create(live, target=11)
    seen = Visibility()
    mine = Stream(live.base, code, host)
    spectator = Stream(live.base, code)
    try:
        lobby = mine.wait(lambda v: v["seats"][0]["connected"])
        r = live.http.post(f"/api/tables/{code}/start", json={"version": lobby["version"]},
                           headers=auth(host))
        assert r.status_code == 200, r.text
        assert [s["kind"] for s in r.json()["seats"]] == ["person"] + ["computer"] * 3
        seen.add(0, r.json())
        done = r.json()["version"] - 1
        while True:
            view = mine.wait(lambda v, after=done: v["version"] > after and v["game"][
                "status"] in ("your_turn", "round_over", "match_over"))
            done = view["version"]
            game = view["game"]
            if game["status"] == "match_over":
                break
            if game["status"] == "round_over":
                r = live.http.post(f"/api/tables/{code}/next-round",
                                   json={"version": view["version"]}, headers=auth(host))
            else:
                r = live.http.post(f"/api/tables/{code}/moves",
                                   json={"version": view["version"],
                                         **rng.choice(game["legal"])}, headers=auth(host))
            assert r.status_code == 200, r.text
            seen.add(0, r.json())
            mine.wait_version(r.json()["version"])
        spectator.wait(lambda v: v["phase"] == "match_over")
    finally:
        mine.close()
        spectator.close()
    computer_cards = sum(1 for _, v, _ in mine.events if v["game"]
                         for p in v["game"]["history"][-1:] if p["seat"] != 0)
    assert computer_cards > 0
    for seat, stream in ((0, mine), (None, spectator)):
        for _, view, _ in stream.events:
            seen.add(seat, view)
    # A match may end with its first round (a pair makes 11): its 40 cards, each seen on both
    # streams, are the fewest views there can be.
    assert seen.check() > 80
    assert not mine.latest()["seats"][0]["away"]  # the person played every card of theirs
