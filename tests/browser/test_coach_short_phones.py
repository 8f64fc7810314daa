"""The cards seen open on the shortest phones, upright and on their side: the whole hand in
the window and tappable, the page not scrolling, the panel whole and readable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS, TEST_PREFS, Server, side, tap_control, upright
from .test_coach_phone import PLAYABLE, _position, seen_panel_whole
from .test_layout import PROBE

pytestmark = pytest.mark.browser

# A full hand and six cards on the table, seat 0 to lead: the most the hand and the table's one
# row of cards ask of the window while the panel is open.
TABLE = "3C 5C 9S 2B 1S 6S"
HAND = "1D 2D 9D 10D 4C 6C 10S 4B 7B 8B"

# The shortest phones upright: a 360 x 640 Android whose browser leaves it 520 px, the first
# iPhone SE's 320 x 536 and 320 x 520.
SHORT_UPRIGHT = pytest.mark.parametrize("size", [(360, 520), (320, 536), (320, 520)],
                                        ids=["360x520", "320x536", "320x520"])

# Placed: the table keeps its room for the panel (coach.js reserveRoom) and the panel lies in it.
PLACED = """() => {
  const seen = document.getElementById('seen-panel');
  return document.getElementById('table').style.getPropertyValue('--seen-room') !== ''
    && seen.style.top !== '' && seen.querySelector('.seen-card') !== null;
}"""


def open_the_cards_seen(open_page: Callable[..., Any], server: Server, device: dict[str, Any],
                        lang: str) -> Any:
    hands = _position(HAND, TABLE, (8, 8, 8))
    page = open_page(device, game=server.insert(hands, TABLE, dealer=3),
                     prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(PLAYABLE)
    assert page.locator("#hand .card").count() == 10
    assert page.locator("#table-cards .card").count() == 6
    tap_control(page, "#btn-seen")
    page.wait_for_function(PLACED)
    # Two frames: the page drawn as the panel left it.
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() =>"
                  " requestAnimationFrame(r)))")
    return page


def assert_whole_and_still(page: Any, device: dict[str, Any]) -> None:
    """No page scroll; every hand card in the window, found where it shows, a finger's width
    of it showing; the panel whole, its text 11 px or more, over nothing of the board."""
    height = device["viewport"]["height"]
    scroll = page.evaluate("document.documentElement.scrollHeight")
    assert scroll <= height, (scroll, height)
    cards = page.evaluate(PROBE)
    assert len(cards) == 10
    for card in cards:
        assert card["hit"] == card["code"] and card["bottom"] <= height, card
        assert card["strip"] >= 24, card
    seen_panel_whole(page)


@pytest.mark.parametrize("lang", ["en", "it", "de"])
@SHORT_UPRIGHT
def test_the_cards_seen_leaves_a_short_upright_phone_still(
        open_page: Callable[..., Any], server: Server, size: tuple[int, int],
        lang: str) -> None:
    """A 360 x 640 Android whose browser leaves it 520 px (address and navigation bars shown),
    the first iPhone SE's 320 x 536 and 320 x 520: with the cards seen open the page scrolled by
    3 to 6 px (360 x 520 in each language, 320 x 536 in Italian) and by 19 to 21 px at 320 x 520
    in Italian, whose partner's name lies a line lower there, the hand's lowest 11 px below the
    window. Now the board's rows and edges are closer and the status line one small button high
    while it is open: the page is still, the hand whole and every card tappable, the panel
    whole and as readable as before."""
    device = upright(*size)
    page = open_the_cards_seen(open_page, server, device, lang)
    assert_whole_and_still(page, device)
    page.screenshot(path=str(ARTIFACTS / f"coach-short-upright-{lang}-{size[0]}x{size[1]}.png"))


# Each seat's name at the top and the partner's backs: their boxes, and the names' lines.
TOP_ROW = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { left: r.left, right: r.right, top: r.top, bottom: r.bottom }; };
  // (Its text's lines: the dealer's dot, a smaller character, has a box of its own.)
  const lines = (el) => { const range = document.createRange();
    range.selectNodeContents(el.firstChild);
    return new Set([...range.getClientRects()].filter((r) => r.width)
      .map((r) => Math.round(r.top))).size; };
  const names = [3, 2, 1].map((s) => document.querySelector(`#seat-${s} .seat-name`));
  return { names: names.map(box), lines: names.map(lines),
           backs: [3, 2, 1].map((s) => box(document.querySelector(`#seat-${s} .backs`))) };
}"""


def _apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["right"] + 2 <= b["left"] or b["right"] + 2 <= a["left"]
            or a["bottom"] + 2 <= b["top"] or b["bottom"] + 2 <= a["top"])


@pytest.mark.parametrize("lang", ["en", "it", "de"])
@pytest.mark.parametrize("size", [(568, 320), (640, 360)], ids=["568x320", "640x360"])
def test_the_cards_seen_leaves_a_short_phone_on_its_side_still(
        open_page: Callable[..., Any], server: Server, size: tuple[int, int],
        lang: str) -> None:
    """On its side with the cards seen open the page scrolled by 11 px at 568 x 320 (25 in
    Italian), the hand's lowest 7 to 21 px below the window, and by 10 px at 640 x 360 in
    Italian: the opponents' Italian names took two lines in their columns of 110 px. Now
    each takes one line, reaching over the middle column clear of the partner's, and under
    341 px high the hand's cards are a little smaller and the board a little tighter: the page
    is still, the hand whole and tappable, the panel whole."""
    device = side(*size)
    page = open_the_cards_seen(open_page, server, device, lang)
    assert_whole_and_still(page, device)
    top = page.evaluate(TOP_ROW)
    assert top["lines"] == [1, 1, 1], top
    west, north, east = top["names"]
    assert west["left"] >= 0 and east["right"] <= size[0], top
    for name in (west, east):
        assert _apart(name, north) and _apart(name, top["backs"][1]), top
    page.screenshot(path=str(ARTIFACTS / f"coach-short-side-{lang}-{size[0]}x{size[1]}.png"))


# The capture's line in short, where it lies beside Cancel.
BRIEF = {"en": "Pick a lit card on the table", "it": "Scegli una carta illuminata",
         "de": "Leuchtende Karte wählen"}


@pytest.mark.parametrize("lang", ["en", "it", "de"])
@SHORT_UPRIGHT
def test_a_capture_to_choose_leaves_a_short_upright_phone_still(
        open_page: Callable[..., Any], server: Server, size: tuple[int, int],
        lang: str) -> None:
    """The cards seen open, the person taps a card with several captures (8 of Batons: 3 + 5,
    2 + 6, 5 + 2 + 1, ...). "Pick a lit card on the table to choose what to take" took two
    lines with Cancel under them, and the page scrolled by 22 to 41 px, the hand's lowest part
    below the window. Now the line says it in short, beside Cancel: the page is still."""
    device = upright(*size)
    page = open_the_cards_seen(open_page, server, device, lang)
    page.tap('#hand .card[data-code="8B"]')
    page.wait_for_function("() => !document.getElementById('btn-cancel').hidden")
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() =>"
                  " requestAnimationFrame(r)))")
    assert page.inner_text("#status") == BRIEF[lang]
    line = page.evaluate("""() => {
      const box = (id) => document.getElementById(id).getBoundingClientRect();
      return { status: box('status').top, cancel: box('btn-cancel').top,
               height: box('status-line').height }; }""")
    assert line["height"] <= 25 and abs(line["status"] - line["cancel"]) <= 6, line
    assert_whole_and_still(page, device)
