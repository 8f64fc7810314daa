"""The coach's two panels on a desktop, small and large: the cards seen (a panel that stays open
while one plays) and the hint, alone or together, leave the hand, the seats, the piles, the
table's cards and the status line in sight, on the game page and the table page."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from .a11y import assert_accessible
from .conftest import ARTIFACTS, DESKTOP, Server
from .test_coach_phone import BOARD, HINT_SHOWN, PLAYABLE, covered
from .test_match import codes, visible_centre
from .test_tables import TableServer, people, started_alone, tserver  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

# Seat 0 leads (dealer 3), eight cards each and eight on the table; 9D can only take 9C.
TABLE = "1C 1B 4C 2S 7S 8B 3D 9C"
HANDS = [
    "9D 5D 7D 6C 10C 5S 6S 10D",
    "1D 2D 4D 6D 8D 2C 3C 5C",
    "7C 8C 1S 3S 4S 8S 9S 10S",
    "2B 3B 4B 5B 6B 7B 9B 10B",
]
SMALL = {"viewport": {"width": 1024, "height": 600}}
SQUARE = {"viewport": {"width": 1024, "height": 768}}
LARGE = {"viewport": {"width": 1920, "height": 1080}}
SIZES = [DESKTOP, SMALL, SQUARE, LARGE]
NAMES = ["1280x800", "1024x600", "1024x768", "1920x1080"]

# Where a panel lies on the page, as [left, top, width, height].
WHERE = """id => { const r = document.getElementById(id).getBoundingClientRect();
  return [r.left + scrollX, r.top + scrollY, r.width, r.height].map(Math.round); }"""
# How many of the open panels show their content whole (no scrolling inside).
WHOLE = """() => ['coach-hint', 'seen-panel'].map((id) => document.getElementById(id))
  .filter((p) => !p.hidden && p.scrollHeight <= p.clientHeight + 1).length"""


# What a panel leaves in sight on a desktop: the phone's and the status line too.
SIGHT = BOARD + ", #status-line > *"


def assert_in_sight(page: Any, panels: int) -> None:
    found = covered(page, SIGHT, window=True)
    assert found == {"panels": panels, "hand": [], "board": [], "out": 0, "apart": True}, found


def seen_in_pictures(page: Any) -> bool:
    """Whether the cards seen shows its cards as pictures rather than the grid of ranks."""
    return bool(page.locator("#seen-panel .seen-card .card-svg").first.is_visible())


@pytest.mark.parametrize("device", SIZES, ids=NAMES)
def test_the_cards_seen_and_the_hint_leave_the_game_in_sight_on_a_desktop(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any]) -> None:
    """The cards seen once lay under the bar at the right, over the right opponent's seat and
    the table's right end; with the hint open too it covered hand cards and the hint the
    table's cards. Now, alone or together, they lie on the board's free parts: the pictures
    where they fit whole (a large window), else the compact grid of ranks; each stays where it
    is while its part is free; and a card is played with a click while they are open."""
    name = NAMES[SIZES.index(device)]
    page = open_page(device, game=server.insert(HANDS, TABLE, dealer=3))
    page.wait_for_function(PLAYABLE)
    assert len(codes(page, "#table-cards .card")) == 8
    # The cards seen alone (C), then the hint alone (H).
    with page.expect_response(lambda r: r.url.endswith("/cards-seen")):
        page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-card")
    assert page.is_visible("#seen-title") and page.is_visible("#seen-close")
    assert_in_sight(page, 1)
    if device is LARGE:  # room enough: the pictures, as before, and all of them
        assert seen_in_pictures(page) and page.evaluate(WHOLE) == 1
    page.screenshot(path=str(ARTIFACTS / f"coach-desktop-seen-{name}.png"))
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel", state="hidden")
    with page.expect_response(lambda r: r.url.endswith("/hint")):
        page.keyboard.press("h")
    page.wait_for_function(HINT_SHOWN)
    assert page.is_visible("#hint-close")
    assert_in_sight(page, 1)
    if device is LARGE:
        assert page.evaluate(WHOLE) == 1
    page.screenshot(path=str(ARTIFACTS / f"coach-desktop-hint-{name}.png"))
    # Both: the cards seen opened over the hint takes the focus, as it does alone.
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-card")
    assert page.evaluate("() => document.activeElement.id") == "seen-panel"
    assert page.is_visible("#seen-title") and page.is_visible("#hint-close")
    assert_in_sight(page, 2)
    if device is LARGE:
        assert seen_in_pictures(page) and page.evaluate(WHOLE) == 2
    page.screenshot(path=str(ARTIFACTS / f"coach-desktop-both-{name}.png"))
    if device is DESKTOP:
        assert_accessible(page, "cards seen and hint, desktop")
    # Closing the hint (a real click: refused on a covered button) leaves the cards seen where
    # it was.
    seen = page.evaluate(WHERE, "seen-panel")
    page.click("#hint-close", timeout=5000)
    page.wait_for_selector("#coach-hint", state="hidden")
    assert page.evaluate(WHERE, "seen-panel") == seen
    # The same hint again, and 9D played with a click (it can only take 9C): the next turn's
    # board, the hint gone with its position, the cards seen still open and nothing covered.
    page.keyboard.press("h")
    page.wait_for_function(HINT_SHOWN)
    with page.expect_response(lambda r: r.url.endswith("/moves")):
        page.mouse.click(*visible_centre(page, "9D"))
    page.wait_for_function(
        "() => document.querySelector('#hand.playable') !== null"
        " && document.querySelector('#hand [data-code=\"9D\"]') === null", timeout=30000)
    assert page.is_visible("#seen-panel .seen-grid")
    assert_in_sight(page, 1)


def test_the_panels_leave_the_game_in_sight_on_the_table_page(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """The table page places the panels the same way (coach.js's installCoach)."""
    code, token = started_alone(tserver, hints=True)
    seat = {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})}
    page = people(DESKTOP, f"{tserver.url}/t/{code}", seat).page
    page.wait_for_function("() => document.body.dataset.status === 'your_turn'")
    page.keyboard.press("h")
    page.wait_for_selector("#coach-hint .hint-best")
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-card")
    assert_in_sight(page, 2)
    page.screenshot(path=str(ARTIFACTS / "coach-desktop-both-table.png"))
