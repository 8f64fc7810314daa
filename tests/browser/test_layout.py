"""What the page looks like and what it costs: phone layouts, tappable cards, the three
languages, accessible names, screenshots, and the first load's size and time."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS, DESKTOP, PHONE, PHONE_LANDSCAPE, TEST_PREFS, Server, upright
from .test_match import codes

pytestmark = pytest.mark.browser

FULL_HAND = "() => document.querySelectorAll('#hand .card').length === 10"

# Every hand card's visible middle, and the element the browser finds there.
PROBE = """() => [...document.querySelectorAll('#hand .card')].map((card, i, cards) => {
  const r = card.getBoundingClientRect();
  const right = i + 1 < cards.length ? cards[i + 1].getBoundingClientRect().left : r.right;
  const x = (r.left + Math.min(right, r.right)) / 2, y = r.top + r.height / 2;
  const hit = document.elementFromPoint(x, y);
  const under = hit && hit.closest('.card');
  return {code: card.dataset.code, hit: under ? under.dataset.code : null,
          left: r.left, right: r.right, bottom: r.bottom, strip: Math.min(right, r.right) - r.left};
})"""
OVERFLOW = """() => ({doc: document.documentElement.scrollWidth, body: document.body.scrollWidth,
  width: window.innerWidth})"""


@pytest.mark.parametrize(("device", "name"), [(PHONE, "phone"), (PHONE_LANDSCAPE, "landscape")])
@pytest.mark.parametrize("design", ["classic", "clear"])
def test_phone_layout_fits_and_every_card_is_tappable(
        open_page: Callable[..., Any], device: dict[str, Any], name: str, design: str) -> None:
    page = open_page(device, prefs={**TEST_PREFS, "design": design})
    page.wait_for_function(FULL_HAND)
    sizes = page.evaluate(OVERFLOW)
    assert sizes["doc"] <= sizes["width"] and sizes["body"] <= sizes["width"], sizes
    height = device["viewport"]["height"]
    for card in page.evaluate(PROBE):
        assert card["hit"] == card["code"], card  # the card itself is under its visible middle
        assert card["left"] >= 0 and card["right"] <= sizes["width"], card
        assert card["bottom"] <= height, card  # the whole hand is on screen, no scrolling
        assert card["strip"] >= 24, card  # wide enough for a finger
    page.screenshot(path=str(ARTIFACTS / f"{name}-{design}.png"))
    if page.locator("#btn-menu").is_visible():  # on its side, Settings lies in the menu
        page.locator("#btn-menu").tap()
    page.locator("#btn-settings").tap()  # the settings panel fits on the screen too
    panel = page.locator("#settings").bounding_box()
    assert panel["x"] >= 0 and panel["x"] + panel["width"] <= sizes["width"], panel
    for select in page.locator("#settings select").all():
        box = select.bounding_box()
        assert box["x"] + box["width"] <= panel["x"] + panel["width"], box


@pytest.mark.parametrize("lang", ["en", "it", "de"])
@pytest.mark.parametrize("size", [(1024, 600), (1024, 768), (1280, 720)])
def test_a_small_desktop_window_shows_the_whole_hand_without_scrolling(
        open_page: Callable[..., Any], size: tuple[int, int], lang: str) -> None:
    """A laptop's browser window: the whole hand on screen, nothing to scroll. (At 1024 x 600
    the bar wrapped to three rows and the full-size board pushed the hand below the fold; in
    Italian and German, whose bar takes four rows there, the hand's last pixel lay below it.)
    The keys' help line under the hand is in the window too: at 1024 x 600 it lay below it,
    the page scrolling by 23 px in Italian and 38 in German (two lines); now the site's links
    share the bar's first row and the help line is one line, a little smaller, still 11 px."""
    width, height = size
    page = open_page({"viewport": {"width": width, "height": height}},
                     prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(FULL_HAND)
    assert page.evaluate("() => document.documentElement.scrollHeight") <= height
    for card in page.evaluate(PROBE):
        assert card["hit"] == card["code"], card
        assert card["bottom"] <= height, card
    help_ = page.eval_on_selector("#keys-help", "e => { const r = e.getBoundingClientRect();"
                                  " return { top: r.top, bottom: r.bottom, text: e.textContent,"
                                  " font: parseFloat(getComputedStyle(e).fontSize) }; }")
    assert help_["text"].startswith(("Keys:", "Tasti:", "Tasten:")), help_
    assert help_["bottom"] <= height and help_["font"] >= 11, help_


def test_desktop_screenshots_in_both_designs(open_page: Callable[..., Any]) -> None:
    for design in ("classic", "clear"):
        page = open_page(DESKTOP, prefs={**TEST_PREFS, "design": design})
        page.wait_for_function(FULL_HAND)
        page.wait_for_selector("#hand.playable")
        sizes = page.evaluate(OVERFLOW)
        assert sizes["doc"] <= sizes["width"], sizes
        page.screenshot(path=str(ARTIFACTS / f"desktop-{design}.png"))


NAMES = {
    "it": r"^\d+ – (Asso|Due|Tre|Quattro|Cinque|Sei|Sette|Fante|Cavallo|Re) di "
          r"(Denari|Coppe|Spade|Bastoni)$",
    "de": r"^\d+ – (Ass|Zwei|Drei|Vier|Fünf|Sechs|Sieben|Bube|Reiter|König) "
          r"(Münzen|Kelche|Schwerter|Stäbe)$",
    "en": r"^\d+ – (Ace|Two|Three|Four|Five|Six|Seven|Jack|Knight|King) of "
          r"(Coins|Cups|Swords|Clubs)$",
}
# A card button's name: its text, out of sight (the drawn card is decoration).
NAME = "e => e.querySelector('.card-name').textContent"
NEW_MATCH = {"it": "Nuova partita", "de": "Neue Partie", "en": "New match"}


@pytest.mark.parametrize(("locale", "lang"), [("it-IT", "it"), ("de-DE", "de"), ("en-US", "en")])
def test_language_follows_the_browser_and_every_card_is_named(
        open_page: Callable[..., Any], locale: str, lang: str) -> None:
    prefs = {k: v for k, v in TEST_PREFS.items() if k != "lang"}
    page = open_page(DESKTOP, prefs=prefs, locale=locale)
    page.wait_for_function(FULL_HAND)
    assert page.get_attribute("html", "lang") == lang
    assert page.inner_text("#btn-new") == NEW_MATCH[lang]
    labels = page.eval_on_selector_all("#hand .card, #table-cards .card", f"els => els.map({NAME})")
    assert len(labels) >= 10
    for label in labels:
        assert re.match(NAMES[lang], label), label
    # The card SVGs are decoration; the button's name is what a screen reader says.
    assert page.eval_on_selector_all("#hand .card svg", "els => els.every("
                                     "s => s.getAttribute('aria-hidden') === 'true')")
    # Every text exists in all three languages.
    missing = page.evaluate("async () => (await import('/static/js/i18n.js')).missingKeys()")
    assert missing == []


def test_the_language_switch(open_page: Callable[..., Any]) -> None:
    page = open_page(DESKTOP)
    page.click("#btn-settings")
    page.select_option("#set-lang", "it")
    assert page.inner_text("#btn-new") == "Nuova partita"
    page.select_option("#set-lang", "de")
    assert page.inner_text("#btn-new") == "Neue Partie"
    assert page.get_attribute("html", "lang") == "de"
    assert page.eval_on_selector("#hand .card", NAME).find(" ") > 0
    page.reload()
    page.wait_for_selector("#hand .card")
    assert page.inner_text("#btn-new") == "Neue Partie"  # the choice survives a reload


def test_keyboard_focus_is_visible(open_page: Callable[..., Any]) -> None:
    page = open_page(DESKTOP)
    page.wait_for_selector("#hand.playable")
    page.focus("#hand .card >> nth=0")
    page.keyboard.press("Tab")
    outline = page.evaluate("() => getComputedStyle(document.activeElement).outlineStyle")
    assert page.evaluate("() => document.activeElement.matches('#hand .card:focus-visible')")
    assert outline == "solid"


def test_first_load_is_small_and_only_from_our_server(
        open_page: Callable[..., Any], server: Server) -> None:
    page = open_page(DESKTOP, prefs={"lang": "en"})  # a first visit: no game, default settings
    page.wait_for_selector("#hand.playable")
    figures = page.evaluate("""() => {
      const nav = performance.getEntriesByType('navigation')[0];
      const res = performance.getEntriesByType('resource');
      const mark = (n) => {
        const m = performance.getEntriesByName(n)[0];
        return m ? m.startTime : null;
      };
      const create = res.find(r => r.name.endsWith('/api/games'));
      return {bytes: nav.transferSize + res.reduce((s, r) => s + r.transferSize, 0),
              dom_ms: nav.domContentLoadedEventEnd,
              create_request_ms: create ? create.responseEnd - create.startTime : null,
              requests: 1 + res.length, urls: res.map(r => r.name),
              hand_ms: mark('scopone:hand'), playable_ms: mark('scopone:playable')};
    }""")
    assert all(u.startswith(server.url) for u in figures["urls"]), figures["urls"]
    assert figures["bytes"] < 120_000, figures  # the scripts and styles compressed: about 80 kB
    assert figures["hand_ms"] is not None and figures["playable_ms"] is not None
    view = server.game(page.evaluate("() => localStorage.getItem('scopone.game')"))
    figures["computer_cards_before_playable"] = len(view["history"])
    assert codes(page, "#hand .card") == view["hand"]
    (ARTIFACTS / "first-load.json").write_text(json.dumps(figures, indent=2))
    print("first load:", {k: v for k, v in figures.items() if k != "urls"})


def test_round_summary_and_match_end_on_a_phone(open_page: Callable[..., Any],
                                                server: Server) -> None:
    # One card each, 10–10 to 11 with Napola on: 7D is laid, 1C and 2C too, then 3C takes
    # 1C+2C and, as last taker, the 7D left on the table. The opponents win.
    from scopone.engine import Rules

    gid = server.insert(["7D", "1C", "2C", "3C"], dealer=3, scores=(10, 10),
                        rules=Rules(napola=True))
    page = open_page(PHONE, game=gid)
    page.wait_for_selector("#hand.playable")
    box = page.locator("#hand .card").bounding_box()
    page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_selector("#summary:not([hidden])")
    view = server.game(gid)
    assert view["status"] == "match_over" and view["winner"] == "B"
    b = view["rounds"][-1]["tallies"][1]
    assert (b["cards"], b["denari"], b["settebello"]) == (4, 1, True)
    rows = page.eval_on_selector_all("#summary tbody tr", "els => els.map(e => e.dataset.cat)")
    assert rows == ["carte", "denari", "settebello", "primiera", "scope", "napola"]
    assert page.eval_on_selector_all("#summary tr[data-cat='carte'] .fig",
                                     "els => els.map(e => e.textContent)") == ["0", "4"]
    assert page.inner_text("#winner") == "The opponents win the match."
    assert [int(page.inner_text("#match-a")), int(page.inner_text("#match-b"))] == view["score"]
    sizes = page.evaluate(OVERFLOW)
    assert sizes["doc"] <= sizes["width"], sizes
    page.screenshot(path=str(ARTIFACTS / "phone-summary.png"))
    page.locator("#summary-go").tap()  # a new match, same rules
    page.wait_for_function("old => localStorage.getItem('scopone.game') !== old", arg=gid)
    fresh = server.game(page.evaluate("() => localStorage.getItem('scopone.game')"))
    assert fresh["rules"]["napola"] is True and fresh["score"] == [0, 0]


@pytest.mark.parametrize(("device", "name"), [(DESKTOP, "desktop"), (PHONE, "phone"),
                                              (PHONE_LANDSCAPE, "landscape")])
def test_a_crowded_table_still_fits_the_screen(open_page: Callable[..., Any], server: Server,
                                               device: dict[str, Any], name: str) -> None:
    gid = server.insert(["5D 7D 3C 6C 8C", "1D 2D 3D 4D 6D", "5C 7C 1S 3S 4S",
                         "2B 3B 4B 5B 6B"], "1C 1B 4C 2S 7S 8S 9S 10S 7B 8B 9B 10B")
    page = open_page(device, game=gid)
    page.wait_for_selector("#hand.playable")
    assert len(codes(page, "#table-cards .card")) == 12
    sizes = page.evaluate("""() => ({w: document.documentElement.scrollWidth,
      h: document.documentElement.scrollHeight, iw: innerWidth, ih: innerHeight})""")
    assert sizes["w"] <= sizes["iw"] and sizes["h"] <= sizes["ih"], sizes
    for card in page.evaluate(PROBE):
        assert card["hit"] == card["code"] and card["bottom"] <= sizes["ih"], card
    page.screenshot(path=str(ARTIFACTS / f"{name}-crowded-table.png"))


# ----- the piles' names and counts, the bar's controls ---------------------------------------

# Draws the board once more with `n` scope for each pair (and the pairs' names, when given) and
# measures, in the same task (so no render of the page's own can come in between), the text of
# each pile's name and count, and what may cover it: the pile's stack and the scopa cards across.
SCOPE_PILES = """async ([n, names]) => {
  const { renderBoard } = await import('/static/js/render.js');
  const view = await (await fetch('/api/games/' + localStorage.getItem('scopone.game'))).json();
  const ours = ['1D', '2D', '3D', '4D', '5D', '6D', '7D', '8D', '9D', '10D'].slice(0, n);
  view.history = ours.flatMap((card, i) => [
    {seat: 0, card, capture: [], scopa: true},
    {seat: 1, card: card.replace('D', 'C'), capture: [], scopa: true}]);
  view.piles = [Array(14).fill('1S'), Array(15).fill('2S')];
  const prefs = {lang: 'en', design: 'classic', speed: 'fast', level: 'easy', napola: false,
                 variant: 'scientifico', target: 11};
  renderBoard({view, prefs, sel: null, hiddenTable: new Set(), thinking: null, busy: false,
               summaryOpen: false, error: null, pairNames: names});
  const rect = (r) => ({left: r.left, right: r.right, top: r.top, bottom: r.bottom});
  const text = (el) => { const range = document.createRange(); range.selectNodeContents(el);
                         return rect(range.getBoundingClientRect()); };
  return [0, 1].map((pair) => {
    const pile = document.getElementById(`pile-${pair}`);
    const name = pile.querySelector('.pile-name');
    const count = pile.querySelector('.pile-count');
    return {
      name: text(name), nameText: name.textContent,
      count: text(count), countText: count.textContent,
      covers: [pile.querySelector('.pile-stack'), ...pile.querySelectorAll('.scopa-card')]
        .map((el) => rect(el.getBoundingClientRect())),
      scope: pile.querySelectorAll('.scopa-card').length,
    };
  });
}"""


def _meet(a: dict[str, float], b: dict[str, float]) -> bool:
    return (a["left"] < b["right"] - 0.5 and b["left"] < a["right"] - 0.5
            and a["top"] < b["bottom"] - 0.5 and b["top"] < a["bottom"] - 0.5)


@pytest.mark.parametrize(("device", "name"), [(PHONE, "phone"), (PHONE_LANDSCAPE, "landscape"),
                                              (DESKTOP, "desktop")])
def test_scopa_cards_never_cover_a_piles_name_or_count(
        open_page: Callable[..., Any], device: dict[str, Any], name: str) -> None:
    """The scopa cards lie across the pile, sticking out at its sides: with any number of scope
    the pile's name ("We", or a spectator's "Coppia A") and its count ("Scope 8") stay whole.
    (On a phone the pile was squeezed between them and the cards covered both.)"""
    page = open_page(device)
    page.wait_for_function(FULL_HAND)
    width = device["viewport"]["width"]
    for names in (None, ["Coppia A", "Coppia B"]):
        for n in range(9):
            for pile in page.evaluate(SCOPE_PILES, [n, names]):
                assert pile["scope"] == n
                assert (f"Scope {n}" in pile["countText"]) == (n > 0), pile
                for part in ("name", "count"):
                    box = pile[part]
                    assert box["left"] >= 0 and box["right"] <= width, (n, names, part, pile)
                    for cover in pile["covers"]:
                        assert not _meet(box, cover), (n, names, part, box, cover)
                assert not _meet(pile["name"], pile["count"]), (n, names, pile)
    page.screenshot(path=str(ARTIFACTS / f"{name}-scope-8.png"))


# Every control in the bar: where it is, and whether a tap at its middle reaches it.
BAR_CONTROLS = """() => [...document.getElementById('controls').children]
  .filter((el) => el.getClientRects().length > 0)
  .map((el) => {
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    return {id: el.id, text: el.textContent.trim(), left: r.left, right: r.right, top: r.top,
            bottom: r.bottom, hit: Boolean(hit) && el.contains(hit)};
  })"""


@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_every_control_of_the_bar_is_on_a_phones_screen(open_page: Callable[..., Any],
                                                        lang: str) -> None:
    """No control hides in a sideways scroll that nothing shows: on a phone in every language
    each one is whole on the screen, where a tap reaches it (the row wraps instead)."""
    page = open_page(PHONE, prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(FULL_HAND)
    width, height = PHONE["viewport"]["width"], PHONE["viewport"]["height"]
    controls = page.evaluate(BAR_CONTROLS)
    ids = {c["id"] for c in controls}
    assert {"btn-new", "btn-friends", "btn-level", "btn-napola", "btn-design", "btn-settings",
            "btn-hint", "btn-seen", "btn-review", "link-stats"} <= ids, ids
    for c in controls:
        assert c["left"] >= 0 and c["right"] <= width, c
        assert c["top"] >= 0 and c["bottom"] <= height, c
        assert c["hit"], c
    sizes = page.evaluate(OVERFLOW)
    assert sizes["doc"] <= sizes["width"], sizes
    # The hand below is still whole and every card tappable (SPEC §3).
    for card in page.evaluate(PROBE):
        assert card["hit"] == card["code"] and card["bottom"] <= height, card
    # The settings open just under the bar, however tall it is.
    page.locator("#btn-settings").tap()
    bar = page.locator("#bar").bounding_box()
    panel = page.locator("#settings").bounding_box()
    assert panel["y"] >= bar["y"] + bar["height"], (bar, panel)
    assert panel["y"] + panel["height"] <= height, panel
    page.screenshot(path=str(ARTIFACTS / f"phone-bar-{lang}.png"))


# The score's parts shown (the target may go on the narrowest phones) and the links beside it.
SCORE_LINE = """() => {
  const parts = [...document.getElementById('score').children]
    .filter((e) => getComputedStyle(e).display !== 'none').map((e) => e.getBoundingClientRect());
  return { top: Math.min(...parts.map((r) => r.top)),
           right: Math.max(...parts.map((r) => r.right)),
           // One line: every part beside the first, not under it (baselines differ a little).
           lines: parts.every((r) => r.top < parts[0].bottom && r.bottom > parts[0].top) ? 1 : 2,
           tallest: Math.max(...parts.map((r) => r.height)),
           nav: document.getElementById('site-nav').getBoundingClientRect().left,
           row: document.getElementById('bar').getBoundingClientRect().top };
}"""


PAIR_NAMES = {"en": ["We", "They"], "it": ["Noi", "Loro"], "de": ["Wir", "Ihr"]}


@pytest.mark.parametrize("width", [320, 360])
@pytest.mark.parametrize("lang", ["en", "it", "de"])
def test_the_score_is_one_line_on_a_narrow_phone(open_page: Callable[..., Any], server: Server,
                                                 width: int, lang: str) -> None:
    """360 px wide (the most common phone) and less, the score wrapped into four lines in its
    row ("Noi / 0 – 0 / Loro / a 11"), its top cut off by the screen's edge. Now it is one
    line, whole, beside the links, with two-digit scores too."""
    from scopone.engine import Rules

    gid = server.insert(["7D 1B", "1C 2B", "2C 3B", "3C 4B"], dealer=3, scores=(10, 11),
                        rules=Rules(target=21))
    device = upright(width, 740)
    page = open_page(device, game=gid, prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_selector("#hand.playable")
    assert page.inner_text("#score-a") == "10" and page.inner_text("#score-b") == "11"
    # The pairs as a player names them. German's "Sie" read as the formal "you" (the page says
    # "du" to the player): "Ihr", as a score board between two pairs at a table says.
    names = page.eval_on_selector_all("#score .pair-a, #score .pair-b",
                                      "els => els.map(e => e.textContent.replace(/[0-9]/g, ''))")
    assert [n.strip() for n in names] == PAIR_NAMES[lang], names
    line = page.evaluate(SCORE_LINE)
    assert line["lines"] == 1 and line["tallest"] <= 32, line  # one line, no name over points
    assert line["top"] >= line["row"] >= 0, line  # nothing above the screen's edge
    assert line["right"] <= line["nav"], line  # clear of the links
    page.locator("#bar").screenshot(path=str(ARTIFACTS / f"phone-score-{width}-{lang}.png"))
