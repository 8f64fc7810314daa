"""Answers that come late, after the game has moved on: the page shows what the server says of
the position it shows now, never an older position's answer, and a key pressed meanwhile is
not lost to the request still on its way."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import DESKTOP, Server
from .test_coach import HINT_SHOWN, PLAYABLE, asked
from .test_controls import HANDS, TABLE, hold_the_first
from .test_match import codes, game_id

pytestmark = pytest.mark.browser


def test_h_in_a_new_position_asks_its_hint_while_the_last_positions_is_still_on_its_way(
        open_page: Callable[..., Any], server: Server) -> None:
    """H, then a card played before the hint came (a slow coach, a slow network), the
    computers' cards, and H in the new position: its hint is asked and shown. The page took
    the old position's hint still on its way for this one: it said "Looking for the best
    move…" in the new position, H closed that, H again asked nothing and said it again, and
    when the old answer came (not for this position) the panel went empty: no hint for this
    position until a third H."""
    gid = server.insert(HANDS, TABLE, dealer=3)
    page = open_page(DESKTOP, game=gid)
    page.wait_for_function(PLAYABLE)
    page.watch.expected.append("409")  # the old position's hint, refused as stale (below)
    held = hold_the_first(page, "**/hint")
    page.keyboard.press("h")
    page.wait_for_function("() => document.getElementById('coach-hint').textContent.length > 0")
    page.click("#hand .card[data-code='9C']")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8"
                           " && document.querySelector('#hand.playable') !== null",
                           timeout=30_000)
    assert held, "the first hint's request was not held"
    # The old position's hint is not this one's: the panel does not say it is on its way.
    assert page.locator("#coach-hint").is_hidden()
    before = asked(page, "hint")
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.keyboard.press("h")
    assert answer.value.status == 200 and asked(page, "hint") == before + 1
    page.wait_for_function(HINT_SHOWN)
    # The old position's answer, come at last, is the server's refusal (stale): it changes
    # nothing of the hint shown.
    with page.expect_response(lambda r: r.url.endswith("/hint")) as late:
        held[0].continue_()
    assert late.value.status == 409
    page.wait_for_timeout(300)  # what the late answer would change, drawn by now
    page.wait_for_function(HINT_SHOWN)
    assert page.locator("#coach-hint .hint-options li").count() >= 1
    hinted = server.game(gid)["hand"]
    card = page.eval_on_selector("#hand .card.hinted", "el => el.dataset.code")
    assert card in hinted


def test_a_new_match_made_while_the_stored_game_is_read_stays_when_that_answer_comes(
        open_page: Callable[..., Any], server: Server) -> None:
    """The page opened (or reloaded) on a slow network reads its stored game; New match pressed
    before that answer came makes a new match, shown. The stored game's answer, come after it,
    is older news: the new match stays (the page went back to the old match, stored it as its
    game, and the new one was lost to it)."""
    old = server.insert(HANDS, TABLE, dealer=3)
    page = open_page(DESKTOP, game=old)
    page.wait_for_function(PLAYABLE)
    held = hold_the_first(page, f"**/api/games/{old}")
    page.reload()
    for _ in range(200):  # a guard, not a measure
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the stored game was not read"
    with page.expect_response(lambda r: r.url.endswith("/api/games")
                              and r.request.method == "POST") as made:
        page.click("#btn-new")
    new = made.value.json()["id"]
    page.wait_for_function("id => localStorage.getItem('scopone.game') === id", arg=new)
    page.wait_for_selector("#hand .card")
    with page.expect_response(lambda r: r.url.endswith(f"/api/games/{old}")):
        held[0].continue_()
    page.wait_for_timeout(300)  # what the late answer would change, drawn by now
    assert game_id(page) == new
    hand = sorted(server.game(new)["hand"])
    assert sorted(codes(page, "#hand .card")) == hand
