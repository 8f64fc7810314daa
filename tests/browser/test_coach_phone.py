"""The coach on a phone, upright and on its side: the cards seen and the hint open together
leave every hand card tappable and the board in sight; the cards seen shows whole on an upright
phone, a short one too; a forced move's hint says so, with no margin; the Italian seat names
take one line; and the statistics name the level as the game does."""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable
from typing import Any

import pytest

from scopone.engine import Match, Rules

from .a11y import assert_accessible
from .conftest import (
    ARTIFACTS,
    PHONE,
    PHONE_LANDSCAPE,
    TEST_PREFS,
    Server,
    side,
    tap_control,
    upright,
)
from .test_coach import NARROW_PHONE
from .test_controls import HANDS, TABLE
from .test_match import codes, visible_centre

pytestmark = pytest.mark.browser

PLAYABLE = "() => document.querySelector('#hand.playable') !== null"
HINT_SHOWN = "() => document.querySelector('#hand .card.hinted') !== null"

# What the open panels in sight cover (one waiting behind the other, ``.behind``, is out of
# sight): each hand card's visible middle that is not the card itself (not tappable there);
# every element of ``sight`` (table cards, seat parts, pile parts...) a panel meets; how many
# panels lie over the bar or out of the window; and the two meeting.
COVERED = """([sight, ids]) => {
  const panels = ids.map((id) => document.getElementById(id))
    .filter((p) => !p.hidden && p.getClientRects().length).map((p) => p.getBoundingClientRect());
  const meets = (a, b) => a.left < b.right && b.left < a.right
    && a.top < b.bottom && b.top < a.bottom;
  const cards = [...document.querySelectorAll('#hand .card')];
  const hand = cards.filter((card, i) => {
    const r = card.getBoundingClientRect();
    const right = i + 1 < cards.length ? cards[i + 1].getBoundingClientRect().left : r.right;
    const x = (r.left + Math.min(right, r.right)) / 2;
    const hit = document.elementFromPoint(x, r.top + r.height / 2);
    return !hit || hit.closest('.card') !== card;
  }).map((card) => card.dataset.code);
  const board = [...document.querySelectorAll(sight)]
    .filter((el) => { const r = el.getBoundingClientRect(); return r.width && r.height; })
    .filter((el) => panels.some((p) => meets(p, el.getBoundingClientRect())))
    .map((el) => el.dataset.code || el.closest('[id]').id + ' ' + el.className);
  const bar = document.getElementById('bar').getBoundingClientRect().bottom;
  const out = panels.filter((p) => p.top < bar || p.left < 0 || p.right > innerWidth
    || p.bottom > innerHeight).length;
  const apart = panels.length < 2 || !meets(panels[0], panels[1]);
  return { panels: panels.length, hand, board, out, apart };
}"""
BOARD = "#table-cards .card, .seat > *, .pile > *"


# What a phone's hint leaves in sight when the board has no room for all of it otherwise (it
# may lie over the seats and the piles while it is read).
FIRM = "#table-cards .card, #status-line > *"
PANELS = ("coach-hint", "seen-panel")


# How high the part is, through the middle of ``sel``, where a tap finds it (its own box and
# what of it reaches beyond, as a ``::after``).
TARGET_HEIGHT = """(sel) => {
  const r = document.querySelector(sel).getBoundingClientRect();
  const x = r.left + r.width / 2;
  const hits = (y) => Boolean(document.elementFromPoint(x, y)?.closest(sel));
  let top = r.top + r.height / 2, bottom = top;
  while (hits(top - 1)) top -= 1;
  while (hits(bottom + 1)) bottom += 1;
  return bottom - top + 1;
}"""


def covered(page: Any, sight: str = BOARD, window: bool = False,
            panels: tuple[str, ...] = PANELS) -> dict[str, Any]:
    """``COVERED`` by ``panels``; their place against the bar and the window only if
    ``window``."""
    found = dict(page.evaluate(COVERED, [sight, list(panels)]))
    if not window:
        del found["out"]
    return found


def assert_in_sight(page: Any, panels: int) -> None:
    found = covered(page)
    assert found == {"panels": panels, "hand": [], "board": [], "apart": True}, found


@pytest.mark.parametrize("device", [PHONE, PHONE_LANDSCAPE], ids=["upright", "on-its-side"])
def test_the_cards_seen_and_the_hint_leave_the_hand_and_the_board_in_sight(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any]) -> None:
    """The cards seen stays open while playing: on a phone it once covered the table and the
    seats (upright) or half the hand (on its side), and with the hint open as well no hand card
    could be tapped upright. Now both lie on the board's free parts, and a card is played with
    a tap while they are open. The cards seen leaves the seats and piles in sight; the hint,
    read while choosing, may lie over them where the board has no room for all of it
    otherwise (QA: upright, a third of it showed), never over the table's cards, the status
    line or the hand.

    On its side the cards seen now takes the table's room beside its cards, whole
    (test_coach_phone_side.py), and beside it the hint would show 75 px of its 302: the hint
    takes the board's room and the cards seen waits behind it, back when the hint goes."""
    page = open_page(device, game=server.insert(HANDS, TABLE, dealer=3))
    page.wait_for_function(PLAYABLE)
    tap_control(page, "#btn-seen")
    page.wait_for_selector("#seen-panel .seen-card")
    assert page.is_visible("#seen-title") and page.is_visible("#seen-close")
    assert_in_sight(page, 1)
    page.tap("#btn-hint")
    page.wait_for_function(HINT_SHOWN)
    assert page.is_visible("#hint-close")
    both = device is PHONE
    found = covered(page, FIRM)
    assert found == {"panels": 2 if both else 1, "hand": [], "board": [], "apart": True}, found
    assert page.is_visible("#seen-panel") is both
    assert page.get_attribute("#btn-seen", "aria-expanded") == str(both).lower()
    if both:
        found = covered(page, panels=("seen-panel",))
        assert found == {"panels": 1, "hand": [], "board": [], "apart": True}, found
    else:
        content, shown = page.eval_on_selector(
            "#coach-hint", "e => [e.scrollHeight, e.clientHeight]")
        assert shown >= min(content, 180), (content, shown)
    # Each panel's Close takes a finger's tap, though it looks 16 to 19 px high.
    for close in ("#hint-close", "#seen-close") if both else ("#hint-close",):
        assert page.evaluate(TARGET_HEIGHT, close) >= 24, close
    name = "upright" if device is PHONE else "side"
    page.screenshot(path=str(ARTIFACTS / f"coach-phone-panels-{name}.png"))
    assert_accessible(page, f"cards seen and hint, phone {name}")
    # The Ten of Cups takes nothing here: one tap plays it, the panels open all the while.
    with page.expect_response(lambda r: r.url.endswith("/moves")):
        page.touchscreen.tap(*visible_centre(page, "10C"))
    page.wait_for_function(PLAYABLE, timeout=30000)
    assert "10C" not in codes(page, "#hand .card")
    # The next turn's table (the hint has gone with its position): still nothing covered.
    assert page.is_visible("#seen-panel .seen-grid")
    assert_in_sight(page, 1)
    assert page.evaluate(TARGET_HEIGHT, "#seen-close") >= 24


def test_a_phones_hint_shows_whole(open_page: Callable[..., Any], server: Server) -> None:
    """Upright, the hint alone showed a third of itself in the strip between the table's cards
    and the piles, its moves' margins and reasons cut off (QA: 128 of 320 px here). Now it
    shows all of itself or at least its best two moves with their margins and reasons (180 px:
    these moves' names are long), and the table's cards, the status line and the hand stay in
    sight."""
    page = open_page(PHONE, game=server.insert(HANDS, TABLE, dealer=3))
    page.wait_for_function(PLAYABLE)
    page.tap("#btn-hint")
    page.wait_for_function(HINT_SHOWN)
    found = covered(page, FIRM, window=True)
    assert found == {"panels": 1, "hand": [], "board": [], "apart": True, "out": 0}, found
    content, shown = page.eval_on_selector(
        "#coach-hint", "e => [e.scrollHeight, e.clientHeight]")
    assert shown >= min(content, 180), (content, shown)
    assert page.locator("#coach-hint .hint-options li").count() == 3
    # The heading names no move on a phone: the list's first, in bold, is it.
    assert page.inner_text("#coach-hint .hint-best") == "Hint"
    page.screenshot(path=str(ARTIFACTS / "coach-phone-hint.png"))


def test_a_forced_moves_hint_says_so_with_no_margin(
        open_page: Callable[..., Any], server: Server) -> None:
    """The last card in the hand can only be laid: the hint names it as the only move, with no
    made-up margin ("0.0 points") and no "you may still play any card"."""
    gid = server.insert(["6S", "7C", "5D", "7S"], table="1B", dealer=3)
    page = open_page(PHONE, game=gid)
    page.wait_for_function(PLAYABLE)
    with page.expect_response(lambda r: r.url.endswith("/hint")) as answer:
        page.tap("#btn-hint")
    hint = answer.value.json()
    assert hint["deals"] == 0 and hint["options"] == []
    page.wait_for_function(HINT_SHOWN)
    text = page.inner_text("#coach-hint")
    assert "Only one legal move: Six of Swords." in text, text
    assert "points" not in text and "Hint:" not in text and "any card" not in text, text
    assert page.locator("#coach-hint .hint-options").count() == 0
    assert codes(page, "#hand .card.hinted") == ["6S"]
    said = page.evaluate(
        "async () => { const m = await import('/static/js/coach-text.js');"
        " return ['it', 'de'].map((l) => m.ct(l, 'hintForced', { move: 'X' })); }")
    assert said == ["Una sola mossa possibile: X.", "Nur ein möglicher Zug: X."]


def mid_round(server: Server, seed: int, tricks: int) -> str:
    """A game of a random deal (seat 0 to lead) after ``tricks`` times four random plays: seat
    0 to play again, cards in both piles and on the table."""
    match = Match(Rules(), random.Random(seed), dealer=3)
    rng = random.Random(seed)
    for _ in range(4 * tricks):
        match.round.play(rng.choice(match.round.legal_moves()))
    return server.insert_match(match)


# The cards seen's parts, each with its smallest text and whether it lies inside the panel.
SEEN_PARTS = """() => {
  const panel = document.getElementById('seen-panel').getBoundingClientRect();
  const part = (sel) => [...document.querySelectorAll('#seen-panel ' + sel)].map((el) => {
    const r = el.getBoundingClientRect();
    return { inside: r.top >= panel.top - 0.5 && r.bottom <= panel.bottom + 0.5 && r.width > 0,
             font: parseFloat(getComputedStyle(el).fontSize) };
  });
  return { ranks: part('.seen-card .seen-rank'), counts: part('.seen-count .seen-rank'),
           chips: part('.seen-legend .chip'), settebello: part('#seen-settebello') };
}"""



def seen_panel_whole(page: Any) -> None:
    """The cards seen over nothing of the board, whole in the window and not scrolling inside,
    every part of it in it, its text 11 px or more."""
    found = covered(page, window=True)
    assert found == {"panels": 1, "hand": [], "board": [], "apart": True, "out": 0}, found
    content, shown = page.eval_on_selector("#seen-panel", "e => [e.scrollHeight, e.clientHeight]")
    assert content <= shown + 1, (content, shown)
    parts = page.evaluate(SEEN_PARTS)
    assert [len(parts[k]) for k in ("ranks", "counts", "chips", "settebello")] == [40, 10, 5, 1]
    for name, part in parts.items():
        assert all(p["inside"] for p in part), (name, part)
        assert min(p["font"] for p in part) >= 11, (name, part)


# Positions of mid_round (seed, tricks) by the number of cards on the table.
TABLE_OF = {4: (1, 5), 5: (0, 5), 6: (15, 5)}

# Short upright phones: a very common Android window, an iPhone 6 to 8, and the iPhone SE (1st
# generation), whose bar takes two rows (menu.js; in three or four its page scrolled).
SHORT_PHONE: dict[str, Any] = upright(360, 640)
IPHONE_8: dict[str, Any] = upright(375, 667)
IPHONE_SE: dict[str, Any] = upright(320, 568)
# Wide phones: a common Android (Pixel, Galaxy) and an iPhone Pro Max.
WIDE_PHONE: dict[str, Any] = upright(412, 915)
WIDEST_PHONE: dict[str, Any] = upright(430, 932)
# An iPhone SE (2nd and 3rd generation) or 8 as Safari leaves it, its address bar shown.
IPHONE_SE_SAFARI: dict[str, Any] = upright(375, 553)
# A 360 x 640 Android as Chrome leaves it, its address bar shown.
SHORT_ANDROID: dict[str, Any] = upright(360, 560)
# And with its navigation bar on the screen.
ANDROID_NAV_BAR: dict[str, Any] = upright(360, 536)

# What the player needs in the window while the panel is open: the seats, the piles, the
# table's cards, the status line (whose turn it is), the hand and the panel; those out of it.
OUT_OF_WINDOW = """() => [...document.querySelectorAll(
    '.seat > *, .pile > *, #table-cards .card, #status, #hand .card, #seen-panel')]
  .filter((el) => { const r = el.getBoundingClientRect(); return r.width && r.height
    && (r.top < -0.5 || r.bottom > innerHeight + 0.5
        || r.left < -0.5 || r.right > innerWidth + 0.5); })
  .map((el) => el.dataset.code || el.id || el.closest('[id]').id + ' ' + el.className)"""


@pytest.mark.parametrize(("device", "lang", "table"), [
    pytest.param(PHONE, "en", 4, id="en"),
    pytest.param(PHONE, "it", 4, id="it"),
    pytest.param(PHONE, "de", 4, id="de"),
    pytest.param(PHONE, "it", 6, id="it-6-on-the-table"),
    pytest.param(NARROW_PHONE, "it", 4, id="360-it"),
    pytest.param(NARROW_PHONE, "en", 5, id="360-en-5-on-the-table"),
    pytest.param(NARROW_PHONE, "de", 6, id="360-de-6-on-the-table"),
    pytest.param(NARROW_PHONE, "it", 6, id="360-it-6-on-the-table"),
    pytest.param(SHORT_PHONE, "en", 5, id="360x640-en-5-on-the-table"),
    pytest.param(SHORT_PHONE, "it", 4, id="360x640-it"),
    pytest.param(SHORT_PHONE, "de", 6, id="360x640-de-6-on-the-table"),
    pytest.param(IPHONE_8, "it", 5, id="375x667-it-5-on-the-table"),
    pytest.param(IPHONE_SE, "en", 4, id="320x568-en"),
    pytest.param(IPHONE_SE, "it", 6, id="320x568-it-6-on-the-table"),
    pytest.param(IPHONE_SE, "de", 5, id="320x568-de-5-on-the-table"),
    pytest.param(IPHONE_SE_SAFARI, "it", 6, id="375x553-it-6-on-the-table"),
    pytest.param(IPHONE_SE_SAFARI, "en", 4, id="375x553-en"),
    pytest.param(ANDROID_NAV_BAR, "en", 5, id="360x536-en-5-on-the-table"),
    pytest.param(ANDROID_NAV_BAR, "it", 6, id="360x536-it-6-on-the-table"),
])
def test_the_cards_seen_shows_whole_on_an_upright_phone(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any], lang: str,
        table: int) -> None:
    """Upright, the cards seen was a column of heading, grid, counts, legend and settebello
    193 px tall in a free part of 128 (above or below one row of the table's cards): its counts
    per rank, its legend and its settebello line lay below the fold. Now the legend lies beside
    the grid, its last chip naming the row of counts, the rows are tighter and the table's
    cards lie at the top of the table while it is open: it shows whole, its text readable, and
    it still leaves the seats, the piles and the table's cards in sight.

    At 360 x 740 it was cut again: in Italian the bar's controls took four rows (the panel
    showed 103 px of its 119), and five or six cards on the table lay in two rows, leaving it a
    strip beside the second (a column 103 to 137 px wide, 293 to 432 px tall, its text under
    11 px). Now the bar takes three rows in each language and, while the panel is open, up to
    six cards lie in one row, no narrower than a crowded table's (``.many``).

    On a short phone no free part held it (360 x 640: 31 to 68 px of its 119 shown; at 320 x
    568 it lay over the table's cards). Now the table keeps room under its cards for all of
    it and the board gives that room: the page still fits the window (at 320 x 568 and 375 x 553
    too, since their bar takes two rows: it scrolled by 74 px there; at 360 x 536 with smaller
    cards: by 3 to 19 px), the seats, the piles, the status line, the table's cards and the hand
    all in sight, every hand card tappable."""
    page = open_page(device, game=mid_round(server, *TABLE_OF[table]),
                     prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(PLAYABLE)
    assert page.locator("#table-cards .card").count() == table
    tap_control(page, "#btn-seen")
    page.wait_for_selector("#seen-panel .seen-card", state="attached")
    width, height = device["viewport"]["width"], device["viewport"]["height"]
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    assert page.evaluate(OUT_OF_WINDOW) == []
    assert covered(page, window=True) == {
        "panels": 1, "hand": [], "board": [], "apart": True, "out": 0}
    content, shown = page.eval_on_selector(
        "#seen-panel", "e => [e.scrollHeight, e.clientHeight]")
    assert content <= shown + 1, (lang, content, shown)
    parts = page.evaluate(SEEN_PARTS)
    assert [len(parts[k]) for k in ("ranks", "counts", "chips", "settebello")] == [40, 10, 5, 1]
    for name, found in parts.items():
        assert all(p["inside"] for p in found), (name, found)
        assert min(p["font"] for p in found) >= 11, (name, found)
    widths = page.eval_on_selector_all(
        "#table-cards .card", "els => els.map((e) => e.getBoundingClientRect().width)")
    # Under 350 px six lie in one row 45 px wide: in two rows the table grew by a row of cards.
    # Under 560 px high a crowded table's cards are 42 px wide (of 54).
    assert min(widths) >= (44 if width <= 350 else 41 if height < 560 else 62 * 0.78 - 1), widths
    if height in (740, 844):
        name = f"{lang}-{width}-{table}" if (width, table) != (390, 4) else lang
    else:
        name = f"{lang}-{width}x{height}-{table}"
        page.screenshot(path=str(ARTIFACTS / f"coach-phone-seen-page-{name}.png"))
    page.locator("#seen-panel").screenshot(path=str(ARTIFACTS / f"coach-phone-seen-{name}.png"))


# Each seat's name at the top: its lines, its text's box (the dealer's dot with it), its size.
SEAT_NAMES = """() => [3, 2, 1].map((seat) => {
  const name = document.querySelector(`#seat-${seat} .seat-name`);
  const range = document.createRange();
  range.selectNodeContents(name);
  const boxes = [...range.getClientRects()].filter((r) => r.width);
  return { text: name.textContent.trim(),
           lines: new Set(boxes.map((r) => Math.round(r.top))).size,
           left: Math.min(...boxes.map((r) => r.left)),
           right: Math.max(...boxes.map((r) => r.right)),
           font: parseFloat(getComputedStyle(name).fontSize),
           label: document.getElementById(`seat-${seat}`).getAttribute('aria-label') };
})"""


@pytest.mark.parametrize("device", [PHONE, NARROW_PHONE, SHORT_PHONE, WIDE_PHONE, WIDEST_PHONE],
                         ids=["390", "360", "360x640", "412", "430"])
@pytest.mark.parametrize("dealer", [3, 1], ids=["left-deals", "right-deals"])
def test_the_italian_seat_names_take_one_line(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any],
        dealer: int) -> None:
    """The opponents' Italian names, "Avversario a sinistra" and "Avversario a destra", took
    two lines each at 360 and 390 px, 15 px of the table lost. Now each name takes one, whole
    (no ellipsis: a screen reader and the eye read the same), at 11 px or more, the dealer's
    dot beside its name, no name meeting another or the window's edge."""
    page = open_page(device, game=server.insert(HANDS, TABLE, dealer=dealer),
                     prefs={**TEST_PREFS, "lang": "it"})
    page.wait_for_function(PLAYABLE)
    names = page.evaluate(SEAT_NAMES)
    assert [n["text"].rstrip(" ●") for n in names] == [
        "Avversario a sinistra", "Compagno", "Avversario a destra"], names
    assert [n["lines"] for n in names] == [1, 1, 1], names
    assert all(n["font"] >= 11 for n in names), names
    assert all(n["label"].startswith(n["text"].rstrip(" ●") + ":") for n in names), names
    width, height = device["viewport"]["width"], device["viewport"]["height"]
    edges = [(n["left"], n["right"]) for n in names]
    assert edges[0][0] >= 0 and edges[-1][1] <= width, edges
    assert edges[0][1] < edges[1][0] and edges[1][1] < edges[2][0], edges
    page.screenshot(path=str(ARTIFACTS / f"coach-phone-seats-it-{width}x{height}-{dealer}.png"),
                    clip={"x": 0, "y": page.evaluate(
                        "document.getElementById('board').getBoundingClientRect().top"),
                          "width": width, "height": 80})


def play_a_round(server: Server, person: str) -> None:
    """A match for ``person`` played over HTTP to the end of its first round."""
    http = server.http
    r = http.post("/api/games", json={"level": "easy"}, headers={"X-Scopone-Person": person})
    game = r.json()
    rng = random.Random(5)
    for _ in range(200):
        if game["status"] in ("round_over", "match_over"):
            return
        path = "moves" if game["status"] == "your_turn" else "advance"
        body = {"version": game["version"]}
        if path == "moves":
            body |= rng.choice(game["legal"])
        game = http.post(f"/api/games/{game['id']}/{path}", json=body).json()
    raise AssertionError("the round never ended")


def test_the_statistics_say_level_in_german_as_the_game_does(
        open_page: Callable[..., Any], server: Server) -> None:
    """German says "Level" in the game, its keys and its rules: the statistics once said
    "Stufe". Every language names the level alike in the game and the coach."""
    page = open_page(PHONE, prefs={**TEST_PREFS, "lang": "de"})
    named = page.evaluate(
        "async () => { const game = await import('/static/js/i18n.js');"
        " const coach = await import('/static/js/coach-text.js');"
        " return ['de', 'it', 'en'].map((l) => [game.t(l, 'level'), coach.ct(l, 'level')]); }")
    assert [a == b for a, b in named] == [True, True, True], named
    person = secrets.token_hex(16)
    play_a_round(server, person)
    page.evaluate("id => localStorage.setItem('scopone.person', id)", person)
    page.goto(server.url + "/stats")
    page.wait_for_selector("body[data-status='ready'] #h-levels")
    assert page.inner_text("#h-levels") == "Level"
    assert page.inner_text("#stats thead th:first-child") == "Level"
    assert "Stufe" not in page.inner_text("body")


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_the_statistics_fit_a_phone(open_page: Callable[..., Any], server: Server,
                                    lang: str) -> None:
    """The table of levels fits a phone's width in every language: its last column, rounds
    won, was cut off (its phone rules came before the page's own, which undid them)."""
    page = open_page(PHONE, prefs={**TEST_PREFS, "lang": lang})
    person = secrets.token_hex(16)
    play_a_round(server, person)
    page.evaluate("id => localStorage.setItem('scopone.person', id)", person)
    page.goto(server.url + "/stats")
    page.wait_for_selector("body[data-status='ready'] #h-levels")
    widths = page.eval_on_selector_all(
        ".stats-main .scroll-x", "els => els.map((e) => [e.scrollWidth, e.clientWidth])")
    assert widths and all(scroll <= client for scroll, client in widths), widths
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["viewport"]["width"]
    # The way to the rules, in the language of the game (the page had none).
    rules = {"en": "/en/rules", "it": "/it/regole", "de": "/de/regeln"}[lang]
    assert page.get_attribute("#rules-link", "href") == rules
    assert page.evaluate("document.documentElement.lang") == lang
    # The points' column is not named again by the title above it.
    column = page.inner_text("[aria-labelledby='h-points'] thead th:last-child")
    assert column == {"en": "Points", "it": "Punti", "de": "Punkte"}[lang]


# A panel's box on the page (not the window): [left, top, width, height].
PAGE_BOX = ("e => { const r = e.getBoundingClientRect();"
            " return [r.left + scrollX, r.top + scrollY, r.width, r.height]; }")


@pytest.mark.parametrize(("device", "lang"), [
    pytest.param(SHORT_PHONE, "en", id="360x640-en"),
    pytest.param(SHORT_PHONE, "de", id="360x640-de"),
    pytest.param(IPHONE_8, "it", id="375x667-it"),
    pytest.param(NARROW_PHONE, "en", id="360x740-en"),
    pytest.param(IPHONE_SE, "en", id="320x568-en"),
])
def test_on_a_short_phone_the_hint_takes_the_place_of_the_cards_seen(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any],
        lang: str) -> None:
    """A hint opened beside the cards seen on a short upright phone showed 65 to 94 px of its
    290 (360 x 640, 375 x 667), over the piles, its moves' margins and reasons cut off. Now it
    takes the cards seen's place under the table's cards, whole (over the piles, the table
    keeping room for the rest: the page scrolls if it must), never over the table's cards,
    the status line or the hand; the cards seen waits behind it and comes back as it was,
    where it was, when the hint closes. Where both show, beside each other, the hint its best
    two moves at least (390 x 844), they still do (the test above)."""
    page = open_page(device, game=server.insert(HANDS, TABLE, dealer=3),
                     prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(PLAYABLE)
    tap_control(page, "#btn-seen")
    page.wait_for_selector("#seen-panel .seen-card")
    where = page.eval_on_selector("#seen-panel", PAGE_BOX)
    height = page.evaluate("document.documentElement.scrollHeight")
    page.tap("#btn-hint")
    page.wait_for_function(HINT_SHOWN)
    assert page.is_hidden("#seen-panel") and page.is_visible("#hint-close")
    assert page.get_attribute("#btn-seen", "aria-expanded") == "false"
    content, shown = page.eval_on_selector("#coach-hint", "e => [e.scrollHeight, e.clientHeight]")
    assert content <= shown + 1, (content, shown)
    hint = page.eval_on_selector("#coach-hint", PAGE_BOX)
    assert abs(hint[1] - where[1]) <= 1 and hint[0] == where[0], (hint, where)
    assert page.locator("#coach-hint .hint-options li").count() == 3
    # Scrolled to its end, the hand is in the window, every card tappable.
    page.evaluate("scrollTo(0, document.documentElement.scrollHeight)")
    found = covered(page, FIRM)
    assert found == {"panels": 1, "hand": [], "board": [], "apart": True}, found
    width, tall = device["viewport"]["width"], device["viewport"]["height"]
    page.screenshot(path=str(ARTIFACTS / f"coach-phone-hint-over-seen-{lang}-{width}x{tall}.png"),
                    full_page=True)
    page.tap("#hint-close")
    page.wait_for_selector("#coach-hint", state="hidden")
    assert page.is_visible("#seen-panel .seen-grid")
    assert page.get_attribute("#btn-seen", "aria-expanded") == "true"
    assert page.eval_on_selector("#seen-panel", PAGE_BOX) == where
    assert page.evaluate("document.documentElement.scrollHeight") == height
    content, shown = page.eval_on_selector("#seen-panel", "e => [e.scrollHeight, e.clientHeight]")
    assert content <= shown + 1, (content, shown)
    assert_in_sight(page, 1)



# Each move of the hint's list: the small cards' rank and suit (the sign each shows), how many
# lines they take, whether they and the move's margin lie inside the panel's visible part; and
# the move's words, still there for a screen reader.
HINT_MOVES = """() => {
  const box = document.getElementById('coach-hint').getBoundingClientRect();
  const inside = (el) => { const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5; };
  return [...document.querySelectorAll('#coach-hint .hint-options li')].map((li) => {
    const chips = [...li.querySelectorAll('.opt-cards .move-card')];
    const tops = new Set(chips.map((c) => Math.round(c.getBoundingClientRect().top)));
    const sign = (c) => c.querySelector('use').getAttribute('href').slice(-1);
    return { cards: chips.map((c) => c.textContent + sign(c)), lines: tops.size,
             inside: inside(li.querySelector('.opt-cards')) && inside(li.querySelector('.margin')),
             words: li.querySelector('.opt').textContent,
             wordsShown: li.querySelector('.opt').getBoundingClientRect().width > 1 };
  });
}"""


@pytest.mark.parametrize("device", [
    pytest.param(IPHONE_SE, id="320x568"),
    pytest.param(SHORT_PHONE, id="360x640"),
    pytest.param(PHONE, id="390x844"),
])
def test_a_phones_hint_names_each_move_in_small_cards(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any]) -> None:
    """On a short upright phone the hint alone showed 81 to 116 px of its 272 to 302, the best
    move's margin cut off under its three lines of names (320 x 568, 360 x 640), and on a tall
    one 205 of 272. Now each move is one line of small cards, rank and suit sign (its words
    still read out, out of sight), its margin beside it, the explanation of the margins one
    line: the best move and its margin show on every phone, and the whole hint on a tall one."""
    page = open_page(device, game=server.insert(HANDS, TABLE, dealer=3))
    page.wait_for_function(PLAYABLE)
    page.tap("#btn-hint")
    page.wait_for_function(HINT_SHOWN)
    moves = page.evaluate(HINT_MOVES)
    best = codes(page, "#hand .card.hinted") + codes(page, "#table-cards .card.hinted")
    assert moves[0]["cards"] == best, (moves[0], best)
    assert moves[0]["inside"], moves[0]
    assert all(m["lines"] == 1 and not m["wordsShown"] for m in moves), moves
    assert moves[0]["words"] == "Jack of Cups taking Ace of Cups, Four of Cups, Two of Swords" \
        " and Ace of Clubs", moves[0]
    assert page.inner_text("#coach-hint .hint-sub") == \
        "Margin at the round\u2019s end, us \u2212 them:"
    if device is PHONE:
        content, shown = page.eval_on_selector(
            "#coach-hint", "e => [e.scrollHeight, e.clientHeight]")
        assert content <= shown + 1, (content, shown)
    assert_accessible(page, f"hint in small cards {device['viewport']}")
    width, tall = device["viewport"]["width"], device["viewport"]["height"]
    page.screenshot(path=str(ARTIFACTS / f"coach-phone-hint-cards-{width}x{tall}.png"))

# Each seat's name at the top, with its lines counted on its text alone (the dealer's dot, a
# smaller character, has a box of its own): its text's lines and box, the dot's box (its
# middle must lie in the name's line) and the name's size.
NAME_BOXES = """() => [3, 2, 1].map((seat) => {
  const name = document.querySelector(`#seat-${seat} .seat-name`);
  const range = document.createRange();
  range.selectNodeContents(name.firstChild);
  const boxes = [...range.getClientRects()].filter((r) => r.width);
  const dot = name.querySelector('.dealer')?.getBoundingClientRect();
  const box = { left: Math.min(...boxes.map((r) => r.left)),
                right: Math.max(...boxes.map((r) => r.right)),
                top: Math.min(...boxes.map((r) => r.top)),
                bottom: Math.max(...boxes.map((r) => r.bottom)) };
  return { text: name.textContent.trim(), lines: new Set(boxes.map((r) => Math.round(r.top))).size,
           box: dot ? { left: Math.min(box.left, dot.left), right: Math.max(box.right, dot.right),
                        top: box.top, bottom: box.bottom } : box,
           dotInLine: !dot || (dot.top + dot.bottom) / 2 > box.top
             && (dot.top + dot.bottom) / 2 < box.bottom,
           font: parseFloat(getComputedStyle(name).fontSize) };
})"""


@pytest.mark.parametrize("lang", ["it", "en", "de"])
@pytest.mark.parametrize("dealer", [3, 1], ids=["left-deals", "right-deals"])
def test_the_seat_names_take_one_line_at_320_px(
        open_page: Callable[..., Any], server: Server, lang: str, dealer: int) -> None:
    """At 320 x 568 the columns of the seats at the sides are 108 px wide: the Italian names
    took two lines ("Avversario a sinistra ●" three), "Right opponent" two, "Left opponent ●"
    and "Gegner links ●" two. Now each name takes one line, whole, at 11 px, the dealer's dot
    in it; no name meets another (the Italian opponents' names reach over the middle columns,
    the partner's name a line lower) or the window's edge. The same with the cards seen open
    (the seats laid out otherwise then)."""
    page = open_page(IPHONE_SE, game=server.insert(HANDS, TABLE, dealer=dealer),
                     prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(PLAYABLE)
    for panel in ("closed", "open"):
        if panel == "open":
            tap_control(page, "#btn-seen")
            page.wait_for_selector("#seen-panel .seen-card")
        names = page.evaluate(NAME_BOXES)
        assert [n["lines"] for n in names] == [1, 1, 1], (panel, names)
        assert all(n["dotInLine"] and n["font"] >= 11 for n in names), (panel, names)
        boxes = [n["box"] for n in names]
        assert boxes[0]["left"] >= 0 and boxes[-1]["right"] <= 320, (panel, boxes)
        for a, b in ((0, 1), (1, 2), (0, 2)):
            apart = (boxes[a]["right"] + 2 <= boxes[b]["left"]
                     or boxes[a]["bottom"] + 2 <= boxes[b]["top"]
                     or boxes[b]["bottom"] + 2 <= boxes[a]["top"])
            assert apart, (panel, names[a], names[b])
        page.screenshot(path=str(ARTIFACTS / f"coach-phone-seats-{lang}-320-{dealer}-{panel}.png"),
                        clip={"x": 0, "y": page.evaluate(
                            "document.getElementById('board').getBoundingClientRect().top"),
                              "width": 320, "height": 90})


@pytest.mark.parametrize(("device", "lang"), [
    pytest.param(IPHONE_SE, "de", id="320x568-de"),
    pytest.param(IPHONE_SE, "it", id="320x568-it"),
    pytest.param(IPHONE_SE, "en", id="320x568-en"),
    pytest.param(SHORT_PHONE, "de", id="360x640-de"),
    pytest.param(IPHONE_8, "de", id="375x667-de"),
])
def test_every_rank_of_the_cards_seen_fits_its_cell(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any],
        lang: str) -> None:
    """Beside the German legend the grid's cells were 12.5 px wide at 320 px (14 at 360, 16 at
    375), and a 10 (15 px) overflowed its cell; in Italian at 320 too. Now the tens' column is
    wider where the cells are narrow: every rank fits its cell, at 11 px or more."""
    page = open_page(device, game=mid_round(server, *TABLE_OF[6]),
                     prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(PLAYABLE)
    tap_control(page, "#btn-seen")
    page.wait_for_selector("#seen-panel .seen-card")
    ranks = page.eval_on_selector_all(
        "#seen-panel .seen-rank",
        "els => els.map((e) => [e.textContent, e.clientWidth, e.scrollWidth,"
        " parseFloat(getComputedStyle(e).fontSize)])")
    assert len(ranks) == 50
    assert [r for r in ranks if r[2] > r[1] or r[3] < 11] == [], ranks
    # The columns of the counts under the grid are those of its ranks.
    lefts = page.evaluate(
        "() => [...document.querySelectorAll('#seen-panel .seen-suit')].map((row) =>"
        " [...row.querySelectorAll('.seen-rank')]"
        ".map((e) => Math.round(e.getBoundingClientRect().left)))")
    assert all(row == lefts[0] for row in lefts), lefts
    content, shown = page.eval_on_selector("#seen-panel", "e => [e.scrollHeight, e.clientHeight]")
    assert content <= shown + 1 and content <= 120, (content, shown)


# The table's cards: the tops of their rows, how much of each shows (up to the next one) and
# whether they all lie in the table.
TABLE_ROW = """() => {
  const rects = [...document.querySelectorAll('#table-cards .card')]
    .map((c) => c.getBoundingClientRect());
  const table = document.getElementById('table').getBoundingClientRect();
  return { rows: new Set(rects.map((r) => Math.round(r.top))).size,
           shown: rects.map((r, i) => Math.min(r.right, i + 1 < rects.length ? rects[i + 1].left
             : r.right) - r.left),
           inside: rects.every((r) => r.left >= table.left && r.right <= table.right) };
}"""
CROWDED_HANDS = ["5D 7D 3C 6C 8C 9C", "1D 2D 3D 4D 6D 8D", "5C 7C 1S 3S 4S 7S", "2B 3B 4B 5B 6B 7B"]


@pytest.mark.parametrize("table", ["1C 1B 4C 2S 8S", "1C 1B 4C 2S 8S 9B",
                                   "1C 1B 4C 2S 8S 9B 10D 10C",
                                   "1C 1B 4C 2S 8S 9B 10D 10C 8B 9S"],
                         ids=["5", "6", "8", "10"])
@pytest.mark.parametrize("device", [IPHONE_SE, IPHONE_SE_SAFARI, SHORT_ANDROID],
                         ids=["320x568", "375x553", "360x560"])
def test_the_tables_cards_take_one_row_on_a_narrow_or_short_phone(
        open_page: Callable[..., Any], server: Server, table: str,
        device: dict[str, Any]) -> None:
    """At 320 x 568 five cards on the table and more lay in two rows, the table a row of
    cards (99 px) taller and the page with it. Now they lie in one row, overlapping like the
    hand's where they must, each card's index in sight (26 px of each of ten), a tap on what
    shows of a card finding it. On a short phone of any width too (375 x 553, 360 x 560: six
    and more lay in two rows, the hand pushed 100 px below the window): the page fits it."""
    page = open_page(device, game=server.insert(CROWDED_HANDS, table))
    page.wait_for_function(PLAYABLE)
    n = len(table.split())
    assert page.locator("#table-cards .card").count() == n
    row = page.evaluate(TABLE_ROW)
    assert row["rows"] == 1 and row["inside"], row
    assert min(row["shown"]) >= 25, row
    width, height = device["viewport"]["width"], device["viewport"]["height"]
    assert page.evaluate("document.documentElement.scrollHeight") <= height
    page.screenshot(path=str(ARTIFACTS / f"coach-phone-table-{width}x{height}-{n}.png"),
                    full_page=True)
    # A tap on what shows of each card (a capture to choose) finds that card.
    hits = page.evaluate("""() => [...document.querySelectorAll('#table-cards .card')]
      .map((c, i, all) => {
        const r = c.getBoundingClientRect();
        const right = i + 1 < all.length ? all[i + 1].getBoundingClientRect().left : r.right;
        const hit = document.elementFromPoint((r.left + right) / 2, r.top + 20);
        return hit?.closest('.card') === c; })""")
    assert all(hits), hits


def _position(hand: str, table: str, others: tuple[int, int, int]) -> list[str]:
    """Seat 0's hand and the other seats' hands of ``others`` cards each from the rest of the
    deck (in its order), so the deal is whole."""
    taken = set(hand.split()) | set(table.split())
    rest = [f"{r}{s}" for s in "DCSB" for r in range(1, 11) if f"{r}{s}" not in taken]
    hands, i = [hand], 0
    for k in others:
        hands.append(" ".join(rest[i:i + k]))
        i += k
    assert i == len(rest)
    return hands


@pytest.mark.parametrize(("device", "lang", "table", "others"), [
    pytest.param(IPHONE_SE, "en", "3C 5C 9S", (9, 9, 9), id="320x568-en"),
    pytest.param(IPHONE_SE, "de", "3C 5C 9S", (9, 9, 9), id="320x568-de"),
])
def test_a_phones_hint_never_lies_in_a_strip_beside_the_tables_cards(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any], lang: str,
        table: str, others: tuple[int, int, int]) -> None:
    """QA: on a 320 px phone the hint lay in the 34 px strip left of the table's cards, its
    words a column, heading and Close cut off: that strip showed 87 % of the hint only because
    the hint was so tall there. A part narrower than a panel's least width is no place for it."""
    hands = _position("1D 2D 9D 10D 4C 6C 10S 4B 7B 8B", table, others)
    page = open_page(device, game=server.insert(hands, table, dealer=3),
                     prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(PLAYABLE)
    page.tap("#btn-hint")
    page.wait_for_function(HINT_SHOWN)
    width = page.eval_on_selector("#coach-hint", "e => e.getBoundingClientRect().width")
    assert width >= 160, width
    moves = page.evaluate(HINT_MOVES)
    assert moves[0]["inside"], moves[0]
    found = covered(page, FIRM, window=True)
    assert found["hand"] == [] and found["board"] == [], found
    page.screenshot(path=str(ARTIFACTS / f"coach-phone-hint-no-strip-{lang}.png"))


def test_the_small_cards_and_the_cards_seen_follow_the_card_design(
        open_page: Callable[..., Any], server: Server) -> None:
    """QA: with the high-contrast cards the hint's small cards (and the cards seen's rows)
    still showed the traditional coloured suit signs."""
    page = open_page(PHONE, game=server.insert(HANDS, TABLE, dealer=3),
                     prefs={**TEST_PREFS, "design": "clear"})
    page.wait_for_function(PLAYABLE)
    page.tap("#btn-hint")
    page.wait_for_function(HINT_SHOWN)
    signs = page.eval_on_selector_all(
        "#coach-hint .move-card use", "els => els.map((e) => [e.getAttribute('href'),"
        " e.getAttribute('fill')])")
    assert signs and all(href.startswith("#plain-") and fill for href, fill in signs), signs
    page.tap("#hint-close")
    tap_control(page, "#btn-seen")
    page.wait_for_selector("#seen-panel .seen-card")
    marks = page.eval_on_selector_all(
        "#seen-panel .seen-suit-mark use", "els => els.map((e) => e.getAttribute('href'))")
    assert marks == ["#plain-D", "#plain-C", "#plain-S", "#plain-B"], marks


SIDE_SE: dict[str, Any] = side(568, 320)


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_on_a_small_phone_on_its_side_the_hints_best_move_is_in_sight(
        open_page: Callable[..., Any], server: Server, lang: str) -> None:
    """QA: a 568 x 320 phone on its side, eight cards on the table in two rows: the hint got
    63 of its 159 px beside the left seat (Italian, German), the best move's cards cut through
    and its margin out of sight; or lay past the window's bottom (English)."""
    table = "3C 5C 9S 2B 1S 6S 3S 8S"
    hands = _position("1D 2D 9D 10D 4C 6C 10S 4B", table, (8, 8, 8))
    page = open_page(SIDE_SE, game=server.insert(hands, table, dealer=3),
                     prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(PLAYABLE)
    page.tap("#btn-hint")
    page.wait_for_function(HINT_SHOWN)
    best = page.evaluate(HINT_MOVES)[0]
    assert best["inside"], best
    box = page.eval_on_selector("#coach-hint", "e => { const r = e.getBoundingClientRect();"
                                " return [r.top, r.bottom, r.width, innerHeight]; }")
    margin = page.eval_on_selector("#coach-hint .hint-options li .margin",
                                   "e => e.getBoundingClientRect().bottom")
    assert box[0] >= 0 and margin <= box[3], (box, margin)
    assert box[2] >= 160, box
    page.screenshot(path=str(ARTIFACTS / f"coach-phone-side-hint-{lang}.png"))
