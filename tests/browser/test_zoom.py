"""A desktop's browser zoomed in (WCAG 1.4.10, reflow): 1280 x 720 at 300 and 400 % is a window
of 427 x 240 and 320 x 180 CSS px on its side, narrower than any phone's. Every card of the
hand is there to see and to click, nothing wider than the window."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS, TEST_PREFS
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
