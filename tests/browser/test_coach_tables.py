"""The coach on the table page: where the host allowed hints, H lights up the seat's own hinted
move and C opens its cards seen; where not, neither button is there and the keys do nothing.
Every wait is for something the page shows, never a sleep."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import ARTIFACTS, DESKTOP, PHONE
from .test_coach import a_hint_given_up_and_asked_again
from .test_tables import (  # noqa: F401  (fixtures)
    TableServer,
    hand,
    people,
    started_alone,
    tserver,
)

pytestmark = pytest.mark.browser

MY_TURN = "() => document.body.dataset.status === 'your_turn'"


def started_table(srv: TableServer, hints: bool) -> tuple[str, dict[str, str]]:
    """A table of one person (the host, seat 0) and three computers, started; the host's seat
    as this browser keeps it in localStorage."""
    code, token = started_alone(srv, hints)
    return code, {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})}


def test_h_shows_the_seats_own_hint_where_the_host_allowed_hints(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    code, seat = started_table(tserver, hints=True)
    anna = people(DESKTOP, f"{tserver.url}/t/{code}", seat)
    page = anna.page
    page.wait_for_function(MY_TURN)  # the computers play until it is Anna's turn
    assert page.locator("#btn-hint").is_visible() and page.locator("#btn-seen").is_visible()
    page.keyboard.press("h")
    page.wait_for_selector("#coach-hint .hint-best")
    page.wait_for_selector("#hand .card.hinted")
    mine = hand(page)
    hinted = page.eval_on_selector_all("#hand .card.hinted", "els => els.map(e => e.dataset.code)")
    assert len(hinted) == 1 and hinted[0] in mine
    # The hint is one of this seat's legal moves, as the server sees the seat.
    view = tserver.view(code, json.loads(seat[f"scopone.seat.{code}"])["token"])
    assert hinted[0] in {m["card"] for m in view["game"]["legal"]}
    taken = page.eval_on_selector_all("#table-cards .card.hinted",
                                      "els => els.map(e => e.dataset.code)")
    assert any(m["card"] == hinted[0] and sorted(m["capture"]) == sorted(taken)
               for m in view["game"]["legal"])
    assert page.locator("#coach-hint .hint-options li").count() >= 1  # the margins shown
    # C: the cards seen from this seat, its own hand marked as such.
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel:not([hidden])")
    shown = page.eval_on_selector_all("#seen-panel .seen-card[data-place='hand']",
                                      "els => els.map(e => e.dataset.code)")
    assert sorted(shown) == sorted(mine)
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel", state="hidden")


def test_a_hint_at_a_table_whose_answer_never_comes_is_given_up_and_h_asks_again(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """The hint's request is never answered (a connection lost without a word): after 10 s the
    panel says the coach could not answer, and H asks again. (The page waited for ever,
    "Looking for the best move…", and H asked nothing again for the rest of the visit.)"""
    code, seat = started_table(tserver, hints=True)
    page = people(DESKTOP, f"{tserver.url}/t/{code}", seat).page
    page.wait_for_function(MY_TURN)
    a_hint_given_up_and_asked_again(page)


def test_no_hint_buttons_where_the_host_allowed_none(tserver: TableServer,  # noqa: F811
                                                     people: Any) -> None:  # noqa: F811
    code, seat = started_table(tserver, hints=False)
    anna = people(DESKTOP, f"{tserver.url}/t/{code}", seat)
    page = anna.page
    page.wait_for_function(MY_TURN)
    assert page.locator("#btn-hint").is_hidden() and page.locator("#btn-seen").is_hidden()
    # The keys do nothing: asking would have shown the panel (thinking) at once, synchronously.
    page.keyboard.press("h")
    page.keyboard.press("c")
    assert page.locator("#coach-hint").is_hidden() and page.locator("#seen-panel").is_hidden()
    assert page.locator("#hand .card.hinted").count() == 0


def test_r_after_a_round_reviews_the_seats_own_plays(tserver: TableServer,  # noqa: F811
                                                     people: Any) -> None:  # noqa: F811
    code, seat = started_table(tserver, hints=False)  # a review is everyone's own anyway
    token = json.loads(seat[f"scopone.seat.{code}"])["token"]
    anna = people(DESKTOP, f"{tserver.url}/t/{code}", seat)
    page = anna.page
    dealt: set[str] = set()
    for _ in range(11):  # Anna's ten cards, played through the API as the page follows
        page.wait_for_function("() => ['your_turn', 'round_over']"
                               ".includes(document.body.dataset.status)")
        view = tserver.view(code, token)
        if view["game"]["status"] == "round_over":
            break
        dealt |= set(view["game"]["hand"])
        r = tserver.http.post(f"/api/tables/{code}/moves",
                              json={"version": view["version"], **view["game"]["legal"][0]},
                              headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        page.wait_for_function("v => Number(document.body.dataset.version) >= v",
                               arg=r.json()["version"])
    page.wait_for_function("() => document.body.dataset.status === 'round_over'")
    assert page.locator("#btn-review").is_visible() and page.locator("#btn-hint").is_hidden()
    # The page told the server whose seat this is: the round is in this person's statistics
    # (credited as the round's last card was stored, before the page could show round_over).
    pid = page.evaluate("() => localStorage.getItem('scopone.person')")
    stats = tserver.http.get(f"/api/people/{pid}/stats")
    assert stats.status_code == 200 and stats.json()["rounds"] == 1, stats.text
    # The summary carries the review's headline once the server has judged the round.
    page.wait_for_function("() => (document.getElementById('summary-coach-note') || {})"
                           ".textContent?.includes('Hints used')")
    page.keyboard.press("r")
    page.wait_for_selector("#review #review-accuracy")
    page.wait_for_selector("#review #review-step")
    # The first of Anna's plays, with her own hand before it: never a card of another seat.
    hand_before = page.eval_on_selector_all(
        "#review .review-step .review-hand .mini",
        "els => els.map(e => e.dataset.code)")
    assert hand_before and set(hand_before) <= dealt
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")


def test_the_hint_button_on_a_phone(tserver: TableServer, people: Any) -> None:  # noqa: F811
    code, seat = started_table(tserver, hints=True)
    bea = people(PHONE, f"{tserver.url}/t/{code}", seat)
    page = bea.page
    page.wait_for_function(MY_TURN)
    page.locator("#btn-hint").tap()
    page.wait_for_selector("#hand .card.hinted")
    page.wait_for_selector("#coach-hint .hint-best")
    page.screenshot(path=str(ARTIFACTS / "table-hint-phone.png"))
    # The panel does not cover the hinted card: it stays tappable where it is drawn.
    card = page.locator("#hand .card.hinted").bounding_box()
    panel = page.locator("#coach-hint").bounding_box()
    assert card is not None and panel is not None
    assert card["y"] >= panel["y"] + panel["height"] or card["y"] + card["height"] <= panel["y"]
