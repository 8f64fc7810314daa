"""A card the server could not take at a table (its database away: 503) is sent again by the
page by itself and played once the server answers, by the person, not by the computer
(static/js/resend.js; the game page's own case is in test_controls.py)."""

from __future__ import annotations

from typing import Any

import pytest

from .conftest import DESKTOP
from .test_controls import refuse_moves, sent_again
from .test_error_banner import anna_to_play, play_by_key
from .test_tables import (  # noqa: F401  (fixtures)
    TableServer,
    people,
    tserver,
)

pytestmark = pytest.mark.browser


def test_a_card_the_server_could_not_take_at_a_table_goes_when_it_answers(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    page, code, token, game = anna_to_play(tserver, people, DESKTOP)
    card = game["legal"][0]["card"]
    refused = refuse_moves(page)
    play_by_key(page, card)
    page.wait_for_selector("#error:not([hidden])")
    assert page.inner_text("#error-text") == (
        "Connection problem: your card goes as soon as the server answers.")
    sent_again(page, refused)  # nobody touches the page
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
