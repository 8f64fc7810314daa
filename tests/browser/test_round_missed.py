"""A round played to its end, and the next dealt, while a person's page was away (offline: a
phone in a tunnel, asleep): back, the page says how that round went, whose summary it never
showed, until the person's first card of the new round. (It showed the new round as if nothing
had happened: the round's points only in the match's score.)"""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, Server
from .test_deal_waits import anna_at, anna_leads_and_bea_ends_the_round, scripted_table_with_bea
from .test_tables import TableServer, in_sync, people, play_until, tserver  # noqa: F401

pytestmark = pytest.mark.browser


def _bea_offline_at_a_table(srv: TableServer, open_page: Any, target: int) -> tuple[
        str, str, str, Any, Any]:
    """Anna (the host, desktop) and Bea (her partner, phone) at a started table; Bea's page
    offline. Returns the code, their tokens and their pages."""
    r = srv.http.post("/api/tables", json={"name": "Anna", "level": "easy",
                                           "away_seconds": None, "target": target})
    code, anna_token = r.json()["table"]["code"], r.json()["token"]
    bea_token = srv.http.post(f"/api/tables/{code}/seats/2", json={"name": "Bea"}).json()["token"]
    url = f"{srv.url}/t/{code}"
    seat = f"scopone.seat.{code}"
    anna = open_page(DESKTOP, url, {seat: json.dumps({"seat": 0, "token": anna_token})})
    bea = open_page(PHONE, url, {seat: json.dumps({"seat": 2, "token": bea_token})})
    r = srv.http.post(f"/api/tables/{code}/start", json={"version": srv.view(code)["version"]},
                      headers={"Authorization": f"Bearer {anna_token}"})
    assert r.status_code == 200, r.text
    bea.page.wait_for_function("() => document.body.dataset.phase === 'playing'"
                               " && document.body.dataset.connection === 'open'")
    in_sync(bea, r.json()["version"])
    bea.context.set_offline(True)
    return code, anna_token, bea_token, anna, bea


def _round_played_and_dealt(srv: TableServer, code: str, anna: Any, tokens: dict[int, str]
                            ) -> list[int]:
    """Their cards through the API (Bea's other device, say), the computers' by the server, to
    the round's end; Anna deals the next round from her summary. Returns the round's points
    (pair A's: Anna's and Bea's, pair B's)."""
    over = play_until(srv, code, anna, tokens, lambda v: v["game"]["status"] == "round_over")
    anna.page.wait_for_selector("#summary:not([hidden]) #summary-go")
    anna.page.click("#summary-go")
    in_sync(anna, over["version"] + 1)
    points: list[int] = over["game"]["rounds"][-1]["points"]
    return points


def _said(page: Any, text: str) -> None:
    page.wait_for_function("t => { const note = document.getElementById('board-note');"
                           " return !note.hidden && note.textContent === t; }", arg=text)


def test_a_round_missed_offline_is_said_when_the_page_is_back(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    srv = tserver
    # To 21: the first round never ends the match (to 11, about once in 200 random deals).
    code, anna_token, bea_token, anna, bea = _bea_offline_at_a_table(srv, people, 21)
    points = _round_played_and_dealt(srv, code, anna, {0: anna_token, 2: bea_token})
    assert srv.view(code)["game"]["round_number"] == 2

    bea.context.set_offline(False)
    page = bea.page
    page.wait_for_function("() => document.body.dataset.connection === 'open'")
    said = f"Round 1 ended while this page was away: We {points[0]}, They {points[1]}."
    _said(page, said)
    assert page.is_hidden("#summary")
    # Anna saw the summary herself: nothing said on her page.
    assert anna.page.is_hidden("#board-note")
    # Bea's first card of the new round: the note has said its part.
    now = play_until(srv, code, anna, {0: anna_token},
                     lambda v: v["game"]["turn"] == 2)
    in_sync(bea, now["version"])
    # Still said: a card the computer played for her while she was offline is not hers.
    assert page.inner_text("#board-note") == said
    mine = srv.view(code, bea_token)
    r = srv.http.post(f"/api/tables/{code}/moves",
                      json={"version": mine["version"], **mine["game"]["legal"][0]},
                      headers={"Authorization": f"Bearer {bea_token}"})
    assert r.status_code == 200, r.text
    in_sync(bea, r.json()["version"])
    page.wait_for_selector("#board-note", state="hidden")
    for p in (anna, bea):
        p.check()


def test_rounds_missed_offline_are_said_together(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """Away for two rounds (a phone asleep while the friends played on): both are said, each
    pair's points added up, not the last round's only."""
    srv = tserver
    # To 31: two rounds never end the match.
    code, anna_token, bea_token, anna, bea = _bea_offline_at_a_table(srv, people, 31)
    first = _round_played_and_dealt(srv, code, anna, {0: anna_token, 2: bea_token})
    second = _round_played_and_dealt(srv, code, anna, {0: anna_token, 2: bea_token})
    assert srv.view(code)["game"]["round_number"] == 3

    bea.context.set_offline(False)
    bea.page.wait_for_function("() => document.body.dataset.connection === 'open'")
    _said(bea.page, "Rounds 1 to 2 ended while this page was away:"
                    f" We {first[0] + second[0]}, They {first[1] + second[1]}.")
    assert bea.page.is_hidden("#summary")
    assert anna.page.is_hidden("#board-note")
    for p in (anna, bea):
        p.check()


def test_a_match_missed_offline_is_said_when_the_page_is_back(
        server: Server, people: Any) -> None:  # noqa: F811
    """The match's last round played and the host's rematch while Bea's page was offline: back,
    it says who won the match, and by how much (the server's ``last_match``)."""
    code, anna_token, bea_token = scripted_table_with_bea(server, scores=(20, 0))
    anna = anna_at(server, people, code, anna_token)
    bea = people(PHONE, f"{server.url}/t/{code}",
                 {f"scopone.seat.{code}": json.dumps({"seat": 2, "token": bea_token})},
                 lang="it")
    bea.page.wait_for_function("() => document.body.dataset.phase === 'playing'"
                               " && document.body.dataset.connection === 'open'")
    bea.context.set_offline(True)
    bea.expected += ["ERR_INTERNET_DISCONNECTED", "Failed to fetch"]
    anna_leads_and_bea_ends_the_round(server, anna, code, bea_token)
    over = server.http.get(f"/api/tables/{code}").json()["game"]
    assert over["status"] == "match_over" and over["winner"] == "A", over
    anna.page.click("#summary-go")  # Rematch
    anna.page.wait_for_function("() => document.getElementById('summary').hidden")
    bea.context.set_offline(False)
    said = ("La partita 1 è finita mentre questa pagina era assente: tu e il tuo compagno avete"
            f" vinto, {over['score'][0]} a {over['score'][1]}. È iniziata la rivincita.")
    _said(bea.page, said)
    assert bea.page.is_hidden("#summary")
    assert anna.page.is_hidden("#board-note")  # her own rematch: nothing to tell her
    for p in (anna, bea):
        p.check()
