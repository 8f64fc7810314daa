"""Games live in the store: a second app on the same database carries on exactly where the first
was. (Each test runs on SQLite and on PostgreSQL unless it names SQLite.)"""

from __future__ import annotations

import json
import random
import sqlite3
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient


def test_a_restarted_server_continues_the_game(api_factory: Any, tmp_path: Path) -> None:
    first = api_factory()
    rng = random.Random(3)
    with first.client:
        game = first.create()
        for _ in range(7):
            game = first.step(game, rng)
        gid = game["id"]
        before = first.get(gid)
    second = api_factory()
    with second.client:
        again = second.get(gid)
        assert again == before
        assert again["hand"] == game["hand"] and again["version"] == game["version"] == 7
        nxt = second.step(again, rng)
        assert nxt["version"] == 8 and len(nxt["history"]) == 8
        # The stale request from before the restart is still refused.
        r = second.client.post(f"/api/games/{gid}/advance", json={"version": 6})
        assert r.status_code == 409


def test_the_same_decisions_replay_from_the_stored_state(api_factory: Any,
                                                         tmp_path: Path) -> None:
    """The computer's rng derives from the stored secret seed and the version: two servers
    given the same stored game (here two database files) play the same cards."""
    first = api_factory()
    with first.client:
        gid = first.create()["id"]
        state = first.store.load(gid)
    plays = []
    for n in range(2):
        app = api_factory(db_path=tmp_path / f"copy{n}.sqlite3", database_url="")
        with app.client:
            app.store.insert(state)
            game = app.get(gid)
            # A pair that makes 11 points in the first round ends the match with it.
            game = app.until(game, ("round_over", "match_over"), random.Random(0))
            plays.append(game["history"])
    assert plays[0] == plays[1] and len(plays[0]) == 40


def test_the_file_is_sqlite_in_wal_mode_and_holds_no_secret_in_views(api_factory: Any) -> None:
    api = api_factory(database_url="")
    settings = api.app.state.settings
    with api.client:
        _wal_and_secrets(api, settings)


def _wal_and_secrets(api: Any, settings: Any) -> None:
    game = api.create()
    con = sqlite3.connect(settings.db_path)
    try:
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        row = con.execute("SELECT id, version, level, seed, state FROM games").fetchone()
    finally:
        con.close()
    gid, version, level, seed, state = row
    assert (gid, version, level) == (game["id"], 0, "easy")
    assert len(gid) >= 22  # token_urlsafe(16): 128 bits
    stored = json.loads(state)
    assert "rng" in stored  # the deck's state is stored...
    body = api.client.get(f"/api/games/{gid}").text
    assert seed not in body and '"rng"' not in body  # ...and never sent
    assert set(api.get(gid)) == {
        "id", "version", "status", "level", "rules", "round_number", "turn", "dealer", "hand",
        "hand_counts", "table", "history", "legal", "piles", "scope", "last_taker", "score",
        "rounds", "winner"}


def test_the_database_directory_is_created(api_factory: Any, tmp_path: Path) -> None:
    path = tmp_path / "deep" / "er" / "games.sqlite3"
    built = api_factory(db_path=path, database_url="")
    with built.client as client:
        assert client.post("/api/games", json={}).status_code == 201
    assert path.exists()


def test_game_ids_are_unguessable(api: Any) -> None:
    ids = {api.create()["id"] for _ in range(20)}
    assert len(ids) == 20 and all(len(i) >= 22 for i in ids)


COACH_MODELS = {
    ("/api/games/{game_id}/hint", "post"): "HintOut",
    ("/api/games/{game_id}/rounds/{number}/review", "get"): "ReviewOut",
    ("/api/games/{game_id}/cards-seen", "post"): "CardsSeenOut",
    ("/api/people/{person_id}/stats", "get"): "StatsOut",
    ("/api/tables/{code}/hint", "post"): "HintOut",
    ("/api/tables/{code}/rounds/{number}/review", "get"): "ReviewOut",
    ("/api/tables/{code}/cards-seen", "post"): "CardsSeenOut",
}


def test_every_route_declares_its_response_model(api: Any) -> None:
    client: TestClient = api.client
    spec = client.get("/openapi.json").json()
    for path, ops in spec["paths"].items():
        if not path.startswith("/api/"):
            continue  # /healthz and /metrics: see test_ops and test_contract
        for method, op in ops.items():
            ok = [c for c in op["responses"] if c.startswith("2")]
            assert ok, (path, method)
            if ok[0] == "204":
                assert "content" not in op["responses"]["204"], (path, method)
                continue
            content = op["responses"][ok[0]]["content"]
            if path.endswith("/events"):  # the table's event stream: see test_tables_play
                assert list(content) == ["text/event-stream"]
                continue
            schema = content["application/json"]["schema"]
            # The coach's answers (SPEC §7) have models of their own, built for one seat too.
            if (path, method) in COACH_MODELS:
                expected = {COACH_MODELS[(path, method)]}
            else:
                expected = ({"GameView"} if path.startswith("/api/games")
                            else {"TableView", "SeatTaken"})
            assert schema in [{"$ref": f"#/components/schemas/{name}"} for name in expected], (
                path, method)
