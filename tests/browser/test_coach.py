"""The coach on the page, on a phone and a desktop: Hint (H), Cards seen (C), Review (R), the
statistics page; a hint never shows a card hidden from the person."""

from __future__ import annotations

import json
import math
from collections.abc import Callable
from typing import Any

import pytest

from scopone.coach import BEST_WINDOW, THRESHOLDS, label_for
from scopone.web.coach import help_counts
from scopone.web.store import GameRecord, SqliteStore

from .a11y import assert_accessible
from .conftest import ARTIFACTS, DESKTOP, PHONE, TEST_PREFS, Server, upright
from .test_controls import HANDS, TABLE, hold_the_first
from .test_match import READY, SUMMARY_OPEN, codes, game_id

pytestmark = pytest.mark.browser

HINT_SHOWN = "() => document.querySelector('#hand .card.hinted') !== null"
PLAYABLE = "() => document.querySelector('#hand.playable') !== null"
FOCUSED = "() => document.activeElement && document.activeElement.id"
# The page's rectangle of each selector's first element, as [left, top, right, bottom].
RECTS = """sels => sels.map((s) => { const r = document.querySelector(s).getBoundingClientRect();
  return [r.left, r.top, r.right, r.bottom]; })"""


def meet(a: list[float], b: list[float]) -> bool:
    """Whether two rectangles [left, top, right, bottom] overlap."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def asked(page: Any, what: str) -> int:
    """How many times the page asked the server for ``what`` ("hint", "cards-seen")."""
    return sum(1 for r in page.watch.requests if r.endswith(f"/{what}"))


def stored(server: Server, gid: str) -> GameRecord:
    """The game as the server's own database holds it."""
    store = SqliteStore(server.db_path)
    try:
        rec = store.load(gid)
    finally:
        store.close()
    assert rec is not None
    return rec


def hidden_cards(server: Server, gid: str) -> set[str]:
    """Seats 1-3's hands now, read from the server's own database."""
    rec = stored(server, gid)
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
    if device is PHONE:  # short of room: the list's first move is the hint's, named once
        assert text.startswith("Hint\n") and "points" in text
        assert "You may still play any card." not in text
    else:
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


#: A phone as narrow as they come: the hint's reasons must fit it too.
NARROW_PHONE: dict[str, Any] = upright(360, 740)
RANKS_EN = ["ace", "two", "three", "four", "five", "six", "seven", "jack", "knight", "king"]
RANKS_EN_MANY = ["aces", "twos", "threes", "fours", "fives", "sixes", "sevens", "jacks",
                 "knights", "kings"]
# Each row's reasons as read (null: none), and whether it names a scopa in bold.
WHY = """els => els.map((e) => { const w = e.querySelector('.why');
  return w ? [w.innerText, w.querySelector('b.why-scopa') !== null] : null; })"""


def english(reasons: list[dict[str, Any]]) -> str | None:
    """A move's reasons as the page says them in English (None: it has none). The settebello
    is one of the sevens and the coins the server counts: the others are said beside it."""
    out: list[str] = []
    what: list[str] = []
    takes = -1
    settebello = {"kind": "settebello"} in reasons
    for r in reasons:
        kind, n = r["kind"], r.get("count", 0)
        if kind == "scopa":
            out.append("Scopa!")
        elif kind == "cards":
            takes = len(out)
            out.append(f"wins {n} cards")
        elif kind == "settebello":
            what.append("the settebello")
        elif kind in ("sevens", "coins"):
            n -= settebello
            other = " other" if settebello else ""
            if n:
                what.append(f"{n}{other} {kind[:-1]}{'s' * (n > 1)}")
        elif kind == "lays_settebello":
            out.append("lays the settebello on the table")
        else:
            k = r["unseen"]
            rank = (RANKS_EN_MANY if k > 1 else RANKS_EN)[r["sum"] - 1]
            out.append(f"leaves {r['sum']} on the table: {k} {rank}"
                       f" {'are' if k > 1 else 'is'} still out")
    if what:
        out[takes] += ": " + ", ".join(what)
    return " · ".join(out) or None


@pytest.mark.parametrize("device", [DESKTOP, NARROW_PHONE], ids=["desktop", "phone-360"])
def test_the_hint_says_the_reasons_of_each_move(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any]) -> None:
    """The server's reasons, under each move of the hint and after its best: Eight of Cups
    takes all four cards on the table (1C 1B 4C 2S), a scopa, and nothing leaves a card on the
    table without saying so. On a 360 px phone the panel still fits its width."""
    gid = server.insert(HANDS, TABLE, dealer=3)
    page = open_page(device, game=gid)
    page.wait_for_function(PLAYABLE)
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        press(page, "h", device, "#btn-hint")
    hint = answer.value.json()
    page.wait_for_function(HINT_SHOWN)
    rows = page.eval_on_selector_all("#coach-hint .hint-options li", WHY)
    said = [english(o["reasons"]) for o in hint["options"]]
    assert [r and r[0] for r in rows] == said
    sweeping = [o["card"] == "8C" and len(o["capture"]) == 4 for o in hint["options"]]
    assert [bool(r and r[1]) for r in rows] == sweeping and any(sweeping)
    assert "Scopa! · wins 5 cards" in said
    best = page.eval_on_selector_all("#coach-hint .hint-best", WHY)
    why = english(hint["reasons"])
    assert best == [None if why is None else [why, hint["move"]["card"] == "8C"]]
    # Text, for the eye and a screen reader alike; the dots between reasons only for the eye.
    assert page.locator("#coach-hint .why-dot[aria-hidden='true']").count() >= 1
    fits = page.evaluate("""() => { const box = document.getElementById('coach-hint');
      const r = box.getBoundingClientRect();
      return [box.scrollWidth <= box.clientWidth, r.left >= 0 && r.right <= innerWidth,
              [...box.querySelectorAll('.why')].every((w) => {
                const q = w.getBoundingClientRect();  // (a phone's heading shows none)
                return !q.width || (q.left >= r.left && q.right <= r.right); })]; }""")
    assert fits == [True, True, True]
    kind = "desktop" if device is DESKTOP else "phone-360"
    page.screenshot(path=str(ARTIFACTS / f"coach-hint-reasons-{kind}.png"))
    assert_accessible(page, "hint with reasons")


def test_a_cost_never_reads_as_another_labels(open_page: Callable[..., Any]) -> None:
    """A review's "It cost x points" was rounded to one decimal, so a "good" 0.46 and an
    "inaccuracy" 0.52 both said 0.5 (QA helper-78): where one decimal would read as another
    label's, two are shown, cut so they stay within the label's range."""
    page = open_page(DESKTOP)
    cases = [(0.46, "good"), (0.52, "inaccuracy"), (0.496, "good"), (0.5, "inaccuracy"),
             (0.76, "inaccuracy"), (0.8, "mistake"), (1.46, "mistake"), (1.5, "blunder"),
             (0.29, "good"), (0.64, "inaccuracy"), (2.37, "blunder")]
    said = page.evaluate(
        "async (cases) => { const m = await import('/static/js/coach-text.js');"
        " return { bounds: m.LOSS_FROM, en: cases.map(([x, l]) => m.costText('en', x, l)),"
        " de: cases.map(([x, l]) => m.costText('de', x, l)) }; }", cases)
    assert said["bounds"] == {"good": BEST_WINDOW, "inaccuracy": THRESHOLDS[0],
                              "mistake": THRESHOLDS[1], "blunder": THRESHOLDS[2]}
    assert said["en"] == ["0.46", "0.5", "0.49", "0.5", "0.76", "0.8", "1.46", "1.5", "0.3",
                          "0.6", "2.4"]
    assert said["de"][:3] == ["0,46", "0,5", "0,49"]
    for (loss, label), text in zip(cases, said["en"], strict=True):
        assert label_for(float(text)) == label, (loss, text)


def test_the_reasons_are_said_in_every_language(open_page: Callable[..., Any]) -> None:
    page = open_page(DESKTOP)
    cases = [
        [{"kind": "scopa"}, {"kind": "cards", "count": 4}, {"kind": "sevens", "count": 2},
         {"kind": "coins", "count": 1}, {"kind": "leaves", "sum": 8, "unseen": 1}],
        [{"kind": "cards", "count": 3}, {"kind": "settebello"}, {"kind": "sevens", "count": 2},
         {"kind": "coins", "count": 3}, {"kind": "leaves", "sum": 7, "unseen": 2}],
        [{"kind": "cards", "count": 2}, {"kind": "settebello"}, {"kind": "sevens", "count": 1},
         {"kind": "coins", "count": 2}],
        [{"kind": "lays_settebello"}, {"kind": "leaves", "sum": 10, "unseen": 3}],
    ]
    said = page.evaluate(
        "async (cases) => { const m = await import('/static/js/coach-text.js');"
        " return ['en', 'it', 'de'].map((l) => cases.map((rs) => m.reasonTexts(l, rs)"
        ".map((r) => r.text))); }", cases)
    assert said == [
        [["Scopa!", "wins 4 cards: 2 sevens, 1 coin",
          "leaves 8 on the table: 1 jack is still out"],
         ["wins 3 cards: the settebello, 1 other seven, 2 other coins",
          "leaves 7 on the table: 2 sevens are still out"],
         ["wins 2 cards: the settebello, 1 other coin"],
         ["lays the settebello on the table", "leaves 10 on the table: 3 kings are still out"]],
        [["Scopa!", "porta a casa 4 carte: 2 sette, 1 denaro",
          "lascia 8 in tavola: 1 fante ancora da vedere"],
         ["porta a casa 3 carte: il settebello, 1 altro sette, 2 altri denari",
          "lascia 7 in tavola: 2 sette ancora da vedere"],
         ["porta a casa 2 carte: il settebello, 1 altro denaro"],
         ["cala il settebello in tavola", "lascia 10 in tavola: 3 re ancora da vedere"]],
        [["Scopa!", "bringt 4 Karten ein: 2 Siebenen, 1 Münze",
          "lässt 8 auf dem Tisch liegen: 1 Bube noch nicht gesehen"],
         ["bringt 3 Karten ein: den Settebello, 1 weitere Sieben, 2 weitere Münzen",
          "lässt 7 auf dem Tisch liegen: 2 Siebenen noch nicht gesehen"],
         ["bringt 2 Karten ein: den Settebello, 1 weitere Münze"],
         ["legt den Settebello auf den Tisch",
          "lässt 10 auf dem Tisch liegen: 3 Könige noch nicht gesehen"]]]
    # The page's English is the tests' too (english() reads every review and hint above).
    assert [english(rs) for rs in cases] == [" · ".join(t) for t in said[0]]


def test_a_hint_the_coach_could_not_give_is_said_and_asked_again_with_h(
        open_page: Callable[..., Any]) -> None:
    """A busy coach answers 503 ("coach busy"): the panel says so instead of staying empty,
    and H asks again rather than closing the notice."""
    page = open_page(DESKTOP)
    page.wait_for_function(PLAYABLE)
    page.watch.expected.append("503")  # the test's own refusal, below

    def busy(route: Any) -> None:
        route.fulfill(status=503, content_type="application/json",
                      body='{"detail": "coach busy"}')

    page.route("**/hint", busy)
    with page.expect_response(lambda r: r.url.endswith("/hint")):
        page.keyboard.press("h")
    page.wait_for_selector("#coach-hint .hint-failed")
    assert "could not answer" in page.inner_text("#coach-hint")
    assert page.locator("#hand .card.hinted").count() == 0
    page.unroute("**/hint", busy)
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.keyboard.press("h")
    assert answer.value.status == 200
    page.wait_for_function(HINT_SHOWN)
    assert page.locator("#coach-hint .hint-failed").count() == 0


def a_hint_given_up_and_asked_again(page: Any) -> None:
    """H, its request never answered: after 10 s the panel says the coach could not answer;
    H again asks the server again, and the hint is shown."""
    held = hold_the_first(page, "**/hint")
    page.keyboard.press("h")
    page.wait_for_selector("#coach-hint .hint-failed", timeout=20_000)
    assert held, "the hint's first request was not held"
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.keyboard.press("h")
    assert answer.value.status == 200
    page.wait_for_function(HINT_SHOWN)


def test_a_hint_whose_answer_never_comes_is_given_up_and_h_asks_again(
        open_page: Callable[..., Any], server: Server) -> None:
    """The hint's request is never answered (a connection lost without a word): after the
    game's own requests' 10 s the panel says the coach could not answer, and H asks again, in
    that position and in the next. (The page waited for ever: "Looking for the best move…"
    stayed, and H asked nothing again for the rest of the visit, in every later position.)"""
    gid = server.insert(HANDS, TABLE, dealer=3)
    page = open_page(DESKTOP, game=gid)
    page.watch.expected.append("no answer in 10 s")  # the page warns of the hint given up
    page.wait_for_function(PLAYABLE)
    a_hint_given_up_and_asked_again(page)
    # The next position: H asks the server (the hint on its way for good had kept it from it).
    page.keyboard.press("h")  # closes the hint
    page.click("#hand .card[data-code='9C']")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8"
                           " && document.querySelector('#hand.playable') !== null",
                           timeout=30_000)
    before = asked(page, "hint")
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.keyboard.press("h")
    assert answer.value.status == 200 and asked(page, "hint") == before + 1
    page.wait_for_function(HINT_SHOWN)


def test_a_review_whose_answer_never_comes_says_it_could_not_be_made(
        open_page: Callable[..., Any], server: Server) -> None:
    """The review's request is never answered: after 30 s the panel says the review could
    not be made (it said "Reviewing the round…" for ever), and R, closed and pressed again,
    asks again and shows it."""
    gid = server.insert(["7D 5C 1S", "1C 6C 2S", "2C 4B 3S", "3C 9S 4S"], dealer=3)
    page = open_page(DESKTOP, game=gid)
    page.watch.expected.append("no answer in 30 s")
    page.route("**/review", lambda route: None)  # never answered
    play_round(page)
    page.keyboard.press("r")
    page.wait_for_selector("#review:not([hidden]) .review-loading")
    page.wait_for_function("() => document.getElementById('review').innerText"
                           ".includes('The review could not be made just now')",
                           timeout=40_000)
    page.unroute("**/review")
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    page.keyboard.press("r")
    page.wait_for_selector("#review:not([hidden]) #review-step")


def test_a_review_that_could_not_be_made_is_tried_again_and_the_summary_says_so(
        open_page: Callable[..., Any], server: Server) -> None:
    """The review's requests answered 503 (the server's database away): the round summary's
    headline says there is no review just now, and the review says it could not be made and
    offers Try again; pressed once the server answers, the review is shown, and the summary's
    headline is filled in. (The headline stayed empty, and the review kept saying it failed
    until it was closed and opened again.)"""
    gid = server.insert(["7D 5C 1S", "1C 6C 2S", "2C 4B 3S", "3C 9S 4S"], dealer=3)
    page = open_page(DESKTOP, game=gid)
    page.watch.expected.append("503")
    page.route("**/review", lambda route: route.fulfill(
        status=503, content_type="application/json", body='{"detail": "database unavailable"}'))
    play_round(page)
    page.wait_for_function("() => document.getElementById('summary-coach-note').textContent"
                           " === 'No review just now: press Review to try again.'")
    page.keyboard.press("r")
    page.wait_for_selector("#review:not([hidden]) #review-retry")
    # Said (an alert: a screen reader heard "Reviewing the round…", then nothing), and Try
    # again has the focus, the first time and when it failed again (QA helper-73).
    assert page.inner_text("#review .review-failed[role='alert']") == (
        "The review could not be made just now (the connection or the server).")
    focused = "() => document.activeElement && document.activeElement.id === 'review-retry'"
    page.wait_for_function(focused)
    with page.expect_response(lambda r: r.url.endswith("/review")) as answer:
        page.keyboard.press("Enter")
    assert answer.value.status == 503
    page.wait_for_selector("#review:not([hidden]) #review-retry")
    page.wait_for_function(focused)
    page.unroute("**/review")
    with page.expect_response(lambda r: r.url.endswith("/review")) as answer:
        page.keyboard.press("Enter")
    assert answer.value.status == 200
    page.wait_for_selector("#review:not([hidden]) #review-step")
    assert page.locator("#review-retry").count() == 0
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    note = page.inner_text("#summary-coach-note")
    assert "Hints used: 0" in note and "No review" not in note, note


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


def seen_counted(server: Server, gid: str, number: int) -> int:
    """How often the cards seen counted in round ``number`` for seat 0, as the server stored."""
    return int(help_counts(stored(server, gid), number, 0).get("seen", 0))


def test_the_cards_seen_left_open_counts_once_in_each_round_it_helps_in(
        open_page: Callable[..., Any], server: Server) -> None:
    """SPEC §7: opening the cards seen counts like a hint. Left open into the next round it
    helps there too: that round counts it once (it counted nothing: the summary said "Hints
    used: 0" of a round played with the panel open), however many views the round brings."""
    gid = server.insert(["7D", "1C", "2C", "3C"], dealer=3)  # one card each: a round ends
    page = open_page(DESKTOP, game=gid)
    page.wait_for_function(PLAYABLE)
    with page.expect_response(lambda r: r.url.endswith("/cards-seen")):
        page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-card")
    page.click("#hand .card")
    page.wait_for_function(SUMMARY_OPEN)
    assert seen_counted(server, gid, 1) == 1
    with page.expect_response(lambda r: r.url.endswith("/cards-seen")):
        page.click("#summary-go")  # the next round, the panel still open
    page.wait_for_function(PLAYABLE)
    assert seen_counted(server, gid, 2) == 1
    # The round's later views count nothing more.
    page.click("#hand .card")
    page.wait_for_function(PLAYABLE)
    page.click("#hand .card")
    page.wait_for_function(PLAYABLE)
    assert asked(page, "cards-seen") == 2
    assert seen_counted(server, gid, 2) == 1
    assert seen_counted(server, gid, 1) == 1


def test_esc_closes_the_panel_on_top_and_the_focus_goes_to_its_button(
        open_page: Callable[..., Any], server: Server) -> None:
    """Esc closes the open panel first (the one opened last), else cancels a card's selection;
    closing a panel by key, Esc or its Close button hands the focus to the panel's button; H
    shows a hint closed for the same position again without asking the server again."""
    gid = server.insert(HANDS, TABLE, dealer=3)
    page = open_page(DESKTOP, game=gid)
    page.wait_for_function(PLAYABLE)
    # Cards seen: C opens it (the focus goes in), Esc closes it, C toggles it.
    with page.expect_response(lambda r: r.url.endswith("/cards-seen")):
        page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-card")
    page.keyboard.press("Escape")
    page.wait_for_selector("#seen-panel", state="hidden")
    assert page.evaluate(FOCUSED) == "btn-seen"
    assert page.get_attribute("#btn-seen", "aria-expanded") == "false"
    with page.expect_response(lambda r: r.url.endswith("/cards-seen")):
        page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-card")
    assert page.evaluate(FOCUSED) == "seen-panel"
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel", state="hidden")
    assert page.evaluate(FOCUSED) == "btn-seen"
    # The hint: Esc closes it and takes its light off the cards. The focus was not in it and
    # stays where it was.
    with page.expect_response(lambda r: r.url.endswith("/hint")):
        page.keyboard.press("h")
    page.wait_for_function(HINT_SHOWN)
    page.keyboard.press("Escape")
    page.wait_for_selector("#coach-hint", state="hidden")
    assert page.evaluate(FOCUSED) == "btn-seen"
    assert codes(page, ".card.hinted") == []
    assert page.get_attribute("#btn-hint", "aria-expanded") == "false"
    # H shows the same hint again, from the page; Esc with the focus nowhere hands it to the
    # Hint button; H closes it too, and so does its own button.
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("h")
    page.wait_for_function(HINT_SHOWN)
    assert page.get_attribute("#btn-hint", "aria-expanded") == "true"
    page.keyboard.press("Escape")
    page.wait_for_selector("#coach-hint", state="hidden")
    assert page.evaluate(FOCUSED) == "btn-hint"
    page.keyboard.press("h")
    page.wait_for_function(HINT_SHOWN)
    page.keyboard.press("h")
    page.wait_for_selector("#coach-hint", state="hidden")
    page.keyboard.press("h")
    page.wait_for_function(HINT_SHOWN)
    page.click("#hint-close")
    page.wait_for_selector("#coach-hint", state="hidden")
    assert page.evaluate(FOCUSED) == "btn-hint"
    # Both open: Esc closes the one opened last, then the other, then cancels the selection.
    hand = codes(page, "#hand .card")
    page.keyboard.press(str(hand.index("5D") + 1))
    assert codes(page, "#hand .card.selected") == ["5D"]
    page.keyboard.press("h")
    page.wait_for_function(HINT_SHOWN)
    with page.expect_response(lambda r: r.url.endswith("/cards-seen")):
        page.keyboard.press("c")  # the last request: any earlier one was sent before it
    page.wait_for_selector("#seen-panel .seen-card")
    page.keyboard.press("Escape")
    page.wait_for_selector("#seen-panel", state="hidden")
    assert page.is_visible("#coach-hint")
    assert codes(page, "#hand .card.selected") == ["5D"]
    page.keyboard.press("Escape")
    page.wait_for_selector("#coach-hint", state="hidden")
    assert codes(page, "#hand .card.selected") == ["5D"]
    page.keyboard.press("Escape")
    assert codes(page, "#hand .card.selected") == []
    assert asked(page, "hint") == 1  # one hint asked for, shown five times
    assert asked(page, "cards-seen") == 3
    assert server.game(gid)["version"] == 0  # and nothing was played


def test_on_a_phone_the_hint_and_cards_seen_leave_each_other_and_the_board_in_sight(
        open_page: Callable[..., Any]) -> None:
    """The hint leaves the table's cards and the status line in sight, and the seats too
    unless no part of the board beside them shows it whole (then it may lie over them while it
    is read: test_coach_phone.py); the cards seen and the hint never cover each other."""
    page = open_page(PHONE)
    page.wait_for_function(PLAYABLE)
    seats = [f"#seat-{s} > *" for s in (1, 2, 3)]
    firm = ["#table-cards .card", "#status-line > *"]
    rects = ("els => els.map((e) => { const r = e.getBoundingClientRect();"
             " return [r.left, r.top, r.right, r.bottom]; }).filter((r) => r[2] > r[0])")
    parts = page.eval_on_selector_all(", ".join(seats), rects)
    assert len(parts) >= 6  # each seat's name and cards at least
    with page.expect_response(lambda r: r.url.endswith("/hint")):
        page.tap("#btn-hint")
    page.wait_for_function(HINT_SHOWN)
    [hint] = page.evaluate(RECTS, ["#coach-hint"])
    assert not [p for p in page.eval_on_selector_all(", ".join(firm), rects) if meet(hint, p)]
    content, shown = page.eval_on_selector("#coach-hint", "e => [e.scrollHeight, e.clientHeight]")
    if [p for p in parts if meet(hint, p)]:
        assert shown >= min(content, 150), (content, shown)  # over the seats for its room
    # Cards seen after the hint, then the other way round (the same hint, shown again): the
    # two panels do not cover each other.
    for taps in (["#btn-seen"], ["#btn-seen", "#btn-hint"]):
        for button in taps:
            page.tap(button)
        page.wait_for_selector("#seen-panel .seen-card")
        page.wait_for_function(HINT_SHOWN)
        hint, seen = page.evaluate(RECTS, ["#coach-hint", "#seen-panel"])
        assert not meet(hint, seen), (hint, seen)
        assert page.is_visible("#seen-title")
        shot(page, "hint-and-seen", PHONE)
        # Real clicks, which Playwright refuses on an element covered by another.
        page.click("#seen-close", timeout=5000)
        page.wait_for_selector("#seen-panel", state="hidden")
        assert page.evaluate(FOCUSED) == "btn-seen"
        page.click("#hint-close", timeout=5000)
        page.wait_for_selector("#coach-hint", state="hidden")
        assert codes(page, ".card.hinted") == []
    assert asked(page, "hint") == 1


def test_cards_taken_by_us_and_by_them_are_marked_apart(
        open_page: Callable[..., Any], server: Server) -> None:
    """Each pair's taken cards carry their own mark (a shape, not a colour only), and the legend
    shows the same two marks."""
    # Seat 0 takes 7C with 7D; seat 1's only card, 5S, must take 5B.
    gid = server.insert(["7D 2D 3D", "5S", "9C 1B", "6C 2B"], "7C 5B", dealer=3)
    view = server.http.post(f"/api/games/{gid}/moves",
                            json={"version": 0, "card": "7D", "capture": ["7C"]}).json()
    while view["status"] == "computer_turn":
        r = server.http.post(f"/api/games/{gid}/advance", json={"version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["piles"] == [["7D", "7C"], ["5S", "5B"]] and view["status"] == "your_turn"
    page = open_page(DESKTOP, game=gid)
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-card")
    styles = page.evaluate("""() => {
      const look = (sel, pseudo) => {
        const s = getComputedStyle(document.querySelector(sel), pseudo);
        return {content: s.content, image: s.backgroundImage, colour: s.backgroundColor,
                height: s.height, shadow: s.boxShadow};
      };
      return {us: look('.seen-card[data-place="taken_a"]', '::after'),
              them: look('.seen-card[data-place="taken_b"]', '::after'),
              chipUs: look('.seen-legend .chip.taken_a', '::before'),
              chipThem: look('.seen-legend .chip.taken_b', '::before')};
    }""")
    assert codes(page, '.seen-card[data-place="taken_a"]') == ["7D", "7C"]
    assert sorted(codes(page, '.seen-card[data-place="taken_b"]')) == ["5B", "5S"]
    for mark in styles.values():
        assert mark["content"] != "none", styles
    # Not by colour alone: the two marks differ in pattern and in shape, in the grid and the
    # legend alike.
    assert styles["us"]["image"] != styles["them"]["image"], styles
    assert styles["us"]["height"] != styles["them"]["height"], styles
    assert styles["chipUs"]["image"] != styles["chipThem"]["image"], styles
    page.locator("#seen-panel").screenshot(path=str(ARTIFACTS / "coach-seen-taken-desktop.png"))
    assert_accessible(page, "seen with taken cards")


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
    if device is DESKTOP:
        # The summary is a dialog: the cards seen and the hint stay out of sight behind it.
        page.keyboard.press("c")
        page.keyboard.press("h")
        assert page.is_hidden("#seen-panel") and page.is_hidden("#coach-hint")
        assert page.get_attribute("#btn-seen", "aria-expanded") == "false"
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
        # Math.round, as the page: Python's round(12.5) is 12 (5 of 8 plays good: 62.5 %).
        assert f"Accuracy {math.floor(acc * 100 + 0.5)}%" in page.inner_text("#review-accuracy")
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
    # Each mark said to a screen reader in words (it once said the class name, "bestcard"),
    # and shown in a legend.
    hand_labels = page.eval_on_selector_all(
        "#review .review-step .review-hand .mini", "els => els.map(e => e.ariaLabel)")
    assert all(not label.endswith(("played", "bestcard")) for label in hand_labels), hand_labels
    assert sum(", your play" in label for label in hand_labels) == 1, hand_labels
    legend = " ".join(page.inner_text("#review .review-legend").split())
    assert legend.startswith("your play"), legend

    def said_as_sent(p: dict[str, Any]) -> None:
        shown = review_reasons(page)
        assert shown["played"] == english(p["played"]["reasons"]), (shown, p)
        listed = [] if p["forced"] or p["by_computer"] else p["options"]
        assert shown["options"] == [english(o["reasons"]) for o in listed], (shown, p)

    said_as_sent(first)
    # Step through every play: arrows on the desktop, the Next button on the phone.
    for k in range(2, n + 1):
        if device is PHONE:
            page.tap("#review-next")
        else:
            page.keyboard.press("ArrowRight")
        page.wait_for_function(
            f"() => document.getElementById('review-step').textContent === 'Play {k} of {n}'")
        p = review["plays"][k - 1]
        said_as_sent(p)
        # The others' plays since the previous one of the person, as they happened.
        others = review["history"][review["plays"][k - 2]["index"] + 1:p["index"]]
        assert page.locator(".review-before li").count() == len(others)
        if p["forced"]:
            assert "not judged" in page.inner_text(".review-step .verdict")
        else:
            assert page.inner_text("#review-label") in (
                "best", "good", "inaccuracy", "mistake", "blunder")
            # The move played is in the list with its margin, marked, whatever its rank.
            assert p["played"] in [{k: o[k] for k in ("card", "capture", "reasons")}
                                   for o in p["options"]]
            mine = page.locator(".review-step .hint-options li.mine")
            assert mine.count() == 1 and "(yours)" in mine.inner_text()
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
        assert page.get_attribute("#accuracy-chart svg", "aria-label") == (
            f"Accuracy of the one reviewed round: {math.floor(acc * 100 + 0.5)}%.")  # Math.round
    shot(page, "stats", device)
    assert_accessible(page, "stats")
    page.on("dialog", lambda d: d.accept())
    pid = page.evaluate("localStorage.getItem('scopone.person')")
    page.click("#btn-clear")
    page.wait_for_selector("#stats-empty")
    # The browser keeps its id, so the match under way counts from its next round on.
    assert page.evaluate("localStorage.getItem('scopone.person')") == pid
    assert server.http.get(f"/api/people/{pid}/stats").json()["rounds"] == 0


def rewrite_reviews(page: Any, change: Callable[[dict[str, Any]], None]) -> list[str]:
    """Every review of round 1 the page asks for from now on is the server's, changed in place
    by ``change`` (the summary's headline's too: set before the round ends, so both agree);
    returns the URLs answered so."""
    answered: list[str] = []

    def handle(route: Any) -> None:
        response = route.fetch()
        data = response.json()
        change(data)
        answered.append(route.request.url)
        route.fulfill(response=response, json=data)

    page.route("**/rounds/1/review", handle)
    return answered


def test_a_play_labelled_best_is_not_said_to_have_cost_points(
        open_page: Callable[..., Any], server: Server) -> None:
    """Another move judged best by a hair, the play still labelled "best" (its loss within the
    judgement's noise, SPEC §7): the review says it was as good, not what it cost."""
    page = open_page(DESKTOP)
    changed: list[int] = []

    def best_by_a_hair(review: dict[str, Any]) -> None:
        # The first play has ten cards to choose from: it is always judged.
        k, p = next((k, p) for k, p in enumerate(review["plays"])
                    if not p["forced"] and not p.get("by_computer"))
        other = next(c for c in ("1D", "2D") if c != p["played"]["card"])
        p.update(label="best", loss=0.1, best={"card": other, "capture": []})
        changed[:] = [k]

    answered = rewrite_reviews(page, best_by_a_hair)
    play_round(page)
    page.keyboard.press("r")
    page.wait_for_selector("#review #review-step")
    assert answered and changed
    for _ in range(changed[0]):
        page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "() => document.getElementById('review-label')?.textContent === 'best'")
    verdict = page.inner_text(".review-step .verdict")
    assert "Best play:" in verdict and "as good" in verdict and "cost" not in verdict


@pytest.mark.parametrize(("lang", "said"), [
    ("en", "Plays with a choice judged best or good: 1 of {n}."),
    ("it", "Giocate con una scelta giudicate migliori o buone: 1 su {n}."),
    ("de", "Züge mit Wahl, als beste oder gute bewertet: 1 von {n}."),
])
def test_one_good_play_is_said_with_no_plural_for_it(
        open_page: Callable[..., Any], server: Server, lang: str, said: str) -> None:
    """QA: "1 giocate su 3 con una scelta erano migliori o buone" (a plural for one play),
    then "1 von 1 Zügen": the count now follows a heading, so no word agrees with it."""
    page = open_page(DESKTOP, prefs={**TEST_PREFS, "lang": lang})
    counted: list[int] = []

    def one_good(review: dict[str, Any]) -> None:
        judged = [p for p in review["plays"] if not p["forced"] and not p.get("by_computer")]
        for k, p in enumerate(judged):
            p["label"] = "best" if k == 0 else "mistake"
        review["accuracy"] = 1 / len(judged)
        counted[:] = [len(judged)]

    answered = rewrite_reviews(page, one_good)
    play_round(page)
    page.keyboard.press("r")
    page.wait_for_selector("#review #review-accuracy")
    assert answered and counted[0] > 1
    assert page.inner_text("#review-accuracy").endswith(said.format(n=counted[0]))

def review_reasons(page: Any) -> dict[str, Any]:
    """What the review's step shows of reasons: the played line's, and each listed move's."""
    return dict(page.evaluate("""() => {
      const why = (e) => { const w = e && e.querySelector('.why'); return w ? w.innerText : null; };
      return { played: why(document.querySelector('.review-step .played')),
               options: [...document.querySelectorAll('.review-step .hint-options li')].map(why) };
    }"""))


def test_the_review_says_the_reasons_of_the_play_and_of_each_move(
        open_page: Callable[..., Any], server: Server) -> None:
    """Seat 0 leads with two cards: Six of Swords sweeps 2C 4C (a scopa, three cards), Nine of
    Coins would lay a card. The review says so beside the play and the moves it lists; a review
    stored before reasons were kept still calls its scopa one."""
    gid = server.insert(["6S 9D", "7C 1C", "5D 1S", "7S 3C"], "2C 4C", dealer=3)
    page = open_page(DESKTOP, game=gid)
    stored_before_reasons: list[bool] = []

    def without_reasons(review: dict[str, Any]) -> None:
        if not stored_before_reasons:
            return
        for p in review["plays"]:
            for m in [p["played"], p["best"], *p["options"]]:
                if m is not None:
                    m["reasons"] = []

    rewrite_reviews(page, without_reasons)
    page.wait_for_function(PLAYABLE)
    page.keyboard.press(str(codes(page, "#hand .card").index("6S") + 1))
    if page.locator("#hand .card.selected").count():
        page.keyboard.press("Enter")
    play_round(page)
    page.wait_for_selector("#summary #summary-review")
    review = json.loads(server.http.get(f"/api/games/{gid}/rounds/1/review").text)
    first = review["plays"][0]
    assert first["played"] == {"card": "6S", "capture": ["2C", "4C"],
                               "reasons": [{"kind": "scopa"}, {"kind": "cards", "count": 3}]}
    page.keyboard.press("r")
    page.wait_for_selector("#review #review-step")
    shown = review_reasons(page)
    assert shown["played"] == "Scopa! · wins 3 cards"
    assert page.locator(".review-step .played .why b.why-scopa").count() == 1
    assert shown["options"] == [english(o["reasons"]) for o in first["options"]]
    assert "Scopa! · wins 3 cards" in shown["options"] and len(shown["options"]) == 2
    page.screenshot(path=str(ARTIFACTS / "coach-review-reasons-desktop.png"))
    assert_accessible(page, "review with reasons")
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    stored_before_reasons.append(True)
    page.keyboard.press("r")
    page.wait_for_selector("#review #review-step")
    assert review_reasons(page) == {"played": "Scopa!", "options": [None, None]}


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
