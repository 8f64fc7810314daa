"""A card the server could not take at a table (its database away: 503) is sent again by the
page by itself and played once the server answers, by the person, not by the computer
(static/js/resend.js; the game page's own case is in test_controls.py)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import DESKTOP, Server
from .test_controls import hold_the_first, refuse_moves, sent_again
from .test_error_banner import anna_to_play, play_by_key
from .test_tables import (  # noqa: F401  (fixtures)
    TableServer,
    _shorten_away,
    people,
    started_alone,
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


def test_a_card_whose_answer_never_comes_goes_again_by_itself(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """A card's request that is never answered (the connection lost without a word: a phone
    changing networks, a proxy dropping it) is given up after a while and the card sent again,
    played by the person well within their time. (The page once waited for that answer for
    ever: busy, every later card of the person ignored, though it said "your turn".)"""
    page, code, token, game = anna_to_play(tserver, people, DESKTOP)
    card = game["legal"][0]["card"]
    held = hold_the_first(page, "**/moves")
    play_by_key(page, card)
    for _ in range(600):  # the server took it (a guard only: her time is 60 s)
        plays = tserver.view(code, token)["game"]["history"][len(game["history"]):]
        if plays:
            break
        page.wait_for_timeout(50)  # (Playwright serves the page's routes meanwhile)
    assert held, "the card's first request was not held"
    assert plays, "the card never went"
    assert plays[0]["seat"] == 0 and plays[0]["card"] == card
    assert plays[0]["by_computer"] is False


def test_a_request_to_be_back_that_is_never_answered_is_asked_again(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """Anna is away (her time ran out); her key says she is back, but that request is never
    answered. Her next key, once it has been given up, asks again, and she is back. (The page
    once waited for the first answer for ever and never asked again: away for good, the
    computer playing all her cards while she pressed keys.)"""
    srv = tserver
    r = srv.http.post("/api/tables", json={"name": "Anna", "level": "easy"})
    assert r.status_code == 201, r.text
    code, token = r.json()["table"]["code"], r.json()["token"]
    _shorten_away(srv, code, 1)
    anna = people(DESKTOP, f"{srv.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    page = anna.page
    page.wait_for_function("() => document.body.dataset.connection === 'open'")
    r = srv.http.post(f"/api/tables/{code}/start", json={"version": srv.view(code)["version"]},
                      headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    page.wait_for_selector("#seat-0.away")  # her first turn passed: the computer played
    backs: list[Any] = []

    def counted_the_first_held(route: Any) -> None:
        backs.append(route)
        if len(backs) > 1:
            route.continue_()  # the first is never answered

    page.route("**/back", counted_the_first_held)
    page.keyboard.press("Shift")
    for _ in range(100):
        if backs:
            break
        page.wait_for_timeout(50)
    assert len(backs) == 1
    page.wait_for_timeout(11_000)  # past the time a request waits for its answer
    with page.expect_response(lambda res: res.url.endswith(f"/api/tables/{code}/back"),
                              timeout=5_000) as answer:
        page.keyboard.press("Shift")
    assert answer.value.status == 200
    assert not answer.value.json()["seats"][0]["away"]


def test_a_card_chosen_offline_goes_as_soon_as_the_table_is_back(
        server: Server, people: Any) -> None:  # noqa: F811
    """Anna plays a card with her phone offline; it fails and waits, its tries further and
    further apart. Once her page's stream is open again it goes at once (it waited for its
    next try, 8 s away here and up to 15 s). The session's server gives a person offline the
    service's own grace (13 s) before the computer plays their card; ``tserver``'s is 1 s."""
    srv = TableServer(server.url, server.http)
    code, token = started_alone(srv, hints=False)
    anna = people(DESKTOP, f"{srv.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    anna.expected.append("ERR_INTERNET_DISCONNECTED")  # the page's own requests, offline
    page = anna.page
    page.wait_for_function("() => document.body.dataset.status === 'your_turn'")
    game = srv.view(code, token)["game"]
    card = game["legal"][0]["card"]
    context = page.context
    context.set_offline(True)
    play_by_key(page, card)
    page.wait_for_selector("#error:not([hidden])")
    page.wait_for_timeout(7_500)  # tries at 1, 3 and 7 s have failed; the next is at 15
    context.set_offline(False)
    page.wait_for_function("() => document.body.dataset.connection === 'open'")
    for _ in range(60):  # 3 s at most (a guard; the next try of the backoff is 7 s away)
        plays = srv.view(code, token)["game"]["history"][len(game["history"]):]
        if plays:
            break
        page.wait_for_timeout(50)
    assert plays, "the card waited for its backoff"
    assert plays[0]["seat"] == 0 and plays[0]["card"] == card and not plays[0]["by_computer"]
