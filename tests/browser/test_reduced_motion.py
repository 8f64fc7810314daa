"""``prefers-reduced-motion: reduce``: nothing on the page moves by itself, not even a pseudo-
element's animation (the `*` of a rule matches no ::before or ::after)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import Server
from .test_controls import scripted

pytestmark = pytest.mark.browser


def test_the_thinking_dots_stand_still_with_reduced_motion(
        open_page: Callable[..., Any], server: Server) -> None:
    """While a computer thought, the dots after its name blinked (an animation of ::after,
    0.9 s, for ever) whatever the person's setting: every other animation stopped."""
    page, _ = scripted(open_page, server, prefs={"level": "easy", "speed": "normal",
                                                 "lang": "en"})
    page.emulate_media(reduced_motion="reduce")
    assert page.evaluate("() => matchMedia('(prefers-reduced-motion: reduce)').matches")
    page.wait_for_selector("#hand.playable")
    # What runs on the page at the moment the right opponent starts thinking, seen from inside
    # the page, so no moment is missed (test_controls.py watches the same seat).
    page.evaluate("""() => {
      window.running = null;
      new MutationObserver(() => {
        if (window.running === null
            && document.getElementById('seat-1').classList.contains('thinking'))
          window.running = document.getAnimations().map((a) =>
            `${a.animationName || a.transitionProperty || 'script'} on`
            + ` ${a.effect.target.id || a.effect.target.className}${a.effect.pseudoElement || ''}`);
      }).observe(document.getElementById('seat-1'), {attributes: true});
    }""")
    page.click("#hand .card[data-code='9C']")  # laid; then the right opponent (seat 1) plays
    page.wait_for_function("() => window.running !== null")
    assert page.evaluate("() => window.running") == []
