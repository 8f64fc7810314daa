"""A desktop's browser zoomed in (WCAG 1.4.10, reflow): 1280 x 720 at 300 and 400 % is a window
of 427 x 240 and 320 x 180 CSS px on its side, narrower than any phone's. Every card of the
hand is there to see and to click, nothing wider than the window."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS, TEST_PREFS, Server
from .test_layout import FULL_HAND, OVERFLOW, PROBE

pytestmark = pytest.mark.browser


def zoomed(percent: int) -> dict[str, Any]:
    """A 1280 x 720 desktop window at ``percent`` zoom."""
    scale = percent / 100
    return {"viewport": {"width": round(1280 / scale), "height": round(720 / scale)},
            "device_scale_factor": scale}


def assert_hand_usable(page: Any, where: str) -> None:
    page.locator("#hand").scroll_into_view_if_needed()
    sizes = page.evaluate(OVERFLOW)
    assert sizes["doc"] <= sizes["width"], (where, sizes)
    for card in page.evaluate(PROBE):
        assert card["hit"] == card["code"], (where, card)  # a click on its strip reaches it
        assert card["strip"] >= 24, (where, card)  # its rank index in sight, room for a pointer
        assert card["left"] >= 0 and card["right"] <= sizes["width"], (where, card)


@pytest.mark.parametrize("lang", ["en", "it", "de"])
@pytest.mark.parametrize("percent", [300, 400])
def test_a_zoomed_desktop_shows_and_lets_one_click_every_card_of_the_hand(
        open_page: Callable[..., Any], percent: int, lang: str) -> None:
    """At 400 % the board kept a phone on its side's layout, the piles in columns of 110 px
    beside the hand: the hand had 76 px, and nine of its ten cards showed 2 px each (at 300 %,
    15 px), their ranks hidden; only the last could be clicked. With the cards seen open too."""
    page = open_page(zoomed(percent), prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(FULL_HAND)
    assert_hand_usable(page, "board")
    page.screenshot(path=str(ARTIFACTS / f"zoom-{percent}-{lang}.png"))
    page.locator("#hand .card").first.focus()
    page.keyboard.press("c")  # the cards seen, open beside the board
    page.wait_for_selector("#seen-panel:not([hidden])")
    assert_hand_usable(page, "cards seen open")


# Every table card's visible strip (up to the next card), and the element the browser finds in
# its middle.
TABLE_PROBE = PROBE.replace("#hand .card", "#table-cards .card")


@pytest.mark.parametrize("percent", [300, 400])
def test_a_zoomed_desktop_with_the_cards_seen_open_shows_every_card_of_the_table(
        open_page: Callable[..., Any], server: Server, percent: int) -> None:
    """The cards seen kept 310 px beside the table's cards, as on a phone on its side: at 400 %
    (320 px) that left them none, and they lay past the window's left edge (one at x -32 to
    14), out of reach; at 300 % (427 px) six showed 9 px of each, their ranks cut."""
    gid = server.insert(["1C 2C 3C 4C 5C 6C 7C 8C 9C 10C", "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S",
                         "7D 8D 9D 10D 1B 2B", "3B 4B 5B 6B 7B 8B"], "1D 2D 3D 4D 5D 6D")
    page = open_page(zoomed(percent), game=gid)
    page.wait_for_function(FULL_HAND)
    page.locator("#hand .card").first.focus()
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel:not([hidden])")
    assert_hand_usable(page, "cards seen open")
    page.locator("#table-cards").scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / f"zoom-{percent}-seen-table.png"))
    width = page.evaluate(OVERFLOW)["width"]
    cards = page.evaluate(TABLE_PROBE)
    assert len(cards) == 6, cards
    for card in cards:
        assert card["hit"] == card["code"], card  # not under the panel, in the window
        assert card["left"] >= 0 and card["right"] <= width, card
        assert card["strip"] >= 24, card  # its rank index in sight, room for a pointer
    panel = page.locator("#seen-panel").bounding_box()
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= width, panel
