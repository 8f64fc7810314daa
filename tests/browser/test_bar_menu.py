"""A phone on its side: the bar is one row (the score, the controls SPEC §3 wants on screen, the
hint, from 800 px the cards seen and the review, and Menu), the other controls and the site's
links lie in Menu's panel, and the whole hand is in the window. (In two or three rows the bar
took 78 to 125 px and the hand lay partly below the window on every phone on its side under
390 px high: at 568 x 320 its cards showed 49 of 97 px.) A short phone upright (under 640 px
high) has the same menu and a bar of two rows (in three or four, 124 to 152 px, the hand's
lowest 24 to 63 px lay below the window)."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from .a11y import assert_accessible
from .conftest import ARTIFACTS, DESKTOP, PHONE, TEST_PREFS, side, upright
from .test_coach import play_round
from .test_layout import FULL_HAND, PROBE
from .test_tables import (  # noqa: F401  (fixtures)
    TableServer,
    hosting,
    people,
    tserver,
)

pytestmark = pytest.mark.browser

# Phones on their side, with and without their browser's address bar: the iPhone SE (1st and
# 2nd generation), a common Android, the iPhone 12.
SIDES = [(568, 280), (568, 320), (640, 290), (640, 360), (667, 375), (844, 390)]
IN_ROW = ["btn-new", "btn-level", "btn-napola", "btn-design", "btn-hint", "btn-menu"]
IN_MENU = ["btn-friends", "btn-settings", "btn-seen", "btn-review", "link-stats", "nav-rules"]
# From 800 px wide the cards seen and the review are in the row too.
IN_WIDE_ROW = ["btn-new", "btn-level", "btn-napola", "btn-design", "btn-hint", "btn-seen",
               "btn-review", "btn-menu"]
# Every control of the bar as it was before the menu, in its order (upright: all in the bar).
BAR_ORDER = ["btn-new", "btn-friends", "btn-level", "btn-napola", "btn-design", "btn-settings",
             "btn-hint", "btn-seen", "btn-review", "link-stats"]

# Where each control is, whether it is whole in the window and what a tap at its middle meets.
WHERE = """(ids) => ids.map((id) => {
  const el = document.getElementById(id);
  const r = el.getBoundingClientRect();
  const shown = el.getClientRects().length > 0;
  const hit = shown && document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {id, shown, inMenu: Boolean(el.closest('#bar-menu')),
          whole: r.left >= 0 && r.top >= 0 && r.right <= innerWidth && r.bottom <= innerHeight,
          hit: Boolean(hit) && el.contains(hit), left: r.left, top: r.top, bottom: r.bottom};
})"""
BAR_IDS = """() => [...document.querySelectorAll('#controls button, #controls a')]
  .filter((el) => !el.closest('#bar-menu') && el.getClientRects().length > 0).map((el) => el.id)"""


# Short phones upright, as their browsers leave them: the first iPhone SE, a 360 x 640 Android
# with its address bar (and its navigation bar: 536), an iPhone SE (2nd generation) or 8 in
# Safari, and the tallest with a menu (from 640 px the bar's three or four rows leave the hand
# whole). Under 560 px the cards are a little smaller.
SHORT_UPRIGHT = [(320, 568), (360, 560), (360, 536), (375, 553), (412, 639)]
# Where the text of the score ends (its box stretches to the row's controls).
SCORE_END = """() => Math.max(...[...document.getElementById('score').children]
  .filter((el) => el.getClientRects().length).map((el) => el.getBoundingClientRect().right))"""


def open_labelled(open_page: Callable[..., Any], device: dict[str, Any], lang: str) -> Any:
    """The game page in ``lang`` with the hand dealt, its labels of the kind
    ``assert_short_labels`` knows (Normal, Napola on)."""
    page = open_page(device, prefs={**TEST_PREFS, "lang": lang, "level": "normal",
                                    "napola": True})
    page.wait_for_function(FULL_HAND)
    return page


def assert_short_labels(page: Any, lang: str) -> None:
    """Short labels on the screen, whole names for a screen reader (a label in each name)."""
    names = {"en": ("New match", "Level: Normal", "Napola: on", "Cards: Traditional"),
             "it": ("Nuova partita", "Livello: Normale", "Napola: sì", "Carte: Tradizionali"),
             "de": ("Neue Partie", "Level: Normal", "Napola: an", "Karten: Traditionell")}[lang]
    for control, name in zip(("btn-new", "btn-level", "btn-napola", "btn-design"), names,
                             strict=True):
        button = page.get_by_role("button", name=name, exact=True)
        assert button.get_attribute("id") == control, name
        short = button.evaluate("el => el.querySelector('.short').innerText")
        assert short.removesuffix(" ✓") in name and len(short) < len(name), (short, name)
        assert button.evaluate("el => el.querySelector('.long').getBoundingClientRect().width") <= 1


def assert_whole_hand_in_window(page: Any, width: int, height: int) -> None:
    sizes = page.evaluate("""() => ({w: document.documentElement.scrollWidth,
      h: document.documentElement.scrollHeight})""")
    assert sizes == {"w": width, "h": height}, sizes
    for card in page.evaluate(PROBE):
        assert card["hit"] == card["code"] and card["bottom"] <= height, card
        assert card["strip"] >= 24, card


@pytest.mark.parametrize("lang", ["en", "it", "de"])
@pytest.mark.parametrize("size", SIDES, ids=[f"{w}x{h}" for w, h in SIDES])
def test_on_its_side_the_bar_is_one_row_and_the_whole_hand_is_in_the_window(
        open_page: Callable[..., Any], size: tuple[int, int], lang: str) -> None:
    width, height = size
    page = open_labelled(open_page, side(width, height), lang)
    bar = page.locator("#bar").bounding_box()
    assert bar["height"] <= 40, bar
    row = IN_WIDE_ROW if width >= 800 else IN_ROW
    assert page.evaluate(BAR_IDS) == row
    score = page.locator("#score").bounding_box()
    for control in page.evaluate(WHERE, row):
        assert control["whole"] and control["hit"], control
        assert control["left"] >= score["x"] + score["width"] + 4, (control, score)
    for control in page.evaluate(WHERE, [c for c in IN_MENU if c not in row]):
        assert control["inMenu"] and not control["shown"], control
    assert_short_labels(page, lang)
    assert_whole_hand_in_window(page, width, height)
    if (width, height) == (568, 280):
        page.screenshot(path=str(ARTIFACTS / f"side-bar-{lang}-{width}x{height}.png"))


@pytest.mark.parametrize("lang", ["en", "it", "de"])
@pytest.mark.parametrize("size", SHORT_UPRIGHT, ids=[f"{w}x{h}" for w, h in SHORT_UPRIGHT])
def test_a_short_upright_phone_has_a_bar_of_two_rows_and_the_whole_hand_in_the_window(
        open_page: Callable[..., Any], size: tuple[int, int], lang: str) -> None:
    width, height = size
    page = open_labelled(open_page, upright(width, height), lang)
    assert page.locator("#bar").bounding_box()["height"] <= 72
    assert page.evaluate(BAR_IDS) == IN_ROW
    where = {c["id"]: c for c in page.evaluate(WHERE, IN_ROW)}
    assert all(c["whole"] and c["hit"] for c in where.values()), where
    # The first row: the score, the hint and Menu, the score's text clear of the hint.
    score = page.locator("#score").bounding_box()
    first, second = IN_ROW[4:], IN_ROW[:4]
    for control in first:
        assert where[control]["top"] < score["y"] + score["height"], where[control]
    assert where["btn-hint"]["left"] >= page.evaluate(SCORE_END) + 4
    # The second: the game's controls, under the first.
    row_end = max(where[c]["bottom"] for c in first)
    for control in second:
        assert where[control]["top"] >= row_end, where[control]
    for control in page.evaluate(WHERE, IN_MENU):
        assert control["inMenu"] and not control["shown"], control
    assert_short_labels(page, lang)
    assert_whole_hand_in_window(page, width, height)
    if width == 320:
        page.screenshot(path=str(ARTIFACTS / f"upright-bar-{lang}-{width}x{height}.png"))


@pytest.mark.parametrize("device", [side(568, 280), side(844, 390), upright(320, 568)],
                         ids=["568x280", "844x390", "upright-320x568"])
def test_menu_holds_every_other_control_each_whole_and_within_reach(
        open_page: Callable[..., Any], device: dict[str, Any]) -> None:
    size = (device["viewport"]["width"], device["viewport"]["height"])
    page = open_page(device, prefs={**TEST_PREFS, "lang": "de"})
    page.wait_for_function(FULL_HAND)
    menu = page.locator("#btn-menu")
    assert menu.get_attribute("aria-expanded") == "false"
    assert page.get_by_role("button", name="Menü", exact=True).get_attribute("id") == "btn-menu"
    menu.tap()
    assert menu.get_attribute("aria-expanded") == "true"
    items = [c for c in IN_MENU if size[0] < 800 or c not in IN_WIDE_ROW]
    for control in page.evaluate(WHERE, items):
        # Where the window is too short for all, the panel scrolls: each in reach once there.
        page.locator(f"#{control['id']}").scroll_into_view_if_needed()
        again = page.evaluate(WHERE, [control["id"]])[0]
        assert again["inMenu"] and again["whole"] and again["hit"], again
    assert page.locator("#bar-menu .site-nav a[data-lang='it']").is_visible()
    page.screenshot(path=str(ARTIFACTS / f"side-menu-de-{size[0]}x{size[1]}.png"))
    # Settings opens its panel in the menu's place.
    page.locator("#btn-settings").tap()
    page.wait_for_selector("#settings:visible")
    assert page.locator("#bar-menu").is_hidden()
    assert menu.get_attribute("aria-expanded") == "false"
    # Menu opened again closes the settings, which lay where it lies.
    menu.tap()
    page.wait_for_selector("#settings", state="hidden")
    assert page.locator("#bar-menu").is_visible()
    # A tap elsewhere closes it (the table's corner: upright the panel covers its middle).
    page.locator("#table").tap(position={"x": 10, "y": 10})
    assert page.locator("#bar-menu").is_hidden()
    # The controls in the row act from it: Level shows its new value.
    before = page.evaluate("() => document.getElementById('btn-level').textContent")
    page.locator("#btn-level").tap()
    page.wait_for_function("b => document.getElementById('btn-level').textContent !== b",
                           arg=before)


def test_the_cards_seen_from_the_menu(open_page: Callable[..., Any]) -> None:
    page = open_page(side(640, 360))
    page.wait_for_function(FULL_HAND)
    page.locator("#btn-menu").tap()
    page.locator("#btn-seen").tap()
    page.wait_for_selector("#seen-panel:visible")
    assert page.locator("#bar-menu").is_hidden()
    assert page.get_attribute("#btn-seen", "aria-expanded") == "true"
    # Closed by its key from within the panel, the focus comes back to Menu, in sight (the
    # panel's button lies in the closed menu).
    page.locator("#seen-panel").focus()
    page.keyboard.press("c")
    page.wait_for_selector("#seen-panel", state="hidden")
    assert page.evaluate("() => document.activeElement.id") == "btn-menu"


def test_the_menu_by_keyboard(open_page: Callable[..., Any]) -> None:
    page = open_page(side(640, 360))
    page.wait_for_function(FULL_HAND)
    page.locator("#btn-menu").focus()
    page.keyboard.press("Enter")
    # Opened by a key, the focus goes to its first item; Tab goes on through the items.
    assert page.evaluate("() => document.activeElement.id") == "btn-friends"
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "btn-settings"
    page.keyboard.press("Escape")
    assert page.locator("#bar-menu").is_hidden()
    assert page.evaluate("() => document.activeElement.id") == "btn-menu"
    # The settings from the menu: Esc closes them and the focus comes back to Menu, in sight
    # (their button lies in the closed menu).
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.id") == "btn-settings"
    page.keyboard.press("Enter")
    page.wait_for_selector("#settings:visible")
    assert page.evaluate("() => document.activeElement.id") == "set-level"
    page.keyboard.press("Escape")
    page.wait_for_selector("#settings", state="hidden")
    assert page.evaluate("() => document.activeElement.id") == "btn-menu"
    # The friends dialog from the menu: closed, the focus is on Menu too.
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_selector("#friends:visible")
    page.keyboard.press("Escape")
    page.wait_for_selector("#friends", state="hidden")
    assert page.evaluate("() => document.activeElement.id") == "btn-menu"
    # Shift+Tab from Menu goes back along the row (the hint is disabled until the person's
    # turn comes; the card design before it is always there).
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("() => document.activeElement.id") in ("btn-hint", "btn-design")


def test_turned_upright_the_controls_come_back_to_the_bar_in_their_order(
        open_page: Callable[..., Any]) -> None:
    page = open_page(side(667, 375))
    page.wait_for_function(FULL_HAND)
    page.locator("#btn-menu").tap()
    for _ in range(2):
        page.set_viewport_size(PHONE["viewport"])
        page.wait_for_function("() => document.getElementById('btn-menu').hidden")
        assert page.evaluate(BAR_IDS) == BAR_ORDER
        assert page.locator("#site-nav").evaluate("el => el.parentElement.id") == "bar"
        assert page.locator("#bar-menu").is_hidden()
        page.set_viewport_size({"width": 667, "height": 375})
        page.wait_for_function("() => !document.getElementById('btn-menu').hidden")
        assert page.evaluate(BAR_IDS) == IN_ROW
        assert page.locator("#bar-menu").is_hidden()  # it does not open by itself
        page.set_viewport_size({"width": 844, "height": 390})
        page.wait_for_function("() => document.getElementById('btn-seen').closest('#controls')"
                               " && !document.getElementById('btn-seen').closest('#bar-menu')")
        assert page.evaluate(BAR_IDS) == IN_WIDE_ROW
        page.set_viewport_size({"width": 667, "height": 375})
        page.wait_for_function("() => document.getElementById('btn-seen').closest('#bar-menu')")
    # The language links work from the menu: the page changes language, the game stays.
    gid = page.evaluate("() => localStorage.getItem('scopone.game')")
    page.locator("#btn-menu").tap()
    page.locator("#bar-menu .site-nav a[data-lang='it']").tap()
    page.wait_for_function("() => document.getElementById('btn-menu').textContent === 'Menu'"
                           " && document.getElementById('btn-hint').textContent === 'Suggerimento'")
    assert page.evaluate("() => localStorage.getItem('scopone.game')") == gid
    assert page.locator("#bar-menu").is_hidden()


def test_upright_from_640_px_high_and_on_a_desktop_there_is_no_menu(
        open_page: Callable[..., Any]) -> None:
    for device in (PHONE, upright(360, 640), upright(320, 640),
                   {"viewport": {"width": 1280, "height": 720}}):
        page = open_page(device)
        page.wait_for_function(FULL_HAND)
        assert page.locator("#btn-menu").is_hidden()
        assert page.evaluate(BAR_IDS) == BAR_ORDER


@pytest.mark.parametrize("size", [(568, 280), (568, 320)], ids=["568x280", "568x320"])
def test_a_tables_bar_is_one_row_on_its_side_and_the_hand_whole(
        tserver: TableServer, people: Any, size: tuple[int, int]) -> None:  # noqa: F811
    width, height = size
    page = hosting(tserver, people, side(width, height))[0].page
    page.wait_for_selector("#hand .card")
    assert page.locator("#bar").bounding_box()["height"] <= 40
    for card in page.evaluate(PROBE):
        assert card["hit"] == card["code"] and card["bottom"] <= height, card


def test_a_table_started_from_its_lobby_shows_its_board_from_the_top(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """The lobby, taller than a phone on its side, was left scrolled: the board came with the
    bar and the score above the window (63 px at 568 x 320)."""
    r = tserver.http.post("/api/tables", json={"name": "Anna", "level": "easy"})
    code, token = r.json()["table"]["code"], r.json()["token"]
    anna = people(side(568, 320), f"{tserver.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    page = anna.page
    page.wait_for_selector("#btn-start:visible")
    page.evaluate("() => window.scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate("() => window.scrollY") > 0
    page.locator("#btn-start").tap()
    page.wait_for_function("() => document.body.dataset.phase === 'playing'")
    page.wait_for_selector("#hand .card")
    assert page.evaluate("() => window.scrollY") == 0
    assert page.locator("#score").bounding_box()["y"] >= 0


def test_a_short_upright_phone_turned_and_grown_keeps_its_controls_in_order(
        open_page: Callable[..., Any]) -> None:
    """On its side the controls stay in the menu; from 640 px high they come back to the bar
    in their order (the address bar hidden, a window made taller), and go again."""
    page = open_page(upright(375, 553))
    page.wait_for_function(FULL_HAND)
    assert page.evaluate(BAR_IDS) == IN_ROW
    page.set_viewport_size({"width": 553, "height": 375})
    page.wait_for_function("() => document.getElementById('bar').offsetHeight <= 40")
    assert page.evaluate(BAR_IDS) == IN_ROW
    page.set_viewport_size({"width": 375, "height": 667})
    page.wait_for_function("() => document.getElementById('btn-menu').hidden")
    assert page.evaluate(BAR_IDS) == BAR_ORDER
    assert page.locator("#site-nav").evaluate("el => el.parentElement.id") == "bar"
    page.set_viewport_size({"width": 375, "height": 553})
    page.wait_for_function("() => !document.getElementById('btn-menu').hidden")
    assert page.evaluate(BAR_IDS) == IN_ROW
    assert page.locator("#bar").bounding_box()["height"] <= 72
    assert_whole_hand_in_window(page, 375, 553)


def test_turning_the_phone_keeps_the_focus_and_the_settings_under_the_bar(
        open_page: Callable[..., Any]) -> None:
    """A control moved between the bar and the menu as the phone turns keeps the focus (or
    gives it to Menu, where it now lies in the closed menu): it fell to the page's body. The
    settings, open, are placed under the bar again: turned upright they covered it."""
    page = open_page(PHONE)
    page.wait_for_function(FULL_HAND)
    active = "() => document.activeElement.id"
    page.locator("#btn-settings").focus()
    page.set_viewport_size({"width": 844, "height": 390})
    page.wait_for_function("() => !document.getElementById('btn-menu').hidden")
    assert page.evaluate(active) == "btn-menu"
    page.keyboard.press("Enter")
    page.keyboard.press("Tab")
    assert page.evaluate(active) == "btn-settings"
    page.keyboard.press("Enter")
    page.wait_for_selector("#settings:visible")
    page.locator("#btn-settings").focus()  # (its button, in the closed menu, keeps no focus)
    page.set_viewport_size(PHONE["viewport"])
    page.wait_for_function("() => document.getElementById('btn-menu').hidden")
    bar = page.locator("#bar").bounding_box()
    page.wait_for_function("b => document.getElementById('settings').getBoundingClientRect().top"
                           " >= b", arg=bar["y"] + bar["height"])
    page.keyboard.press("Escape")
    page.wait_for_selector("#settings", state="hidden")
    assert page.evaluate(active) == "btn-settings"
    page.set_viewport_size({"width": 667, "height": 375})
    page.wait_for_function("() => !document.getElementById('btn-menu').hidden")
    assert page.evaluate(active) == "btn-menu"


def test_tab_past_the_menus_last_item_closes_it(open_page: Callable[..., Any]) -> None:
    """The focus never goes on to the cards under the open menu."""
    page = open_page(side(568, 280))
    page.wait_for_function(FULL_HAND)
    page.locator("#btn-menu").focus()
    page.keyboard.press("Enter")
    for _ in range(20):
        if page.locator("#bar-menu").is_hidden():
            break
        page.keyboard.press("Tab")
    assert page.locator("#bar-menu").is_hidden()
    assert page.evaluate("() => !document.activeElement.closest('#bar-menu')")


def test_two_quick_presses_of_level_go_two_levels_on(open_page: Callable[..., Any],
                                                     server: Any) -> None:
    """The second press, before the server answered the first, went on from the game's level
    still Easy: Normal was asked twice and Hard never came."""
    page = open_page(side(844, 390))
    page.wait_for_function(FULL_HAND)
    page.evaluate("() => { const b = document.getElementById('btn-level'); b.click(); b.click(); }")
    page.wait_for_function("() => document.getElementById('btn-level').dataset.level === 'hard'")
    gid = page.evaluate("() => localStorage.getItem('scopone.game')")
    assert server.game(gid)["level"] == "hard"


def test_the_menu_open_as_the_phone_turns_upright_lies_under_the_bars_two_rows(
        open_page: Callable[..., Any]) -> None:
    """Opened on its side (under a bar of one row, 34 px) and turned upright, the menu stayed
    where it was (the window answers the menu's query either way: nothing to follow) and lay
    over the bar's second row: at 360 x 560 a tap on Cards met Play with friends."""
    page = open_page(side(560, 360))
    page.wait_for_function(FULL_HAND)
    page.locator("#btn-menu").tap()
    page.set_viewport_size({"width": 360, "height": 560})
    page.wait_for_function("() => document.getElementById('bar').offsetHeight > 40")
    assert page.locator("#bar-menu").is_visible()
    # (The window's resize event, which places it, may come a frame after the new layout.)
    page.wait_for_function("""() => document.getElementById('bar-menu').getBoundingClientRect().top
      >= document.getElementById('bar').getBoundingClientRect().bottom""")
    for control in page.evaluate(WHERE, IN_ROW):
        assert control["whole"] and control["hit"], control
    # And back on its side, right under its bar of one row again.
    page.set_viewport_size({"width": 560, "height": 360})
    page.wait_for_function("() => document.getElementById('bar').offsetHeight <= 40")
    page.wait_for_function("""() => document.getElementById('bar-menu').getBoundingClientRect().top
      - document.getElementById('bar').getBoundingClientRect().bottom <= 6""")


@pytest.mark.parametrize("lang", ["it", "de"])
def test_the_settings_stay_under_the_bar_as_a_short_upright_window_grows_and_shrinks(
        open_page: Callable[..., Any], lang: str) -> None:
    """The settings were placed under the bar on the window's resize, before the controls came
    back from the menu to the bar: grown from 320 x 568 to 320 x 667 (the address bar hidden)
    they covered the bar's lowest 50 px in Italian and German (its controls in four rows; 24 px
    at 375); shrunk back, they lay 66 px below the bar of two rows."""
    page = open_page(upright(320, 568), prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(FULL_HAND)
    # The person's turn: no play of the computers' redraws the page (and places the settings).
    page.wait_for_selector("#hand.playable")
    page.locator("#btn-menu").tap()
    page.locator("#btn-settings").tap()
    page.wait_for_selector("#settings:visible")
    gap = ("() => document.getElementById('settings').getBoundingClientRect().top"
           " - document.getElementById('bar').getBoundingClientRect().bottom")
    for height, menu in ((667, False), (568, True), (667, False)):
        page.set_viewport_size({"width": 320, "height": height})
        page.wait_for_function("m => !document.getElementById('btn-menu').hidden === m", arg=menu)
        page.wait_for_timeout(100)  # (any later placing)
        assert 0 <= page.evaluate(gap) <= 10, (height, page.evaluate(gap))
        assert page.locator("#settings").is_visible()


def test_the_focus_on_menu_goes_to_the_item_last_used_when_menu_goes(
        open_page: Callable[..., Any]) -> None:
    """The settings opened from the menu and closed give the focus to Menu; the window then
    grown past the menu's sizes (375 x 553 to 667) or turned upright from its side hid Menu and
    the focus fell to the page's body. It goes to Settings, back in the bar."""
    active = "() => document.activeElement.id"
    for start, end in (((375, 553), (375, 667)), ((667, 375), (375, 667))):
        page = open_page(upright(*start) if start[0] < start[1] else side(*start))
        page.wait_for_function(FULL_HAND)
        page.locator("#btn-menu").focus()
        page.keyboard.press("Enter")
        page.keyboard.press("Tab")
        page.keyboard.press("Enter")
        page.wait_for_selector("#settings:visible")
        page.keyboard.press("Escape")
        page.wait_for_selector("#settings", state="hidden")
        assert page.evaluate(active) == "btn-menu"
        page.set_viewport_size({"width": end[0], "height": end[1]})
        page.wait_for_function("() => document.getElementById('btn-menu').hidden")
        assert page.evaluate(active) == "btn-settings", start


@pytest.mark.parametrize("size", [(320, 568), (360, 560)], ids=["320x568", "360x560"])
@pytest.mark.parametrize("lang", ["en", "de"])
def test_the_friends_dialog_fits_a_narrow_phone_without_scrolling_sideways(
        open_page: Callable[..., Any], size: tuple[int, int], lang: str) -> None:
    """The form's one column took its widest row's width (316 px in English, 362 in German in
    a panel of 296 at 320 px; 362 in 336 at 360 in German): the dialog opened scrolled sideways
    to its name field, the title's and the labels' start cut off ("Name", "nte", "bis")."""
    page = open_page(upright(*size), prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(FULL_HAND)
    page.locator("#btn-menu").tap()
    page.locator("#btn-friends").tap()
    page.wait_for_selector("#friends:visible")
    box = page.eval_on_selector(".friends-panel", """p => ({sw: p.scrollWidth, cw: p.clientWidth,
      left: p.scrollLeft,
      title: document.getElementById('friends-title').getBoundingClientRect().left
        - p.getBoundingClientRect().left})""")
    assert box["sw"] <= box["cw"] and box["left"] == 0 and box["title"] >= 0, box
    for el in page.locator("#friends-form label").all():
        b, panel = el.bounding_box(), page.locator(".friends-panel").bounding_box()
        assert b["x"] >= panel["x"] and b["x"] + b["width"] <= panel["x"] + panel["width"], b


@pytest.mark.parametrize("size", [(320, 568), (360, 560), None],
                         ids=["320x568", "360x560", "desktop"])
@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_each_list_of_the_friends_dialog_shows_its_choices_whole(
        open_page: Callable[..., Any], size: tuple[int, int] | None, lang: str) -> None:
    """Each list was capped at 60% of its row: "Classico (9 + 4 on the table)" was cut in
    every language at a phone's width, "Scientifico (10 Karten)" too at 360 px (QA helper-83).
    Each is now as wide as its longest choice wants, within the panel."""
    page = open_page(upright(*size) if size else DESKTOP, prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(FULL_HAND)
    if size:
        page.locator("#btn-menu").tap()
        page.locator("#btn-friends").tap()
    else:
        page.click("#btn-friends")
    page.wait_for_selector("#friends:visible")
    cut = page.evaluate("""() => [...document.querySelectorAll('#friends-form select')].map((s) => {
      const free = s.cloneNode(true);
      free.style.maxWidth = 'none';
      free.style.position = 'absolute';
      document.body.append(free);
      const wants = free.getBoundingClientRect().width;
      free.remove();
      const panel = document.querySelector('.friends-panel').getBoundingClientRect();
      const r = s.getBoundingClientRect();
      const inside = r.left >= panel.left && r.right <= panel.right;
      return { id: s.id, has: r.width, wants, inside };
    }).filter((s) => s.has < s.wants - 0.5 || !s.inside)""")
    assert cut == [], cut
    box = page.eval_on_selector(".friends-panel", "p => [p.scrollWidth, p.clientWidth]")
    assert box[0] <= box[1], box


def test_a_tables_bar_keeps_its_order_on_a_short_upright_phone(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """The game page's second row (its game's controls after the hint) reordered a table's bar
    too: Cards, first in the row and in the Tab order, went to the row's end."""
    page = hosting(tserver, people, upright(375, 553))[0].page
    page.wait_for_selector("#hand .card")
    lefts = page.evaluate("""() => [...document.querySelectorAll('#controls > *')]
      .filter((el) => el.getClientRects().length).map((el) => el.getBoundingClientRect().left)""")
    assert len(lefts) >= 3 and lefts == sorted(lefts), lefts


@pytest.mark.parametrize("device", [side(568, 320), upright(375, 553)],
                         ids=["side-568x320", "upright-375x553"])
@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_the_bar_with_its_menu_is_accessible(open_page: Callable[..., Any],
                                             device: dict[str, Any], lang: str) -> None:
    """axe finds nothing in the bar of short labels (each name containing what it shows, Napola
    on too), nor with the menu open."""
    page = open_page(device, prefs={**TEST_PREFS, "lang": lang, "napola": True})
    page.wait_for_selector("#hand.playable")
    assert_accessible(page, f"bar ({lang})")
    page.locator("#btn-menu").tap()
    page.wait_for_selector("#bar-menu:visible")
    assert_accessible(page, f"menu open ({lang})")


# Where the review's buttons are: whole in the window and met by a tap at their middle.
REVIEW_BUTTONS = """() => ['review-prev', 'review-next', 'review-close'].map((id) => {
  const el = document.getElementById(id);
  const r = el.getBoundingClientRect();
  const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
  return {id, whole: r.top >= 0 && r.bottom <= innerHeight, hit: Boolean(hit) && el.contains(hit)};
})"""


@pytest.mark.parametrize("device", [side(568, 320), upright(375, 553)],
                         ids=["side-568x320", "upright-375x553"])
def test_the_reviews_buttons_stay_in_sight_while_its_plays_scroll(
        open_page: Callable[..., Any], device: dict[str, Any]) -> None:
    """On a short phone the review is taller than the window and scrolls inside: Previous,
    Next and Close lay at its foot, below the fold (at 568 x 320 a tap on Next needed a scroll
    down through the play first). They stay at the panel's foot, in sight, as its plays
    scroll."""
    page = open_page(device)
    play_round(page)
    page.locator("#summary-review").tap()
    page.wait_for_selector("#review #review-step")
    panel = page.locator(".review-panel")
    assert panel.evaluate("p => p.scrollHeight > p.clientHeight")  # it does scroll here
    for step in range(2, 4):
        for button in page.evaluate(REVIEW_BUTTONS):
            assert button["whole"] and button["hit"], button
        page.locator("#review-next").tap()
        page.wait_for_function("n => document.getElementById('review-step').textContent"
                               ".startsWith(`Play ${n} `)", arg=step)
    panel.evaluate("p => { p.scrollTop = p.scrollHeight / 3; }")
    for button in page.evaluate(REVIEW_BUTTONS):
        assert button["whole"] and button["hit"], button
    page.locator("#review-close").tap()
    page.wait_for_selector("#review", state="hidden")
