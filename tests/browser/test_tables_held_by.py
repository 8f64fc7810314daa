"""A seat handed to the computer in the middle of a round (SPEC §6: the host may hand a person's
seat to the computer): the plays its person made before are still theirs on everyone's list of
last plays ("Cleo plays ..."), the computer's after it are the computer's, never hers. The
server marks the former ones (``held_by``: tests/api/test_tables_errors.py); these are the
pages that show them."""

from __future__ import annotations

import json
from typing import Any

import pytest

from .conftest import ARTIFACTS, DESKTOP, PHONE
from .test_computer_chose import seated_table
from .test_tables import (  # noqa: F401  (fixtures)
    TableServer,
    _card_name,
    in_sync,
    people,
    play_until,
    tserver,
)

pytestmark = pytest.mark.browser

OVER = ("round_over", "match_over")
# The last plays as the page lists them, newest first: place in the round (from 1), board
# position, text.
LAST_PLAYS = """() => [...document.querySelectorAll('#last-list li[data-seat]')]
  .map((li) => [li.value, Number(li.dataset.seat), li.textContent])"""


def test_the_plays_of_a_seat_handed_to_the_computer_stay_its_persons_on_every_page(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    """Anna (the host, seat 0) and Bea (seat 1) have their pages open, Cleo (seat 2) plays
    through the API, seat 3 is a computer. Just after Cleo's card, Anna hands Cleo's seat to
    the computer with her button. Once the computer has played that seat, Bea's list of last
    plays (and Anna's, and a spectator's) names Cleo's card as Cleo's, and the computer's card
    of that seat as the computer's; Anna's own card is "You play ..." on her page only."""
    srv = tserver
    code, tokens = seated_table(srv, {1: "Bea", 2: "Cleo"})
    anna_token = tokens[0]
    url = f"{srv.url}/t/{code}"
    anna = people(DESKTOP, url,
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": anna_token})})
    bea = people(PHONE, url, {f"scopone.seat.{code}": json.dumps({"seat": 1, "token": tokens[1]})})
    watcher = people(DESKTOP, url)

    # Cleo has played her second card: Anna gives her seat to the computer (her page's button;
    # the computer's card of seat 3 may come first, which the page rides out), long before
    # Cleo's next turn (Anna's and Bea's cards come first, and only through the API).
    view = play_until(srv, code, anna, tokens, lambda v: v["game"]["status"] not in OVER
                      and len([p for p in v["game"]["history"] if p["seat"] == 2]) == 2)
    cleos = max(i for i, p in enumerate(view["game"]["history"]) if p["seat"] == 2)
    in_sync(anna, view["version"])
    anna.page.click("#host-seats button[data-seat='2']")
    anna.page.wait_for_selector("#seat-2[data-kind='computer']")
    del tokens[2]

    # The computer plays seat 2 at its turn (Anna's and Bea's cards through the API).
    view = play_until(srv, code, anna, tokens, lambda v: any(
        p["seat"] == 2 for p in v["game"]["history"][cleos + 1:]))
    history = view["game"]["history"]
    computers = [i for i in range(cleos + 1, len(history)) if history[i]["seat"] == 2]
    assert computers == [cleos + 4], history
    assert history[cleos]["held_by"] == "Cleo" and history[cleos + 4]["held_by"] is None
    newest = cleos + 4

    # Each page: its board position of seat 2, and the computer's name there.
    pages = {"Bea": (bea, 1, "Computer – Right opponent"),
             "Anna": (anna, 2, "Computer – Partner"),
             "spectator": (watcher, 2, "Computer – Seat 3")}
    for who, (person, pos, computer) in pages.items():
        in_sync(person, view["version"])
        # The list shows the last six: Cleo's card is among them until two more after the
        # computer's (seat 3 is a computer too, and plays on; Anna's turn waits for the API).
        person.page.wait_for_function(
            "n => Number(document.getElementById('last-list').dataset.count) >= n",
            arg=newest + 1)
        shown = person.page.evaluate(LAST_PLAYS)
        at = {value - 1: (seat, text) for value, seat, text in shown}
        assert cleos in at and newest in at, (who, shown)
        assert at[cleos][0] == pos and at[newest][0] == pos, (who, shown)
        cleo_text, computer_text = at[cleos][1], at[newest][1]
        assert cleo_text.startswith(f"Cleo plays {_card_name(history[cleos]['card'])}"), \
            (who, cleo_text)
        assert computer_text.startswith(
            f"{computer} plays {_card_name(history[newest]['card'])}"), (who, computer_text)
        assert "Cleo" not in computer_text, (who, computer_text)
        # Neither is the viewer's own, nor a card the computer chose for a person.
        for text in (cleo_text, computer_text):
            assert not text.startswith("You ") and "· computer" not in text, (who, text)
        # Anna's card among them: her own on her page ("You play"), Anna's on the others'.
        annas = cleos + 2
        assert history[annas]["seat"] == 0 and annas in at, (who, shown)
        mine = "You play" if who == "Anna" else "Anna plays"
        assert at[annas][1].startswith(f"{mine} {_card_name(history[annas]['card'])}"), \
            (who, at[annas])
    bea.page.screenshot(path=str(ARTIFACTS / "table-held-by-phone.png"))
