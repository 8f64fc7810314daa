"""The reasons of a move (scopone/coach/reasons.py) in constructed positions, and how the hint
and the review carry them: facts from the seat's own view at the moment of the play."""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

from scopone import Move, Round, SeatView
from scopone.coach import RoundTrace
from scopone.coach.payload import compute_hint, compute_review
from scopone.coach.reasons import KINDS, reasons
from scopone.engine.cards import parse_cards
from tests.players.helpers import card, position, view_to_play

from .test_judgement import SCOPA_HANDS

#: A judgement given a time it never reaches: the payload's deals decide (deterministic).
SECONDS = 60.0


def deal(hands: list[str], table: str = "", dealer: int = 3) -> Round:
    return Round.from_deal([parse_cards(h) for h in hands], parse_cards(table), dealer=dealer)


def move(code: str, *capture: str) -> Move:
    return Move(card(code), frozenset(card(c) for c in capture))


def why(r: Round, m: Move) -> list[Any]:
    return list(reasons(SeatView.of(r, r.turn), m))


def play(r: Round, code: str, *capture: str) -> None:
    r.play(move(code, *capture))


# ----- what the move takes ----------------------------------------------------------------


def test_a_sweep_is_a_scopa_but_not_on_the_rounds_last_card() -> None:
    """SPEC §1: a capture that empties the table is a scopa, except on the last play."""
    r = deal(["6S 9D", "7C 1C", "5D 1S", "7S 3C"], table="2C 4C")
    assert why(r, move("6S", "2C", "4C")) == [{"kind": "scopa"}, {"kind": "cards", "count": 3}]
    last = deal(["6S", "", "", ""], table="2C 4C")
    assert why(last, move("6S", "2C", "4C")) == [{"kind": "cards", "count": 3}]


def test_the_rounds_last_capture_takes_what_is_left_too() -> None:
    """SPEC §1: the cards still on the table go to the pair that took last, here at once."""
    last = deal(["6S", "", "", ""], table="2C 4C 7D")
    assert why(last, move("6S", "2C", "4C")) == [
        {"kind": "cards", "count": 4}, {"kind": "settebello"}, {"kind": "sevens", "count": 1},
        {"kind": "coins", "count": 1}]


def test_settebello_sevens_and_coins_taken_count_the_played_card_too() -> None:
    r = position(["7C 5D 4S", "1B 8B 9B", "10B 8S 9S", "10S 2B 6B"], table="7D 3B 9C")
    taken = [{"kind": "cards", "count": 2}, {"kind": "settebello"},
             {"kind": "sevens", "count": 2}, {"kind": "coins", "count": 1}]
    assert why(r, move("7C", "7D")) == taken
    r = position(["7D 5D 4S", "1B 8B 9B", "10B 8S 9S", "10S 2B 6B"], table="7C 3B 9C")
    assert why(r, move("7D", "7C")) == taken
    r = position(["5D 6S 4S", "1B 8B 9B", "1S 8S 9S", "2S 7B 6B"], table="2D 3C 10C")
    assert why(r, move("5D", "2D", "3C")) == [{"kind": "cards", "count": 3},
                                             {"kind": "coins", "count": 2}]
    # A card laid takes nothing; with the table then above 10 nothing is left to sweep either.
    assert why(r, move("6S")) == []


def test_laying_the_settebello_says_so_unless_nobody_plays_after() -> None:
    r = position(["7D 5S", "1B 8B", "10B 8S", "10S 9B"], table="10C")
    assert why(r, move("7D")) == [{"kind": "lays_settebello"}]
    last = deal(["7D", "", "", ""], table="10C")
    last.last_taker = 1
    assert why(last, move("7D")) == []


# ----- what the move leaves the next player -------------------------------------------------


def test_leaving_a_sweepable_table_names_its_sum_and_the_unseen_cards_of_that_rank() -> None:
    """The table left adds up to 7: the sevens the seat has not seen could sweep it. Those in
    the capture piles (played) are seen, so are those in the seat's own hand."""
    hands = ["4S 9D 10D", "7B 1B 8B", "7S 2B 9B", "10B 8S 9S"]
    r = position(hands, table="3C")  # 7C and 7D taken: every card but the hands is taken
    assert why(r, move("4S")) == [{"kind": "leaves", "sum": 7, "unseen": 2}]
    r = position(["4S 9D 7C", "7B 1B 8B", "7S 2B 9B", "10B 8S 9S"], table="3C")
    assert why(r, move("4S")) == [{"kind": "leaves", "sum": 7, "unseen": 2}]
    r = position(["4S 9D 10D", "7B 1B 8B", "6S 2B 9B", "10B 8S 9S"], table="3C")
    assert why(r, move("4S")) == [{"kind": "leaves", "sum": 7, "unseen": 1}]


def test_cards_played_this_round_are_seen() -> None:
    """From the seat's history: seat 3 took 7C with 7B before seat 0's turn, and seat 0 holds
    7D, so only 7S of the sevens is still unseen when seat 0 leaves 3C 4S."""
    r = deal(["4S 7D", "1B 2B", "7S 9B", "7B 9S"], table="3C 7C", dealer=2)
    play(r, "7B", "7C")
    assert r.turn == 0
    assert why(r, move("4S")) == [{"kind": "leaves", "sum": 7, "unseen": 1}]


def test_nothing_is_left_to_sweep_when_no_card_of_that_rank_is_unseen() -> None:
    hands = ["4S 9D 10D", "1B 2B 8B", "6S 5B 9B", "10B 8S 9S"]
    r = position(hands, table="3C")  # every seven is taken
    assert why(r, move("4S")) == []
    r = position(["4S 7S 10D", "1B 2B 8B", "6S 5B 9B", "10B 8S 9S"], table="3C")
    assert why(r, move("4S")) == []  # the last seven is in the seat's own hand


def test_nothing_is_left_to_sweep_above_ten() -> None:
    r = position(["6S 9D 10D", "7B 1B 8B", "7S 2B 9B", "10B 8S 9S"], table="5C")
    assert why(r, move("6S")) == []  # 11 on the table: no card sweeps it


def test_nothing_is_left_to_sweep_when_the_next_card_is_the_rounds_last() -> None:
    """A sweep with the round's last card is no scopa (SPEC §1)."""
    r = deal(["4S", "7B", "", ""], table="3C")
    assert why(r, move("4S")) == []
    r = deal(["4S", "7B", "1B", ""], table="3C")
    assert why(r, move("4S")) == [{"kind": "leaves", "sum": 7, "unseen": 4}]


def test_a_capture_can_leave_a_table_to_sweep_too() -> None:
    r = position(["5S 9D 10D", "6B 1B 8B", "6S 2B 9B", "10B 8S 9S"], table="5C 2C 4D")
    assert why(r, move("5S", "5C")) == [{"kind": "cards", "count": 2},
                                        {"kind": "leaves", "sum": 6, "unseen": 2}]


def test_reasons_come_in_the_order_of_their_kinds() -> None:
    # 2D is left: 2S is in a hand, 2C and 2B were not dealt, so all three are unseen.
    r = deal(["7C 1B", "2S 3S", "4S 5S", "6S 8S"], table="3C 4C 2D")
    assert why(r, move("7C", "3C", "4C")) == [
        {"kind": "cards", "count": 3}, {"kind": "sevens", "count": 1},
        {"kind": "leaves", "sum": 2, "unseen": 3}]
    r = deal(["7C 1B", "2S 3S", "4S 5S", "6S 8S"], table="7D 2C")
    assert why(r, move("7C", "7D")) == [
        {"kind": "cards", "count": 2}, {"kind": "settebello"}, {"kind": "sevens", "count": 2},
        {"kind": "coins", "count": 1}, {"kind": "leaves", "sum": 2, "unseen": 3}]
    assert KINDS == ("scopa", "cards", "settebello", "sevens", "coins", "lays_settebello",
                     "leaves")


def test_a_move_the_view_does_not_allow_is_an_error() -> None:
    r = position(SCOPA_HANDS, table="2C 4C", to_play=0)
    with pytest.raises(ValueError, match="not a legal move"):
        reasons(view_to_play(r), move("6S"))  # 6S must take 2C 4C
    with pytest.raises(ValueError, match="not a legal move"):
        reasons(SeatView.of(r, 1), move("7C"))  # not seat 1's turn


# ----- no peeking ---------------------------------------------------------------------------

#: Seat 0 leads 4S on 3C; the two sevens dealt are in the next player's hand, or the partner's.
NEXT_HOLDS = ["4S 10D", "7B 7S", "1B 2B", "9B 9S"]
PARTNER_HOLDS = ["4S 10D", "1B 2B", "7B 7S", "9B 9S"]


def played_out(hands: list[str], seed: int) -> Round:
    r = deal(hands, table="3C")
    play(r, "4S")
    rng = random.Random(seed)
    while not r.is_over:
        moves = r.legal_moves()
        r.play(moves[rng.randrange(len(moves))])
    return r


def test_the_reasons_do_not_depend_on_the_other_hands() -> None:
    """Two deals differing only in the hands hidden from seat 0 give the same reasons: unseen
    cards count wherever they are (here: 7C and 7D were not dealt, so unseen too)."""
    a, b = deal(NEXT_HOLDS, table="3C"), deal(PARTNER_HOLDS, table="3C")
    moves = SeatView.of(a, 0).legal_moves()
    assert moves == SeatView.of(b, 0).legal_moves() and len(moves) == 2
    for m in (Move.from_masks(c, cap) for c, cap in moves):
        assert why(a, m) == why(b, m)
    assert why(a, move("4S")) == [{"kind": "leaves", "sum": 7, "unseen": 4}]


def test_the_review_gives_a_play_the_same_reasons_whatever_the_hidden_hands() -> None:
    """The review replays the whole round, every hand known: the reasons of seat 0's play are
    still those of its own view then (so its whole judged play is the same in both deals)."""
    rules = dataclasses.asdict(played_out(NEXT_HOLDS, 1).rules)
    a = compute_review(RoundTrace.of(played_out(NEXT_HOLDS, 1)).to_dict(), rules, 0, "n",
                       SECONDS)
    b = compute_review(RoundTrace.of(played_out(PARTNER_HOLDS, 2)).to_dict(), rules, 0, "n",
                       SECONDS)
    assert a["history"] != b["history"]
    assert a["plays"][0] == b["plays"][0]
    assert a["plays"][0]["played"]["reasons"] == [{"kind": "leaves", "sum": 7, "unseen": 4}]


# ----- the hint and the review carry them ---------------------------------------------------


def test_the_hint_gives_its_move_and_every_option_their_reasons() -> None:
    view = view_to_play(position(SCOPA_HANDS, table="2C 4C", to_play=0))
    out = compute_hint(view, "h", SECONDS)
    assert out["move"] == {"card": "6S", "capture": ["2C", "4C"]}  # the free scopa
    assert out["reasons"] == [{"kind": "scopa"}, {"kind": "cards", "count": 3}]
    assert len(out["options"]) == 3
    for o in out["options"]:
        m = Move(card(o["card"]), frozenset(card(c) for c in o["capture"]))
        assert o["reasons"] == reasons(view, m)
    assert out["options"][0]["reasons"] == out["reasons"]


def test_the_review_counts_unseen_cards_as_the_seat_knew_them_at_each_play() -> None:
    """Seat 0's first play comes after seat 3 took 7C with 7B (both seen then); its second
    lays the settebello. Its options, best and played move carry reasons of that moment."""
    r = deal(["4S 7D", "1B 2B", "7S 9B", "7B 9S"], table="3C 7C", dealer=2)
    plays = [("7B", "7C"), ("4S",), ("1B",), ("7S", "3C", "4S"), ("9S",), ("7D",), ("2B",),
             ("9B", "9S")]
    before: dict[int, SeatView] = {}
    for i, (code, *capture) in enumerate(plays):
        if r.turn == 0:
            before[i] = SeatView.of(r, 0)
        play(r, code, *capture)
    assert r.is_over and sorted(before) == [1, 5]
    out = compute_review(RoundTrace.of(r).to_dict(), dataclasses.asdict(r.rules), 0, "r",
                         SECONDS)
    first, second = out["plays"]
    assert first["played"]["reasons"] == [{"kind": "leaves", "sum": 7, "unseen": 1}]
    assert second["played"]["reasons"] == [{"kind": "lays_settebello"}]
    assert not first["forced"] and second["forced"]
    for p in (first, second):
        view = before[p["index"]]
        shown = [p["played"], *p["options"], *([p["best"]] if p["best"] else [])]
        for o in shown:
            m = Move(card(o["card"]), frozenset(card(c) for c in o["capture"]))
            assert o["reasons"] == reasons(view, m)
    assert {o["card"] for o in first["options"]} == {"4S", "7D"}
