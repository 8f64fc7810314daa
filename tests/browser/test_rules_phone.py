"""The rule pages' tables on a phone: every table and its caption fit the screen in every
language, with nothing to scroll sideways and no text cut off. (On a 390 px phone the scoring
table once hid its last column behind a 41 px sideways scroll, its caption cut mid-word.)"""

from __future__ import annotations

from typing import Any

import pytest

from scopone.web.texts import LANGS

from .a11y import assert_accessible
from .conftest import Server, open_rule_page, upright

pytestmark = pytest.mark.browser

# Each table of the page: how far it (or its caption) sticks out of whatever holds it, and every
# cell or caption whose text is wider than its own box. A scroll wrapper is any ancestor up to
# <main> whose horizontal overflow is not `visible`; without one, the table must fit <main>.
FIT = """() => [...document.querySelectorAll('main table')].map((table) => {
  let holder = table.parentElement;
  while (holder.tagName !== 'MAIN' && getComputedStyle(holder).overflowX === 'visible') {
    holder = holder.parentElement;
  }
  const box = holder.getBoundingClientRect(), style = getComputedStyle(holder);
  const left = box.left + parseFloat(style.paddingLeft) + parseFloat(style.borderLeftWidth);
  const right = box.right - parseFloat(style.paddingRight) - parseFloat(style.borderRightWidth);
  const parts = [table, ...table.querySelectorAll('caption, th, td')];
  const outside = parts.map((el) => el.getBoundingClientRect())
    .filter((r) => r.width > 0 && (r.left < left - 0.5 || r.right > right + 0.5));
  const clipped = [...table.querySelectorAll('caption, th, td')]
    .filter((el) => el.getClientRects().length && el.scrollWidth > el.clientWidth)
    .map((el) => `${el.textContent.trim()}: ${el.scrollWidth} > ${el.clientWidth}`);
  return {table: table.id || table.className, holder: holder.className || holder.tagName,
          overflow: holder.scrollWidth - holder.clientWidth, outside: outside.length, clipped};
})"""
PAGE_OVERFLOW = "() => document.documentElement.scrollWidth - window.innerWidth"


@pytest.mark.parametrize(("width", "height"), [(360, 740), (390, 844)], ids=["360", "390"])
@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_table_fits_a_phone(browser: Any, server: Server, lang: str, width: int,
                                       height: int) -> None:
    ctx = browser.new_context(**upright(width, height))
    try:
        page, errors = open_rule_page(ctx, server, lang)
        page.evaluate("() => document.fonts.ready.then(() => true)")
        tables = page.evaluate(FIT)
        assert tables, "no table on the rule page"
        for table in tables:
            where = f"{lang} at {width} px: {table}"
            assert table["overflow"] <= 0, where  # nothing to scroll sideways
            assert table["outside"] == 0, where  # no cell nor the caption past the edge
            assert table["clipped"] == [], where  # no text wider than its cell
        assert page.evaluate(PAGE_OVERFLOW) <= 0
        assert_accessible(page, f"rules ({lang}, {width} px)")
        assert errors == []
    finally:
        ctx.close()



def test_another_language_opens_at_the_section_linked(browser: Any, server: Server) -> None:
    """A reader sent to a section (/en/rules#scoring: the game's own links to the rules) who
    switched language landed at the top of the other page (QA helper-80)."""
    ctx = browser.new_context(viewport={"width": 1024, "height": 700})
    try:
        page, errors = open_rule_page(ctx, server, "en")
        page.click("#site-langs a[data-lang='it']")
        page.wait_for_url("**/it/regole")  # none: the top
        page.goto(server.url + "/it/regole#scoring")
        page.click("#site-langs a[data-lang='de']")
        page.wait_for_url("**/de/regeln#scoring")
        page.wait_for_function(  # at the top, but for the section's own margin
            "() => Math.abs(document.getElementById('scoring').getBoundingClientRect().top) < 40")
        assert errors == []
    finally:
        ctx.close()
