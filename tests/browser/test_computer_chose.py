"""A person's card that the computer chose (SPEC §6: they were away or out of time) is told
apart wherever the page names who played: the table's last plays say "Anna · computer", and in
the review of the round such a play of the viewer's is the computer's, not judged, and another
person's among the plays before says "Bea · computer". The marks are put in the store, as the
server keeps them (``meta["table"]["by_computer"]``: indices into the round's history)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import ARTIFACTS, DESKTOP
from .test_tables import (  # noqa: F401  (fixtures)
    MY_TURN_OR_OVER,
    Person,
    TableServer,
    in_sync,
    people,
    play_until,
    tserver,
)

pytestmark = pytest.mark.browser

OVER = ("round_over", "match_over")
# The last plays as the page lists them, newest first: seat, text, marked or not.
LAST_PLAYS = """() => [...document.querySelectorAll('#last-list li[data-seat]')]
  .map((li) => [Number(li.dataset.seat), li.textContent, li.classList.contains('by-computer')])"""
REVIEW_STEP = """() => {
  const step = document.querySelector('#review .review-step');
  return {marked: step.classList.contains('by-computer'),
          played: step.querySelector('.played').textContent,
          verdict: step.querySelector('.verdict').textContent.trim(),
          label: step.querySelector('#review-label') !== null,
          before: [...step.querySelectorAll('.review-before li')].map((li) => li.textContent)};
}"""


def mark_chosen_by_computer(srv: TableServer, code: str, plays: list[int]) -> int:
    """Notes in the store that the computer chose the cards of ``plays`` (as the server does for
    an away person) and tells the table's watchers; the table's new version."""
    service = srv.app.state.service
    for _ in range(10):  # again if someone's presence changed the table meanwhile
        rec = service.store.load_by_code(code)
        rec.meta["table"]["by_computer"] = plays
        rec.version += 1
        if service.store.update(rec, rec.version - 1):
            service.hub.publish(rec.id, rec.version)
            return int(rec.version)
    raise AssertionError("the table kept changing")


def test_cards_the_computer_chose_for_a_person_say_so(tserver: TableServer,  # noqa: F811
                                                      people: Any) -> None:  # noqa: F811
    srv = tserver
    # Anna (the host, seat 0, her page open) and Bea (seat 2, through the API: with no stream
    # and no away clock the server never plays for her) with two computers.
    r = srv.http.post("/api/tables", json={"name": "Anna", "level": "easy", "away_seconds": None,
                                           "target": 21})
    assert r.status_code == 201, r.text
    code, anna_token = r.json()["table"]["code"], r.json()["token"]
    r = srv.http.post(f"/api/tables/{code}/seats/2", json={"name": "Bea"})
    assert r.status_code == 201, r.text
    tokens = {0: anna_token, 2: r.json()["token"]}
    r = srv.http.post(f"/api/tables/{code}/start", json={"version": srv.view(code)["version"]},
                      headers={"Authorization": f"Bearer {anna_token}"})
    assert r.status_code == 200, r.text
    anna = people(DESKTOP, f"{srv.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": anna_token})})
    page = anna.page

    # Some cards in, Anna to play: her last card and Bea's were the computer's choice.
    view = play_until(srv, code, anna, tokens, lambda v: v["game"]["turn"] == 0
                      and v["game"]["status"] not in OVER and len(v["game"]["history"]) >= 8)
    history = view["game"]["history"]
    last = {seat: max(i for i, p in enumerate(history) if p["seat"] == seat) for seat in (0, 2)}
    marked = sorted(last.values())
    in_sync(anna, mark_chosen_by_computer(srv, code, marked))
    shown = srv.view(code)["game"]["history"]
    assert [i for i, p in enumerate(shown) if p["by_computer"]] == marked

    # The last plays (newest first): "Anna · computer", "Bea · computer"; no other play.
    page.wait_for_function("n => document.querySelectorAll('#last-list li.by-computer')"
                           ".length === n", arg=len(marked))
    page.screenshot(path=str(ARTIFACTS / "table-by-computer.png"))
    plays = page.evaluate(LAST_PLAYS)
    assert len(plays) == 6, plays
    # Each numbered by its place in the round, the newest highest (numbered 1, the newest read
    # as the first: QA).
    numbers = page.eval_on_selector_all("#last-list li[data-seat]", "els => els.map(e => e.value)")
    assert numbers == list(range(len(history), len(history) - 6, -1)), numbers
    names = {0: "Anna", 1: "Computer – Right opponent", 2: "Bea", 3: "Computer – Left opponent"}
    for j, (seat, text, mark) in enumerate(plays):
        i = len(history) - 1 - j
        assert seat == history[i]["seat"], (i, plays)
        if i in marked:
            assert mark and text.startswith(f"{names[seat]} · computer plays "), (i, text)
        else:
            assert not mark and text.startswith(f"{names[seat]} plays "), (i, text)
            assert "· computer" not in text, (i, text)
    for lang, word in (("it", "computer gioca "), ("de", "Computer spielt ")):
        page.select_option("#set-lang", lang)
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        texts = [t for _, t, mark in page.evaluate(LAST_PLAYS) if mark]
        assert sorted(texts)[0].startswith(f"Anna · {word}"), texts
        assert sorted(texts)[1].startswith(f"Bea · {word}"), texts
    page.select_option("#set-lang", "en")

    # The round to its end. The review: Anna's marked card is the computer's, not judged.
    view = play_until(srv, code, anna, tokens, lambda v: v["game"]["status"] in OVER)
    in_sync(anna, view["version"])
    page.wait_for_selector("#summary:not([hidden])")
    review = srv.http.get(f"/api/tables/{code}/rounds/1/review",
                          headers={"Authorization": f"Bearer {anna_token}"})
    assert review.status_code == 200, review.text
    mine = review.json()["plays"]
    assert [p["index"] for p in mine if p["by_computer"]] == [last[0]]
    judged = [p for p in mine if not p["forced"] and not p["by_computer"]]
    page.keyboard.press("r")
    page.wait_for_selector("#review #review-step")
    if review.json()["accuracy"] is not None:
        assert f"of {len(judged)} plays with a choice" in page.inner_text("#review-accuracy")
    bea_marked = 0  # steps that list Bea's marked card
    for k, p in enumerate(mine):
        if k:
            page.keyboard.press("ArrowRight")
        page.wait_for_selector(f"#review-step:text-is('Play {k + 1} of {len(mine)}')")
        step = page.evaluate(REVIEW_STEP)
        if p["by_computer"]:
            assert step["marked"] and not step["label"], step
            assert step["played"].startswith("Played by the computer while you were away: "), step
            assert step["verdict"] == "The computer chose this card: not judged.", step
            page.screenshot(path=str(ARTIFACTS / "review-by-computer.png"))
        else:
            assert not step["marked"] and step["played"].startswith("You played "), step
            assert step["label"] or step["verdict"] == "Only one legal move: not judged.", step
        # Bea's marked card, among the plays before Anna's next one.
        bea = [t for t in step["before"] if t.startswith("Bea")]
        previous = mine[k - 1]["index"] if k else -1
        expected = "Bea · computer: " if previous < last[2] < p["index"] else "Bea: "
        assert all(t.startswith(expected) for t in bea), (k, step)
        bea_marked += sum(t.startswith("Bea · computer: ") for t in bea)
        assert not any("· computer" in t for t in step["before"] if not t.startswith("Bea")), step
    assert bea_marked == 1
