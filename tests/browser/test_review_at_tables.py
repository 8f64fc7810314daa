"""The review at a table with friends, where the game goes on while it is open: the review of a
match's last round asked for just as the host starts a rematch (the page names the match its
view showed, and the server keeps that round's review past the rematch: the page once got a 404
and showed the review failed); and the person's own clock shown inside the review, which hides
the board (the computer played a person's card while they read, QA helper-57)."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from typing import Any

import pytest

from .conftest import ARTIFACTS, DESKTOP
from .test_tables import (  # noqa: F401  (fixtures)
    Person,
    TableServer,
    host_plays,
    people,
    tserver,
)

REVIEW_STEP = "#review #review-step"

pytestmark = pytest.mark.browser


@dataclass
class Ended:
    """A table of Anna (the host) and three computers whose match is over on Anna's page."""

    code: str
    auth: dict[str, str]
    anna: Person
    version: int  # the table's, at the match's end
    last: int  # the match's last round
    dealt: dict[int, set[str]]  # Anna's cards in each round


def anna_alone(srv: TableServer, people: Any, **options: Any) -> tuple[str, str, Person]:  # noqa: F811
    """A table of Anna (the host) and three computers, started, on Anna's page: its code,
    Anna's token, Anna."""
    r = srv.http.post("/api/tables", json={"name": "Anna", "level": "easy", "hints": False,
                                           **options})
    assert r.status_code == 201, r.text
    code, token = r.json()["table"]["code"], r.json()["token"]
    r = srv.http.post(f"/api/tables/{code}/start", json={"version": r.json()["table"]["version"]},
                      headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    anna = people(DESKTOP, f"{srv.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    return code, token, anna


def match_over(srv: TableServer, people: Any) -> Ended:  # noqa: F811
    code, token, anna = anna_alone(srv, people, away_seconds=None, target=11)
    dealt: dict[int, set[str]] = {}
    view = host_plays(srv, code, token, anna, "match_over", random.Random(11), dealt)
    anna.page.wait_for_selector("#summary-go:visible:has-text('Rematch')")
    return Ended(code, {"Authorization": f"Bearer {token}"}, anna, view["version"],
                 view["game"]["round_number"], dealt)


def reviewed_hand(page: Any) -> set[str]:
    """Anna's hand before the review's step shown."""
    return set(page.eval_on_selector_all("#review .review-step .review-hand .mini",
                                         "els => els.map(e => e.dataset.code)"))


def test_the_last_rounds_review_asked_for_as_the_rematch_starts_shows_that_round(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    srv = tserver
    ended = match_over(srv, people)
    code, auth, anna, last = ended.code, ended.auth, ended.anna, ended.last
    page = anna.page

    # The review's request leaves the page before the rematch reaches it, and arrives at the
    # server after the rematch (another tab of the host's, say, started it).
    asked: list[str] = []

    def rematch_first(route: Any) -> None:
        if not asked:
            r = srv.http.post(f"/api/tables/{code}/rematch", headers=auth,
                              json={"version": ended.version})
            assert r.status_code == 200, r.text
        asked.append(route.request.url)
        route.continue_()

    page.route("**/rounds/*/review*", rematch_first)
    page.keyboard.press("r")  # the summary offers the review (R)
    page.wait_for_selector(REVIEW_STEP)
    assert asked and asked[0].endswith(f"/rounds/{last}/review?match=1"), asked
    # (Named the last match's once the rematch has reached the page, which may be before.)
    assert page.inner_text("#review-title").startswith(f"Review of round {last}")
    shown = reviewed_hand(page)
    assert shown and shown <= ended.dealt[last]
    # The new match reaches the page; the review stays open on the round it was asked for,
    # its title now saying it is the last match's.
    page.wait_for_function("() => document.body.dataset.phase === 'playing'"
                           " && document.getElementById('score-a').textContent === '0'")
    assert page.locator(REVIEW_STEP).is_visible()
    assert page.inner_text("#review-title") == f"Review of round {last} of the last match"
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    anna.check()  # no request refused (the 404 of before), no console error


def test_the_persons_clock_shows_in_the_review_while_it_hides_the_board(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    srv = tserver
    code, token, anna = anna_alone(srv, people, away_seconds=30, target=21)
    auth = {"Authorization": f"Bearer {token}"}
    page = anna.page
    view = host_plays(srv, code, token, anna, "round_over")
    page.wait_for_function("() => document.body.dataset.status === 'round_over'")
    page.keyboard.press("r")
    page.wait_for_selector(REVIEW_STEP)
    assert page.locator("#review-turn").count() == 0  # nobody's clock runs
    # The next round is dealt (the host's other tab, say); the computers play until Anna's
    # turn, and her clock runs while the review hides the board.
    r = srv.http.post(f"/api/tables/{code}/next-round", headers=auth,
                      json={"version": view["version"]})
    assert r.status_code == 200, r.text
    note = page.locator("#review .review-panel #review-turn")
    note.wait_for()
    assert page.evaluate("() => document.body.dataset.status") == "your_turn"
    text = note.inner_text()
    assert text.startswith("Your turn: 0:") and text.endswith(
        " left. Close the review (Esc) to play."), text
    seconds = int(text.split("0:")[1][:2])
    assert 0 < seconds <= 30, text
    page.wait_for_function("t => document.getElementById('review-turn').textContent !== t",
                           arg=text)  # it counts down
    assert page.locator(REVIEW_STEP).is_visible()  # the review stays as it was
    page.screenshot(path=str(ARTIFACTS / "review-turn.png"))
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    page.wait_for_selector("#review-turn", state="detached")  # at the clock's next tick
    assert page.locator("#turn-clock").inner_text().endswith(" left to play")
    anna.check()


def test_a_review_open_as_the_rematch_comes_keeps_the_focus_and_names_the_last_match(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """Drawn anew for the new match (its title), the review keeps the person's focus on the
    control it was on (QA helper-58 saw the title unchanged)."""
    srv = tserver
    ended = match_over(srv, people)
    page = ended.anna.page
    page.keyboard.press("r")
    page.wait_for_selector(REVIEW_STEP)
    assert page.inner_text("#review-title") == f"Review of round {ended.last}"
    page.focus("#review-next")
    r = srv.http.post(f"/api/tables/{ended.code}/rematch", headers=ended.auth,
                      json={"version": ended.version})
    assert r.status_code == 200, r.text
    page.wait_for_function("t => document.getElementById('review-title').textContent === t",
                           arg=f"Review of round {ended.last} of the last match")
    assert page.evaluate("() => document.activeElement.id") == "review-next"
    page.keyboard.press("Enter")  # the next play, as before the rematch
    page.wait_for_function("() => !document.getElementById('review-prev').disabled")
    ended.anna.check()


def test_after_a_rematch_r_reviews_the_last_matchs_final_round_until_a_round_is_over(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """The host started the rematch before Anna opened the review: R (and its button) still
    reviews the match's final round, titled as the last match's, until the new match has a
    round over (the server keeps that round until then)."""
    srv = tserver
    ended = match_over(srv, people)
    page = ended.anna.page
    r = srv.http.post(f"/api/tables/{ended.code}/rematch", headers=ended.auth,
                      json={"version": ended.version})
    assert r.status_code == 200, r.text
    page.wait_for_function("() => document.body.dataset.phase === 'playing'"
                           " && document.getElementById('summary').hidden")
    assert page.is_enabled("#btn-review")
    page.keyboard.press("r")
    page.wait_for_selector(REVIEW_STEP)
    assert page.inner_text("#review-title") == \
        f"Review of round {ended.last} of the last match"
    shown = reviewed_hand(page)
    assert shown and shown <= ended.dealt[ended.last]
    page.keyboard.press("Escape")
    page.wait_for_selector("#review", state="hidden")
    # The new match's first round over: R reviews it. (To 11, a random deal's first round ends
    # the match about once in 200: then it is the new match's end.)
    host_plays(srv, ended.code, ended.auth["Authorization"].split()[1], ended.anna,
               ("round_over", "match_over"))
    page.wait_for_function("() => ['round_over', 'match_over']"
                           ".includes(document.body.dataset.status)")
    page.keyboard.press("r")
    page.wait_for_selector(REVIEW_STEP)
    assert page.inner_text("#review-title") == "Review of round 1"
    ended.anna.check()
