"""A table's page on a short phone upright (under 640 px high: an iPhone SE or 8 in Safari,
375 x 553; a 360 x 640 Android with its address bar, 360 x 560): the whole hand in the window
through a round. Its lowest 20 to 27 px lay below the window at the round's start (the bar's
two rows, the computers' names in two or three lines, the turn clock's line), and 100 px once
six cards lay on the table (in two rows)."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from .conftest import ARTIFACTS, PHONE
from .test_layout import PROBE
from .test_tables import (  # noqa: F401  (fixtures)
    TableServer,
    in_sync,
    people,
    tserver,
)

pytestmark = pytest.mark.browser

# The page's lowest point, its width, and whether the person's own name shows.
SHOWN = """() => ({height: document.documentElement.scrollHeight, width:
  document.documentElement.scrollWidth, name: document.getElementById('seat-0-name')
  .getClientRects().length > 0, table: document.querySelectorAll('#table-cards .card').length})"""


@pytest.mark.parametrize(("size", "lang"), [((375, 553), "de"), ((360, 560), "en"),
                                            ((375, 553), "it"), ((320, 568), "it")],
                         ids=["375x553-de", "360x560-en", "375x553-it", "320x568-it"])
def test_a_short_upright_phone_shows_a_tables_whole_hand_through_a_round(
        tserver: TableServer, people: Any, size: tuple[int, int],  # noqa: F811
        lang: str) -> None:
    width, height = size
    srv = tserver
    r = srv.http.post("/api/tables", json={"name": "Anna", "level": "easy"})
    code, token = r.json()["table"]["code"], r.json()["token"]
    # Bea at the partner's seat, her browser away: her turns show a clock too.
    r = srv.http.post(f"/api/tables/{code}/seats/2", json={"name": "Bea"})
    tokens = [token, r.json()["token"]]
    r = srv.http.post(f"/api/tables/{code}/start", json={"version": srv.view(code)["version"]},
                      headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    anna = people({**PHONE, "viewport": {"width": width, "height": height}},
                  f"{srv.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})}, lang=lang)
    page = anna.page
    page.wait_for_function("() => document.body.dataset.phase === 'playing'")
    rng = random.Random(width + height)
    most = 0
    for _ in range(300):
        view = srv.view(code, token)
        game = view["game"]
        if game["status"] == "round_over":
            break
        in_sync(anna, view["version"])
        # Two frames: the page drawn as it stands at that version.
        page.evaluate("() => new Promise((r) => requestAnimationFrame(() =>"
                      " requestAnimationFrame(r)))")
        shown = page.evaluate(SHOWN)
        assert shown["width"] == width and not shown["name"], shown
        cards = page.evaluate(PROBE)
        for card in cards:
            assert card["hit"] == card["code"] and card["bottom"] <= height, (card, shown)
        if shown["table"] >= most and cards:
            most = shown["table"]
            page.screenshot(
                path=str(ARTIFACTS / f"short-upright-table-{lang}-{width}x{height}.png"))
        for its_token in tokens:
            mine = srv.view(code, its_token)
            if mine["game"]["status"] == "your_turn":
                r = srv.http.post(f"/api/tables/{code}/moves",
                                  headers={"Authorization": f"Bearer {its_token}"},
                                  json={"version": mine["version"],
                                        **rng.choice(mine["game"]["legal"])})
                assert r.status_code in (200, 409), r.text
                break
        else:
            in_sync(anna, view["version"] + 1)  # a computer's card, on Anna's page
    else:
        raise AssertionError("the round never ended")
    # (A crowded table, in one row, is tested on a scripted deal: test_coach_phone.py
    # test_the_tables_cards_take_one_row_on_a_narrow_or_short_phone; here the deal is the
    # server's own.)
