"""Windows' high contrast (forced colours, ``forced_colors="active"``): the browser drops
backgrounds and box-shadows (not an SVG's: the cards' pictures and their rings stay) and paints
every text, outline and border in the system's few colours. What the page shows apart only by a
background, a shadow or a colour must then stay apart by something these keep."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS, DESKTOP, Server, side
from .test_coach import play_round
from .test_controls import scripted

pytestmark = pytest.mark.browser

# How an element and its ::before and ::after look in what forced colours keep (their colours
# are the system's: the same for all), as computed (Chromium computes the forced values).
LOOK = """(el) => [null, '::before', '::after'].map((pseudo) => {
  const s = getComputedStyle(el, pseudo);
  if (pseudo && s.content === 'none') return null;
  return [s.color, s.backgroundColor, s.backgroundImage, s.boxShadow, s.outlineStyle,
          s.outlineWidth, s.borderTopStyle, s.borderTopWidth, s.textDecorationLine,
          s.height, s.opacity].join(' | ');
})"""


def looks(page: Any, selector: str) -> list[Any]:
    return list(page.eval_on_selector(selector, LOOK))


def test_the_cards_seens_marks_stay_apart_in_forced_colours(
        open_page: Callable[..., Any], server: Server) -> None:
    """The cards taken by us (a band) and by them (stripes) were alike, both marks gone, in the
    grid and in the legend; a card in the hand and one on the table had the same ring."""
    # Seat 0 takes 7C with 7D; seat 1's only card, 5S, must take 5B (test_coach.py's deal).
    gid = server.insert(["7D 2D 3D", "5S", "9C 1B", "6C 2B 4C"], "7C 5B 1C", dealer=3)
    view = server.http.post(f"/api/games/{gid}/moves",
                            json={"version": 0, "card": "7D", "capture": ["7C"]}).json()
    while view["status"] == "computer_turn":
        r = server.http.post(f"/api/games/{gid}/advance", json={"version": view["version"]})
        assert r.status_code == 200, r.text
        view = r.json()
    assert view["status"] == "your_turn" and view["piles"][1][:2] == ["5S", "5B"], view
    page = open_page({**DESKTOP, "forced_colors": "active"}, game=gid)
    assert page.evaluate("() => matchMedia('(forced-colors: active)').matches")
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel .seen-card")
    assert set(page.eval_on_selector_all(
        ".seen-card[data-place]", "els => els.map(e => e.dataset.place)")) >= {
        "taken_a", "taken_b", "hand", "table", "unseen"}
    grid = {p: looks(page, f'.seen-card[data-place="{p}"]')
            for p in ("taken_a", "taken_b", "hand", "table")}
    legend = {p: looks(page, f".seen-legend .chip.{p}")
              for p in ("taken_a", "taken_b", "hand", "table")}
    page.locator("#seen-panel").screenshot(path=str(ARTIFACTS / "forced-colours-seen.png"))
    for marks in (grid, legend):
        assert len({str(v) for v in marks.values()}) == len(marks), marks


def test_the_reviews_marks_of_the_play_and_the_best_stay_apart_in_forced_colours(
        open_page: Callable[..., Any], server: Server) -> None:
    """The person's play and the best one (a blue ring and a green one) were alike, in the
    review's cards and its legend."""
    gid = server.insert(["7D 5C 1S", "1C 6C 2S", "2C 4B 3S", "3C 9S 4S"], dealer=3)
    page = open_page({**DESKTOP, "forced_colors": "active"}, game=gid)
    play_round(page)
    page.keyboard.press("r")
    seen = 0
    for k in range(1, 4):
        page.wait_for_selector(f"#review:not([hidden]) #review-step:text-is('Play {k} of 3')")
        if page.locator(".review-legend .mark.bestcard").count():
            seen += 1
            assert looks(page, ".review-legend .mark.played") != looks(
                page, ".review-legend .mark.bestcard")
        played = page.locator(".review-cards .mini.played:not(.bestcard)")
        best = page.locator(".review-cards .mini.bestcard:not(.played)")
        if played.count() and best.count():
            page.locator("#review .review-panel").screenshot(
                path=str(ARTIFACTS / "forced-colours-review.png"))
            assert looks(page, ".review-cards .mini.played:not(.bestcard)") != looks(
                page, ".review-cards .mini.bestcard:not(.played)")
        page.keyboard.press("ArrowRight")
    assert seen, "no play of the round had a best move to mark"


def test_the_seat_to_play_is_marked_in_forced_colours(
        open_page: Callable[..., Any], server: Server) -> None:
    """The name of the seat to play was gold, and only gold: in forced colours it looked like
    every other name (the status line still said whose turn it was)."""
    page, _ = scripted(open_page, server)
    page.emulate_media(forced_colors="active")
    page.wait_for_selector("#hand.playable")
    assert page.evaluate("() => document.getElementById('seat-0').classList.contains('to-play')")
    page.screenshot(path=str(ARTIFACTS / "forced-colours-turn.png"))
    mine = looks(page, "#seat-0 .seat-name")
    for seat in (1, 2, 3):
        assert looks(page, f"#seat-{seat} > .seat-name") != mine, seat


# Each side of an element's border, as computed: its style and width.
EDGE = """(el) => ['Top', 'Right', 'Bottom', 'Left'].map((side) => {
  const s = getComputedStyle(el);
  return [s[`border${side}Style`], parseFloat(s[`border${side}Width`])];
})"""


def assert_edged(page: Any, selector: str) -> None:
    page.wait_for_selector(f"{selector} >> visible=true")
    for style, width in page.eval_on_selector(selector, EDGE):
        assert style != "none" and width > 0, (selector, style, width)


def test_every_panel_and_dialog_has_an_edge_in_forced_colours(
        open_page: Callable[..., Any], server: Server) -> None:
    """The panels and dialogs were drawn by their background alone, which forced colours drop:
    their text lay on the page's, with no edge (the settings over the bar and the board, the
    round's summary over the board it covers, the review, Play with friends, the hint, the cards
    seen, the menu of a phone on its side, the statistics page's sections)."""
    gid = server.insert(["7D", "1C", "2C", "3C"], dealer=3)  # one card each: a round ends
    page = open_page({**DESKTOP, "forced_colors": "active"}, game=gid)
    page.wait_for_selector("#hand.playable")
    page.keyboard.press("h")
    assert_edged(page, "#coach-hint")
    page.keyboard.press("c")
    assert_edged(page, "#seen-panel")
    page.click("#btn-settings")
    assert_edged(page, "#settings")
    page.screenshot(path=str(ARTIFACTS / "forced-colours-panels.png"))
    page.click("#btn-settings")
    page.click("#btn-friends")
    assert_edged(page, ".friends-panel")
    page.keyboard.press("Escape")
    page.wait_for_selector("#friends", state="hidden")
    page.click("#hand .card")
    assert_edged(page, ".summary-panel")
    page.keyboard.press("r")
    assert_edged(page, ".review-panel")
    page.goto(server.url + "/stats")
    assert_edged(page, ".stats-main section")
    phone = open_page({**side(568, 320), "forced_colors": "active"})
    phone.locator("#btn-menu").tap()
    assert_edged(phone, "#bar-menu")
