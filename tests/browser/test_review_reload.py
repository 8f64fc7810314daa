"""An open review (key R) stays open across a reload of the page, at the same play, on the game
page and at a table; closed, it stays closed."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import DESKTOP, Server
from .test_coach import play_round
from .test_tables import (  # noqa: F401  (fixtures)
    TableServer,
    in_sync,
    people,
    started_alone,
    tserver,
)

pytestmark = pytest.mark.browser

OVER = "() => ['round_over', 'match_over'].includes(document.body.dataset.status)"


def step_is(page: Any, k: int, n: int) -> None:
    page.wait_for_selector(f"#review:not([hidden]) #review-step:text-is('Play {k} of {n}')")


def reviewed_across_reloads(page: Any, n: int) -> None:
    """R, two steps on, a reload: the review is there at the same play; Esc, a reload: gone."""
    page.keyboard.press("r")
    step_is(page, 1, n)
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    step_is(page, 3, n)
    page.reload()
    page.wait_for_function(OVER)
    step_is(page, 3, n)
    page.keyboard.press("ArrowLeft")  # its keys work as before
    step_is(page, 2, n)
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    page.reload()
    page.wait_for_function(OVER)
    page.wait_for_selector("#summary:not([hidden])")
    assert page.locator("#review").is_hidden()


def test_the_review_stays_open_across_a_reload_of_the_game(open_page: Callable[..., Any],
                                                           server: Server) -> None:
    # Three cards each: seat 0 plays three times.
    gid = server.insert(["7D 5C 1S", "1C 6C 2S", "2C 4B 3S", "3C 9S 4S"], dealer=3)
    page = open_page(DESKTOP, game=gid)
    play_round(page)
    reviewed_across_reloads(page, 3)


def test_the_review_stays_open_across_a_reload_at_a_table(tserver: TableServer,  # noqa: F811
                                                          people: Any) -> None:  # noqa: F811
    code, token = started_alone(tserver, hints=False)
    anna = people(DESKTOP, f"{tserver.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    page = anna.page
    for _ in range(11):  # Anna's ten cards through the API, the computers' by the server
        page.wait_for_function("() => ['your_turn', 'round_over', 'match_over']"
                               ".includes(document.body.dataset.status)")
        view = tserver.view(code, token)
        if view["game"]["status"] != "your_turn":
            break
        r = tserver.http.post(f"/api/tables/{code}/moves",
                              json={"version": view["version"], **view["game"]["legal"][0]},
                              headers={"Authorization": f"Bearer {token}"})
        assert r.status_code == 200, r.text
        in_sync(anna, r.json()["version"])
    page.wait_for_function(OVER)
    page.wait_for_selector("#summary:not([hidden])")
    reviewed_across_reloads(page, 10)
