"""A deal asked for on a summary (Next round; New match, or at a table the host's Rematch) that
the server could not take (a 503: its database away; the browser offline) waits and goes by
itself once the server answers, as a card does (static/js/resend.js); a deal someone else made
meanwhile drops it, unsent. (It was lost: the notice said "Connection problem." and the person
had to press again once the connection was back.)"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import DESKTOP, Server
from .test_controls import sent_again
from .test_match import SUMMARY_OPEN, game_id
from .test_round_end_shown import LAID_LAST, scripted_table, start_scripted
from .test_tables import in_sync, people  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

# One card each on an empty table, seat 0 first (dealer 3): the round ends with them.
ONE_CARD_EACH = ["7D", "1C", "2C", "3C"]
ROUND_WAITS = "Connection problem: the next round is dealt as soon as the server answers."
MATCH_WAITS = "Connection problem: the new match begins as soon as the server answers."
# The page shows a new deal: its summary closed, seat 0 holding ten cards.
NEW_DEAL = ("() => document.getElementById('summary').hidden"
            " && document.querySelectorAll('#hand .card').length === 10")
# Nothing waits to be sent again, and the notice is gone.
NOTHING_WAITS = ("() => { const e = document.getElementById('error');"
                 " return e.hidden && e.dataset.waits === ''; }")


def refuse(page: Any, url: str) -> list[str]:
    """Every request of ``page`` to ``url`` (a glob) is answered 503 (the database away) until
    the test unroutes it; the list of the refused requests' URLs, growing as they come."""
    refused: list[str] = []

    def unavailable(route: Any) -> None:
        refused.append(route.request.url)
        route.fulfill(status=503, content_type="application/json",
                      body='{"detail": "database unavailable"}')

    page.route(url, unavailable)
    return refused


def count(page: Any, url: str) -> list[str]:
    """Every request of ``page`` to ``url`` (a glob) goes through, listed as it comes."""
    sent: list[str] = []

    def counted(route: Any) -> None:
        sent.append(route.request.url)
        route.continue_()

    page.route(url, counted)
    return sent


# ----- the game alone ---------------------------------------------------------------------------

def test_a_next_round_the_server_could_not_take_is_dealt_when_it_answers(
        open_page: Callable[..., Any], server: Server) -> None:
    gid = server.insert(ONE_CARD_EACH, dealer=3)
    page = open_page(DESKTOP, game=gid)
    page.watch.expected.append("503")
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card")
    page.wait_for_function(SUMMARY_OPEN)
    refused = refuse(page, "**/next-round")
    page.click("#summary-go")
    page.wait_for_selector("#error[data-waits='round']:not([hidden])")
    assert page.inner_text("#error-text") == ROUND_WAITS
    sent_again(page, refused)  # nobody presses again
    assert server.game(gid)["status"] == "round_over"
    assert page.locator("#summary").is_visible()  # the summary stays until the deal comes
    page.unroute("**/next-round")
    page.wait_for_function(NEW_DEAL, timeout=30_000)
    page.wait_for_function(NOTHING_WAITS)
    view = server.game(gid)
    assert view["round_number"] == 2 and len(view["rounds"]) == 1
    assert game_id(page) == gid


def test_a_new_match_asked_offline_at_the_match_end_begins_when_back_online(
        open_page: Callable[..., Any], server: Server) -> None:
    """The browser offline: the new match waits, its tries failing; online again it begins at
    once (the page reads its game again and the stream opens again), without a second press."""
    gid = server.insert(LAID_LAST, "5C", dealer=3, scores=(10, 0))
    page = open_page(DESKTOP, game=gid)
    page.watch.expected += ["ERR_INTERNET_DISCONNECTED", "Failed to fetch"]
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='5D']")
    page.wait_for_selector("#summary:not([hidden]) #winner")
    assert server.game(gid)["status"] == "match_over"
    created: list[int] = []  # the answers to POST /api/games: a new match made
    page.on("response", lambda res: created.append(res.status) if res.request.method == "POST"
            and res.url.endswith("/api/games") else None)
    page.context.set_offline(True)
    page.click("#summary-go")
    page.wait_for_selector("#error[data-waits='match']:not([hidden])")
    assert page.inner_text("#error-text") == MATCH_WAITS
    assert game_id(page) == gid
    page.context.set_offline(False)
    page.wait_for_function(NEW_DEAL, timeout=30_000)
    page.wait_for_function(NOTHING_WAITS)
    assert game_id(page) != gid and created == [201], created  # one new match, not two
    view = server.game(game_id(page))
    assert view["round_number"] == 1 and view["score"] == [0, 0]


# ----- a table with friends ---------------------------------------------------------------------

def anna_at(server: Server, people: Any, code: str, token: str) -> Any:  # noqa: F811
    """Anna's page at table ``code``, on her turn: she leads the scripted deal."""
    anna = people(DESKTOP, f"{server.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    anna.page.wait_for_selector("#hand.playable")
    return anna


def lead_and_see_the_summary(anna: Any) -> None:
    """Anna plays her one card (5D takes 5C) by key; the computers play theirs; the summary."""
    anna.page.keyboard.press("1")
    anna.page.wait_for_selector("#hand .card.selected")
    anna.page.keyboard.press("Enter")
    anna.page.wait_for_selector("#summary:not([hidden]) #summary-go:visible")


def test_at_a_table_a_next_round_the_server_could_not_take_is_dealt_when_it_answers(
        server: Server, people: Any) -> None:  # noqa: F811
    code, token = scripted_table(server, LAID_LAST, "5C", dealer=3)
    anna = anna_at(server, people, code, token)
    anna.expected.append(f"503 POST api/tables/{code}/next-round")  # the test's own refusal
    page = anna.page
    lead_and_see_the_summary(anna)
    refused = refuse(page, "**/next-round")
    page.keyboard.press("Enter")
    page.wait_for_selector("#error[data-waits='round']:not([hidden])")
    assert page.inner_text("#error-text") == ROUND_WAITS
    sent_again(page, refused)  # nobody presses again
    assert server.http.get(f"/api/tables/{code}").json()["game"]["round_number"] == 1
    page.unroute("**/next-round")
    page.wait_for_function(NEW_DEAL, timeout=30_000)
    page.wait_for_function(NOTHING_WAITS)
    game = server.http.get(f"/api/tables/{code}").json()["game"]
    assert game["round_number"] == 2 and len(game["rounds"]) == 1


def test_at_a_table_a_rematch_asked_offline_begins_when_the_table_is_back(
        server: Server, people: Any) -> None:  # noqa: F811
    """The host's Rematch with her browser offline waits; online again, her page's stream
    opens again and the rematch goes at once, without a second press."""
    code, token = scripted_table(server, LAID_LAST, "5C", dealer=3, scores=(20, 0))
    anna = anna_at(server, people, code, token)
    page = anna.page
    lead_and_see_the_summary(anna)
    assert page.inner_text("#summary-go") == "Rematch"
    page.context.set_offline(True)
    page.click("#summary-go")
    page.wait_for_selector("#error[data-waits='match']:not([hidden])")
    assert page.inner_text("#error-text") == MATCH_WAITS
    page.context.set_offline(False)
    page.wait_for_function(NEW_DEAL + " && document.getElementById('score-a').textContent === '0'",
                           timeout=30_000)
    page.wait_for_function(NOTHING_WAITS)
    view = server.http.get(f"/api/tables/{code}").json()
    assert view["phase"] == "playing" and view["game"]["match"] == 2
    assert view["game"]["score"] == [0, 0]


def scripted_table_with_bea(server: Server,
                            scores: tuple[int, int] = (0, 0)) -> tuple[str, str, str]:
    """Anna (host, seat 0) and Bea (seat 2) with two computers, started on LAID_LAST: Anna's 5D
    takes the 5C, and the other three cards (Bea's 9C among them) end the round (and the match,
    with ``scores`` past the table's 21 before it). The code, and Anna's and Bea's seat
    tokens."""
    r = server.http.post("/api/tables", json={"name": "Anna", "level": "easy", "hints": False,
                                              "away_seconds": None, "target": 21})
    assert r.status_code == 201, r.text
    code, anna = r.json()["table"]["code"], r.json()["token"]
    r = server.http.post(f"/api/tables/{code}/seats/2", json={"name": "Bea"})
    assert r.status_code in (200, 201), r.text
    bea = r.json()["token"]
    start_scripted(server, code, anna, LAID_LAST, "5C", 3, scores)
    return code, anna, bea


def anna_leads_and_bea_ends_the_round(server: Server, anna: Any, code: str,
                                      bea_token: str) -> dict[str, str]:
    """On ``scripted_table_with_bea``: Anna leads her one card by key, Bea's 9C goes through
    the API (her page, if any, may be offline), the summary shows on Anna's page. Bea's
    headers."""
    page = anna.page
    page.keyboard.press("1")
    page.wait_for_selector("#hand .card.selected")
    page.keyboard.press("Enter")
    bea = {"Authorization": f"Bearer {bea_token}"}
    for _ in range(600):  # Bea's turn (a guard, not a measure)
        view = server.http.get(f"/api/tables/{code}", headers=bea).json()
        if view["game"]["status"] == "your_turn":
            break
        page.wait_for_timeout(50)
    r = server.http.post(f"/api/tables/{code}/moves", headers=bea,
                         json={"version": view["version"], "card": "9C", "capture": []})
    assert r.status_code == 200, r.text
    page.wait_for_selector("#summary:not([hidden]) #summary-go:visible")
    return bea


def test_at_a_table_a_waiting_next_round_is_dropped_when_a_friend_deals(
        server: Server, people: Any) -> None:  # noqa: F811
    """Anna's Next round waits (503); Bea deals meanwhile. Anna's page shows Bea's deal and
    drops its own: the notice goes, and no Next round of hers is sent again, not even when
    her page's stream opens again (which sends at once what waits)."""
    code, anna_token, bea_token = scripted_table_with_bea(server)
    anna = anna_at(server, people, code, anna_token)
    anna.expected.append(f"503 POST api/tables/{code}/next-round")  # the test's own refusal
    page = anna.page
    bea = anna_leads_and_bea_ends_the_round(server, anna, code, bea_token)
    refused = refuse(page, "**/next-round")
    page.keyboard.press("Enter")
    page.wait_for_selector("#error[data-waits='round']:not([hidden])")
    assert page.inner_text("#error-text") == ROUND_WAITS
    sent_again(page, refused)
    # Bea deals.
    version = server.http.get(f"/api/tables/{code}", headers=bea).json()["version"]
    r = server.http.post(f"/api/tables/{code}/next-round", headers=bea, json={"version": version})
    assert r.status_code == 200, r.text
    page.wait_for_function(NEW_DEAL, timeout=30_000)
    page.wait_for_function(NOTHING_WAITS)
    # Nothing of Anna's waits: with the server answering and her stream open again (which
    # sends what waits at once, after asking to be back), no Next round of hers goes.
    page.unroute("**/next-round")
    sent = count(page, "**/next-round")
    with page.expect_response(lambda res: res.url.endswith(f"/api/tables/{code}/back")):
        page.context.set_offline(True)
        page.wait_for_function("() => document.body.dataset.connection !== 'open'")
        page.context.set_offline(False)
    page.wait_for_function("() => document.body.dataset.connection === 'open'")
    assert sent == [], sent
    game = server.http.get(f"/api/tables/{code}").json()["game"]
    assert game["round_number"] == 2 and len(game["rounds"]) == 1
    assert page.evaluate("() => document.getElementById('summary').hidden")


def test_at_a_table_a_next_round_asked_offline_is_dropped_when_a_friend_dealt_meanwhile(
        server: Server, people: Any) -> None:  # noqa: F811
    """Anna, offline, presses Next round (it waits); Bea deals while Anna is away. Back online,
    Anna's page shows Bea's deal and sends nothing: its stream says "open" before its catch-up
    view comes, and what waited went at once then, on the summary the table had left (a 409).
    From QA helper-73."""
    code, anna_token, bea_token = scripted_table_with_bea(server)
    anna = anna_at(server, people, code, anna_token)
    anna.expected += ["ERR_INTERNET_DISCONNECTED", "Failed to fetch"]
    page = anna.page
    bea = anna_leads_and_bea_ends_the_round(server, anna, code, bea_token)
    page.context.set_offline(True)
    page.keyboard.press("Enter")
    page.wait_for_selector("#error[data-waits='round']:not([hidden])")
    assert page.inner_text("#error-text") == ROUND_WAITS
    version = server.http.get(f"/api/tables/{code}", headers=bea).json()["version"]
    r = server.http.post(f"/api/tables/{code}/next-round", headers=bea, json={"version": version})
    assert r.status_code == 200, r.text
    sent = count(page, "**/next-round")
    page.context.set_offline(False)
    page.wait_for_function(NEW_DEAL, timeout=30_000)
    page.wait_for_function(NOTHING_WAITS)
    assert sent == [], sent
    assert not [r for r in anna.refused if "next-round" in r], anna.refused
    game = server.http.get(f"/api/tables/{code}").json()["game"]
    assert game["round_number"] == 2 and len(game["rounds"]) == 1
