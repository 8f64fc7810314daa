"""Card reading: a seat that could have swept and did not shows it holds no card of that rank."""

from __future__ import annotations

import random
from collections import Counter

from scopone import Move, SeatView
from scopone.players.inference import rank_voids, sample_with_voids

from .helpers import card, position


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
