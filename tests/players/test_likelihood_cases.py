"""The joint reading in detail: what each past play is seen with, and the likelihood of a hand
as the model's own odds of the plays it made."""

from __future__ import annotations

import math

from scopone import Move, Round, SeatView
from scopone.engine.cards import ALL_MASK, BIT, mask_of, parse_cards
from scopone.players.heuristics import CARD_WORTH, WORTH, mask_worth
from scopone.players.likelihood import (
    _Seen,
    _seen_plays,
    policy_values,
    seat_loglik,
    typed_loglik,
)

from .helpers import card, position


def _mask(codes: str) -> int:
    return mask_of(parse_cards(codes))


def _played() -> Round:
    # Five plays; seat 0 (the reader) made the fourth.
    r = position(["3B 9D 4D", "1C 2S 9C", "4B 6S 2D", "7S 5D 8C"], table="7C 9S 8B",
                 to_play=1, pile_a="1D 3D")
    for move in (Move(card("1C")), Move(card("4B")), Move(card("7S"), frozenset({card("7C")})),
                 Move(card("3B")), Move(card("2S"))):
        r.play(move)
    return r


def test_each_play_is_seen_with_the_piles_and_what_was_played_after_it() -> None:
    view = SeatView.of(_played(), 0)
    seen = _seen_plays(view)
    start = mask_of(view.piles[0]) | mask_of(view.piles[1])
    before = start & ~_mask("7S 7C")  # the piles before seat 3 took 7C
    rows = [(p.seat, p.card, p.capture, p.table, p.piles, p.later, p.next_later, p.prev_later,
             p.last) for p in seen]
    assert rows == [
        # Latest first; seat 0's own play is not among them.
        (1, card("2S").index, 0, _mask("9S 8B 1C 4B 3B"), start, _mask("2S"), 0, 0, False),
        (3, card("7S").index, _mask("7C"), _mask("7C 9S 8B 1C 4B"), before, _mask("7S"), 1, 0,
         False),
        (2, card("4B").index, 0, _mask("7C 9S 8B 1C"), before, _mask("4B"), 1, 1, False),
        (1, card("1C").index, 0, _mask("7C 9S 8B"), before, _mask("1C 2S"), 1, 1, False),
    ]


def _log_odds(p: _Seen, hand: int, counts: tuple[int, int, int, int], beta: float,
              mix: float) -> float:
    # The model's odds of the move made among every move of ``hand``: a softmax of the
    # policy's scores at sharpness ``beta``, a share ``mix`` of it left to chance.
    others = ALL_MASK & ~(p.piles | p.table | hand)
    values = policy_values(hand, p.table, others, counts[(p.seat + 1) & 3] + p.next_later,
                           counts[(p.seat + 3) & 3] + p.prev_later, p.last)
    norm = sum(math.exp(beta * v) for _, _, v in values)
    made = next(v for c, m, v in values if c == p.card and m == p.capture)
    return math.log((1 - mix) * math.exp(beta * made) / norm + mix / len(values))


def test_a_hands_likelihood_is_the_models_odds_of_each_play_it_explains() -> None:
    view = SeatView.of(_played(), 0)
    counts = view.hand_counts
    rows = [p for p in _seen_plays(view) if p.seat == 1]
    late, early = rows
    # Seat 1 holds nothing more (as if): its last play, 2S from a hand of one, was forced and
    # says nothing; its first, 1C laid rather than 2S, is read.
    assert math.isclose(seat_loglik(rows, 0, counts, 2.0),
                        _log_odds(early, _mask("1C 2S"), counts, 2.0, 0.0))
    assert seat_loglik(rows, 0, counts, 2.0) < 0.0
    # Holding 9C still, both plays are read, and their odds multiply; with chance mixed in too.
    nine = BIT[card("9C").index]
    for mix in (0.0, 0.3):
        expected = (_log_odds(late, nine | _mask("2S"), counts, 2.0, mix)
                    + _log_odds(early, nine | _mask("2S 1C"), counts, 2.0, mix))
        assert math.isclose(seat_loglik(rows, nine, counts, 2.0, mix), expected)


def test_two_types_read_with_chance_mixed_in() -> None:
    view = SeatView.of(_played(), 0)
    counts = view.hand_counts
    rows = [p for p in _seen_plays(view) if p.seat == 1]
    nine = BIT[card("9C").index]
    assert typed_loglik(rows, nine, counts, 2.0, mix=0.3) == seat_loglik(rows, nine, counts,
                                                                         2.0, 0.3)
    # A mixture of the two types' likelihoods, each at its own sharpness, in the prior shares.
    soft = seat_loglik(rows, nine, counts, 2.0, 0.3)
    tight = seat_loglik(rows, nine, counts, 8.0, 0.3)
    assert soft != tight
    for beta, sharp, share in ((2.0, 8.0, 0.25), (8.0, 2.0, 0.25)):
        got = typed_loglik(rows, nine, counts, beta, mix=0.3, sharp=sharp, share=share)
        lik = {2.0: soft, 8.0: tight}
        assert math.isclose(got, math.log((1 - share) * math.exp(lik[beta])
                                          + share * math.exp(lik[sharp])))


def test_a_sweep_is_worth_a_scopa_except_with_the_rounds_last_card() -> None:
    # 6S sweeps 2C + 4B; the settebello is in no one else's hand (no bait).
    hand = _mask("6S")
    table = _mask("2C 4B")
    others = _mask("1S 9B 10C")
    worth = WORTH[card("6S").index] + mask_worth(table)
    ((c, m, v),) = policy_values(hand, table, others, 1, 1, False)
    assert (c, m) == (card("6S").index, table) and math.isclose(v, worth + 1.0)
    ((_, _, v),) = policy_values(hand, table, others, 0, 0, True)
    assert math.isclose(v, worth)




def _holds(hand_len: int, unseen: int, wanted: int) -> float:
    # The chance a hand of ``hand_len`` of the ``unseen`` cards holds at least one of ``wanted``.
    return 1.0 - math.comb(unseen - wanted, hand_len) / math.comb(unseen, hand_len)


def test_a_card_laid_costs_half_its_worth_the_sweep_it_offers_and_a_settebello_two() -> None:
    # Nothing in the hand takes 2B. Laying 3C leaves 5 on the table, for either five out of
    # sight; laying the settebello leaves 9, for the nine. The next seat holds two of the six
    # unseen cards; what it would sweep is the table, the card laid and a scopa. The
    # settebello given away costs 2 more.
    hand = _mask("7D 3C")
    table = _mask("2B")
    others = _mask("5S 5B 9C 10B 1S 4C")
    values = {c: v for c, m, v in policy_values(hand, table, others, 2, 2, False) if not m}
    assert set(values) == {card("7D").index, card("3C").index}

    def lay(code: str, wanted: int) -> float:
        w = WORTH[card(code).index]
        return -0.5 * w - _holds(2, 6, wanted) * (1.0 + CARD_WORTH + w + mask_worth(table))

    assert math.isclose(values[card("3C").index], lay("3C", 2))
    assert math.isclose(values[card("7D").index], lay("7D", 1) - 2.0)
