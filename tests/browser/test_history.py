"""Back, Forward and the addresses a person opens: a page the browser restores from its
back-forward cache shows what is current, and a table's link that is malformed says there is no
table there rather than stopping the page.

Playwright launches Chromium with its back-forward cache off (``--disable-back-forward-cache``
among its default arguments); a person's Chromium keeps it on, and restores the game page, the
statistics and the rule pages from it. These tests launch a browser of their own with it on."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP, Server, page_opener
from .test_coach_phone import play_a_round
from .test_match import READY, game_id

pytestmark = pytest.mark.browser

# Whether the page on screen was restored from the back-forward cache, not loaded anew.
RESTORED = "() => window.__shown.at(-1) === true"


@pytest.fixture(scope="module")
def cached_browser(browser: Any) -> Iterator[Any]:
    """Chromium as a person has it: its back-forward cache on."""
    b = browser.browser_type.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS,
                                    ignore_default_args=["--disable-back-forward-cache"])
    yield b
    b.close()


@pytest.fixture
def cached_page(cached_browser: Any, server: Server) -> Iterator[Callable[..., Any]]:
    """``cached_page(prefs=None)`` → a page of a fresh context of that browser, at ``/``, its
    preferences seeded as ``open_page`` does; every ``pageshow`` noted in ``window.__shown``
    (its ``persisted``), errors checked at teardown."""
    opener = page_opener(cached_browser, server, intercepted=False, before=(
        "window.__shown = []; addEventListener('pageshow', (e) => __shown.push(e.persisted));"))
    open_ = next(opener)
    yield lambda prefs=None: open_(DESKTOP, prefs=prefs)
    next(opener, None)


def back(page: Any) -> None:
    """Back, and the page restored from the cache (no load event comes for it)."""
    page.go_back(wait_until="commit")
    page.wait_for_function(RESTORED)


def hand(page: Any) -> list[str]:
    return sorted(page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.code)"))


def test_back_to_a_game_page_left_for_another_shows_the_match_played_since(
        cached_page: Callable[..., Any], server: Server) -> None:
    """The game page, left for the rules; their Play link opens the game page anew, where the
    person starts a new match and plays a card of it. Back twice brings the first page back
    from the cache: it showed the old match as current, followed it, and a card played there
    made it the stored game, the match under way lost (no way back to it)."""
    page = cached_page()
    first = game_id(page)
    page.click("#nav-rules")
    page.wait_for_url("**/en/rules")
    page.click("#nav-play")
    page.wait_for_selector("#hand .card")
    page.keyboard.press("n")
    page.wait_for_function("(old) => localStorage.getItem('scopone.game') !== old", arg=first)
    second = game_id(page)
    page.wait_for_function(READY)
    page.keyboard.press("1")
    if page.locator("#hand .card.selected").count():
        page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 9")
    asked: list[str] = []
    page.on("request", lambda req: asked.append(req.url))
    back(page)  # the rules
    back(page)  # the first game page, restored as it was left
    assert page.evaluate("() => performance.getEntriesByType('navigation')[0].type") \
        == "navigate"  # the same document: restored, never loaded again
    page.wait_for_function("() => document.querySelectorAll('#hand .card').length === 9")
    assert hand(page) == sorted(server.game(second)["hand"])
    assert game_id(page) == second
    # It follows the match played since (the server plays its computers), not the old one.
    assert any(f"/api/games/{second}/events" in url for url in asked), asked


def test_back_to_a_game_page_after_a_language_chosen_on_the_rules_speaks_it(
        cached_page: Callable[..., Any]) -> None:
    """The game page in English, left for the rules; there the person reads them in Italian and
    plays from their Play link, which opens the game in Italian. Back to the first game page,
    restored from the cache: it spoke English until a reload, the stored language Italian."""
    page = cached_page()
    page.click("#nav-rules")
    page.wait_for_url("**/en/rules")
    page.click(".site-nav .langs a[data-lang=it]")
    page.wait_for_url("**/it/regole")
    page.click("#nav-play")
    page.wait_for_selector("#hand .card")
    assert page.inner_text("#btn-new") == "Nuova partita"
    for _ in range(3):  # the Italian rules, the English rules, the first game page
        back(page)
    page.wait_for_function("() => document.documentElement.lang === 'it'")
    assert page.inner_text("#btn-new") == "Nuova partita"
    assert page.get_attribute("#nav-rules", "href") == "/it/regole"


def test_back_to_the_statistics_shows_the_rounds_played_since(
        cached_page: Callable[..., Any], server: Server) -> None:
    """The statistics, left for the game: a round counted meanwhile (here over HTTP, for the
    same person) is in them when Back brings the page back from the cache. They said 'No
    statistics yet' until a reload."""
    page = cached_page()
    person = page.evaluate("() => localStorage.getItem('scopone.person')")
    assert person  # the page's game was made for it
    page.click("#link-stats")
    page.wait_for_selector("body[data-status='ready'] #stats-empty")
    page.click("#back-link")
    page.wait_for_selector("#hand .card")
    play_a_round(server, person)
    back(page)
    page.wait_for_selector("#stats tbody tr[data-level='easy']")
    rounds = page.inner_text("#stats tbody tr[data-level='easy'] td:nth-child(4)")
    assert rounds == "1"


def test_back_to_the_statistics_after_the_language_changed_speaks_it(
        cached_page: Callable[..., Any]) -> None:
    """The statistics, left for the game, whose language the person changes to Italian: Back
    shows them in Italian, as a load would."""
    page = cached_page()
    page.click("#link-stats")
    page.wait_for_selector("body[data-status='ready']")
    assert page.inner_text("#back-link") == "Back to the game"
    page.click("#back-link")
    page.wait_for_selector("#hand .card")
    page.click(".site-nav .langs a[data-lang=it]")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('scopone.prefs')).lang === 'it'")
    page.go_back(wait_until="commit")
    page.wait_for_function("() => document.documentElement.lang === 'it'")
    page.wait_for_selector("body[data-status='ready']")
    assert page.inner_text("#back-link") == "Torna alla partita"


def test_back_to_a_tables_lobby_after_the_language_changed_speaks_it(
        cached_page: Callable[..., Any], server: Server) -> None:
    """A table's lobby, left for the game page by the bar's title, where the person switches
    to Italian: Back brings the lobby from the cache in English, until a reload."""
    r = server.http.post("/api/tables", json={"name": "Anna", "level": "easy", "hints": False,
                                              "away_seconds": None, "target": 21})
    assert r.status_code == 201, r.text
    code = r.json()["table"]["code"]
    page = cached_page()
    page.goto(f"{server.url}/t/{code}")
    page.wait_for_function("() => document.body.dataset.phase === 'lobby'")
    assert page.inner_text("#lobby-title") == "Table"
    page.click("#home-link")
    page.wait_for_selector("#hand .card")
    page.click(".site-nav .langs a[data-lang=it]")
    page.wait_for_function("() => JSON.parse(localStorage.getItem('scopone.prefs')).lang === 'it'")
    back(page)
    page.wait_for_function("() => document.documentElement.lang === 'it'")
    assert page.inner_text("#lobby-title") == "Tavolo"
    assert page.input_value("#set-lang") == "it"


@pytest.mark.parametrize("path", ["/t/%ZZ", "/t/AB%E0%A4%A"])
def test_a_table_link_with_a_malformed_escape_says_there_is_no_table(
        open_page: Callable[..., Any], server: Server, path: str) -> None:
    """A table's link whose code has a malformed %-escape (mistyped, cut short): the page's
    script stopped at reading the code ('URI malformed') and the page said nothing for ever."""
    page = open_page(DESKTOP)
    page.watch.expected.append("status of 404")  # the table's stream: there is no such table
    page.goto(server.url + path)
    page.wait_for_function("() => document.body.dataset.phase === 'missing'")
    assert page.inner_text("#lobby-note") == "There is no table at this address."
    assert page.url == server.url + path  # the address as it was opened
