"""Names on the page are what the server takes (SPEC §6): 1-20 characters after trimming, counted
as the server counts them, so twenty emoji (forty UTF-16 units) are a name and twenty-one are
refused by the page at once, with a message, in the lobby and in "Play with friends"."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, Server
from .test_tables import TableServer, people, tserver  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

TWENTY = "😀" * 20
TOO_LONG = "😀" * 21
BAD_NAME = "A name of 1 to 20 characters, please."
# Names at the edges of the rule: blanks and invisible characters at the ends (trimmed), inside
# (kept), control and direction characters, the bounds before and after trimming.
SAMPLES = [
    "Anna", " Anna ", "\u200bAnna\u2028", "Anna Maria", "\u3164", "\u200b\u200d", " ", "",
    "a\x07b", "a\u202eb", "x" * 20, "x" * 21, " \ufeff" + "x" * 20 + "\u00a0",
    "x" * 20 + " " * 44, "x" * 20 + " " * 45, TWENTY, TOO_LONG, "👩\u200d💻" * 6,
    "👩\u200d💻" * 7, "❤\ufe0f", "\x85Anna\x1c", "Zoë\u0301",
]
# What the page makes of each: the module that sends names to the server.
PAGE_NAMES = """async (samples) => {
  const { cleanName } = await import('/static/js/tables-api.js');
  return samples.map((raw) => cleanName(raw));
}"""


def server_name(server: Server, raw: str) -> str | None:
    """The host's name of a table made with name `raw`, or None where the server refuses it."""
    r = server.http.post("/api/tables", json={"name": raw, "level": "easy"})
    assert r.status_code in (201, 422), r.text
    return str(r.json()["table"]["seats"][0]["name"]) if r.status_code == 201 else None


def test_the_page_and_the_server_take_the_same_names(open_page: Callable[..., Any],
                                                     server: Server) -> None:
    page = open_page(DESKTOP)
    assert page.evaluate(PAGE_NAMES, SAMPLES) == [server_name(server, s) for s in SAMPLES]


def test_twenty_emoji_sit_down_and_twenty_one_are_refused_at_once(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    srv = tserver
    r = srv.http.post("/api/tables", json={"name": "Anna", "level": "easy"})
    assert r.status_code == 201, r.text
    code = r.json()["table"]["code"]
    guest = people(PHONE, f"{srv.url}/t/{code}")
    page = guest.page
    sits: list[str] = []
    page.on("request", lambda req: sits.append(req.url) if "/seats/" in req.url else None)
    page.wait_for_function("() => document.body.dataset.phase === 'lobby'")
    page.locator(".lobby-seat[data-seat='2'] button.take").tap()

    # Twenty-one: the message as soon as it is typed; Sit down asks the server nothing.
    page.fill("#sit-name", TOO_LONG)
    page.wait_for_selector(f"#lobby-note:text-is('{BAD_NAME}')")
    page.locator("#btn-sit").tap()
    page.wait_for_selector(f"#lobby-note:text-is('{BAD_NAME}')")
    assert sits == [] and srv.view(code)["seats"][2]["kind"] == "free"

    # One fewer: the message goes as the name fits, and the seat is taken under that name.
    page.fill("#sit-name", f" {TWENTY} ")
    page.wait_for_function("text => document.getElementById('lobby-note').textContent !== text",
                           arg=BAD_NAME)
    page.locator("#btn-sit").tap()
    page.wait_for_function("() => document.body.dataset.seat === '2'")
    page.wait_for_selector(f"#lobby-seat-b .lobby-seat-name:text-is('{TWENTY} (you)')")
    assert srv.view(code)["seats"][2]["name"] == TWENTY


def test_play_with_friends_takes_twenty_emoji(open_page: Callable[..., Any],
                                              server: Server) -> None:
    page = open_page(DESKTOP)
    page.click("#btn-friends")
    created: list[str] = []
    page.on("request", lambda req: created.append(req.url)
            if req.method == "POST" and req.url.endswith("/api/tables") else None)
    page.fill("#fr-name", TOO_LONG)
    page.wait_for_selector(f"#fr-problem:text-is('{BAD_NAME}')")
    page.click("#fr-create")
    assert page.locator("#fr-done").is_hidden() and created == []
    page.fill("#fr-name", TWENTY)
    page.wait_for_function("() => document.getElementById('fr-problem').textContent === ''")
    page.click("#fr-create")
    page.wait_for_selector("#fr-link:visible")
    code = page.input_value("#fr-link").rsplit("/", 1)[1]
    assert server.http.get(f"/api/tables/{code}").json()["seats"][0]["name"] == TWENTY


def test_a_sit_down_that_fails_says_so_in_the_lobby(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """The board's error notice is hidden in the lobby: a sit-down lost to the network said
    nothing at all. Now the lobby's note says it, and the same button tried again sits."""
    srv = tserver
    r = srv.http.post("/api/tables", json={"name": "Anna", "level": "easy"})
    code = r.json()["table"]["code"]
    guest = people(PHONE, f"{srv.url}/t/{code}")
    page = guest.page
    page.wait_for_function("() => document.body.dataset.phase === 'lobby'")
    guest.expected.append(f"503 POST api/tables/{code}/seats/2")  # the test's own refusal
    page.route("**/seats/2", lambda route: route.fulfill(
        status=503, content_type="application/json", body='{"detail": "database unavailable"}'))
    page.locator(".lobby-seat[data-seat='2'] button.take").tap()
    page.fill("#sit-name", "Bea")
    page.locator("#btn-sit").tap()
    page.wait_for_selector("#lobby-note:text-is('Connection problem.')")
    assert srv.view(code)["seats"][2]["kind"] == "free"
    page.unroute("**/seats/2")
    page.locator("#btn-sit").tap()
    page.wait_for_function("() => document.body.dataset.seat === '2'")
    assert srv.view(code)["seats"][2]["name"] == "Bea"
