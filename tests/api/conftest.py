"""Fixtures for the API tests: an app on a temporary database, and helpers to drive a game."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi import FastAPI
from fastapi.testclient import TestClient

from scopone.engine import Match, Round, Rules, parse_cards
from scopone.web import Settings, create_app
from scopone.web.errors import MESSAGES
from scopone.web.store import GameRecord, Store


def make_settings(tmp_path: Path, store_url: str = "", **kw: Any) -> Settings:
    # Threads instead of processes: Easy is quick and the tests start faster.
    base: dict[str, Any] = {"db_path": tmp_path / "db" / "games.sqlite3",
                            "ai_processes": False, "ai_time_budget": 0.05}
    if store_url.startswith("postgresql://"):
        base["database_url"] = store_url
    base.update(kw)
    return Settings(**base)


@dataclass
class Api:
    """A test client plus the app, so tests can look at the server-side state too."""

    client: TestClient
    app: FastAPI

    @property
    def store(self) -> Store:
        store: Store = self.app.state.service.store
        return store

    def patch_store(self, monkeypatch: pytest.MonkeyPatch, name: str,
                    fn: Callable[..., Any]) -> None:
        """Replaces the store's call ``name`` with ``fn`` (a synchronous function) where the
        app makes it: the store's own, and the service's face (``OffLoop``), whose calls on
        the server's loop go to PostgreSQL's async pool and never reach the store's."""
        monkeypatch.setattr(self.store, name, fn)

        async def awaited(*args: Any, **kwargs: Any) -> Any:
            return fn(*args, **kwargs)
        monkeypatch.setattr(self.app.state.service.db, name, awaited)

    def close_database(self) -> None:
        """Closes every connection of the app's to its database, as good as a database that
        went away: the async pool of the server's loop (on that loop), then the store."""
        self.client.portal.call(self.app.state.service.db.close)
        self.store.close()

    def create(self, **body: Any) -> dict[str, Any]:
        r = self.client.post("/api/games", json={"level": "easy", **body})
        assert r.status_code == 201, r.text
        return dict(r.json())

    def get(self, gid: str) -> dict[str, Any]:
        r = self.client.get(f"/api/games/{gid}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def step(self, game: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """One request that moves the game on, whatever its status; returns the new view."""
        gid, v = game["id"], game["version"]
        if game["status"] == "your_turn":
            r = self.client.post(f"/api/games/{gid}/moves",
                                 json={"version": v, **rng.choice(game["legal"])})
        elif game["status"] == "computer_turn":
            r = self.client.post(f"/api/games/{gid}/advance", json={"version": v})
        elif game["status"] == "round_over":
            r = self.client.post(f"/api/games/{gid}/next-round", json={"version": v})
        else:
            raise AssertionError(f"no step from {game['status']}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def until(self, game: dict[str, Any], status: str | tuple[str, ...], rng: random.Random
              ) -> dict[str, Any]:
        wanted = (status,) if isinstance(status, str) else status
        for _ in range(400):
            if game["status"] in wanted:
                return game
            game = self.step(game, rng)
        raise AssertionError(f"never reached {status}")

    def round_end(self, game: dict[str, Any], rng: random.Random,
                  on_turn: Callable[[dict[str, Any]], None] | None = None) -> dict[str, Any]:
        """Plays on to the end of the round: "round_over", or "match_over" when a random deal's
        first round already gives a pair the match (scope are many in random play).
        ``on_turn(game)`` is called at each of the person's turns before their card."""
        for _ in range(400):
            if game["status"] in ("round_over", "match_over"):
                return game
            if game["status"] == "your_turn" and on_turn:
                on_turn(game)
            game = self.step(game, rng)
        raise AssertionError("the round never ended")

    def insert(self, hands: list[str], table: str = "", dealer: int = 3,
               scores: tuple[int, int] = (0, 0), level: str = "easy",
               rules: Rules | None = None) -> str:
        """A game in a scripted position (hands as card-code strings, seat 0 first)."""
        rules = rules or Rules()
        match = Match(rules, random.Random(7))
        match.round = Round.from_deal([parse_cards(h) for h in hands], parse_cards(table),
                                      dealer=dealer, rules=rules)
        match.scores = list(scores)
        rec = GameRecord.new(match, level)
        self.store.insert(rec)
        return rec.id


@pytest.fixture
def settings(tmp_path: Path, store_url: str) -> Settings:
    """The test's settings, once with each store (``store_url`` in tests/conftest.py)."""
    return make_settings(tmp_path, store_url)


# The router's own answers to a path or method no operation has (not the app's messages).
ROUTER_DETAILS = {404: "Not Found", 405: "Method Not Allowed"}


def stable_detail(response: httpx.Response) -> None:
    """Every refusal any API test provokes carries one of the stable messages, the one
    documented under its status (``errors.MESSAGES``): a new message, or one answered with
    another status, fails the test that met it."""
    if response.status_code < 400 or response.status_code in (500, 501, 502, 504):
        return
    if not response.headers.get("content-type", "").startswith("application/json"):
        return  # a page's 404
    response.read()
    if not response.content:
        return  # HEAD: the headers alone
    detail = response.json().get("detail")
    if ROUTER_DETAILS.get(response.status_code) == detail:
        return
    assert MESSAGES.get(detail) == response.status_code, (
        f"{response.request.method} {response.request.url.path}: {response.status_code} "
        f"{detail!r} is not a stable message of that status (scopone/web/errors.py)")


def client_of(app: FastAPI) -> TestClient:
    client = TestClient(app)
    client.event_hooks = {"request": [], "response": [stable_detail]}
    return client


@pytest.fixture
def api(settings: Settings) -> Iterator[Api]:
    app = create_app(settings)
    with client_of(app) as client:
        yield Api(client, app)


@pytest.fixture
def api_factory(tmp_path: Path, store_url: str) -> Callable[..., Api]:
    """For tests that need their own settings; the caller enters ``api.client``."""

    def build(**kw: Any) -> Api:
        app = create_app(make_settings(tmp_path, store_url, **kw))
        return Api(client_of(app), app)

    return build
