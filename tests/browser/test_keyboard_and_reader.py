"""What a player with only a keyboard, or a screen reader, gets: the focus where the next key is
wanted, and each announcement made when the keys can act on what it says."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from .conftest import DESKTOP, Server
from .test_controls import scripted
from .test_match import SUMMARY_OPEN, game_id
from .test_tables import TableServer, people, started_alone, tserver  # noqa: F401  (fixtures)

pytestmark = pytest.mark.browser

# Records every text the live region takes, with whether the hand took cards at that moment.
LISTEN = """() => {
  window.said = [];
  const live = document.getElementById('announce');
  new MutationObserver(() => window.said.push(
    [live.textContent, document.querySelector('#hand.playable') !== null]))
    .observe(live, {childList: true, characterData: true, subtree: true});
}"""
SAID = "() => document.getElementById('announce').textContent"
FOCUSED = "() => document.activeElement && document.activeElement.id"


def test_a_card_chosen_by_its_key_is_said_and_so_is_esc(open_page: Callable[..., Any],
                                                        server: Server) -> None:
    # 9C has no capture on 1C 1B 4C 2S; 8C has one, all four cards. A choice with one way to
    # play it is said with what Enter and Esc do; Esc says the choice is gone.
    page, gid = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    hand = page.eval_on_selector_all("#hand .card", "els => els.map(e => e.dataset.code)")
    page.keyboard.press(str(hand.index("9C") + 1))
    assert page.evaluate(SAID) == "Knight of Cups: Enter plays it, Esc cancels"
    # The status line too, with no arrows where there is no other move (QA: it offered them).
    assert page.inner_text("#status") == "Enter plays it, Esc cancels"
    page.keyboard.press("Escape")
    assert page.evaluate(SAID) == "Choice cancelled"
    page.keyboard.press(str(hand.index("8C") + 1))
    assert page.evaluate(SAID) == ("Jack of Cups takes Ace of Cups, Four of Cups, Two of Swords"
                                   " and Ace of Clubs: Enter plays it, Esc cancels")
    assert page.inner_text("#status") == "Enter plays it, Esc cancels"
    page.keyboard.press("Escape")
    page.keyboard.press("Escape")  # nothing chosen: nothing to say
    assert page.evaluate(SAID) == "Choice cancelled"
    assert server.game(gid)["history"] == []


@pytest.mark.parametrize("speed", ["normal", "fast"])
def test_your_turn_is_said_when_the_keys_take_a_card(open_page: Callable[..., Any],
                                                     server: Server, speed: str) -> None:
    # Seat 0 lays 9C on the empty table; seats 1 and 2 can only lay (no five, six, seven or
    # eight takes there), and seat 3 holds only nines: its card takes 9C. A capture is shown
    # for half a second before the view after it is the page's. "Your turn" is said only once
    # a card pressed would be taken.
    gid = server.insert(["9C 1D", "5D 6D", "7S 8S", "9B 9D"], dealer=3)
    page = open_page(DESKTOP, game=gid, prefs={"level": "easy", "speed": speed, "lang": "en"})
    assert game_id(page) == gid
    page.wait_for_selector("#hand.playable")
    page.evaluate(LISTEN)
    page.click("#hand .card[data-code='9C']")
    page.wait_for_function("() => window.said.some(([text]) => text.includes('Your turn'))")
    said = page.evaluate("() => window.said")
    assert server.game(gid)["history"][3]["capture"] == ["9C"]
    turns = [playable for text, playable in said if "Your turn" in text]
    assert turns == [True], said
    # Each computer's card was said, the last with the turn.
    assert len(said) == 4 and said[3][0].startswith("Left opponent plays ")


def test_after_the_summary_the_focus_is_on_the_hand_and_the_round_is_said(
        open_page: Callable[..., Any], server: Server) -> None:
    # One card each: seat 0 leads and the round ends after four cards.
    gid = server.insert(["9C", "10D", "9S", "10B"], dealer=3)
    page = open_page(DESKTOP, game=gid)
    page.wait_for_selector("#hand.playable")
    page.keyboard.press("1")
    page.keyboard.press("Enter")
    page.wait_for_function(SUMMARY_OPEN)
    assert page.evaluate(FOCUSED) == "summary-go"
    page.evaluate(LISTEN)
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.getElementById('summary').hidden")
    page.wait_for_function("() => window.said.length > 0")
    # Not the page's start: the hand, where the card keys act, and Tab reaches its first card.
    assert page.evaluate(FOCUSED) == "hand"
    game = server.game(gid)
    assert game["round_number"] == 2
    first = page.evaluate("() => window.said[0][0]")
    assert first.startswith("Round 2. ")
    if game["status"] == "your_turn" and not game["history"]:
        assert first == "Round 2. Your turn: choose a card"


def test_the_settings_take_the_focus_and_give_it_back(open_page: Callable[..., Any]) -> None:
    page = open_page(DESKTOP)
    # Opened by a key, the settings take the focus; clicked, they leave it (the game's keys
    # go on acting: test_controls).
    page.click("#btn-settings")
    assert page.evaluate(FOCUSED) == "btn-settings"
    page.click("#btn-settings")
    assert page.is_hidden("#settings")
    page.keyboard.press("Enter")
    assert page.evaluate(FOCUSED) == "set-level"
    # Esc from a field closes them (the page's own keys leave fields alone).
    page.keyboard.press("Escape")
    assert page.is_hidden("#settings")
    assert page.evaluate(FOCUSED) == "btn-settings"
    page.keyboard.press("Enter")
    assert page.is_visible("#settings")
    assert page.evaluate(FOCUSED) == "set-level"
    page.focus("#btn-close")
    page.keyboard.press("Enter")
    assert page.is_hidden("#settings")
    assert page.evaluate(FOCUSED) == "btn-settings"


def test_the_site_navigation_is_named_in_the_games_language(
        open_page: Callable[..., Any]) -> None:
    # An English browser, the game switched to Italian and then German: the names a screen
    # reader gives the navigation and its language group follow, as its links do.
    page = open_page(DESKTOP, locale="en-GB")
    names = "() => [document.getElementById('site-nav').getAttribute('aria-label'),"\
        " document.getElementById('site-langs').getAttribute('aria-label')]"
    assert page.evaluate(names) == ["Site", "Language"]
    page.click("#btn-settings")
    page.select_option("#set-lang", "it")
    assert page.evaluate(names) == ["Sito", "Lingua"]
    page.click(".site-nav .langs a[data-lang='de']")
    assert page.evaluate(names) == ["Seite", "Sprache"]


def test_switching_the_language_says_the_turn_again_in_it(
        open_page: Callable[..., Any], server: Server) -> None:
    """The live region kept the last announcement in the old language until the next one
    (QA helper-57): switched, a screen reader hears the round and the turn in the new one."""
    page, _ = scripted(open_page, server)
    page.wait_for_selector("#hand.playable")
    page.click("#btn-settings")
    page.select_option("#set-lang", "it")
    assert page.evaluate(SAID) == "Smazzata 1. Tocca a te: scegli una carta"
    page.keyboard.press("Escape")
    page.click(".site-nav .langs a[data-lang='de']")
    assert page.evaluate(SAID) == "Runde 1. Du bist dran: Wähle eine Karte"


def test_switching_the_language_at_a_table_says_the_turn_again_in_it(
        tserver: TableServer, people: Any) -> None:  # noqa: F811
    code, token = started_alone(tserver, hints=False)
    anna = people(DESKTOP, f"{tserver.url}/t/{code}",
                  {f"scopone.seat.{code}": json.dumps({"seat": 0, "token": token})})
    page = anna.page
    page.wait_for_function("() => document.body.dataset.status === 'your_turn'")
    turn = "() => document.getElementById('turn-live').textContent"
    assert page.evaluate(turn) == "Your turn, Anna."
    page.select_option("#set-lang", "it")
    # The table's turn region says it (once: the other region's last play, in English, goes).
    assert page.evaluate(turn) == "Tocca a te, Anna."
    assert page.evaluate(SAID) == ""
    anna.check()


# Each hand card's key badge: whether its middle is the badge itself (not under the next card)
# and whether it meets the card's bottom right rank index (the digits' corner).
BADGES = """() => [...document.querySelectorAll('#hand .card')].map((card) => {
  const key = card.querySelector('.key').getBoundingClientRect();
  const hit = document.elementFromPoint(key.left + key.width / 2, key.top + key.height / 2);
  const card_ = card.getBoundingClientRect();
  return [card.dataset.code, Boolean(hit && hit.classList.contains('key')),
          key.right > card_.left + card_.width / 2];
})"""


def test_each_cards_key_is_seen_on_a_narrow_window(open_page: Callable[..., Any]) -> None:
    """The keys' numbers sat in the middle of each card's foot: beside its bottom rank index
    ("6" by "10" read as 610, QA), and on a window where the hand's cards overlap, under the
    next card. Now each is on the card's free bottom left, seen on every card."""
    page = open_page({"viewport": {"width": 700, "height": 800}})
    page.wait_for_selector("#hand.playable")
    page.keyboard.press("1")  # a card chosen by its key: the numbers show
    page.wait_for_selector("#hand .card .key", state="visible")
    badges = page.evaluate(BADGES)
    assert len(badges) == 10
    assert all(seen and not right for _, seen, right in badges), badges
