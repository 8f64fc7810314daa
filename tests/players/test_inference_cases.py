"""Card reading over longer histories: voids add up, the reader's own plays are never read, the
evidence of several plays multiplies, and the imagined deals keep every seat's count."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from scopone import Move, Round, Rules, SeatView
from scopone.engine.cards import BIT, mask_of
from scopone.players.inference import (
    FLOOR,
    _public_score,
    card_weights,
    rank_voids,
    sample_with_voids,
    weighted_sampler,
)
from scopone.players.likelihood import _seen_plays, seat_loglik
from scopone.players.normal import move_score

from .helpers import card, position, random_positions


def _play(r: Round, *moves: str) -> None:
    # Each move as "card" or "card:taken taken".
    for text in moves:
        code, _, taken = text.partition(":")
        r.play(Move(card(code), frozenset(card(t) for t in taken.split())))


def ten_plays() -> Round:
    """Ten plays of a round of three cards a hand, seat 0 (the reader) leading."""
    r = position(["3S 7D 7C", "9S 8S 10S", "10B 1S 5B", "8C 3B 6D"], table="1C", to_play=0)
    _play(r,
          "3S",            # seat 0 lays: table 1C 3S
          "9S",            # seat 1 lays on 4: no four
          "10B:1C 9S",     # seat 2 takes on 13: nothing to read
          "8C",            # seat 3 lays on 3: no three
          "7D",            # seat 0 lays the settebello: table 3S 8C 7D
          "8S:8C",         # seat 1 takes 8C and leaves the settebello: no seven
          "1S",            # seat 2 lays on 10 with the settebello there: no ten, no seven
          "3B:3S",         # seat 3 takes 3S, leaves 7D 1S (11, no rank) and the settebello
          "7C:7D",         # seat 0 takes the settebello: table 1S
          "10S")           # seat 1 lays on 1: no ace
    return r


def test_every_void_a_seat_shows_is_kept() -> None:
    view = SeatView.of(ten_plays(), 0)
    assert view.plays_left == 2
    voids = rank_voids(view)
    # Seat 1's voids shown before and after its spared settebello are all kept; a table of 11
    # (no card sweeps it) tells nothing; the reader's own plays are not read but do not end the
    # reading either.
    assert voids == (0, 1 << 4 | 1 << 7 | 1 << 1, 1 << 10 | 1 << 7, 1 << 3 | 1 << 7)


def test_the_readers_own_plays_are_not_read_and_the_others_after_them_are() -> None:
    # Seat 0 (the reader) lays 3B though 9D would have taken 9S; seat 1 then lays 1C where a
    # seven would have taken 7C.
    r = position(["3B 9D 4D", "1C 2S 9C", "4B 6S 2D", "7S 5D 8C"], table="7C 9S 8B",
                 to_play=0)
    _play(r, "3B", "1C")
    weights = card_weights(SeatView.of(r, 0))
    assert len(weights) == 4
    assert weights[0] == [1.0] * 40  # what it knows of its own hand is not a guess
    assert weights[1][card("7S").index] < 0.5


def test_the_evidence_of_several_plays_multiplies() -> None:
    # Seat 1 lays twice while a seven would have taken a seven each time (7C, then 7B): the
    # weight of its holding 7S after both plays is the product of the two plays' factors.
    r = position(["3B 9D 4D", "1C 2S 9C", "4B 6S 2D", "7S 5D 8C"], table="7C 9S 8B",
                 to_play=1)
    _play(r, "1C")
    once = card_weights(SeatView.of(r, 0))[1][card("7S").index]
    _play(r, "4B", "8C:8B", "3B", "2S")
    view = SeatView.of(r, 0)
    twice = card_weights(view)[1][card("7S").index]
    assert twice < once < 0.5


def test_a_hopeless_card_keeps_the_floor_weight() -> None:
    # Seat 1 lays 2S on 7D alone: a seven would have swept the settebello (a scopa and the
    # settebello point). The model all but rules its sevens out: they keep the floor weight,
    # the model being only a model.
    r = position(["3B 9D", "2S 9C", "4B 6S", "7S 5D"], table="7D", to_play=1)
    _play(r, "2S")
    weights = card_weights(SeatView.of(r, 0))
    assert weights[1][card("7S").index] == FLOOR


def test_a_model_without_judgement_halves_every_capture_passed() -> None:
    # With beta 0 the model player picks between a capture and what it played by a coin.
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=1)
    _play(r, "1C")
    weights = card_weights(SeatView.of(r, 0), beta=0.0)
    assert weights[1][card("7S").index] == 0.5
    assert weights[1][card("4B").index] == 1.0  # it could take nothing


def test_the_public_judgement_is_normals_from_the_cards_out() -> None:
    # ``_public_score`` is ``normal.move_score`` for an onlooker: given the mover's own unseen
    # cards it must score every capture, and every lay Normal has no small preference about
    # (a face card, a card held twice), as Normal does while the settebello is not out.
    checked = 0
    for r in random_positions(300, seed=17):
        view = SeatView.of(r, r.turn)
        if view.unseen_mask & BIT[card("7D").index]:
            continue
        nxt = view.hand_counts[(view.seat + 1) % 4]
        ranks = Counter(c.rank for c in view.hand)
        for c, m in r.legal_pairs():
            rank = c % 10 + 1
            if not m and (rank >= 8 or ranks[rank] > 1):
                continue
            got = _public_score(view.table_mask, c, m, view.unseen_mask, nxt,
                                view.plays_left == 1)
            assert abs(got - move_score(view, c, m)) < 1e-9, (r, c, m)
            checked += 1
    assert checked > 300


def _sizes(deal: Round) -> list[int]:
    return [len(h) for h in deal.hands]


def test_weighted_deals_keep_each_seats_count_when_a_void_cannot_be_kept() -> None:
    # Seats 1 and 2 have played this trick; seat 3 reads. Say seats 1 and 2 had shown voids in
    # every rank: only seat 0 may hold the seven unseen cards, and it has room for three. The
    # other four go to seats 1 and 2 all the same, at random, as many as each holds.
    r = position(["3B 9D 4D", "1C 2S 9C", "4B 6S 2D", "7S 5D 8C"], table="7C 9S 8B",
                 to_play=1)
    _play(r, "1C", "4B")
    view = SeatView.of(r, 3)
    assert view.hand_counts == (3, 2, 2, 3)
    sample = weighted_sampler(view, (0, 0x7FE, 0x7FE, 0), card_weights(view))
    rng = random.Random(4)
    deals: set[tuple[tuple[int, ...], ...]] = set()
    for _ in range(200):
        deal = sample(rng)
        assert _sizes(deal) == list(view.hand_counts)
        assert sorted(c for s in (0, 1, 2) for c in deal.hands[s]) == sorted(
            c.index for c in view.unseen)
        deals.add(tuple(tuple(sorted(h)) for h in deal.hands))
    assert len(deals) > 3


def test_deals_split_a_card_a_void_keeps_from_one_seat_evenly_between_the_others() -> None:
    # Seat 1 did not sweep 4C: no four. 4D and 4B are out; seats 2 and 3 hold three cards each,
    # so each holds a given four half the time.
    r = position(["3B 9D 5S", "9S 5D 4D", "2B 6S 8C", "1C 7S 4B"], table="4C", to_play=1)
    _play(r, "9S")
    view = SeatView.of(r, 0)
    voids = rank_voids(view)
    assert voids == (0, 1 << 4, 0, 0) and view.hand_counts == (3, 2, 3, 3)
    rng = random.Random(6)
    held: Counter[int] = Counter()
    n = 3000
    for _ in range(n):
        deal = sample_with_voids(view, voids, rng)
        assert _sizes(deal) == list(view.hand_counts)
        held.update(s for s in (1, 2, 3) for c in deal.hands[s] if c == card("4D").index)
    assert held[1] == 0
    assert abs(held[2] / n - 0.5) < 0.04


def test_a_rank_played_earlier_is_still_read() -> None:
    # Seat 1 took 7C with 7B; later it lays 2S while a seven would have taken 4B + 3B. Its
    # first seven says nothing about a second one: that play reads like any other.
    r = position(["3B 9D", "7B 2S", "4B 6S", "5D 7S"], table="7C 9S", to_play=1)
    _play(r, "7B:7C", "4B", "5D", "3B", "2S")
    assert card_weights(SeatView.of(r, 0))[1][card("7S").index] < 0.5


def test_a_rank_played_later_tells_nothing_even_with_other_plays_between() -> None:
    # Seat 1 lays 1C where a seven would have taken 7C, plays 2S, and only then 7B: it held a
    # seven all along, so its passing 7C says nothing about 7S.
    r = position(["3B 9D 4D", "1C 2S 7B", "4B 6S 3C", "7S 5D 8C"], table="7C 9S 8B",
                 to_play=1)
    _play(r, "1C", "4B", "8C:8B", "3B", "2S", "6S:4B 2S", "5D", "9D:9S", "7B:7C", "3C:3B")
    assert card_weights(SeatView.of(r, 0))[1][card("7S").index] == 1.0


def test_what_the_next_seat_plays_later_does_not_excuse_a_seat() -> None:
    # Seat 2 lays 4B where an eight would have taken 8B (or 7C + 1C); seat 3 then plays an
    # eight, which tells nothing about seat 2's hand.
    r = position(["3B 9D 4D", "1C 2S 7B", "4B 6S 8S", "7S 5D 8C"], table="7C 9S 8B",
                 to_play=1)
    _play(r, "1C", "4B", "8C:8B", "3B")
    assert card_weights(SeatView.of(r, 0))[2][card("8S").index] < 0.5


def test_the_best_capture_on_offer_tells_little() -> None:
    # Seat 2 sweeps 2C + 3D + 5B with 10D (a coin): no other card could have done better, so
    # no card it may still hold is read below even odds.
    r = position(["3B 9D", "1C 2S", "10D 6S", "7S 5D"], table="2C 3D 5B", to_play=2)
    _play(r, "10D:2C 3D 5B")
    weights = card_weights(SeatView.of(r, 0))
    assert min(weights[2]) >= 0.5


def _turned(seed: int, by: int) -> tuple[Round, Round]:
    """A round part-played at random, and the same deal and plays with every seat moved on
    by ``by`` places (each hand to the seat ``by`` after, the dealer too)."""
    rng = random.Random(seed)
    r = Round.deal(Rules(), rng.randrange(4), rng)
    hands = [r.hand(s) for s in range(4)]
    turned = Round.from_deal([hands[(s - by) % 4] for s in range(4)], r.table_cards,
                             dealer=(r.dealer + by) % 4)
    for _ in range(rng.randrange(4, 38)):
        move = rng.choice(r.legal_moves())
        r.play(move)
        turned.play(move)
    return r, turned


@pytest.mark.parametrize("by", [1, 2, 3])
def test_the_reading_does_not_depend_on_which_seat_reads(by: int) -> None:
    # Reading is about what each seat did, not about its number: moving every seat on by the
    # same places moves the voids, the weights and each seat's likelihood with its true hand
    # along, whichever seat reads. A seat number written into the code (seat 0 where the reader
    # was meant, say) shows here, not with seat 0 reading alone, as every other test reads.
    for seed in range(40):
        r, turned = _turned(seed, by)
        for reader in range(4):
            view, turned_view = SeatView.of(r, reader), SeatView.of(turned, (reader + by) % 4)
            voids, turned_voids = rank_voids(view), rank_voids(turned_view)
            weights, turned_weights = card_weights(view), card_weights(turned_view)
            rows, turned_rows = _seen_plays(view), _seen_plays(turned_view)
            for s in range(4):
                t = (s + by) % 4
                assert turned_voids[t] == voids[s], (seed, reader, s)
                assert turned_weights[t] == weights[s], (seed, reader, s)
                likely = seat_loglik([p for p in rows if p.seat == s], mask_of(r.hand(s)),
                                     view.hand_counts, 2.0)
                turned_likely = seat_loglik([p for p in turned_rows if p.seat == t],
                                            mask_of(turned.hand(t)), turned_view.hand_counts,
                                            2.0)
                assert turned_likely == likely, (seed, reader, s)
