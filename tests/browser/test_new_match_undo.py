"""A new match (N, the button, Napola, a rule) never loses the match under way: the page offers
the way back to it until the person plays a card of the new one."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import Server
from .test_controls import scripted
from .test_match import game_id

pytestmark = pytest.mark.browser

NEW_GAME = "old => localStorage.getItem('scopone.game') !== old"


def play_any(page: Any) -> None:
    """Plays the hand's first card once it is the person's turn (its first capture, if it has a
    choice)."""
    page.wait_for_selector("#hand.playable")
    held = page.locator("#hand .card").count()
    page.click("#hand .card >> nth=0")
    page.wait_for_function("n => document.querySelectorAll('#hand .card').length < n"
                           " || !document.getElementById('btn-cancel').hidden", arg=held)
    if page.is_visible("#btn-cancel"):
        page.keyboard.press("Enter")
        page.wait_for_function("n => document.querySelectorAll('#hand .card').length < n",
                               arg=held)


def test_a_match_left_by_n_is_one_click_away(open_page: Callable[..., Any],
                                             server: Server) -> None:
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='9C']")  # laid on the table: the match is under way
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8")
    page.wait_for_selector("#hand.playable")  # the three others have played: my turn again
    before = server.game(gid)
    assert page.locator("#left-match").is_hidden()

    page.keyboard.press("n")  # by mistake
    page.wait_for_function(NEW_GAME, arg=gid)
    fresh = game_id(page)
    page.wait_for_selector("#left-match:visible")
    assert page.inner_text("#left-match-text") == "A new match has begun."
    # A second new match, nothing played in the first: the way back is still to the first.
    page.click("#btn-new")
    page.wait_for_function(NEW_GAME, arg=fresh)
    page.wait_for_selector("#btn-back-match:text-is('Back to the match you left')")

    page.click("#btn-back-match")
    page.wait_for_function("old => localStorage.getItem('scopone.game') === old", arg=gid)
    page.wait_for_selector("#left-match", state="hidden")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8")
    again = server.game(gid)
    assert again["history"] == before["history"] and again["hand"] == before["hand"]
    assert sorted(page.eval_on_selector_all("#hand .card", "cs => cs.map(c => c.dataset.code)")) \
        == sorted(before["hand"])


def test_playing_the_new_match_chooses_it_and_a_fresh_match_offers_nothing(
        open_page: Callable[..., Any], server: Server) -> None:
    """Napola starts a new match, in Italian; the first card played in it ends the offer. A new
    match from one in which the person played nothing offers no way back."""
    page, gid = scripted(open_page, server)
    page.evaluate("() => { const p = JSON.parse(localStorage.getItem('scopone.prefs'));"
                  " p.lang = 'it'; localStorage.setItem('scopone.prefs', JSON.stringify(p)); }")
    page.reload()
    page.wait_for_selector("#hand.playable")
    page.click("#btn-new")  # nothing of mine played yet: nothing to go back to
    page.wait_for_function(NEW_GAME, arg=gid)
    second = game_id(page)
    page.wait_for_selector("#hand .card")
    assert page.locator("#left-match").is_hidden()

    play_any(page)
    page.click("#btn-napola")
    page.wait_for_function(NEW_GAME, arg=second)
    page.wait_for_selector("#left-match:visible")
    assert page.inner_text("#btn-back-match") == "Torna alla partita lasciata"
    third = game_id(page)
    assert server.game(third)["rules"]["napola"] is True
    play_any(page)
    page.wait_for_selector("#left-match", state="hidden")
    assert game_id(page) == third


def test_the_way_back_outlives_a_reload(open_page: Callable[..., Any], server: Server) -> None:
    """N by mistake, then the page reloaded (F5, or a phone's browser reloading the tab it had
    put to sleep): the way back to the match left is still offered, in this tab. (A reload
    forgot it, and with it the match under way.)"""
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='9C']")  # the match is under way
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8")
    page.keyboard.press("n")
    page.wait_for_function(NEW_GAME, arg=gid)
    fresh = game_id(page)
    page.wait_for_selector("#left-match:visible")

    page.reload()
    page.wait_for_selector("#hand .card")
    assert game_id(page) == fresh
    page.wait_for_selector("#left-match:visible")
    page.click("#btn-back-match")
    page.wait_for_function("old => localStorage.getItem('scopone.game') === old", arg=gid)
    page.wait_for_selector("#left-match", state="hidden")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8")
    # Back in it, a reload offers no way back (to the new match, never played).
    page.reload()
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8")
    assert game_id(page) == gid
    assert page.locator("#left-match").is_hidden()
