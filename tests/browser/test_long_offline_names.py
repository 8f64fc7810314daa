"""Three people at a table with names of 20 letters and spaces (SPEC §6 allows them), none of
them connected: on a short phone upright the whole hand stays in the window and every card can be
tapped, each name is shown whole with its offline mark, none over another, nothing to scroll
sideways. (At 360 x 536 the names at the sides took four or five lines of their 90 px columns and
the status line two, and the hand's lowest 2 to 25 px lay below the window in each language; at
320 x 568 4 px in Italian and German, whose names at the sides also lay over the partner's; at
375 x 553 8 px in German.)"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

import scopone.web.tables as tables_service
from scopone.engine import Match

from .conftest import ARTIFACTS, side, upright
from .test_layout import PROBE
from .test_tables import TableServer, people, tserver  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

# Seats 1, 2 and 3, taken through the API by people who never open the page: shown offline.
NAMES = ("Maria Antonietta Ros", "Anna Katharina Weber", "Giovanni Battista Xu")
# What the page appends to the name of a person who is not connected (i18n-tables.js).
OFFLINE = {"en": "offline", "it": "non connesso", "de": "nicht verbunden"}
# Seat 1 deals: the partner, offline, plays first (the status line's longest text, "Anna
# Katharina Weber (nicht verbunden) ist dran", over the turn clock's line) and the dealer's dot
# follows the right opponent's name. The worst of the four dealers measured; a table's first
# dealer is otherwise random.
DEALER = 1

READY = """n => document.body.dataset.phase === 'playing'
  && document.querySelectorAll('#hand .card').length === 10
  && document.querySelectorAll('#board .seat.offline').length === 3
  && !document.getElementById('turn-clock').hidden
  && document.getElementById('status').textContent.includes(n)"""

# The other seats' names: their boxes, their whole text, their font's size; the dealer's dot;
# the page's width.
NAMES_SHOWN = """() => {
  const box = (el) => { const r = el.getBoundingClientRect();
    return {left: r.left, right: r.right, top: r.top, bottom: r.bottom}; };
  const seats = [1, 2, 3].map((pos) => {
    const seat = document.getElementById(`seat-${pos}`);
    const name = seat.querySelector('.seat-name');
    return {pos, offline: seat.classList.contains('offline'),
            text: name.innerText.replace(/\\s+/g, ' '), box: box(name),
            font: parseFloat(getComputedStyle(name).fontSize),
            whole: name.scrollHeight <= name.clientHeight + 1
              && name.scrollWidth <= name.clientWidth + 1};
  });
  const dot = document.querySelector('#board .seat .dealer');
  return {seats, dot: dot ? box(dot) : null, wide: document.documentElement.scrollWidth,
          bodyWide: document.body.scrollWidth, width: innerWidth, height: innerHeight};
}"""

SIZES = [(360, 536), (375, 553), (320, 568), (390, 844), (568, 320), (640, 360)]


@pytest.mark.parametrize("lang", ["en", "it", "de"])
@pytest.mark.parametrize("size", SIZES, ids=[f"{w}x{h}" for w, h in SIZES])
def test_long_offline_names_leave_a_short_phone_the_whole_hand(
        tserver: TableServer, people: Any, monkeypatch: pytest.MonkeyPatch,  # noqa: F811
        size: tuple[int, int], lang: str) -> None:
    width, height = size
    srv = tserver
    # The server runs in this process (test_tables.tserver): its tables' first dealer fixed.
    monkeypatch.setattr(tables_service, "Match", functools.partial(Match, dealer=DEALER))
    r = srv.http.post("/api/tables", json={"name": "Anna_Maria_Vittoria_", "level": "easy"})
    code, token = r.json()["table"]["code"], r.json()["token"]
    for seat, name in enumerate(NAMES, start=1):
        r = srv.http.post(f"/api/tables/{code}/seats/{seat}", json={"name": name})
        assert r.status_code == 201, r.text
    r = srv.http.post(f"/api/tables/{code}/start", json={"version": srv.view(code)["version"]},
                      headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    assert srv.view(code, token)["game"]["dealer"] == DEALER
    device = upright(width, height) if height > width else side(width, height)
    anna = people(device, f"{srv.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})}, lang=lang)
    page = anna.page
    # The partner's turn (60 s before the computer plays for her), each seat shown offline.
    page.wait_for_function(READY, arg=NAMES[1])
    page.evaluate("() => document.fonts.ready.then(() => new Promise((r) =>"
                  " requestAnimationFrame(() => requestAnimationFrame(r))))")
    page.screenshot(path=str(ARTIFACTS / f"long-offline-names-{lang}-{width}x{height}.png"))

    shown = page.evaluate(NAMES_SHOWN)
    assert shown["wide"] <= width and shown["bodyWide"] <= width, shown  # no sideways scroll
    cards = page.evaluate(PROBE)
    assert len(cards) == 10
    for card in cards:
        assert card["hit"] == card["code"], (card, shown)  # each card under its visible middle
        assert card["left"] >= 0 and card["right"] <= width, card
        assert card["bottom"] <= height, (card, shown)  # the whole hand in the window

    by_pos = {s["pos"]: s for s in shown["seats"]}
    # Board position 1 is seat 1 (Anna sits at 0): her right, the partner opposite, her left.
    for pos, name in zip((1, 2, 3), NAMES, strict=True):
        s = by_pos[pos]
        assert s["offline"], s  # the seat's class
        assert f"{name} ({OFFLINE[lang]})" in s["text"], s  # the name whole, and its mark
        assert s["whole"], s  # not cut off
        assert s["font"] >= 11, s
        assert s["box"]["left"] >= 0 and s["box"]["right"] <= width, s
    boxes = [s["box"] for s in shown["seats"]]
    for i, a in enumerate(boxes):
        for b in boxes[i + 1:]:
            apart = (a["right"] <= b["left"] or b["right"] <= a["left"]
                     or a["bottom"] <= b["top"] or b["bottom"] <= a["top"])
            assert apart, shown  # no name over another
    dot = shown["dot"]
    assert dot is not None and dot["left"] >= 0 and dot["right"] <= width, shown
