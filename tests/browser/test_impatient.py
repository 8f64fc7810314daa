"""Impatient and repeated input on the game page played alone (QA helper-76): a key held down
(its repeats), N or New pressed again while the new match is on its way, a rule changed
meanwhile. Each press acts once; a repeat of a held key acts not at all."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, Server
from .test_controls import scripted
from .test_deal_waits import NEW_DEAL, ONE_CARD_EACH, anna_at, refuse
from .test_match import SUMMARY_OPEN, codes, game_id
from .test_round_end_shown import LAID_LAST, scripted_table
from .test_tables import TableServer, anna_hosts_a_lobby, people, tserver  # noqa: F401

pytestmark = pytest.mark.browser

LEVEL_IS = "level => document.getElementById('btn-level').dataset.level === level"


def hold_first_create(page: Any) -> list[Any]:
    """The page's first POST /api/games is held until the test continues it (a slow server);
    later ones go through. The held route, once it came."""
    held: list[Any] = []

    def hold(route: Any) -> None:
        if route.request.method == "POST" and not held:
            held.append(route)
        else:
            route.continue_()

    page.route("**/api/games", hold)
    return held


def wait_for(held: list[Any], page: Any) -> Any:
    """The held route, once the page's request came (a guard, not a measure)."""
    for _ in range(200):
        if held:
            return held[0]
        page.wait_for_timeout(50)
    raise AssertionError("the new match was never asked for")


def asked_after(page: Any, asked: list[str]) -> None:
    """Waits until a request the page makes now is seen: any request made before it (a second
    press's) has been seen by then (the browser reports its requests in order)."""
    page.evaluate("() => fetch('/healthz').then((r) => r.status)")
    for _ in range(200):  # a guard, not a measure
        if any(u.endswith("/healthz") for u in asked):
            return
        page.wait_for_timeout(50)
    raise AssertionError("the page's request was never seen")


def sent(page: Any, request: str) -> int:
    return sum(r.split("?")[0] == request for r in page.watch.requests)


def test_n_held_down_or_pressed_again_makes_one_match_and_a_rule_changed_its_own(
        open_page: Callable[..., Any], server: Server) -> None:
    """N held down (three repeats), pressed again and the bar's New, all while the new match is
    on its way, ask for it once; Napola pressed meanwhile asks for a match with Napola, which is
    the one shown. (Each repeat and each press made a match of its own: five here.)"""
    page = open_page(DESKTOP)
    first = game_id(page)
    before = sent(page, "POST /api/games")  # the page's first match
    held = hold_first_create(page)
    page.keyboard.down("n")
    for _ in range(3):
        page.keyboard.down("n")  # the key's repeats (event.repeat)
    page.keyboard.up("n")
    route = wait_for(held, page)
    page.keyboard.press("n")
    page.click("#btn-new")
    page.click("#btn-napola")  # a rule changed: its own match, after the one on its way
    route.continue_()
    page.wait_for_function("() => document.getElementById('btn-napola')"
                           ".getAttribute('aria-pressed') === 'true'")
    page.wait_for_function(NEW_DEAL)
    shown = game_id(page)
    assert shown != first and server.game(shown)["rules"]["napola"] is True
    # L goes after every request asked before it (they go one at a time): its answer shown,
    # every new match asked for has been sent.
    page.keyboard.press("l")
    page.wait_for_function(LEVEL_IS, arg="normal")
    assert sent(page, "POST /api/games") - before == 2, page.watch.requests
    assert game_id(page) == shown and server.game(shown)["level"] == "normal"


def test_l_and_d_held_down_change_the_level_and_the_design_once(
        open_page: Callable[..., Any], server: Server) -> None:
    """L and D held down step once, as a press does. (The repeats went round the levels and
    the designs, to wherever the key was let go.)"""
    page = open_page(DESKTOP)
    gid = game_id(page)
    page.keyboard.down("d")
    for _ in range(2):
        page.keyboard.down("d")
    page.keyboard.up("d")
    assert page.get_attribute("body", "data-design") == "clear"
    page.keyboard.down("l")
    for _ in range(2):
        page.keyboard.down("l")
    page.keyboard.up("l")
    page.wait_for_function(LEVEL_IS, arg="normal")
    # A new match goes after every level asked before it: once it is shown, all were answered.
    page.keyboard.press("n")
    page.wait_for_function("old => localStorage.getItem('scopone.game') !== old", arg=gid)
    page.wait_for_function(NEW_DEAL)
    assert sent(page, f"PATCH /api/games/{gid}") == 1, page.watch.requests
    assert server.game(gid)["level"] == "normal"
    assert server.game(game_id(page))["level"] == "normal"
    assert page.get_attribute("body", "data-design") == "clear"


def test_enter_held_on_the_last_card_leaves_the_summary_to_be_read(
        open_page: Callable[..., Any], server: Server) -> None:
    """Enter held down on the round's last card plays it; the summary that opens meanwhile
    stays until Enter is pressed again. (Its repeats dealt the next round unread.)"""
    gid = server.insert(ONE_CARD_EACH, dealer=3)
    page = open_page(DESKTOP, game=gid)
    page.wait_for_selector("#hand.playable")
    page.keyboard.press("1")
    page.wait_for_selector("#hand .card.selected")
    page.keyboard.down("Enter")  # plays the card
    page.wait_for_function(SUMMARY_OPEN)
    page.keyboard.down("Enter")  # still held: a repeat
    page.keyboard.up("Enter")
    # L goes after every request asked before it: its answer shown, a deal asked by the
    # repeat would have been sent.
    page.keyboard.press("l")
    page.wait_for_function(LEVEL_IS, arg="normal")
    assert sent(page, f"POST /api/games/{gid}/next-round") == 0, page.watch.requests
    assert page.locator("#summary").is_visible()
    assert server.game(gid)["status"] == "round_over"
    page.keyboard.press("Enter")
    page.wait_for_function(NEW_DEAL)
    assert server.game(gid)["round_number"] == 2


# ----- the same person in two tabs --------------------------------------------------------------

def second_tab(page: Any, server: Server) -> tuple[Any, list[str]]:
    """Another tab of ``page``'s browser (its context: the same stored game), on the game page;
    the list its script errors go to."""
    tab = page.context.new_page()
    errors: list[str] = []
    tab.on("pageerror", lambda exc: errors.append(str(exc)))
    tab.goto(server.url + "/")
    tab.wait_for_selector("#hand .card")
    return tab, errors


def test_a_new_match_waiting_in_one_tab_follows_the_one_another_tab_made(
        open_page: Callable[..., Any], server: Server) -> None:
    """The match over in two tabs; in the first, New match waits (the server away for it); the
    second tab makes a new match. The first drops its own at once and follows the second's once
    the server answers. (It kept waiting, and made a second new match once the server
    answered.)"""
    gid = server.insert(LAID_LAST, "5C", dealer=3, scores=(10, 0))
    here = open_page(DESKTOP, game=gid)
    here.watch.expected.append("503")
    there, errors = second_tab(here, server)
    here.wait_for_selector("#hand.playable")
    here.click("#hand .card[data-code='5D']")
    for page in (here, there):
        page.wait_for_selector("#summary:not([hidden]) #winner")
    refuse(here, "**/api/**")  # the server away for the first tab
    here.click("#summary-go")
    here.wait_for_selector("#error[data-waits='match']:not([hidden])")
    there.click("#summary-go")
    there.wait_for_function(NEW_DEAL)
    made = game_id(there)
    assert made != gid
    # The first tab's match waits no more, the server still away.
    here.wait_for_function("() => document.getElementById('error').dataset.waits === ''")
    here.unroute("**/api/**")
    here.wait_for_function(NEW_DEAL + " && !document.querySelector('#error:not([hidden])')",
                           timeout=30_000)
    assert codes(here, "#hand .card") == codes(there, "#hand .card")
    assert game_id(here) == made
    # Every new match the first tab asked for was refused: it never made one of its own.
    assert sent(here, "POST /api/games") == here.watch.refused.count("503 POST /api/games")
    assert not errors


def test_a_language_chosen_in_one_tab_is_kept_while_another_tab_plays_on(
        open_page: Callable[..., Any], server: Server) -> None:
    """The game in two tabs: Italian chosen in one, which is then closed; the other plays on.
    The next visit is in Italian. (Each view the other tab took stored all its preferences,
    its English too.)"""
    here, _ = scripted(open_page, server)
    there, errors = second_tab(here, server)
    here.click("#btn-settings")
    here.select_option("#set-lang", "it")
    here.wait_for_function("() => document.documentElement.lang === 'it'")
    here.close()
    there.wait_for_selector("#hand.playable")
    there.click("#hand .card[data-code='9C']")  # laid on the table; the computers play on
    there.wait_for_function("() => document.querySelectorAll('#hand .card').length === 8"
                            " && document.querySelector('#hand.playable') !== null")
    stored = there.evaluate("() => JSON.parse(localStorage.getItem('scopone.prefs'))")
    assert stored["lang"] == "it", stored
    assert not errors


# ----- a table with friends ---------------------------------------------------------------------

def test_at_a_table_enter_held_on_the_last_card_leaves_the_summary_to_be_read(
        server: Server, people: Any) -> None:  # noqa: F811
    """At a table, Enter held down on the round's last card plays it; its repeats deal no next
    round while the summary is open (they did)."""
    code, token = scripted_table(server, LAID_LAST, "5C", dealer=3)
    anna = anna_at(server, people, code, token)
    page = anna.page
    asked: list[str] = []
    page.on("request", lambda req: asked.append(req.url))
    page.keyboard.press("1")
    page.wait_for_selector("#hand .card.selected")
    page.keyboard.down("Enter")  # plays the card
    page.wait_for_selector("#summary:not([hidden]) #summary-go:visible")
    page.keyboard.down("Enter")  # still held: a repeat
    page.keyboard.up("Enter")
    asked_after(page, asked)  # a deal the repeat asked for would have been seen by then
    assert not [u for u in asked if u.endswith("/next-round")], asked
    assert page.locator("#summary").is_visible()
    page.keyboard.press("Enter")
    page.wait_for_function(NEW_DEAL)
    assert server.http.get(f"/api/tables/{code}").json()["game"]["round_number"] == 2


def test_sit_down_pressed_twice_sits_once_and_says_nothing_of_a_seat_taken(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """Sit down pressed twice before the server answered (a double tap, Enter in the name field
    held) sent two requests for the seat: the second was refused as taken, and the person who
    had just sat down read "That seat was just taken: choose another one." One request now."""
    code, _, anna = anna_hosts_a_lobby(tserver, people)
    bea = people(PHONE, f"{tserver.url}/t/{code}")
    page = bea.page
    asked: list[str] = []
    page.on("request", lambda req: asked.append(f"{req.method} {req.url}"))
    page.locator(".lobby-seat[data-seat='2'] button.take").tap()
    page.fill("#sit-name", "Bea")
    # Both presses in one go, as a double tap's come: before any answer.
    page.evaluate("() => { const form = document.getElementById('sit-form');"
                  " form.requestSubmit(); form.requestSubmit(); }")
    page.wait_for_function("() => document.body.dataset.seat === '2'")
    asked_after(page, asked)  # a second seat request would have been seen by then
    assert len([u for u in asked if u.startswith("POST") and "/seats/2" in u]) == 1, asked
    assert "taken" not in page.inner_text("body")
    anna.page.wait_for_selector("#lobby-seat-t[data-kind='person']")  # her partner's
    for p in (anna, bea):
        p.check()


def test_play_with_friends_closed_while_its_table_is_made_stays_closed_without_an_error(
        open_page: Callable[..., Any]) -> None:
    """"Play with friends": Create pressed, then the dialog closed (Esc) before the server
    answered. The answer finds no form to fill: the dialog stays closed, and the page has no
    script error (it had one, filling the form no longer there); opened again, the form is
    fresh. (QA helper-77.)"""
    page = open_page(DESKTOP)
    held: list[Any] = []
    page.route("**/api/tables", lambda route: held.append(route))
    page.click("#btn-friends")
    page.fill("#fr-name", "Anna")
    page.click("#fr-create")
    route = wait_for(held, page)
    page.keyboard.press("Escape")
    page.wait_for_selector("#friends", state="hidden")
    route.continue_()
    # The answer has been read once its seat is kept (the step before the form is filled).
    page.wait_for_function(
        "() => Object.keys(localStorage).some((k) => k.startsWith('scopone.seat.'))")
    # (A script error is found by the page's watch, at the end of the test.)
    assert page.locator("#friends").is_hidden()
    page.click("#btn-friends")
    assert page.locator("#fr-create").is_enabled()
    assert page.locator("#fr-done").is_hidden()
