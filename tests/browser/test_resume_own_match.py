"""Retry (by the button, by itself, or the browser back online) resumes the match under way in
this tab, not a game another tab of the browser stored meanwhile: a new match made there does not
take this one away from under the person (as otherTabsGame leaves it alone), nor drop the card
of theirs that waits to go."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import Server
from .test_controls import refuse_moves, scripted, sent_again
from .test_error_banner import play_by_key
from .test_match import codes, game_id
from .test_new_match_undo import NEW_GAME

pytestmark = pytest.mark.browser


def test_retry_resumes_this_tabs_match_not_another_tabs_new_one(
        open_page: Callable[..., Any], server: Server) -> None:
    page, gid = scripted(open_page, server)
    page.watch.expected.append("503")  # the page logs the card the server could not take
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='9C']")  # laid on the table: the match is under way
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8")
    page.wait_for_selector("#hand.playable")

    # A second tab of the game: N there makes a new match, which it stores for the next visit.
    other = page.context.new_page()
    other.goto(server.url + "/")
    other.wait_for_selector("#hand .card")
    other.keyboard.press("n")
    other.wait_for_function(NEW_GAME, arg=gid)
    fresh = game_id(other)
    page.wait_for_timeout(300)  # (the storage event reaches this tab: left alone)
    assert sorted(codes(page, "#hand .card")) == sorted(server.game(gid)["hand"])

    # Here the server cannot take the next card for a moment: the page says so and tries again.
    before = server.game(gid)
    card = before["legal"][0]["card"]
    refused = refuse_moves(page)
    play_by_key(page, card)
    page.wait_for_selector("#error:not([hidden])")
    sent_again(page, refused)
    page.unroute("**/moves")
    page.wait_for_selector("#error", state="hidden", timeout=30_000)

    # The card went, in this tab's match, which the page still shows; the other tab's new match
    # is untouched.
    for _ in range(600):  # a guard only
        mine = [p for p in server.game(gid)["history"][len(before["history"]):] if p["seat"] == 0]
        if mine:
            break
        page.wait_for_timeout(50)
    shown = sorted(codes(page, "#hand .card"))
    assert shown != sorted(server.game(fresh)["hand"]), "the other tab's match taken"
    assert mine and mine[0]["card"] == card, "the card waiting was lost"
    page.wait_for_function("() => document.querySelector('#hand.playable') !== null"
                           " || document.body.dataset.status !== 'your_turn'")
    page.wait_for_function(
        "hand => [...document.querySelectorAll('#hand .card')].map(c => c.dataset.code)"
        ".sort().join() === hand.sort().join()", arg=server.game(gid)["hand"])
    assert not [p for p in server.game(fresh)["history"] if p["seat"] == 0]
