"""When the server plays a card at a table (``scopone.web.table.next_due``), and names."""

from __future__ import annotations

import random
import socket
from typing import Any

import pytest

from scopone.engine import Match, Rules
from scopone.web import errors as e
from scopone.web import table as t
from scopone.web.store import GameRecord

PACE = 0.7


def _playing(away_seconds: int | None = 60) -> tuple[GameRecord, dict[str, Any]]:
    table = t.new_table("Anna", t.new_token(), away_seconds, False)
    rec = GameRecord.new(Match(Rules(), random.Random(3)), "easy", {"table": table}, "code")
    t.sit(table, 2, "Carla", t.new_token())
    t.start(table, now=100.0)
    return rec, table


def _turn_to(rec: GameRecord, seat: int) -> None:
    r = rec.match.round
    while r.turn != seat:
        r.play(r.legal_moves()[0], seat=r.turn)


def test_computers_play_at_the_pace_after_the_last_change() -> None:
    rec, table = _playing()
    _turn_to(rec, 1)
    assert t.next_due(rec, table, PACE, PACE) == (100.0 + PACE, 1)


def test_a_connected_person_is_waited_for_until_the_away_time() -> None:
    rec, table = _playing(away_seconds=30)
    _turn_to(rec, 0)
    table["seats"][0]["connected"] = True
    assert t.next_due(rec, table, PACE, PACE) == (130.0, 0)
    table["options"]["away_seconds"] = None
    assert t.next_due(rec, table, PACE, PACE) is None  # "never": only the person plays


def test_a_person_whose_page_closed_is_played_for_soon_and_an_away_one_at_the_pace() -> None:
    rec, table = _playing(away_seconds=None)
    _turn_to(rec, 2)
    seat = table["seats"][2]
    seat["connected"], seat["gone_since"] = False, 105.0
    assert t.next_due(rec, table, PACE, PACE) == (105.0 + PACE, 2)
    seat["connected"], seat["gone_since"], seat["away"] = True, None, True
    assert t.next_due(rec, table, PACE, PACE) == (100.0 + PACE, 2)


def test_nothing_is_due_in_the_lobby_or_after_the_round() -> None:
    rec, table = _playing()
    table["phase"] = "lobby"
    assert t.next_due(rec, table, PACE, PACE) is None
    table["phase"] = "playing"
    r = rec.match.round
    while not r.is_over:
        r.play(r.legal_moves()[0], seat=r.turn)
    assert t.next_due(rec, table, PACE, PACE) is None


def test_the_clock_counts_down_to_the_card_the_server_will_play_for_a_person() -> None:
    rec, table = _playing(away_seconds=30)
    _turn_to(rec, 0)
    anna = table["seats"][0]
    anna["connected"] = True
    assert t.turn_clock(rec, table, PACE, 10.0, now=112.0) == (0, "turn", 18.0)
    assert t.turn_clock(rec, table, PACE, 10.0, now=140.0) == (0, "turn", 0.0)  # never < 0
    # Her page closed: the reconnection grace runs out first, so that is the reason shown...
    anna["connected"], anna["gone_since"] = False, 112.0
    assert t.turn_clock(rec, table, PACE, 10.0, now=113.0) == (0, "offline", 9.0)
    # ...unless her time to play runs out before it.
    assert t.turn_clock(rec, table, PACE, 20.0, now=113.0) == (0, "turn", 17.0)
    # The driver plays at the moment the clock shows, whichever the reason.
    for grace in (10.0, 20.0):
        seat, _, left = t.turn_clock(rec, table, PACE, grace, now=113.0) or (0, "turn", -1)
        assert t.next_due(rec, table, PACE, grace) == (113.0 + left, seat)
    # "never": only the grace of a closed page is timed, at the pace at the earliest.
    table["options"]["away_seconds"] = None
    anna["gone_since"] = 99.0
    assert t.turn_clock(rec, table, PACE, 0.2, now=100.0) == (0, "offline", pytest.approx(PACE))
    anna["connected"], anna["gone_since"] = True, None
    assert t.turn_clock(rec, table, PACE, 10.0, now=100.0) is None


def test_no_clock_for_a_computer_an_away_person_or_between_rounds() -> None:
    rec, table = _playing()
    _turn_to(rec, 1)
    assert t.turn_clock(rec, table, PACE, 10.0, now=100.0) is None  # a computer's turn
    _turn_to(rec, 2)
    table["seats"][2]["away"] = True  # the computer plays her cards at the pace
    assert t.turn_clock(rec, table, PACE, 10.0, now=100.0) is None
    table["seats"][2]["away"] = False
    assert t.turn_clock(rec, table, PACE, 10.0, now=100.0) == (2, "turn", 60.0)
    table["phase"] = "lobby"
    assert t.turn_clock(rec, table, PACE, 10.0, now=100.0) is None
    table["phase"] = "playing"
    r = rec.match.round
    while not r.is_over:
        r.play(r.legal_moves()[0], seat=r.turn)
    assert t.turn_clock(rec, table, PACE, 10.0, now=100.0) is None


def test_tokens_are_found_by_their_hash_only() -> None:
    token = t.new_token()
    table = t.new_table("Anna", token, 60, False)
    assert t.seat_of_token(table, token) == 0 and t.seat_of_token(table, None) is None
    assert token not in str(table)
    with pytest.raises(e.Forbidden):
        t.seat_of_token(table, token[:-1])


# Names in other scripts and emoji, with the marks, joiners and selectors they are made of: the
# Hindi vowel signs (Mc) and virama (Mn), the Thai vowels (Mn), an emoji's variation selector
# (Mn, ignorable) and zero-width joiner (Cf, ignorable), a keycap (VS16 and an enclosing mark),
# a letter with four accents (the most one character takes; every letter or blank starts a new
# row), the Scottish flag (tag characters), an emoji newer than Python's Unicode (a pink heart,
# Unicode 15: unassigned to Python 3.11, drawn by a browser) and a code point unassigned
# everywhere (a box, never nothing).
DRAWN_NAMES = ["\U0001fa77", "\u0378",
               "Zoë", "Zoe\u0308", "名前", "a b", "محمد", "हिन्दी", "สมชาย", "Nguyễn",
               "\u2764\ufe0f", "\U0001f469\u200d\U0001f4bb", "1\ufe0f\u20e3", "a" + "\u0301" * 4,
               ("a" + "\u0301" * 4) * 4, "a" + "\u0301" * 4 + " " + "\u0301" * 4,
               "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f",
               "\u0f67\u0f71\u0f74\u0f83", "\u0301a", "a\u2800b", "a\u3164b"]


@pytest.mark.parametrize("name", ["Anna", " Anna ", "x" * 20, *DRAWN_NAMES])
def test_good_names_are_kept_trimmed(name: str) -> None:
    assert t.clean_name(name) == name.strip()


# What security QA found drawn 0 px wide, yet taken: tag characters, variation selectors, the
# combining grapheme joiner, the Khmer inherent vowels; and more like them. None is trimmed.
UNDRAWN_NAMES = ["\U000e0041\U000e0042", "\ufe0f\ufe0f", "\u034f", "\u17b4\u17b5",
                 "\u180b\u180f", "\U000e0100", "\u061c", "\u2065", "\ufff0", "\u0301",
                 "\u20dd", "\ue000", "\U0001bca0", "\U0001d173", "\u034f\u3164\u034f",
                 "\u0301\u2800\u0301", "\u0301 \u0301"]
# A letter under more accents than one character takes ("Zalgo"), also with silent characters
# between the accents (they stack all the same).
STACKED_NAMES = ["a" + "\u0301" * 19, "a" + "\u0301" * 5, "Anna" + "\u0301\u0302" * 3,
                 "a\u0301\u0301\u200d\u0301\u0301\u0301", "a" + "\u0301\U000e0041" * 5,
                 "a" + "\ufe0f" * 5, "x\u0301\u0301\u0301\u0301\u0301b"]


@pytest.mark.parametrize("name", [*UNDRAWN_NAMES, *STACKED_NAMES])
def test_names_that_draw_nothing_or_pile_up_marks_are_refused(name: str) -> None:
    with pytest.raises(e.Malformed, match="invalid name"):
        t.clean_name(name)


def test_a_dead_process_on_this_machine_is_known_dead() -> None:
    import subprocess
    import sys

    me = t.process_name()
    assert not t.pid_gone(me)
    done = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"],
                          capture_output=True, text=True, check=True)
    host = me.split(":")[0]
    assert t.pid_gone(f"{host}:{done.stdout.strip()}:abcd")
    assert not t.pid_gone(f"elsewhere.example:{done.stdout.strip()}:abcd")
    # The same host's name in another pid namespace (a container on the host's network).
    assert host.startswith(socket.gethostname() + "/")
    assert not t.pid_gone(f"{socket.gethostname()}/1:{done.stdout.strip()}:abcd")


def test_the_cards_the_computer_chooses_for_a_person_are_noted_until_the_next_deal() -> None:
    rec, table = _playing()
    _turn_to(rec, 1)
    t.computer_chose(rec, table, 1)  # a computer seat's card: the computer's anyway
    assert t.chosen_by_computer(table) == frozenset()
    rec.match.round.play(rec.match.round.legal_moves()[0], seat=1)
    _turn_to(rec, 2)
    done = len(rec.match.round.history or ())
    t.computer_chose(rec, table, 2)  # Carla's card, chosen for her
    assert t.chosen_by_computer(table) == {done}
    t.dealt(table)
    assert t.chosen_by_computer(table) == frozenset()
    del table["by_computer"]  # a table stored before this was kept
    assert t.chosen_by_computer(table) == frozenset()
