"""The game's texts as an Italian or German player reads or hears them: whole sentences where
they are joined, grammar, and numbers in the language's own format."""

from __future__ import annotations

import re
import secrets
from collections.abc import Callable
from typing import Any

import pytest

from scopone.coach.stats import empty_stats
from scopone.web.store import PersonRecord, SqliteStore

from .conftest import DESKTOP, TEST_PREFS, Server
from .test_keyboard_and_reader import LISTEN
from .test_match import SUMMARY_OPEN, game_id

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("lang", "said"), [
    ("de", r"Gegner links spielt Reiter (Stäbe|Münzen) und nimmt Reiter Kelche\."
           r" Du bist dran: Wähle eine Karte"),
    ("it", r"Avversario a sinistra gioca Cavallo di (Bastoni|Denari) e prende Cavallo di Coppe\."
           r" Tocca a te: scegli una carta"),
])
def test_the_turn_after_a_play_is_a_sentence_of_its_own(
        open_page: Callable[..., Any], server: Server, lang: str, said: str) -> None:
    # Seat 0 lays 9C (a Cavallo); seats 1 and 2 can only lay; seat 3's Cavallo takes it, and it
    # is seat 0's turn. A screen reader heard "… nimmt Reiter Kelche Du bist dran: …", the
    # card's name run into the next sentence (the scopa and the leftovers were already said as
    # sentences of their own).
    gid = server.insert(["9C 1D", "5D 6D", "7S 8S", "9B 9D"], dealer=3)
    page = open_page(DESKTOP, game=gid, prefs={**TEST_PREFS, "lang": lang})
    assert game_id(page) == gid
    page.wait_for_selector("#hand.playable")
    page.evaluate(LISTEN)
    page.click("#hand .card[data-code='9C']")
    # The capture is said with the turn (the round's own announcement may come first).
    page.wait_for_function("() => window.said.length > 0 && window.said.at(-1)[1]")
    assert re.fullmatch(said, page.evaluate("() => window.said.at(-1)[0]"))


def test_the_german_winner_is_told_in_good_german(open_page: Callable[..., Any],
                                                  server: Server) -> None:
    # 5D takes 5C for a scopa at 10 – 0 (dealer 3: seat 0 leads); the three cards laid after
    # it go to us too: we reach 11 and win. "Du und dein Partner" takes the verb of "ihr", as
    # the rule page and the tables already said ("habt"); the summary said "gewinnen".
    gid = server.insert(["5D", "2B", "9C", "3S"], "5C", dealer=3, scores=(10, 0))
    page = open_page(DESKTOP, game=gid, prefs={**TEST_PREFS, "lang": "de"})
    page.wait_for_selector("#hand.playable")
    page.click("#hand .card[data-code='5D']")
    page.wait_for_function(SUMMARY_OPEN)
    assert server.game(gid)["status"] == "match_over"
    assert page.inner_text("#winner") == "Du und dein Partner gewinnt die Partie!"
    # At a table, a match missed and the clock of a person offline: a whole sentence after
    # the colon begins with a capital in German (it read "… weg war: du und dein Partner habt
    # gewonnen", "nicht verbunden: der Computer spielt in 0:42").
    said = page.evaluate("""() => import('/static/js/i18n-tables.js').then(({ tt }) => [
        tt('de', 'missedMatch', { n: 1, who: tt('de', 'weWon'), x: 11, y: 5 }),
        tt('de', 'missedMatch', { n: 2, who: tt('de', 'theyWon'), x: 4, y: 12 }),
        tt('de', 'clockOffline', { time: '0:42' })])""")
    assert said == [
        "Partie 1 ging zu Ende, während diese Seite weg war: Du und dein Partner habt gewonnen,"
        " 11 zu 5. Die Revanche hat begonnen.",
        "Partie 2 ging zu Ende, während diese Seite weg war: Die Gegner haben gewonnen, 4 zu 12."
        " Die Revanche hat begonnen.",
        "nicht verbunden: Der Computer spielt in 0:42"]


def test_the_accuracy_charts_scale_is_in_the_languages_format(
        open_page: Callable[..., Any], server: Server) -> None:
    # The chart's label said "von 67 % bis 50 %" in German and its scale "50%" beside it.
    pid = secrets.token_hex(16)
    data = empty_stats()
    data["rounds"] = 2
    data["levels"]["easy"]["rounds"] = 2
    data["accuracy"] = [[1796684181.6, 0.6667, 9], [1796684242.2, 0.5, 2]]
    store = SqliteStore(server.db_path)
    try:
        assert store.save_person(PersonRecord(pid, data, 1.0, 1.0))
    finally:
        store.close()
    for lang, scale in {"de": ["0 %", "50 %", "100 %"], "it": ["0%", "50%", "100%"],
                        "en": ["0%", "50%", "100%"]}.items():
        page = open_page(DESKTOP, prefs={**TEST_PREFS, "lang": lang})
        page.evaluate("id => localStorage.setItem('scopone.person', id)", pid)
        page.goto(server.url + "/stats")
        page.wait_for_selector("body[data-status='ready'] #accuracy-chart svg")
        assert page.eval_on_selector_all("#accuracy-chart svg text",
                                         "els => els.map((e) => e.textContent)") == scale
        # Each figure ends before its grid line begins, inside the chart.
        room = page.evaluate("""() => [...document.querySelectorAll('#accuracy-chart svg text')]
            .map((t) => [t.getBBox().x, t.getBBox().x + t.getBBox().width,
                         Number(t.previousElementSibling.getAttribute('x1'))])""")
        assert all(left >= 0 and right <= x1 for left, right, x1 in room), (lang, room)
        page.close()
