"""The cards seen on a phone on its side: it shows whole beside the table's cards, the whole
board in the window under the bar; with the hint, the two take turns."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS, PHONE_LANDSCAPE, TEST_PREFS, Server, side, tap_control
from .test_coach_phone import (
    FIRM,
    HINT_SHOWN,
    OUT_OF_WINDOW,
    PAGE_BOX,
    PLAYABLE,
    TABLE_OF,
    TARGET_HEIGHT,
    covered,
    mid_round,
    seen_panel_whole,
)
from .test_controls import HANDS, TABLE

pytestmark = pytest.mark.browser

# Small phones on their side: the iPhone SE (1st generation) and a common small Android.
SIDE_568: dict[str, Any] = side(568, 320)
SIDE_640: dict[str, Any] = side(640, 360)

# Ten cards on the table (a crowded one, ``.many``), seat 0 to play.
CROWDED_HANDS = ["5D 7D 3C 6C 8C 9C", "1D 2D 3D 4D 6D 8D", "5C 7C 1S 3S 4S 7S", "2B 3B 4B 5B 6B 7B"]
CROWDED_TABLE = "1C 1B 4C 2S 8S 9B 10D 10C 8B 9S"

# The table's cards: their tops (on the page), how much of each shows (up to the next one),
# whether all lie in the table.
TABLE_CARDS = """() => {
  const cards = [...document.querySelectorAll('#table-cards .card')];
  const table = document.getElementById('table').getBoundingClientRect();
  const rects = cards.map((c) => c.getBoundingClientRect());
  return { tops: [...new Set(rects.map((r) => Math.round(r.top + scrollY)))],
           shown: rects.map((r, i) => Math.min(r.right, i + 1 < rects.length ? rects[i + 1].left
             : r.right) - r.left),
           inside: rects.every((r) => r.left >= table.left - 0.5 && r.right <= table.right + 0.5) };
}"""

# Each rank of the grid whose text is wider than its cell (a 10 beside the German legend).
OVERFLOWING = """() => [...document.querySelectorAll('#seen-panel .seen-rank')]
  .filter((e) => e.getClientRects().length && e.scrollWidth > e.clientWidth)
  .map((e) => [e.textContent, e.clientWidth, e.scrollWidth])"""


def seen_shows_whole(page: Any) -> None:
    """The cards seen whole in the window with the whole board but the bar, its text readable,
    nothing of the board under it."""
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate(OUT_OF_WINDOW) == []
    seen_panel_whole(page)
    assert page.evaluate(OVERFLOWING) == []


@pytest.mark.parametrize(("device", "lang", "table"), [
    pytest.param(SIDE_568, "en", 4, id="568x320-en"),
    pytest.param(SIDE_568, "it", 5, id="568x320-it-5-on-the-table"),
    pytest.param(SIDE_568, "de", 6, id="568x320-de-6-on-the-table"),
    pytest.param(SIDE_568, "it", 10, id="568x320-it-10-on-the-table"),
    pytest.param(SIDE_640, "en", 6, id="640x360-en-6-on-the-table"),
    pytest.param(SIDE_640, "it", 4, id="640x360-it"),
    pytest.param(SIDE_640, "de", 5, id="640x360-de-5-on-the-table"),
    pytest.param(PHONE_LANDSCAPE, "de", 6, id="844x390-de-6-on-the-table"),
    pytest.param(PHONE_LANDSCAPE, "it", 4, id="844x390-it"),
])
def test_the_cards_seen_shows_whole_on_a_phone_on_its_side(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any], lang: str,
        table: int) -> None:
    """On its side the cards seen showed 35 to 63 px of itself at 568 x 320 and 640 x 360 (90
    to 124 at 844 x 390), in a strip beside the seats or under the table's cards. Now, while
    it is open, the table spans the board's width, its cards at its left in one row (they
    overlap where six or more would leave the panel too little room) and the panel beside
    them, whole, the legend beside the grid: the seats, the piles, the table's cards, the
    status line and the hand in sight, the page no taller than the board and the bar (the bar
    scrolls away where the window is too short, as it did with the panel closed). Closed, the
    board is as it was."""
    if table == 10:
        gid = server.insert(CROWDED_HANDS, CROWDED_TABLE)
    else:
        gid = mid_round(server, *TABLE_OF[table])
    page = open_page(device, game=gid, prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(PLAYABLE)
    assert page.locator("#table-cards .card").count() == table
    before = page.evaluate(TABLE_CARDS)
    tap_control(page, "#btn-seen")
    page.wait_for_selector("#seen-panel .seen-card")
    seen_shows_whole(page)
    cards = page.evaluate(TABLE_CARDS)
    assert len(cards["tops"]) == 1 and cards["inside"], cards
    # Each card's index shows (the tenth of a crowded table 21 px of its 36 at 568 px).
    assert min(cards["shown"]) >= (20 if table == 10 else 30), cards
    width, height = device["viewport"]["width"], device["viewport"]["height"]
    page.screenshot(path=str(ARTIFACTS / f"coach-side-seen-{lang}-{width}x{height}-{table}.png"))
    page.tap("#seen-close")
    page.wait_for_selector("#seen-panel", state="hidden")
    assert page.evaluate(TABLE_CARDS) == before


@pytest.mark.parametrize("device", [SIDE_568, SIDE_640], ids=["568x320", "640x360"])
def test_on_its_side_the_hint_and_the_cards_seen_take_turns(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any]) -> None:
    """Beside the cards seen the hint had a strip of the board (170 px wide at 568 x 320,
    showing 170 of its 484 px; the cards seen 60 of 270). Now the hint opened after the cards
    seen takes the board's room, the cards seen waiting behind it (its button says it is not
    shown); the hint goes and the cards seen is back where it was, whole. The cards seen's
    button brings it to the front, the hint waiting; Esc closes the one in front."""
    page = open_page(device, game=server.insert(HANDS, TABLE, dealer=3))
    page.wait_for_function(PLAYABLE)
    tap_control(page, "#btn-seen")
    page.wait_for_selector("#seen-panel .seen-card")
    seen_shows_whole(page)
    where = page.eval_on_selector("#seen-panel", PAGE_BOX)
    page.tap("#btn-hint")
    page.wait_for_function(HINT_SHOWN)
    assert page.is_hidden("#seen-panel") and page.is_visible("#hint-close")
    assert page.get_attribute("#btn-seen", "aria-expanded") == "false"
    assert page.get_attribute("#btn-hint", "aria-expanded") == "true"
    found = covered(page, FIRM)
    assert found == {"panels": 1, "hand": [], "board": [], "apart": True}, found
    # Wider than the strip it had (its text shorter), and showing more of itself.
    content, shown = page.eval_on_selector("#coach-hint", "e => [e.scrollHeight, e.clientHeight]")
    assert page.eval_on_selector("#coach-hint", "e => e.offsetWidth") >= 300
    assert shown >= min(content, 110), (content, shown)
    assert page.evaluate(TARGET_HEIGHT, "#hint-close") >= 24
    width = device["viewport"]["width"]
    page.screenshot(path=str(ARTIFACTS / f"coach-side-hint-over-seen-{width}.png"))
    page.tap("#hint-close")
    page.wait_for_selector("#coach-hint", state="hidden")
    assert page.is_visible("#seen-panel")
    assert page.eval_on_selector("#seen-panel", PAGE_BOX) == where
    seen_shows_whole(page)
    # The hint again (the same one), then the cards seen to the front by its key; Esc closes
    # it, and the hint is back.
    page.keyboard.press("h")
    page.wait_for_function("() => !document.getElementById('coach-hint').hidden")
    assert page.is_hidden("#seen-panel")
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-grid", state="visible")
    assert page.is_hidden("#coach-hint")
    assert page.get_attribute("#btn-hint", "aria-expanded") == "false"
    seen_shows_whole(page)
    page.keyboard.press("Escape")
    page.wait_for_selector("#seen-panel", state="hidden")
    assert page.is_visible("#hint-close")
    assert sum(1 for r in page.watch.requests if r.endswith("/hint")) == 1
    assert sum(1 for r in page.watch.requests if r.endswith("/cards-seen")) == 1
