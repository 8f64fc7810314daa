"""The coach on the page, on a phone and a desktop: Hint (H), Cards seen (C), Review (R), the
statistics page; a hint never shows a card hidden from the person."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from scopone.web.store import SqliteStore

from .a11y import assert_accessible
from .conftest import ARTIFACTS, DESKTOP, PHONE, Server
from .test_match import READY, SUMMARY_OPEN, codes, game_id

pytestmark = pytest.mark.browser

HINT_SHOWN = "() => document.querySelector('#hand .card.hinted') !== null"
PLAYABLE = "() => document.querySelector('#hand.playable') !== null"


def hidden_cards(server: Server, gid: str) -> set[str]:
    """Seats 1-3's hands now, read from the server's own database."""
    store = SqliteStore(server.db_path)
    try:
        rec = store.load(gid)
    finally:
        store.close()
    assert rec is not None
    return {str(c) for s in (1, 2, 3) for c in rec.match.round.hand(s)}


def shot(page: Any, name: str, device: dict[str, Any]) -> None:
    kind = "phone" if device is PHONE else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"coach-{name}-{kind}.png"))


def press(page: Any, key: str, device: dict[str, Any], button: str) -> None:
    """A key on the desktop, a tap on the phone."""
    if device is PHONE:
        page.tap(button)
    else:
        page.keyboard.press(key)


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_hint_lights_up_a_legal_move_and_reveals_nothing(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any]) -> None:
    page = open_page(device)
    page.wait_for_function(PLAYABLE)
    gid = game_id(page)
    hidden = hidden_cards(server, gid)
    view = server.game(gid)
    assert page.is_hidden("#coach-hint")
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        press(page, "h", device, "#btn-hint")
    hint = answer.value.json()
    page.wait_for_function(HINT_SHOWN)
    shown = {hint["move"]["card"], *hint["move"]["capture"]}
    for o in hint["options"]:
        shown |= {o["card"], *o["capture"]}
    assert not shown & hidden
    assert hint["move"] in view["legal"]
    assert codes(page, "#hand .card.hinted") == [hint["move"]["card"]]
    assert sorted(codes(page, "#table-cards .card.hinted")) == sorted(hint["move"]["capture"])
    text = page.inner_text("#coach-hint")
    assert "Hint:" in text and "points" in text and "You may still play any card." in text
    # No hidden card is named anywhere on the page.
    body = page.inner_text("body")
    names = page.evaluate(
        "async (codes) => { const m = await import('/static/js/i18n.js');"
        " return codes.map((c) => m.cardName('en', c)); }", sorted(hidden))
    assert not [n for n in names if n in body]
    shot(page, "hint", device)
    assert_accessible(page, "hint")
    # The person may still play anything: the hint goes once the move is made.
    page.keyboard.press("1")
    if page.locator("#hand .card.selected").count():
        page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('.card.hinted') === null")


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_cards_seen_is_off_by_default_and_opens_with_c(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any]) -> None:
    page = open_page(device)
    page.wait_for_function(PLAYABLE)
    gid = game_id(page)
    assert page.is_hidden("#seen-panel")
    assert page.get_attribute("#btn-seen", "aria-expanded") == "false"
    with page.expect_response(lambda r: r.url.endswith("/cards-seen")):
        press(page, "c", device, "#btn-seen")
    page.wait_for_selector("#seen-panel .seen-card")
    assert page.get_attribute("#btn-seen", "aria-expanded") == "true"
    view = server.game(gid)
    places = dict(page.eval_on_selector_all(
        "#seen-panel .seen-card", "els => els.map(e => [e.dataset.code, e.dataset.place])"))
    assert len(places) == 40
    assert sorted(c for c, p in places.items() if p == "hand") == sorted(view["hand"])
    assert all(places[c] == "unseen" for c in hidden_cards(server, gid))
    assert page.locator("#seen-panel .seen-ranks td").count() == 10
    assert "Settebello" in page.inner_text("#seen-settebello")
    shot(page, "seen", device)
    assert_accessible(page, "seen")
    press(page, "c", device, "#seen-close")
    page.wait_for_selector("#seen-panel", state="hidden")


def play_round(page: Any) -> None:
    """Seat 0 plays its first card (and the first capture) until the round summary opens."""
    for _ in range(12):
        page.wait_for_function(READY)
        if not page.is_hidden("#summary"):
            return
        page.keyboard.press("1")
        if page.locator("#hand .card.selected").count():
            page.keyboard.press("Enter")
        page.wait_for_function(
            "() => document.querySelector('#hand.playable') === null ||"
            " !document.getElementById('summary').hidden")
    page.wait_for_function(SUMMARY_OPEN)


@pytest.mark.parametrize("device", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_review_with_r_and_the_statistics_page(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any]) -> None:
    page = open_page(device)
    play_round(page)
    gid = game_id(page)
    # The summary shows the review's headline and a button to it.
    page.wait_for_selector("#summary #summary-review")
    page.wait_for_function(
        "() => document.getElementById('summary-coach-note').textContent.includes('Hints used')")
    if device is PHONE:
        page.tap("#summary-review")
    else:
        page.keyboard.press("r")
    page.wait_for_selector("#review #review-step")
    review = json.loads(server.http.get(f"/api/games/{gid}/rounds/1/review").text)
    n = len(review["plays"])
    assert page.inner_text("#review-step") == f"Play 1 of {n}"
    acc = review["accuracy"]
    if acc is not None:
        assert f"Accuracy {round(acc * 100)}%" in page.inner_text("#review-accuracy")
    labels = page.eval_on_selector_all(
        ".review-counts li",
        "els => els.map(e => [e.dataset.label, e.querySelector('b').textContent])")
    assert dict(labels) == {k: str(v) for k, v in review["counts"].items()}
    first = review["plays"][0]
    # The card played is marked in the hand, the cards it took on the table (a same-rank
    # capture marks a card of the same rank there: the rows are told apart by name).
    hand_played = codes(page, "#review .review-step .review-hand .mini.played")
    assert hand_played == [first["played"]["card"]]
    table_played = codes(page, "#review .review-step .review-table .mini.played")
    assert sorted(table_played) == sorted(first["played"]["capture"])
    # Step through every play: arrows on the desktop, the Next button on the phone.
    for k in range(2, n + 1):
        if device is PHONE:
            page.tap("#review-next")
        else:
            page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"() => document.getElementById('review-step').textContent === 'Play {k} of {n}'")
        p = review["plays"][k - 1]
        # The others' plays since the previous one of the person, as they happened.
        others = review["history"][review["plays"][k - 2]["index"] + 1:p["index"]]
        assert page.locator(".review-before li").count() == len(others)
        if p["forced"]:
            assert "not judged" in page.inner_text(".review-step .verdict")
        else:
            assert page.inner_text("#review-label") in (
                "best", "good", "inaccuracy", "mistake", "blunder")
    shot(page, "review", device)
    assert_accessible(page, "review")
    # Enter inside the review does not start the next round underneath; Esc closes it.
    page.keyboard.press("Enter")
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    assert server.game(gid)["round_number"] == 1
    # The statistics page counts the round and shows the accuracy chart.
    page.goto(server.url + "/stats")
    page.wait_for_selector("body[data-status='ready']")
    rows = page.eval_on_selector_all(
        "tr[data-level]", "els => els.map(e => [e.dataset.level, e.children[3].textContent])")
    assert dict(rows)["easy"] == "1"
    if acc is not None:
        assert page.locator("#accuracy-chart svg polyline").count() == 1
        assert "Accuracy of the last 1 reviewed rounds" in page.get_attribute(
            "#accuracy-chart svg", "aria-label")
    shot(page, "stats", device)
    assert_accessible(page, "stats")
    page.on("dialog", lambda d: d.accept())
    page.click("#btn-clear")
    page.wait_for_selector("#stats-empty")
    assert page.evaluate("localStorage.getItem('scopone.person')") is None


def test_coach_texts_exist_in_every_language(open_page: Callable[..., Any]) -> None:
    page = open_page(DESKTOP)
    missing = page.evaluate(
        "async () => (await import('/static/js/coach-text.js')).missingCoachKeys()")
    assert missing == []


def test_the_person_id_is_random_and_sent_with_a_new_match(
        open_page: Callable[..., Any], server: Server) -> None:
    page = open_page(DESKTOP)
    pid = page.evaluate("localStorage.getItem('scopone.person')")
    assert isinstance(pid, str) and len(pid) == 32 and int(pid, 16) >= 0
    assert server.http.get(f"/api/people/{pid}/stats").status_code == 200
    page.goto(server.url + "/stats")
    page.wait_for_selector("#stats-empty")  # no round yet
    assert "play a round first" in page.inner_text("#stats-empty")


def test_a_first_play_that_captures_is_marked_in_the_hand_and_on_the_table(
        open_page: Callable[..., Any], server: Server) -> None:
    """The review marks the card played in the hand row and the cards it took in the table row;
    a same-rank capture puts a card of the played rank in both, so the rows must not mix."""
    for _ in range(60):
        view = server.http.post("/api/games", json={}).json()
        while view["status"] != "your_turn":
            r = server.http.post(f"/api/games/{view['id']}/advance",
                                 json={"version": view["version"]})
            assert r.status_code == 200, r.text
            view = r.json()
        takes = [m for m in view["legal"] if m["capture"]]
        if takes:
            break
    else:
        pytest.fail("no deal in 60 let seat 0 capture with its first card")
    move = takes[0]
    gid = view["id"]
    r = server.http.post(f"/api/games/{gid}/moves", json={"version": view["version"], **move})
    assert r.status_code == 200, r.text
    page = open_page(DESKTOP, game=gid)
    play_round(page)
    page.wait_for_selector("#summary #summary-review")
    page.keyboard.press("r")
    page.wait_for_selector("#review #review-step")
    first = json.loads(server.http.get(f"/api/games/{gid}/rounds/1/review").text)["plays"][0]
    assert first["played"]["card"] == move["card"]
    assert sorted(first["played"]["capture"]) == sorted(move["capture"])
    assert codes(page, "#review .review-step .review-hand .mini.played") == [move["card"]]
    assert sorted(codes(page, "#review .review-step .review-table .mini.played")) == sorted(
        move["capture"])
