"""One person in two tabs of one browser at a table with friends (QA helper-77). The seat token
is kept per table in localStorage, so both tabs are the same person: what one tab does with the
seat, the other follows."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import DESKTOP
from .test_deal_waits import anna_at
from .test_impatient import asked_after
from .test_round_end_shown import scripted_table
from .test_tables import (  # noqa: F401
    NETWORK_NOISE,
    TableServer,
    anna_hosts_a_lobby,
    hand,
    people,
    tserver,
)

pytestmark = pytest.mark.browser


def other_tab(person: Any, url: str) -> tuple[Any, list[str]]:
    """A second tab of ``person``'s browser at ``url``; the list its script errors go to. A
    request refused is no script error: shown again, the tab says the person is there (a
    ``back``), which a seat left at once in it may refuse (403), as ``Person.check`` allows."""
    tab = person.context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.on("console", lambda msg: errors.append(msg.text) if msg.type == "error"
           and not any(n in msg.text for n in NETWORK_NOISE) else None)
    tab.goto(url)
    return tab, errors


# Records every text the lobby's note shows from now on (a notice painted for a moment too).
NOTES = """() => {
  window.notes = [];
  const note = document.getElementById('lobby-note');
  new MutationObserver(() => window.notes.push(note.textContent))
    .observe(note, { childList: true, characterData: true, subtree: true });
}"""


def test_a_seat_taken_in_one_tab_is_the_other_tabs_seat_too(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """Bea opens the invite link twice (two tabs) and sits down in the first. The second tab
    follows: her seat, not the lobby of a stranger offered the free seats, and once the match
    starts her hand, not a spectator's table. (It stayed a stranger's until reloaded: it
    offered her a second seat, and showed her no hand all match.)"""
    code, _, anna = anna_hosts_a_lobby(tserver, people)
    url = f"{tserver.url}/t/{code}"
    bea = people(DESKTOP, url)
    second, errors = other_tab(bea, url)
    second.wait_for_selector(".lobby-seat[data-seat='2'] button.take")
    bea.page.bring_to_front()  # she sits down in the first tab
    bea.page.locator(".lobby-seat[data-seat='2'] button.take").click()
    bea.page.fill("#sit-name", "Bea")
    # Seated, her page's stream opens again and says she is there: answered before she leaves.
    with bea.page.expect_response(lambda r: r.url.endswith("/back")):
        bea.page.locator("#btn-sit").click()
    bea.page.wait_for_function("() => document.body.dataset.seat === '2'")
    second.wait_for_function("() => document.body.dataset.seat === '2'")
    assert second.locator("button.take").count() == 0
    assert not second.locator("#btn-leave").is_hidden()  # hers to leave, from either tab
    # She leaves it in the second tab: the first is a stranger's lobby again (its stream, on
    # the old token, refused), saying nothing, not for a moment, of a seat given to the
    # computer (it did, until the lobby came); she sits down again there, at seat 1, and the
    # second tab follows that seat.
    bea.expected.append(f"403 GET api/tables/{code}/events")
    bea.page.evaluate(NOTES)
    second.bring_to_front()
    second.click("#btn-leave")
    bea.page.wait_for_selector(".lobby-seat[data-seat='2'] button.take")
    bea.page.bring_to_front()  # she goes back to the first tab
    notes = bea.page.evaluate("() => window.notes")
    assert not [n for n in notes if "computer" in n], notes
    bea.page.locator(".lobby-seat[data-seat='1'] button.take").click()
    bea.page.fill("#sit-name", "Bea")
    bea.page.locator("#btn-sit").click()
    bea.page.wait_for_function("() => document.body.dataset.seat === '1'")
    second.wait_for_function("() => document.body.dataset.seat === '1'")
    assert bea.seat(code)["seat"] == 1
    anna.page.wait_for_selector("#lobby-seat-r[data-kind='person']")
    anna.page.click("#btn-start")
    bea.page.wait_for_selector("#hand .card")
    second.wait_for_selector("#hand .card")
    second.wait_for_function("n => document.querySelectorAll('#hand .card').length === n",
                             arg=len(hand(bea.page)))
    assert sorted(hand(second)) == sorted(hand(bea.page))
    assert not errors


def test_start_and_leave_pressed_twice_ask_once(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """Leave the seat, and the host's Start, each pressed twice before the server answered (a
    double click): one request each. (The second Leave was refused 403, the second Start 409:
    requests sent twice.)"""
    code, _, anna = anna_hosts_a_lobby(tserver, people)
    bea = people(DESKTOP, f"{tserver.url}/t/{code}")
    asked: list[str] = []
    for p in (anna, bea):
        p.page.on("request", lambda req: asked.append(f"{req.method} {req.url}"))
    bea.page.locator(".lobby-seat[data-seat='2'] button.take").click()
    bea.page.fill("#sit-name", "Bea")
    # Seated, her page's stream opens again and says she is there: answered before she leaves.
    with bea.page.expect_response(lambda r: r.url.endswith("/back")):
        bea.page.locator("#btn-sit").click()
    bea.page.wait_for_function("() => document.body.dataset.seat === '2'")
    # Her stream, ended by her leaving, may come back before the answer to Leave, on the
    # token just given up: refused, as a seat lost is.
    bea.expected.append(f"403 GET api/tables/{code}/events")
    bea.page.evaluate("() => { const b = document.getElementById('btn-leave');"
                      " b.click(); b.click(); }")
    bea.page.wait_for_function("() => document.body.dataset.seat === ''")
    asked_after(bea.page, asked)
    assert len([u for u in asked if u.startswith("DELETE")]) == 1, asked
    anna.page.wait_for_selector("#lobby-seat-t[data-kind='free']")
    anna.page.evaluate("() => { const b = document.getElementById('btn-start');"
                       " b.click(); b.click(); }")
    anna.page.wait_for_selector("#hand .card")
    asked_after(anna.page, asked)
    assert len([u for u in asked if u.startswith("POST") and u.endswith("/start")]) == 1, asked
    bea.page.wait_for_selector("#board:not([hidden])")  # a spectator now, of the match begun


def test_a_card_played_in_one_tab_ends_the_choice_begun_in_the_other(
        server: Any, people: Any) -> None:  # noqa: F811
    """Anna's turn in two tabs. In the second she chooses 4D, which takes 1C+3C or 2S+2B (the
    capture still to confirm); in the first she plays 9D. The second drops her choice and shows
    the card played; Enter there then sends nothing."""
    code, token = scripted_table(server, ["4D 9D", "5S 6S", "7S 8S", "5B 6B"], "1C 3C 2S 2B",
                                 dealer=3)
    anna = anna_at(server, people, code, token)
    second, errors = other_tab(anna, f"{server.url}/t/{code}")
    second.wait_for_selector("#hand.playable")
    asked: list[str] = []
    second.on("request", lambda req: asked.append(f"{req.method} {req.url}"))
    second.keyboard.press("1")
    second.wait_for_selector("#hand .card.selected[data-code='4D']")
    anna.page.bring_to_front()
    anna.page.click("#hand .card[data-code='9D']")
    second.wait_for_function("() => Number(document.getElementById('last-list').dataset.count)"
                             " >= 1 && !document.querySelector('#hand .card.selected')")
    assert hand(second) == ["4D"]
    second.bring_to_front()
    second.keyboard.press("Enter")
    asked_after(second, asked)
    assert not [u for u in asked if u.startswith("POST") and u.endswith("/moves")], asked
    assert not errors


def test_a_double_click_on_a_hand_over_hands_over_one_seat(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """The host double-clicks "Give Bea's seat to the computer" during the match. A quick
    server answers the first click before the second comes: Bea's button is gone, and Carla's
    has moved into its place. The second click of the double-click is not a press of Carla's
    button: she keeps her seat. (It handed her seat over too: two people out for one
    double-click; in the lobby the second click opened the seat just given, the same way.)"""
    r = tserver.http.post("/api/tables", json={"name": "Anna", "level": "easy",
                                               "away_seconds": None})
    code, token = r.json()["table"]["code"], r.json()["token"]
    for seat, name in ((1, "Bea"), (3, "Carla")):
        assert tserver.http.post(f"/api/tables/{code}/seats/{seat}",
                                 json={"name": name}).status_code == 201
    r = tserver.http.post(f"/api/tables/{code}/start", headers={"Authorization": f"Bearer {token}"},
                          json={"version": tserver.view(code)["version"]})
    assert r.status_code == 200, r.text
    anna = people(DESKTOP, f"{tserver.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    page = anna.page
    page.wait_for_selector("#host-seats button[data-seat='3']")
    box = page.locator("#host-seats button[data-seat='1']").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    asked: list[str] = []
    page.on("request", lambda req: asked.append(f"{req.method} {req.url}"))
    page.mouse.click(x, y)  # the double-click's first click
    page.wait_for_selector("#host-seats button[data-seat='1']", state="detached")
    # Carla's button has moved over where Bea's was (over its right part, on this desktop):
    # the second click (its detail 2) lands on it, there.
    after = page.locator("#host-seats button[data-seat='3']").bounding_box()
    assert after["x"] < box["x"] + box["width"] and after["y"] < box["y"] + box["height"]
    page.mouse.move(after["x"] + 5, after["y"] + after["height"] / 2)
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)
    asked_after(page, asked)
    assert len([u for u in asked if u.endswith("/computer")]) == 1, asked
    assert [s["kind"] for s in tserver.view(code)["seats"]] == [
        "person", "computer", "computer", "person"]


def test_a_double_click_on_a_hand_over_in_the_lobby_leaves_the_seat_to_the_computer(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """In the lobby, "Open seat 2 to people" takes the place of "Give Carla's seat to the
    computer" once the first click is answered: the second click of the double-click is no
    press of it, and the seat stays the computer's (it was opened again)."""
    code, _, anna = anna_hosts_a_lobby(tserver, people)
    assert tserver.http.post(f"/api/tables/{code}/seats/1",
                             json={"name": "Carla"}).status_code == 201
    page = anna.page
    give = page.locator("#lobby-seat-r button.to-computer")
    box = give.bounding_box()
    page.mouse.click(box["x"] + 5, box["y"] + box["height"] / 2)  # the first click
    page.wait_for_selector("#lobby-seat-r[data-kind='computer'] button.open-seat")
    after = page.locator("#lobby-seat-r button.open-seat").bounding_box()
    page.mouse.move(after["x"] + 5, after["y"] + after["height"] / 2)
    asked: list[str] = []
    page.on("request", lambda req: asked.append(f"{req.method} {req.url}"))
    page.mouse.down(click_count=2)
    page.mouse.up(click_count=2)
    asked_after(page, asked)
    assert not [u for u in asked if u.endswith("/open")], asked
    assert tserver.view(code)["seats"][1]["kind"] == "computer"
