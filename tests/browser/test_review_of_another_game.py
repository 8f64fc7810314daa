"""The page follows another game with its summary open (its match over here, another tab's game
at the end of its first round): the summary shown is that game's, and a review (or the summary's
headline) of the first game that comes late is never shown as the review of the same round
number of the game followed."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import pytest

from scopone.engine import Match, Round, Rules, parse_cards

from .conftest import DESKTOP, Server
from .test_coach import play_round
from .test_match import game_id

pytestmark = pytest.mark.browser

NOTE = "() => (document.getElementById('summary-coach-note')?.textContent || '')"
HEADLINE_COME = ("() => (document.getElementById('summary-coach-note')?.textContent || '')"
                 ".includes('Hints used')")


def match_over_after_one_round(server: Server) -> str:
    """A match at 10 to 0 whose two-card round gives seat 0's side the settebello (either of its
    sevens must take it): over after its first round."""
    rules = Rules()
    match = Match(rules, random.Random(7))
    match.round = Round.from_deal([parse_cards(h) for h in ["7C 7B", "1S 4S", "2S 5S", "3S 6S"]],
                                  parse_cards("7D"), dealer=3, rules=rules)
    match.scores = [10, 0]
    return server.insert_match(match)


def round_over_by_the_api(server: Server) -> str:
    """Another game, its first round (one card each) played to its end through the API."""
    gid = server.insert(["5S", "1C", "2C", "3C"], dealer=3)
    view = server.game(gid)
    r = server.http.post(f"/api/games/{gid}/moves",
                         json={"version": view["version"], "card": "5S", "capture": []})
    assert r.status_code == 200, r.text
    view = r.json()
    while view["status"] == "computer_turn":
        r = server.http.post(f"/api/games/{gid}/advance", json={"version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["status"] == "round_over" and view["round_number"] == 1, view["status"]
    return gid


def over_then_another_tabs_game(open_page: Callable[..., Any], server: Server,
                                hold_reviews: bool = False) -> tuple[Any, list[Any]]:
    """The first match played here to its end (a hint used in it), R and Esc on its summary;
    then another tab stores the second game, which this page follows. With `hold_reviews` the
    first game's review answers are held (returned) until the test lets them go."""
    first = match_over_after_one_round(server)
    second = round_over_by_the_api(server)
    page = open_page(DESKTOP, game=first)
    held: list[Any] = []
    if hold_reviews:
        page.route(f"**/api/games/{first}/rounds/1/review", lambda route: held.append(route))
    page.keyboard.press("h")  # a hint: this match's headline says one was used
    page.wait_for_selector("#coach-hint .hint-options")
    play_round(page)
    page.wait_for_function("() => document.body.dataset.status === 'match_over'")
    page.wait_for_selector("#summary #winner")
    page.keyboard.press("r")
    page.wait_for_selector("#review:not([hidden]) #review-title")
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    if hold_reviews:
        assert len(held) == 2  # the summary's headline and the review, on their way
    else:
        page.wait_for_function(HEADLINE_COME)
        assert "Hints used: 1" in page.evaluate(NOTE)

    # Another tab of the site stores its own game: this page, its match over, follows it.
    other = page.context.new_page()
    other.goto(server.url + "/healthz")  # a page of the site that plays nothing
    other.evaluate(f"() => localStorage.setItem('scopone.game', {json.dumps(second)})")
    page.wait_for_function("() => document.body.dataset.status === 'round_over'")
    assert game_id(page) == second
    return page, held


def test_the_summary_of_a_game_followed_is_its_own(open_page: Callable[..., Any],
                                                  server: Server) -> None:
    page, _ = over_then_another_tabs_game(open_page, server)
    # Its round over, not the match: the page once kept the first match's summary ("You and
    # your partner win the match!", New match) and never asked for this round's headline.
    page.wait_for_selector("#summary-go:text-is('Next round')")
    assert page.locator("#summary #winner").count() == 0
    page.wait_for_function(HEADLINE_COME)
    assert "Hints used: 0" in page.evaluate(NOTE)


def test_a_late_review_of_another_game_is_not_shown_as_this_ones(
        open_page: Callable[..., Any], server: Server) -> None:
    page, held = over_then_another_tabs_game(open_page, server, hold_reviews=True)
    page.wait_for_selector("#summary-go:text-is('Next round')")
    page.wait_for_function(HEADLINE_COME)
    headline = page.evaluate(NOTE)
    assert "Hints used: 0" in headline
    page.keyboard.press("r")
    page.wait_for_selector("#review:not([hidden]) #review-step")
    played = page.inner_text("#review .played")
    assert "Five of Swords" in played, played

    # The first game's answers come now: what the page shows stays the second game's.
    for route in held:
        route.continue_()
    page.wait_for_timeout(1000)  # (the late answers reach the page meanwhile)
    assert page.inner_text("#review .played") == played
    assert page.inner_text("#review-title") == "Review of round 1"
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    assert page.evaluate(NOTE) == headline
