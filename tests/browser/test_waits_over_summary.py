"""A deal that waits to be sent again (the server away) is said by a notice floating at the
window's foot, over the round's summary. On a phone it lay over the summary's buttons: three
lines of it in Italian and German hid Review and Next round (QA helper-73's D3). The summary now
keeps that room free, its button in sight and tappable, its Review reachable."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import ARTIFACTS, TEST_PREFS, Server, side, upright
from .test_deal_waits import ONE_CARD_EACH, refuse
from .test_match import SUMMARY_OPEN

pytestmark = pytest.mark.browser

# The notice's box, and each of the summary's buttons: its box and what lies at its middle.
BOXES = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return { top: r.top, bottom: r.bottom, left: r.left, right: r.right }; };
  const buttons = ['summary-review', 'summary-go'].map((id) => {
    const el = document.getElementById(id);
    el.scrollIntoView({ block: 'nearest' });
    const r = el.getBoundingClientRect();
    const hit = document.elementFromPoint((r.left + r.right) / 2, (r.top + r.bottom) / 2);
    return { id, ...box(el), hit: Boolean(hit) && el.contains(hit) };
  });
  document.getElementById('summary-go').scrollIntoView({ block: 'nearest' });
  const go = box(document.getElementById('summary-go'));
  return { error: box(document.getElementById('error')), buttons, go };
}"""


@pytest.mark.parametrize("lang", ["it", "de", "en"])
@pytest.mark.parametrize("device", [upright(360, 640), upright(320, 568), side(640, 360)],
                         ids=["360x640", "320x568", "640x360"])
def test_the_waiting_notice_leaves_the_summarys_buttons_clear(
        open_page: Callable[..., Any], server: Server, device: dict[str, Any],
        lang: str) -> None:
    gid = server.insert(ONE_CARD_EACH, dealer=3)
    page = open_page(device, game=gid, prefs={**TEST_PREFS, "lang": lang})
    page.watch.expected.append("503")
    page.wait_for_selector("#hand.playable")
    page.tap("#hand .card")
    page.wait_for_function(SUMMARY_OPEN)
    page.wait_for_selector("#summary-review")
    refuse(page, "**/next-round")
    page.tap("#summary-go")
    page.wait_for_selector("#error[data-waits='round']:not([hidden])")
    # Two frames: the summary laid out with the notice's room.
    page.evaluate("() => new Promise((r) => requestAnimationFrame(() =>"
                  " requestAnimationFrame(r)))")
    # As the notice came, the summary's button was brought into sight above it.
    go = page.evaluate("() => { const r = document.getElementById('summary-go')"
                       ".getBoundingClientRect(); return r.bottom; }")
    seen = page.evaluate(BOXES)
    error = seen["error"]
    assert go <= error["top"], seen
    for button in seen["buttons"]:
        assert button["hit"], button
        assert button["bottom"] <= error["top"] or button["top"] >= error["bottom"], seen
    size = "x".join(str(n) for n in device["viewport"].values())
    page.screenshot(path=str(ARTIFACTS / f"waits-over-summary-{lang}-{size}.png"))
