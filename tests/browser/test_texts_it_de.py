"""The game's texts as an Italian or German player reads or hears them: whole sentences where
they are joined, grammar, and numbers in the language's own format."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import DESKTOP, TEST_PREFS, Server
from .test_keyboard_and_reader import LISTEN
from .test_match import game_id

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
    page.wait_for_function("() => window.said.length >= 4")
    assert re.fullmatch(said, page.evaluate("() => window.said[3][0]"))
