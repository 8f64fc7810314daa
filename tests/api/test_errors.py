"""Every error path: 404, 422 and 409 with their stable details, and nothing changes."""

from __future__ import annotations

import random
from typing import Any

import pytest

UNKNOWN = "no-such-game-0000000000"


def _snapshot(api: Any, gid: str) -> tuple[dict[str, Any], Any]:
    stored = api.store.load(gid)
    return api.get(gid), stored.match.to_dict()


def _refused(api: Any, method: str, path: str, body: Any, status: int, detail: str) -> Any:
    r = api.client.request(method, path, json=body)
    assert r.status_code == status, r.text
    assert r.headers["content-type"].startswith("application/json")
    assert r.json()["detail"] == detail
    return r.json()


@pytest.mark.parametrize(("method", "path", "body"), [
    ("GET", "/api/games/{}", None),
    ("POST", "/api/games/{}/moves", {"version": 0, "card": "7D", "capture": []}),
    ("POST", "/api/games/{}/advance", {"version": 0}),
    ("POST", "/api/games/{}/next-round", {"version": 0}),
    ("PATCH", "/api/games/{}", {"level": "hard"}),
])
def test_unknown_game_is_404(api: Any, method: str, path: str, body: Any) -> None:
    _refused(api, method, path.format(UNKNOWN), body, 404, "game not found")
    _refused(api, method, path.format("x" * 300), body, 404, "game not found")


@pytest.mark.parametrize(("path", "body", "detail"), [
    ("/moves", {"version": 0, "card": "11D"}, "invalid card"),
    ("/moves", {"version": 0, "card": "7X"}, "invalid card"),
    ("/moves", {"version": 0, "card": "0D"}, "invalid card"),
    ("/moves", {"version": 0, "card": "7D", "capture": ["3C", "ZZ"]}, "invalid card"),
    ("/moves", {"version": 0, "card": "7D", "capture": ["3C", "3C"]}, "invalid move"),
    ("/moves", {"version": 0, "card": "7d"}, "invalid card"),
    ("/moves", {"version": 0, "card": "07D"}, "invalid card"),
    ("/moves", {"version": 0, "card": " 7D"}, "invalid card"),
    ("/moves", {"version": 0, "card": "7D", "capture": ["10b"]}, "invalid card"),
    ("/moves", {"version": 0, "card": "7DD7"}, "invalid card"),
    ("/moves", {"version": 0, "card": 7}, "invalid card"),
    ("/moves", {"version": 0, "card": "7D", "capture": ["3C", None]}, "invalid card"),
    ("/moves", {"version": "zero", "card": "7D"}, "invalid request"),
    ("/moves", {"version": -1, "card": "7D"}, "invalid request"),
    ("/moves", {"version": "0", "card": "7D"}, "invalid request"),  # strict: no coercion
    ("/moves", {"version": False, "card": "7D"}, "invalid request"),
    ("/moves", {"version": 0, "card": "7D", "capture": ["1D"] * 11}, "invalid request"),
    ("/moves", {"version": "x", "card": "7DD7"}, "invalid request"),
    ("/moves", {"version": 0, "card": "7D", "capture": "3C"}, "invalid request"),
    ("/moves", {"version": 0, "card": "7D", "seat": 1}, "invalid request"),
    ("/moves", {"card": "7D"}, "invalid request"),
    ("/moves", [], "invalid request"),
    ("/advance", {"version": 0, "seat": 2}, "invalid request"),
    ("/advance", {}, "invalid request"),
    ("/advance", {"version": 1.5}, "invalid request"),
    ("/advance", {"version": "3"}, "invalid request"),
    ("/advance", {"version": True}, "invalid request"),
    ("/next-round", {"version": None}, "invalid request"),
])
def test_malformed_input_is_422(api: Any, path: str, body: Any, detail: str) -> None:
    game = api.create()
    before = _snapshot(api, game["id"])
    _refused(api, "POST", f"/api/games/{game['id']}{path}", body, 422, detail)
    assert _snapshot(api, game["id"]) == before


@pytest.mark.parametrize("body", [
    {"level": "impossible"}, {"variant": "tressette"}, {"target": 15}, {"napola": "maybe"},
    {"level": "easy", "cheat": True}, [1, 2],
    # Strict types: JSON values are not coerced.
    {"napola": 0}, {"napola": "true"}, {"level": 1}, {"target": "11"}, {"variant": None},
])
def test_malformed_new_game_is_422(api: Any, body: Any) -> None:
    _refused(api, "POST", "/api/games", body, 422, "invalid request")


@pytest.mark.parametrize("body", [{}, {"level": "expert"}, {"level": "easy", "version": 0}])
def test_malformed_level_change_is_422(api: Any, body: Any) -> None:
    gid = api.create()["id"]
    _refused(api, "PATCH", f"/api/games/{gid}", body, 422, "invalid request")


def test_not_json_is_422(api: Any) -> None:
    gid = api.create()["id"]
    r = api.client.post(f"/api/games/{gid}/advance", content=b"{version: 0",
                        headers={"content-type": "application/json"})
    assert r.status_code == 422 and r.json()["detail"] == "invalid request"


def test_new_game_without_a_body_takes_the_defaults(api: Any) -> None:
    r = api.client.post("/api/games")
    assert r.status_code == 201
    body = r.json()
    assert body["level"] == "normal"
    assert body["rules"] == {"variant": "scientifico", "napola": False, "target": 11}


def _conflict(api: Any, gid: str, path: str, body: dict[str, Any], detail: str) -> None:
    before = _snapshot(api, gid)
    out = _refused(api, "POST", f"/api/games/{gid}{path}", body, 409, detail)
    assert out["game"] == before[0]  # the current view, so the page can resync
    assert _snapshot(api, gid) == before  # and nothing changed


def test_illegal_moves_are_409(api: Any) -> None:
    # Seat 0 leads (dealer 3) holding 5C and 7D; the table has 3S and 4B.
    gid = api.insert(["5C 7D", "1B 2B", "1S 2S", "1C 2C"], table="3S 4B", dealer=3)
    view = api.get(gid)
    assert view["status"] == "your_turn"
    assert sorted(map(str, (m["card"] for m in view["legal"]))) == ["5C", "7D"]
    assert {"card": "7D", "capture": ["3S", "4B"]} in view["legal"]
    v = view["version"]
    illegal: list[dict[str, Any]] = [
        {"card": "1B"},  # not in seat 0's hand (seat 1 holds it)
        {"card": "6D"},  # in nobody's hand
        {"card": "7D"},  # can take 3S+4B, so it must take
        {"card": "7D", "capture": ["3S"]},  # not a capture of 7D
        {"card": "5C", "capture": ["3S"]},  # 5C takes nothing here
        {"card": "7D", "capture": ["3S", "4B", "2C"]},  # 2C is not on the table
        # Taking the card one plays: schema-valid, so refused as illegal, not as malformed.
        {"card": "7D", "capture": ["7D"]},
    ]
    for move in illegal:
        _conflict(api, gid, "/moves", {"version": v, **move}, "illegal move")
    _conflict(api, gid, "/advance", {"version": v}, "not a computer's turn")
    _conflict(api, gid, "/next-round", {"version": v}, "round is not over")


def test_moving_out_of_turn_is_409(api: Any) -> None:
    gid = api.insert(["5C 7D", "1B 2B", "1S 2S", "1C 2C"], dealer=0)  # seat 1 leads
    view = api.get(gid)
    assert view["status"] == "computer_turn" and view["turn"] == 1
    _conflict(api, gid, "/moves", {"version": view["version"], "card": "5C"}, "not your turn")


def test_after_the_round_only_next_round_is_allowed(api: Any) -> None:
    gid = api.insert(["5C", "1B", "1S", "1C"], dealer=3)
    view = api.until(api.get(gid), "round_over", random.Random(1))
    assert view["rounds"][0]["number"] == 1 and view["score"] == view["rounds"][0]["points"]
    v = view["version"]
    _conflict(api, gid, "/moves", {"version": v, "card": "5C"}, "round is over")
    _conflict(api, gid, "/advance", {"version": v}, "round is over")
    r = api.client.post(f"/api/games/{gid}/next-round", json={"version": v})
    assert r.status_code == 200 and r.json()["status"] in {"your_turn", "computer_turn"}


def test_after_the_match_nothing_is_allowed(api: Any) -> None:
    # Pair A already past the target: the last card ends the round and the match.
    gid = api.insert(["5C", "1B", "1S", "1C"], dealer=3, scores=(20, 0))
    view = api.until(api.get(gid), "match_over", random.Random(1))
    assert view["winner"] == "A" and view["turn"] is None and view["legal"] == []
    v = view["version"]
    _conflict(api, gid, "/moves", {"version": v, "card": "5C"}, "match is over")
    _conflict(api, gid, "/advance", {"version": v}, "match is over")
    _conflict(api, gid, "/next-round", {"version": v}, "match is over")


def test_tied_past_the_target_plays_another_round(api: Any) -> None:
    # 11-11 before a last round that scores nothing: no card can take (10, 9, 8, 7 laid in
    # turn), so nobody holds a card and no category scores.
    gid = api.insert(["10C", "9B", "8S", "7C"], dealer=3, scores=(11, 11))
    view = api.until(api.get(gid), "round_over", random.Random(1))
    assert view["score"] == [11, 11] and view["winner"] is None
    r = api.client.post(f"/api/games/{gid}/next-round", json={"version": view["version"]})
    assert r.status_code == 200 and r.json()["round_number"] == 2


@pytest.mark.parametrize(("error", "status", "detail"), [
    ("unreachable", 503, "database unavailable"),
    ("a bug", 500, "internal error"),
])
def test_a_database_out_of_reach_is_a_503_and_anything_else_unexpected_a_500(
        api: Any, monkeypatch: pytest.MonkeyPatch, error: str, status: int, detail: str) -> None:
    """PostgreSQL down or restarting (its driver's OperationalError, the pool's timeout
    among them) is no fault of the request or the code: 503, which the client may try again.
    Anything else unexpected stays a 500. Both are JSON with the security headers."""
    import psycopg

    def failing(rec: Any) -> None:
        if error == "unreachable":
            raise psycopg.OperationalError("the database system is shutting down")
        raise RuntimeError("a bug")

    with monkeypatch.context() as m:
        api.patch_store(m, "insert", failing)
        r = api.client.post("/api/games", json={})
    assert (r.status_code, r.json()) == (status, {"detail": detail})
    assert r.headers["content-security-policy"]
    assert api.client.post("/api/games", json={}).status_code == 201
