"""Fixtures for the browser tests: the real app under uvicorn, Debian's Chromium, page helpers."""

from __future__ import annotations

import json
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
import uvicorn

from scopone.engine import Match, Round, Rules, parse_cards
from scopone.web import Settings, create_app
from scopone.web.store import GameRecord, SqliteStore
from scopone.web.texts import RULES_PATH

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic",
]
ARTIFACTS = Path(__file__).resolve().parents[1] / "artifacts"
DESKTOP: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}}
PHONE: dict[str, Any] = {"viewport": {"width": 390, "height": 844}, "is_mobile": True,
                         "has_touch": True, "device_scale_factor": 2}
PHONE_LANDSCAPE: dict[str, Any] = {"viewport": {"width": 844, "height": 390}, "is_mobile": True,
                                   "has_touch": True, "device_scale_factor": 2}


def upright(width: int, height: int) -> dict[str, Any]:
    """A phone held upright whose browser leaves it ``width`` x ``height``."""
    return {**PHONE, "viewport": {"width": width, "height": height}}


def side(width: int, height: int) -> dict[str, Any]:
    """A phone on its side whose browser leaves it ``width`` x ``height``."""
    return {**PHONE_LANDSCAPE, "viewport": {"width": width, "height": height}}


# What the tests want from the page before it starts: easy computers, the fast pace, English.
TEST_PREFS = {"level": "easy", "speed": "fast", "target": 11, "lang": "en"}


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if CHROMIUM.exists():
        return
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing (apt-get install chromium)")
    for item in items:
        if "browser" in item.keywords:
            item.add_marker(skip)


def _free_port() -> int:
    # From a random place in the range, not its first free port: two test sessions on one
    # machine (or a server restarted on its port by a test) then rarely meet on the same one.
    first = random.randrange(100)
    for port in (8200 + (first + i) % 100 for i in range(100)):
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError("no free port in 8200–8299")


@dataclass
class Server:
    """The app running on 127.0.0.1, and direct access to its game store for scripted deals."""

    url: str
    db_path: Path
    http: httpx.Client = field(repr=False)

    def game(self, gid: str) -> dict[str, Any]:
        r = self.http.get(f"/api/games/{gid}")
        assert r.status_code == 200, r.text
        return dict(r.json())

    def insert(self, hands: list[str], table: str = "", dealer: int = 3, level: str = "easy",
               scores: tuple[int, int] = (0, 0), rules: Rules | None = None) -> str:
        """A game in a scripted position (hands as card-code strings, seat 0 first)."""
        rules = rules or Rules()
        match = Match(rules, random.Random(7))
        match.round = Round.from_deal([parse_cards(h) for h in hands], parse_cards(table),
                                      dealer=dealer, rules=rules)
        match.scores = list(scores)
        return self.insert_match(match, level)

    def insert_match(self, match: Match, level: str = "easy") -> str:
        """A game of ``match`` as it stands, stored as the server's own; its id."""
        rec = GameRecord.new(match, level)
        store = SqliteStore(self.db_path)
        try:
            store.insert(rec)
        finally:
            store.close()
        return rec.id


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)  # screenshots land here (git-ignored)
    db_path = tmp_path_factory.mktemp("browser-db") / "games.sqlite3"
    settings = Settings(db_path=db_path, ai_processes=False, ai_time_budget=0.05)
    port = _free_port()
    config = uvicorn.Config(create_app(settings), host="127.0.0.1", port=port,
                            log_level="warning", lifespan="on")
    uv = uvicorn.Server(config)
    thread = threading.Thread(target=uv.run, daemon=True)
    thread.start()
    for _ in range(200):
        if uv.started:
            break
        time.sleep(0.05)
    assert uv.started, "uvicorn did not start"
    url = f"http://127.0.0.1:{port}"
    with httpx.Client(base_url=url, timeout=10) as http:
        yield Server(url, db_path, http)
    uv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield b
        b.close()


@dataclass
class Watch:
    """What a page did that it should not: script errors, CSP violations, foreign requests."""

    origin: str
    errors: list[str] = field(default_factory=list)
    foreign: list[str] = field(default_factory=list)
    expected: list[str] = field(default_factory=list)  # errors a test provokes on purpose
    requests: list[str] = field(default_factory=list)  # "METHOD /path" of every request
    refused: list[str] = field(default_factory=list)  # "STATUS METHOD /path" of every 4xx/5xx

    def check(self) -> None:
        unexpected = [e for e in self.errors if not any(x in e for x in self.expected)]
        # The console names no URL for a failed request: the refused requests say which it was.
        assert not unexpected, (unexpected, self.refused)
        assert not self.foreign, self.foreign


def intercepted_from_the_start(page: Any) -> None:
    """Chromium intercepts ``page``'s requests from its first, so that a route a test sets
    later (``page.route``) sees every request after it.

    Why: Chromium starts intercepting a loaded page's requests a moment after ``page.route``
    has returned (and stops after the last ``unroute``), and a request sent meanwhile passes
    unseen, neither routed nor reported: the clean-clone CI met it twice (a hint routed to a
    503 never answered to the test; a review routed to another shown as the server's), and a
    loop setting and removing a route around each hint met it within 40 hints in 6 of 8 runs,
    never in 320 with this route set first. It matches nothing, so every request goes on as
    before, unseen by Python."""
    page.route("**/no-such-path-is-ever-asked-for", lambda route: route.fallback())


def tap_control(page: Any, selector: str) -> None:
    """Taps a control of the bar, opening the menu first where it lies there (a phone on its
    side narrower than 800 px: the cards seen, the review, the settings...; menu.js)."""
    if page.locator(f"#bar-menu {selector}").count() and page.locator("#bar-menu").is_hidden():
        page.locator("#btn-menu").tap()
    page.locator(selector).tap()


def page_opener(browser: Any, server: Server, before: str = "",
                intercepted: bool = True) -> Iterator[Callable[..., Any]]:
    """What ``open_page`` yields, for ``browser``: each page on a fresh context, its storage
    seeded, its errors checked at teardown. ``before``: a script each document runs first;
    ``intercepted`` False leaves the requests unrouted (a routed page is never kept in the
    back-forward cache)."""
    contexts: list[Any] = []
    watches: list[Watch] = []

    def open_(device: dict[str, Any], game: str | None = None,
              prefs: dict[str, Any] | None = None, locale: str = "en-GB") -> Any:
        ctx = browser.new_context(locale=locale, **device)
        contexts.append(ctx)
        seed = {"scopone.prefs": json.dumps(TEST_PREFS if prefs is None else prefs)}
        if game:
            seed["scopone.game"] = game
        # Only on the first load of the context: reloads must find what the page stored itself.
        ctx.add_init_script(
            before + "if (!sessionStorage.getItem('seeded')) {"
            " sessionStorage.setItem('seeded', '1');"
            f" const s = {json.dumps(seed)};"
            " for (const [k, v] of Object.entries(s)) localStorage.setItem(k, v); }")
        page = ctx.new_page()
        watch = Watch(server.url)
        watches.append(watch)
        page.on("pageerror", lambda exc: watch.errors.append(f"pageerror: {exc}"))
        page.on("console", lambda msg: watch.errors.append(f"console {msg.type}: {msg.text}")
                if msg.type == "error" else None)
        page.on("request", lambda req: watch.requests.append(
            f"{req.method} {req.url.removeprefix(server.url)}") if req.url.startswith(server.url)
            else watch.foreign.append(req.url))
        page.on("response", lambda res: watch.refused.append(
            f"{res.status} {res.request.method} {res.url.removeprefix(server.url)}")
            if res.status >= 400 else None)
        page.watch = watch
        if intercepted:
            intercepted_from_the_start(page)
        page.goto(server.url + "/")
        page.wait_for_selector("#hand .card")
        return page

    yield open_
    for ctx in contexts:
        ctx.close()
    for watch in watches:
        watch.check()


@pytest.fixture
def open_page(browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """``open_page(device, game=None, prefs=None, locale="en-GB")`` → a page on a fresh context,
    already at ``/``; ``page.watch`` collects errors and checks them at teardown."""
    yield from page_opener(browser, server)


def open_rule_page(ctx: Any, server: Server, lang: str) -> tuple[Any, list[str]]:
    """The rule page in ``lang`` on a page of ``ctx``, once its card pictures are drawn (by the
    game's own cards.js), and the list its script errors and console errors go to."""
    page = ctx.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page.goto(server.url + RULES_PATH[lang])
    page.wait_for_function("() => document.querySelectorAll('.pcard:not(.drawn)').length === 0")
    return page, errors
