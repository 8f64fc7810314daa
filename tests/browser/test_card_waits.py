"""A card the server could not take at a table (its database away: 503) is sent again by the
page by itself and played once the server answers, by the person, not by the computer
(static/js/resend.js; the game page's own case is in test_controls.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import DESKTOP
from .test_error_banner import play_by_key
from .test_tables import (  # noqa: F401  (fixtures)
    TableServer,
    people,
    started_alone,
    tserver,
)

pytestmark = pytest.mark.browser


def test_a_card_the_server_could_not_take_at_a_table_goes_when_it_answers(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    code, token = started_alone(tserver, hints=False)
    anna = people(DESKTOP, f"{tserver.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    page = anna.page
    anna.expected.append(f"503 POST api/tables/{code}/moves")  # the test's own refusal
    page.wait_for_function("() => document.body.dataset.status === 'your_turn'")
    game = tserver.view(code, token)["game"]
    card = game["legal"][0]["card"]
    refused: list[str] = []

    def unavailable(route: Any) -> None:
        refused.append(route.request.url)
        route.fulfill(status=503, content_type="application/json",
                      body='{"detail": "database unavailable"}')

    page.route("**/moves", unavailable)
    play_by_key(page, card)
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error-text") == (
        "Connection problem: your card goes as soon as the server answers.")
    for _ in range(200):  # nobody touches the page: it sends the card again (a guard only)
        if len(refused) >= 2:
            break
        page.wait_for_timeout(50)
    assert len(refused) >= 2
    assert len(tserver.view(code, token)["game"]["history"]) == len(game["history"])
    page.unroute("**/moves")
    page.wait_for_selector("#error", state="hidden", timeout=30_000)
    for _ in range(600):  # the server took it (a guard only)
        plays = tserver.view(code, token)["game"]["history"][len(game["history"]):]
        if plays:
            break
        page.wait_for_timeout(50)
    assert plays[0]["seat"] == 0 and plays[0]["card"] == card
    assert plays[0]["by_computer"] is False
