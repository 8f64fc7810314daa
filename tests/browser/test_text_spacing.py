"""WCAG 1.4.12 (text spacing): with a person's own style sheet spacing lines, letters, words
and paragraphs out (the success criterion's figures), no text is cut off or lies past the
window. (The page's Content-Security-Policy refuses a style a page adds, as it would a
bookmarklet's: the test's browser context bypasses it, as a person's user style sheet would.)"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS, TEST_PREFS, Server, side
from .test_layout import FULL_HAND, SCOPE_PILES

pytestmark = pytest.mark.browser

SPACING = """* { line-height: 1.5 !important; letter-spacing: 0.12em !important;
                 word-spacing: 0.16em !important; }
p { margin-bottom: 2em !important; }"""

# test_layout.py's piles drawn with `n` scope each, in the page's language, with each pile's box
# and the page's width, measured in the same task (no render of the page's own in between).
PILES = SCOPE_PILES.replace("lang: 'en'", "lang: document.documentElement.lang").replace(
    "scope: pile.querySelectorAll", "box: rect(pile.getBoundingClientRect()),\n"
    "      doc: document.documentElement.scrollWidth, scope: pile.querySelectorAll")


@pytest.mark.parametrize("lang", ["en", "de"])
def test_a_piles_scope_stays_whole_with_the_text_spaced_out(
        open_page: Callable[..., Any], lang: str) -> None:
    """At 640 x 360 "Scope 1", on one line beside the pile in its column of 110 px, took 81 px
    of the 59 there: under "They" it was cut by 3 px at the window's right edge and the page
    scrolled sideways by 3 px; under "We" it reached 11 px past its column."""
    page = open_page({**side(640, 360), "bypass_csp": True}, prefs={**TEST_PREFS, "lang": lang})
    page.wait_for_function(FULL_HAND)
    page.add_style_tag(content=SPACING)
    spacing = page.eval_on_selector("#status-line", "e => getComputedStyle(e).letterSpacing")
    assert spacing != "normal", spacing  # the style sheet applies
    for n in (0, 1, 8):
        piles = page.evaluate(PILES, [n, None])
        for pile in piles:
            assert pile["doc"] <= 640, (n, pile)  # no sideways scroll (a phone's window
            # widens to the page: innerWidth grew to 643 too)
            assert (f"Scope {n}" in pile["countText"]) == (n > 0), pile
            for part in ("name", "count"):
                box = pile[part]
                assert box["left"] >= pile["box"]["left"] - 0.5, (n, part, pile)
                assert box["right"] <= pile["box"]["right"] + 0.5, (n, part, pile)
    page.screenshot(path=str(ARTIFACTS / f"text-spacing-640x360-{lang}.png"))


def test_the_variants_name_never_lies_over_the_tables_cards_with_the_text_spaced_out(
        open_page: Callable[..., Any], server: Server) -> None:
    """The variant's name, a paragraph at the table's foot, rose by the paragraphs' spacing (2 em)
    over the table's cards: at 640 x 360 over the bottom 18 px of three, where a click reached
    it and not the card."""
    gid = server.insert(["1C 2C 3C 4C 5C 6C 7C 8C 9C 10C", "1S 2S 3S 4S 5S 6S 7S 8S 9S 10S",
                         "7D 8D 9D 10D 1B 2B", "3B 4B 5B 6B 7B 8B"], "1D 2D 3D 4D 5D 6D")
    page = open_page({**side(640, 360), "bypass_csp": True}, game=gid,
                     prefs={**TEST_PREFS, "lang": "de"})
    page.wait_for_function(FULL_HAND)
    page.add_style_tag(content=SPACING)
    # Where the name and each card meet, what a click there reaches.
    met = page.evaluate("""() => {
      const l = document.getElementById('variant-label').getBoundingClientRect();
      return [...document.querySelectorAll('#table-cards .card')].map((c) => {
        const r = c.getBoundingClientRect();
        const x0 = Math.max(r.left, l.left), x1 = Math.min(r.right, l.right);
        const y0 = Math.max(r.top, l.top), y1 = Math.min(r.bottom, l.bottom);
        if (x0 >= x1 || y0 >= y1) return null;
        const hit = document.elementFromPoint((x0 + x1) / 2, (y0 + y1) / 2);
        const card = hit && hit.closest('.card');
        return [c.dataset.code, card ? card.dataset.code : null];
      }).filter(Boolean);
    }""")
    for code, hit in met:
        assert hit == code, met
