"""Card reading: a seat that could have swept and did not shows it holds no card of that rank."""

from __future__ import annotations

import random
from collections import Counter

from scopone import Move, SeatView
from scopone.players.inference import card_weights, rank_voids, sample_with_voids

from .helpers import card, deals_holding, position


def test_a_missed_sweep_and_a_spared_settebello_are_read() -> None:
    # Seat 1 plays 9S onto 4C (it could have swept with a 4: so it has none); seat 2 plays 2B
    # onto 4C + 9S; seat 3 lays 1C on a table of 15 (nothing to read).
    r = position(["3B 9D", "9S 5D", "2B 6S", "1C 7S"], table="4C", to_play=1)
    for code in ("9S", "2B", "1C"):
        r.play(Move(card(code)))
    view = SeatView.of(r, 0)
    voids = rank_voids(view)
    assert voids[1] == 1 << 4
    assert voids[2] == 0 and voids[3] == 0 and voids[0] == 0


def test_no_reading_from_a_sweep_or_the_last_play() -> None:
    r = position(["3B", "4S", "2B", "1C"], table="4C", to_play=1)
    r.play(Move(card("4S"), frozenset({card("4C")})))
    assert rank_voids(SeatView.of(r, 0)) == (0, 0, 0, 0)


def test_spared_settebello_means_no_seven() -> None:
    r = position(["3B 9D", "9S 5D", "2B 6S", "1C 7S"], table="7D", to_play=1)
    r.play(Move(card("9S")))
    assert rank_voids(SeatView.of(r, 0))[1] == 1 << 7


def test_deals_respect_the_voids_when_the_counts_allow() -> None:
    r = position(["3B 9D 5S", "9S 5D 4D", "2B 6S 8C", "1C 7S 4B"], table="4C", to_play=1)
    r.play(Move(card("9S")))
    view = SeatView.of(r, 0)
    voids = rank_voids(view)
    assert voids[1] == 1 << 4
    rng = random.Random(2)
    held = Counter()
    for _ in range(200):
        deal = sample_with_voids(view, voids, rng)
        assert sorted(len(h) for h in deal.hands) == sorted(view.hand_counts)
        assert sorted(c for s in (1, 2, 3) for c in deal.hands[s]) == sorted(
            c.index for c in view.unseen)
        held.update(s for s in (1, 2, 3) for c in deal.hands[s] if c == card("4D").index)
    # 4D is out; seat 1 showed it holds no four, so only seats 2 and 3 are dealt it.
    assert held[1] == 0 and held[2] > 50 and held[3] > 50


def test_impossible_voids_still_give_a_full_deal() -> None:
    r = position(["3B 9D", "9S 5D", "2B 6S", "1C 7S"], table="4C", to_play=1)
    view = SeatView.of(r, 0)
    everyone_void = (0, 0x7FE, 0x7FE, 0x7FE)  # every rank: impossible, so it is relaxed
    deal = sample_with_voids(view, everyone_void, random.Random(1))
    assert sorted(c for s in (1, 2, 3) for c in deal.hands[s]) == sorted(
        c.index for c in view.unseen)


def test_a_seat_that_laid_a_card_instead_of_taking_is_rarely_dealt_the_taker() -> None:
    # Seat 1 lays 1C on 7C 9S 8B while a 7 would have taken 7C (two sevens for the primiera):
    # nothing to sweep, so no void; but a seat holding 7S would almost always have taken.
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=1)
    r.play(Move(card("1C")))
    view = SeatView.of(r, 0)
    assert rank_voids(view) == (0, 0, 0, 0)
    weights = card_weights(view)
    assert weights[1][card("7S").index] < 0.25
    # Cards that could take nothing on that table keep their weight.
    assert weights[1][card("4B").index] == 1.0 and weights[1][card("5D").index] == 1.0
    assert weights[2] == [1.0] * 40 and weights[3] == [1.0] * 40  # they have not played
    # Seat 1 has one card of the five unseen: a fifth of random deals give it 7S.
    plain = deals_holding(view, "off", "7S", 1000)
    read = deals_holding(view, "plays", "7S", 1000)
    assert plain[1] > 150
    assert read[1] < 70 and read[2] > 400 and read[3] > 400


def test_a_seat_that_took_little_while_another_card_took_more_is_read_too() -> None:
    # Seat 3 takes 2S with 2B while a 6 would have taken 6D (a coin and a six) or 4B + 2S.
    r = position(["3B 9D", "1C 8S", "4C 6S", "2B 5D"], table="2S 6D 4B", to_play=3)
    r.play(Move(card("2B"), frozenset({card("2S")})))
    view = SeatView.of(r, 0)
    assert card_weights(view)[3][card("6S").index] < 0.3


def test_a_rank_played_later_tells_nothing() -> None:
    # Seat 1 lays 1C instead of taking 7C with a seven, then plays a seven anyway: it held one
    # and passed the capture, so the play says nothing about its other cards.
    r = position(["3B 9D 4D", "1C 7B 2S", "4B 6S 3C", "7S 5D 8C"], table="7C 9S 8B",
                 to_play=1)
    for move in (Move(card("1C")), Move(card("4B")), Move(card("8C"), frozenset({card("8B")})),
                 Move(card("3B")), Move(card("7B"), frozenset({card("7C")}))):
        r.play(move)
    assert card_weights(SeatView.of(r, 0))[1][card("7S").index] == 1.0


def test_a_void_shown_is_kept_by_the_weighted_deals() -> None:
    # Seat 1 does not sweep 4C (it holds no four), then the table changes: the void lasts, and
    # the deals Hard imagines never give it a four, whatever the weights say.
    r = position(["3B 9D 5S", "9S 5D 8D", "2B 6S 8C", "1C 7S 4B"], table="4C", to_play=1)
    for move in (Move(card("9S")), Move(card("2B")), Move(card("1C")),
                 Move(card("9D"), frozenset({card("9S")}))):
        r.play(move)
    view = SeatView.of(r, 0)
    assert rank_voids(view)[1] & 1 << 4
    for reading in ("voids", "plays", "policy", "chain"):
        held = deals_holding(view, reading, "4B", 300)
        assert held[1] == 0 and held[2] + held[3] == 300
