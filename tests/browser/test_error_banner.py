"""The notice of a failed request ("Connection problem." and Retry) never lies over a card of the
hand or of the table, on the game page and at a table, on a desktop, a wide screen and a phone;
over the round's summary, whose button may be what failed, it stays in sight and tappable."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, Server
from .test_controls import HANDS, TABLE
from .test_tables import (  # noqa: F401  (fixtures)
    TableServer,
    people,
    started_alone,
    tserver,
)

pytestmark = pytest.mark.browser

WIDE: dict[str, Any] = {"viewport": {"width": 1920, "height": 1080}}
DEVICES = [pytest.param(d, id=name) for d, name in ((DESKTOP, "desktop"), (WIDE, "wide"),
                                                    (PHONE, "phone"))]

# The notice's box, the cards under it, and whether a tap at Retry's middle reaches Retry.
UNDER_ERROR = """() => {
  const e = document.getElementById('error').getBoundingClientRect();
  const meets = (r) => r.left < e.right && e.left < r.right && r.top < e.bottom && e.top < r.bottom;
  const cards = [...document.querySelectorAll('#hand .card, #table-cards .card')];
  const retry = document.getElementById('error-retry').getBoundingClientRect();
  const hit = document.elementFromPoint(retry.left + retry.width / 2, retry.top + retry.height / 2);
  return {box: {left: e.left, right: e.right, top: e.top, bottom: e.bottom},
          covered: cards.filter((c) => meets(c.getBoundingClientRect())).map((c) => c.dataset.code),
          hand: document.querySelectorAll('#hand .card').length,
          table: document.querySelectorAll('#table-cards .card').length,
          retry: Boolean(hit) && hit.id === 'error-retry'};
}"""


def in_sight_and_clear(page: Any, device: dict[str, Any], hand: int, table: int) -> None:
    shown = page.evaluate(UNDER_ERROR)
    assert (shown["hand"], shown["table"]) == (hand, table), shown  # the cards are there
    assert shown["covered"] == [], shown
    box, size = shown["box"], device["viewport"]
    assert box["left"] >= 0 and box["right"] <= size["width"], shown
    assert box["top"] >= 0 and box["bottom"] <= size["height"], shown
    assert shown["retry"], shown


def play_by_key(page: Any, code: str) -> None:
    """By key on every device: the card's number, then Enter."""
    codes = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.code)")
    i = codes.index(code)
    page.keyboard.press("0" if i == 9 else str(i + 1))
    page.keyboard.press("Enter")


def unavailable(route: Any) -> None:
    route.fulfill(status=503, content_type="application/json", body='{"detail": "down"}')


@pytest.mark.parametrize("device", DEVICES)
def test_the_error_on_the_game_page_covers_no_card(open_page: Callable[..., Any], server: Server,
                                                   device: dict[str, Any]) -> None:
    gid = server.insert(HANDS, TABLE, dealer=3)
    page = open_page(device, game=gid)
    page.watch.expected.append("503")
    page.wait_for_selector("#hand.playable")
    # Every request of the game fails from now on (the page's own retries too): the notice stays.
    page.route("**/api/games/**", unavailable)
    play_by_key(page, "9C")
    page.wait_for_selector("#error:not([hidden])")
    # The card is sent again by itself (static/js/resend.js), and the notice says so.
    assert page.inner_text("#error-text") == (
        "Connection problem: your card goes as soon as the server answers.")
    in_sight_and_clear(page, device, hand=9, table=4)


def test_over_the_summary_the_error_stays_tappable(open_page: Callable[..., Any],
                                                   server: Server) -> None:
    gid = server.insert(["7D", "1C", "2C", "3C"], dealer=3)  # one card each: the round ends
    page = open_page(DESKTOP, game=gid)
    page.watch.expected.append("503")
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card")
    page.wait_for_selector("#summary:not([hidden])")
    page.route("**/api/games/**", unavailable)
    page.click("#summary-go")
    page.wait_for_selector("#error:not([hidden])")
    assert page.locator("#summary").is_visible()
    in_sight_and_clear(page, DESKTOP, hand=0, table=0)


def anna_to_play(tserver: TableServer, people: Any,  # noqa: F811
                 device: dict[str, Any]) -> tuple[Any, str, str, dict[str, Any]]:
    """Anna alone with three computers at a started table, on her turn, her cards to be
    refused (503) by the test: her page, the code, her token and her game view."""
    code, token = started_alone(tserver, hints=False)
    anna = people(device, f"{tserver.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    anna.expected.append(f"503 POST api/tables/{code}/moves")  # the test's own refusal
    anna.page.wait_for_function("() => document.body.dataset.status === 'your_turn'")
    return anna.page, code, token, tserver.view(code, token)["game"]


@pytest.mark.parametrize("device", DEVICES)
def test_the_error_at_a_table_covers_no_card(tserver: TableServer, people: Any,  # noqa: F811
                                             device: dict[str, Any]) -> None:
    page, _, _, game = anna_to_play(tserver, people, device)
    page.route("**/moves", unavailable)
    play_by_key(page, game["legal"][0]["card"])
    page.wait_for_selector("#error:not([hidden])")
    in_sight_and_clear(page, device, hand=len(game["hand"]), table=len(game["table"]))
