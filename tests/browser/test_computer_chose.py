"""A person's card that the computer chose (SPEC §6: they were away or out of time) is told
apart wherever the page names who played: the table's last plays say "Bea · computer" (and "The
computer plays ... for you" for the viewer's own), and in the review of the round such a play of
the viewer's is the computer's, not judged, and another person's among the plays before says
"Bea · computer". The marks are put in the store, as the server keeps them
(``meta["table"]["by_computer"]``: indices into the round's history). The viewer's own plays
are theirs in the second person ("You play ..."), as a screen reader hears them; a spectator's
list names every seat."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import ARTIFACTS, DESKTOP, PHONE
from .test_tables import (  # noqa: F401  (fixtures)
    MY_TURN_OR_OVER,
    Person,
    TableServer,
    _card_name,
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



def seated_table(srv: TableServer, names: dict[int, str], start: bool = True
                 ) -> tuple[str, dict[int, str]]:
    """A table of Anna (the host, seat 0) and the people ``names`` by seat, no away clock (the
    server never plays for someone with no stream), Easy computers, 21 points; started unless
    not ``start``. Returns its code and each seat's token."""
    r = srv.http.post("/api/tables", json={"name": "Anna", "level": "easy", "away_seconds": None,
                                           "target": 21})
    assert r.status_code == 201, r.text
    code, tokens = r.json()["table"]["code"], {0: r.json()["token"]}
    for seat, name in names.items():
        r = srv.http.post(f"/api/tables/{code}/seats/{seat}", json={"name": name})
        assert r.status_code == 201, r.text
        tokens[seat] = r.json()["token"]
    if start:
        r = srv.http.post(f"/api/tables/{code}/start",
                          json={"version": srv.view(code)["version"]},
                          headers={"Authorization": f"Bearer {tokens[0]}"})
        assert r.status_code == 200, r.text
    return code, tokens

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
    code, tokens = seated_table(srv, {2: "Bea"})
    anna_token = tokens[0]
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

    # The last plays (newest first): Anna's (her own page) "The computer plays ... for you",
    # "Bea · computer"; no other play.
    page.wait_for_function("n => document.querySelectorAll('#last-list li.by-computer')"
                           ".length === n", arg=len(marked))
    page.screenshot(path=str(ARTIFACTS / "table-by-computer.png"))
    plays = page.evaluate(LAST_PLAYS)
    assert len(plays) == 6, plays
    # Each numbered by its place in the round, the newest highest (numbered 1, the newest read
    # as the first: QA).
    numbers = page.eval_on_selector_all("#last-list li[data-seat]", "els => els.map(e => e.value)")
    assert numbers == list(range(len(history), len(history) - 6, -1)), numbers
    names = {0: "You", 1: "Computer – Right opponent", 2: "Bea", 3: "Computer – Left opponent"}
    for j, (seat, text, mark) in enumerate(plays):
        i = len(history) - 1 - j
        assert seat == history[i]["seat"], (i, plays)
        if i in marked and seat == 0:
            assert mark and text.startswith("The computer plays "), (i, text)
            assert f"{_card_name(history[i]['card'])} for you" in text, (i, text)
        elif i in marked:
            assert mark and text.startswith(f"{names[seat]} · computer plays "), (i, text)
        else:
            verb = " play " if seat == 0 else " plays "
            assert not mark and text.startswith(names[seat] + verb), (i, text)
            assert "· computer" not in text and "for you" not in text, (i, text)
    for lang, anna_said, bea_said in (
            ("it", ("Il computer gioca ", " per te"), "Bea · computer gioca "),
            ("de", ("Der Computer spielt ", " für dich"), "Bea · Computer spielt ")):
        page.select_option("#set-lang", lang)
        page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        texts = {seat: t for seat, t, mark in page.evaluate(LAST_PLAYS) if mark}
        assert texts[0].startswith(anna_said[0]) and anna_said[1] in texts[0], texts
        assert texts[2].startswith(bea_said), texts
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
        assert page.inner_text("#review-accuracy").endswith(f" of {len(judged)}.")
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


def said(who: str, verb: tuple[str, str], play: dict[str, Any], after: str = "") -> str:
    """The English text of a play in the last plays: ``who``, ``verb`` (plays, takes), the
    card and ``after`` it, what it takes."""
    text = f"{who} {verb[0]} {_card_name(play['card'])}{after}"
    if play["capture"]:
        names = [_card_name(c) for c in play["capture"]]
        listed = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"
        text += f" and {verb[1]} {listed}"
    return text


def test_the_last_plays_say_the_viewers_own_plays_in_the_second_person(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """Anna's list of last plays named her own plays "Anna plays ..." (and the computer's choice
    for her "Anna · computer plays ..."), as if Anna were someone else, while a screen reader
    heard "You play ...". Now the list says "You play ..." and "The computer plays ... for
    you"; a spectator's list still names her, and Bea is Bea on both."""
    srv = tserver
    code, tokens = seated_table(srv, {2: "Bea"})
    anna_token = tokens[0]
    url = f"{srv.url}/t/{code}"
    anna = people(DESKTOP, url,
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": anna_token})})
    watcher = people(DESKTOP, url)

    # Bea to play (through the API only: the table waits for her), two cards of Anna's among
    # the last six; the older of them the computer's choice.
    view = play_until(srv, code, anna, tokens, lambda v: v["game"]["turn"] == 2
                      and v["game"]["status"] not in OVER and len(v["game"]["history"]) >= 8)
    history = view["game"]["history"]
    last = list(range(len(history) - 1, len(history) - 7, -1))  # newest first
    annas = [i for i in last if history[i]["seat"] == 0]
    assert len(annas) == 2, history
    chosen = annas[-1]
    version = mark_chosen_by_computer(srv, code, [chosen])
    computers = {1: "Computer – Right opponent", 3: "Computer – Left opponent"}
    for_anna: dict[int, str] = {}
    for_watcher: dict[int, str] = {}
    for i in last:
        play = history[i]
        seat = play["seat"]
        if seat == 0:
            for_anna[i] = (said("The computer", ("plays", "takes"), play, " for you")
                           if i == chosen else said("You", ("play", "take"), play))
            for_watcher[i] = said("Anna · computer" if i == chosen else "Anna",
                                  ("plays", "takes"), play)
        else:
            for_anna[i] = said(computers.get(seat, "Bea"), ("plays", "takes"), play)
            for_watcher[i] = said(f"Computer – Seat {seat + 1}" if seat in computers else "Bea",
                                  ("plays", "takes"), play)
    for person, texts in ((anna, for_anna), (watcher, for_watcher)):
        in_sync(person, version)
        person.page.wait_for_function("() => document.querySelectorAll('#last-list"
                                      " li.by-computer').length === 1")
        shown = person.page.evaluate(LAST_PLAYS)
        assert [seat for seat, _, _ in shown] == [history[i]["seat"] for i in last], shown
        for (_, text, mark), i in zip(shown, last, strict=True):
            # A scopa or the round's end would add a sentence of its own after the play.
            assert text == texts[i] or text.startswith(texts[i] + ". "), (i, text, texts[i])
            assert mark == (i == chosen), (i, text)
    anna.page.screenshot(path=str(ARTIFACTS / "table-last-plays-you.png"))
    # Italian and German: the same two forms of Anna's own.
    for lang, play_word, chosen_words in (("it", "Giochi ", ("Il computer gioca ", " per te")),
                                          ("de", "Du spielst ", ("Der Computer spielt ",
                                                                 " für dich"))):
        anna.page.select_option("#set-lang", lang)
        anna.page.wait_for_function("lang => document.documentElement.lang === lang", arg=lang)
        mine = {i: text for (seat, text, _), i in zip(anna.page.evaluate(LAST_PLAYS), last,
                                                        strict=True) if seat == 0}
        assert mine[annas[0]].startswith(play_word), mine
        assert mine[chosen].startswith(chosen_words[0]) and chosen_words[1] in mine[chosen], mine
    anna.page.select_option("#set-lang", "en")


def test_a_person_away_the_whole_round_reads_that_the_computer_played_their_cards(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """Bea's phone goes offline in the lobby and comes back once the round is over: the
    computer chose every card of hers, so her review has no accuracy, and says why (the
    computer played them), not "no play had a real choice"; the round's summary says the
    same."""
    srv = tserver
    code, tokens = seated_table(srv, {2: "Bea"}, start=False)
    anna_token, bea_token = tokens[0], tokens[2]
    url = f"{srv.url}/t/{code}"
    anna = people(DESKTOP, url,
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": anna_token})})
    bea = people(PHONE, url, {f"scopone.seat.{code}": json.dumps({"seat": 2, "token": bea_token})})
    bea.page.wait_for_function("() => document.body.dataset.connection === 'open'")
    anna.page.wait_for_selector("#lobby-seat-t:has-text('Bea'):not(:has-text('offline'))")
    bea.context.set_offline(True)
    anna.page.wait_for_selector("#lobby-seat-t:has-text('Bea'):has-text('offline')")
    r = srv.http.post(f"/api/tables/{code}/start", json={"version": srv.view(code)["version"]},
                      headers={"Authorization": f"Bearer {anna_token}"})
    assert r.status_code == 200, r.text

    # Anna plays her cards (through the API); the computer plays Bea's, and the two others.
    view = play_until(srv, code, anna, {0: anna_token},
                      lambda v: v["game"]["status"] in OVER)
    beas = [p for p in view["game"]["history"] if p["seat"] == 2]
    assert len(beas) == 10 and all(p["by_computer"] for p in beas), beas
    review = srv.http.get(f"/api/tables/{code}/rounds/1/review",
                          headers={"Authorization": f"Bearer {bea_token}"})
    assert review.status_code == 200, review.text
    assert review.json()["accuracy"] is None
    assert any(not p["forced"] for p in review.json()["plays"]), review.json()["plays"]

    # Bea is back: the round's summary, then its review, say the computer played her cards.
    away = "The computer played your cards that had a choice: nothing to judge."
    bea.context.set_offline(False)
    bea.page.wait_for_function("() => document.body.dataset.connection === 'open'")
    in_sync(bea, view["version"])
    bea.page.wait_for_selector("#summary:not([hidden])")
    bea.page.wait_for_function("text => document.getElementById('summary-coach-note')"
                               ".textContent.startsWith(text)", arg=away)
    bea.page.tap("#summary-review")
    bea.page.wait_for_selector("#review #review-step")
    assert bea.page.inner_text("#review-accuracy") == away
    assert "real choice" not in bea.page.inner_text("#review")
    bea.page.screenshot(path=str(ARTIFACTS / "review-away-phone.png"))
