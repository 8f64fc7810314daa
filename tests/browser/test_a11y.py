"""The audits people use, in the browser: axe-core finds nothing on any state of the game page
or on any rule page, on a phone and a desktop; a first load on a phone barely shifts."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from scopone.web.texts import LANGS, RULES_PATH

from .a11y import assert_accessible
from .conftest import DESKTOP, PHONE, TEST_PREFS, Server, open_rule_page
from .test_controls import HANDS, TABLE
from .test_match import SUMMARY_OPEN

pytestmark = pytest.mark.browser

DEVICES = [pytest.param(PHONE, id="phone"), pytest.param(DESKTOP, id="desktop")]
# The first load's cumulative layout shift: the sum of the `layout-shift` entries (what
# Lighthouse counts), read once the hand is playable.
CLS = """() => new Promise((resolve) => {
  let total = 0;
  new PerformanceObserver((list) => {
    // Every entry: nothing is typed or tapped during a first load (and Playwright's page
    // set-up marks entries as after input, which would hide them).
    for (const e of list.getEntries()) total += e.value;
  }).observe({type: 'layout-shift', buffered: true});
  requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
})"""


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", LANGS)
def test_the_game_page_while_playing_and_with_the_settings_open(
        open_page: Callable[..., Any], device: dict[str, Any], lang: str) -> None:
    page = open_page(device, prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_selector("#hand.playable")
    assert page.get_attribute("html", "lang") == lang
    assert_accessible(page, f"playing ({lang})")
    page.click("#btn-settings")
    page.wait_for_selector("#settings:not([hidden])")
    assert_accessible(page, f"settings ({lang})")


@pytest.mark.parametrize("device", DEVICES)
def test_the_game_page_with_a_capture_choice_open(open_page: Callable[..., Any], server: Server,
                                                  device: dict[str, Any]) -> None:
    gid = server.insert(HANDS, TABLE, dealer=3)
    page = open_page(device, game=gid)
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='5D']")
    page.wait_for_selector("#table-cards .card.lit")
    assert_accessible(page, "capture choice")


@pytest.mark.parametrize("device", DEVICES)
def test_the_game_page_with_the_round_summary(open_page: Callable[..., Any], server: Server,
                                              device: dict[str, Any]) -> None:
    # One card each: seat 0 plays, the three computers answer, and the round is over.
    gid = server.insert(["5D", "1C", "2S", "3B"], "", dealer=3)
    page = open_page(device, game=gid)
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='5D']")
    page.wait_for_function(SUMMARY_OPEN)
    assert_accessible(page, "round summary")


@pytest.mark.parametrize("device", DEVICES)
@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_page(browser: Any, server: Server, device: dict[str, Any],
                         lang: str) -> None:
    ctx = browser.new_context(**device)
    try:
        page, errors = open_rule_page(ctx, server, lang)
        assert page.locator(".pcard svg").count() > 40
        assert page.locator("h1").count() == 1
        assert_accessible(page, f"rules ({lang})")
        assert errors == []
    finally:
        ctx.close()


@pytest.mark.parametrize("device", DEVICES)
def test_the_page_of_an_address_that_leads_nowhere(browser: Any, server: Server,
                                                   device: dict[str, Any]) -> None:
    """A link cut short (``/t/`` without its code): a styled 404 page in the browser's
    language, accessible, whose link leads to the game."""
    ctx = browser.new_context(**device, locale="it-IT")
    try:
        page = ctx.new_page()
        response = page.goto(server.url + "/t/")
        assert response is not None and response.status == 404
        assert page.inner_text("h1") == "Pagina non trovata"
        # Styled like the rule pages (the felt-green bar), not the browser's bare default.
        bar = page.eval_on_selector(".site-head", "h => getComputedStyle(h).backgroundColor")
        assert bar not in ("rgba(0, 0, 0, 0)", "transparent")
        assert_accessible(page, "not found")
        page.click("main a[href^='/?lang=it']")
        page.wait_for_selector("#hand .card")
    finally:
        ctx.close()


def test_from_the_game_to_the_rules_and_back(open_page: Callable[..., Any]) -> None:
    page = open_page(DESKTOP)
    page.wait_for_selector("#hand.playable")
    gid = page.evaluate("() => localStorage.getItem('scopone.game')")
    page.keyboard.press("?")
    page.wait_for_url("**/en/rules#controls")
    assert page.locator("#controls h2").is_visible()
    page.click("#nav-play")
    page.wait_for_selector("#hand.playable")
    assert page.evaluate("() => localStorage.getItem('scopone.game')") == gid  # resumed
    page.click("#nav-rules")
    page.wait_for_url("**/en/rules")
    page.go_back()
    page.wait_for_selector("#hand.playable")
    assert page.evaluate("() => localStorage.getItem('scopone.game')") == gid


def test_the_language_links_of_the_game_page(open_page: Callable[..., Any]) -> None:
    page = open_page(DESKTOP)
    page.wait_for_selector("#hand.playable")
    gid = page.evaluate("() => localStorage.getItem('scopone.game')")
    page.click(".site-nav .langs a[data-lang='it']")
    page.wait_for_function("() => document.documentElement.lang === 'it'")
    assert page.inner_text("#btn-new") == "Nuova partita"
    assert page.get_attribute("#nav-rules", "href") == RULES_PATH["it"]
    assert page.inner_text("#nav-rules") == "Regole"
    assert page.evaluate("() => localStorage.getItem('scopone.game')") == gid
    # A rule page's "play" link in German brings the game back in German.
    page.goto(page.url.split("/?")[0].rstrip("/") + RULES_PATH["de"])
    page.click("#nav-play")
    page.wait_for_selector("#hand.playable")
    assert page.get_attribute("html", "lang") == "de"
    assert page.evaluate("() => location.search") == ""


@pytest.mark.parametrize("path", ["/", RULES_PATH["it"]])
def test_a_first_load_on_a_phone_barely_shifts(browser: Any, server: Server, path: str) -> None:
    ctx = browser.new_context(**PHONE)
    try:
        ctx.add_init_script("localStorage.setItem('scopone.prefs', JSON.stringify("
                            "{level: 'easy', speed: 'fast'}))")
        page = ctx.new_page()
        page.goto(server.url + path)
        if path == "/":
            page.wait_for_selector("#hand.playable")
        else:
            page.wait_for_function("() => !document.querySelector('.pcard:not(.drawn)')")
        shift = page.evaluate(CLS)
        assert shift <= 0.05, shift
    finally:
        ctx.close()
