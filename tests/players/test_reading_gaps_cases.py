"""Card reading where what is known at each past play decides the reading: which cards were
already taken, how many cards the next seat held, whether the play was the round's last, and
how many cards each neighbour held when the likelihood rebuilds a seat's past hand."""

from __future__ import annotations

import math
import random

import pytest

from scopone import Move, Round, Rules, SeatView
from scopone.engine.captures import capture_options
from scopone.engine.cards import ALL_MASK, BIT, RANK_OF, mask_of, parse_cards
from scopone.players.heuristics import SCOPA_WORTH, WORTH, mask_worth
from scopone.players.inference import _public_score, _tables_before, card_weights
from scopone.players.likelihood import _seen_plays, policy_values, seat_loglik

from .helpers import card, position


def _play(r: Round, *moves: str) -> None:
    # Each move as "card" or "card:taken taken".
    for text in moves:
        code, _, taken = text.partition(":")
        r.play(Move(card(code), frozenset(card(t) for t in taken.split())))


def _mask(codes: str) -> int:
    return mask_of(parse_cards(codes))


def _passed(table: str, played: str, taken: str, x: str, out: int, next_count: int,
            last: bool) -> float:
    # One play's factor on card ``x``: the chance the model player (Normal's public
    # judgement, sharpness 2) plays ``played`` taking ``taken`` rather than x's best capture.
    t = _mask(table)
    made = _public_score(t, card(played).index, _mask(taken), out, next_count, last)
    xi = card(x).index
    best = max(_public_score(t, xi, cap, out, next_count, last)
               for cap in capture_options(t)[RANK_OF[xi]])
    return 1.0 / (1.0 + math.exp(2.0 * (best - made)))


# ----- card_weights: the cards taken ------------------------------------------------------


def test_cards_taken_earlier_are_never_read_into_a_hand() -> None:
    # Seat 1 takes 7C with 7S, seat 2 takes 9C with 9B, and seat 3 lays 2B where an ace would
    # have taken 1C and a seven 7B. The sevens out of sight (7D) and the ace (1D) are read
    # less likely in seat 3's hand; the two sevens of the first capture, the taker as much as
    # the taken, are in a pile and no reading can put them back in a hand, however many
    # captures came since.
    r = position(["4D 8D 10D", "7S 1D 6C", "9B 7D 3C", "2B 5S 6S"], table="7C 9C 1C 7B",
                 to_play=1)
    _play(r, "7S:7C", "9B:9C", "2B")
    weights = card_weights(SeatView.of(r, 0))[3]
    assert weights[card("7D").index] < 0.5
    assert weights[card("1D").index] < 1.0  # the ace of coins is a card like any other
    assert weights[card("7S").index] == 1.0
    assert weights[card("7C").index] == 1.0


def test_a_lay_onto_a_sum_whose_cards_are_all_taken_risks_no_sweep() -> None:
    # All four fives are gone before seat 3 plays: seat 1 took 5D with 5S, seat 2 took 5C with
    # 5B. Seat 3 then lays 3B on 2C, making 5: no seat can hold a five to sweep it, so the lay
    # costs only the card it gives up. The one reading of the play is that a two would have
    # swept 2C (a scopa), and the factor on a two is the model's odds against exactly that.
    r = position(["9D 10C 8B", "5S 9S 8C", "5B 9C 8S", "3B 10S 6B"], table="5D 5C 2C",
                 to_play=1)
    _play(r, "5S:5D", "5B:5C", "3B")
    weights = card_weights(SeatView.of(r, 0))[3]
    best = mask_worth(_mask("2C 2S")) + SCOPA_WORTH
    made = -0.5 * WORTH[card("3B").index]
    assert weights[card("2S").index] == pytest.approx(1.0 / (1.0 + math.exp(2.0 * (best - made))))


# ----- card_weights: how many cards were left at each past play ---------------------------


def test_the_sweep_risk_of_a_past_lay_is_read_with_the_next_seats_cards_then() -> None:
    # Three cards a hand, seat 1 leading and reading. Seat 2 lays 1B on 2C + 3S (where a five
    # would have swept), making 6 while seat 3 still held three cards; seat 0, last of the
    # trick, lays 4C on 2C (where a two would have swept), making 6 while seat 1, who led
    # the trick, held two. Each lay's risk (the next seat holding a six) is judged with the
    # next seat's count at the time of the lay, read from the plays left then.
    r = position(["4C 8D 10D", "3S 9S 10C", "1B 6S 8C", "4B 5C 9C"], table="2C", to_play=1)
    _play(r, "3S", "1B", "4B:3S 1B", "4C")
    weights = card_weights(SeatView.of(r, 1))
    # An onlooker counts as out every card that is on no table and was not taken in the plays.
    out_then = ALL_MASK & ~_mask("2C 3S")
    assert weights[2][card("5D").index] == pytest.approx(
        _passed("2C 3S", "1B", "", "5D", out_then, 3, False))
    out_then = ALL_MASK & ~_mask("2C 3S 1B 4B")
    read = weights[0][card("2S").index]
    assert read == pytest.approx(_passed("2C", "4C", "", "2S", out_then, 2, False))
    # The count decides: had seat 1 still held three, the lay would have looked riskier and
    # the passed sweep less telling.
    assert read > _passed("2C", "4C", "", "2S", out_then, 3, False) * 1.1


def _no_capture_round() -> Round:
    # A round of one card a hand where nobody takes: every card laid stays on the table.
    r = Round.from_deal([parse_cards("1C"), parse_cards("2B"), parse_cards("4S"),
                         parse_cards("9S")], dealer=3)
    _play(r, "1C", "2B", "4S", "9S")
    return r


def test_passing_up_a_sweep_passes_up_a_scopa_until_the_rounds_last_card() -> None:
    # Seat 2 lays 4S on 1C + 2B with one play to follow: a three would have swept, and that
    # sweep would have been a scopa. Seat 3 lays the round's last card, 9S, on 1C + 2B + 4S:
    # a seven would have swept them, but a sweep with the last card is no scopa. (A plain
    # seven, 7S: the settebello's own point would dwarf the scopa's.)
    view = SeatView.of(_no_capture_round(), 0)
    assert view.plays_left == 0
    weights = card_weights(view)
    # Nothing is taken: every card not on the table is out. Seat 3 holds one card then.
    late = _passed("1C 2B", "4S", "", "3D", ALL_MASK & ~_mask("1C 2B"), 1, False)
    assert weights[2][card("3D").index] == pytest.approx(late)
    last = _passed("1C 2B 4S", "9S", "", "7S", ALL_MASK & ~_mask("1C 2B 4S"), 0, True)
    assert weights[3][card("7S").index] == pytest.approx(last)
    # No scopa to pass up (and no sweep to fear after the last card) leaves the seven far
    # likelier than the three.
    best = mask_worth(_mask("1C 2B 4S 7S"))
    made = -0.5 * WORTH[card("9S").index]
    assert last == pytest.approx(1.0 / (1.0 + math.exp(2.0 * (best - made))))
    assert last > 3 * late


def test_a_sweep_with_the_rounds_last_card_earns_no_scopa() -> None:
    # Seat 3 sweeps 1C + 2B + 4S with 7B, the round's last card: no scopa. A five taking 1C +
    # 4S instead would have been worth less, but only by the cards: the sweep earns nothing
    # more, so the five is read as only mildly unlikely.
    r = Round.from_deal([parse_cards("1C"), parse_cards("2B"), parse_cards("4S"),
                         parse_cards("7B")], dealer=3)
    _play(r, "1C", "2B", "4S", "7B:1C 2B 4S")
    weights = card_weights(SeatView.of(r, 0))[3]
    best = mask_worth(_mask("1C 4S 5D"))
    made = mask_worth(_mask("1C 2B 4S 7B"))
    assert weights[card("5D").index] == pytest.approx(1.0 / (1.0 + math.exp(2.0 * (best - made))))
    assert 0.5 < weights[card("5D").index] < 0.8


# ----- likelihood: the neighbours' hands at each past play --------------------------------


def _log_odds(table: int, hand: int, played: str, taken: int, piles: int, next_len: int,
              prev_len: int) -> float:
    # The model's odds (sharpness 2) of the move made among every move of ``hand``, for a seat
    # whose next seat held ``next_len`` cards and the seat before it ``prev_len``.
    others = ALL_MASK & ~(piles | table | hand)
    values = policy_values(hand, table, others, next_len, prev_len, False)
    norm = sum(math.exp(2.0 * v) for _, _, v in values)
    made = next(v for c, m, v in values if c == card(played).index and m == taken)
    return 2.0 * made - math.log(norm)


def test_a_past_hand_is_scored_with_its_neighbours_hands_as_they_were_then() -> None:
    # Seat 1 led both tricks, with three cards and then two. When it laid 1C on 3B + 4D, its
    # neighbours held three cards each as it did: the next seat (2) has played twice since
    # and holds one now; the seat before (0) has played once since and holds two. Both counts
    # weigh on that play: the next seat's on the chance it sweeps the 8 laid, both on the bait
    # of leaving 3B + 4D for a seven, with the settebello out of sight.
    r = position(["1D 5B 10D", "1C 3C 6S", "4S 2B 8B", "9B 7D 10S"], table="3B 4D",
                 to_play=1)
    _play(r, "1C", "4S:4D", "9B", "1D:1C", "6S", "2B")
    view = SeatView.of(r, 0)
    assert view.hand_counts == (2, 1, 1, 2)
    rows = [p for p in _seen_plays(view) if p.seat == 1]
    # Latest first: the cards the next seat and the seat before played after each play.
    assert [(p.next_later, p.prev_later) for p in rows] == [(1, 0), (2, 1)]
    start = (mask_of(view.piles[0]) | mask_of(view.piles[1])) & ~_mask("4S 4D 1D 1C")
    first = _log_odds(_mask("3B 4D"), _mask("1C 3C 6S"), "1C", 0, start, 3, 3)
    second = _log_odds(_mask("3B 9B"), _mask("3C 6S"), "6S", 0, start, 2, 2)
    assert seat_loglik(rows, _mask("3C"), view.hand_counts, 2.0) == pytest.approx(first + second)
    # With either neighbour's count of today, the first play would read otherwise.
    for next_len, prev_len in ((1, 3), (2, 3), (3, 2), (3, 1)):
        other = _log_odds(_mask("3B 4D"), _mask("1C 3C 6S"), "1C", 0, start, next_len, prev_len)
        assert abs(other - first) > 0.1


def test_only_the_rounds_last_card_is_seen_as_the_last() -> None:
    # The plays of the round of one card a hand, seen by seat 0 when it is over: seat 3's is
    # the last, seat 2's (one play before it) is not.
    rows = _seen_plays(SeatView.of(_no_capture_round(), 0))
    assert [(p.seat, p.last) for p in rows] == [(3, True), (2, False), (1, False)]


# ----- the tables each play was made on ---------------------------------------------------


@pytest.mark.parametrize("variant", ["scientifico", "classico"])
def test_each_play_is_read_on_the_table_it_was_made_on_until_the_rounds_end(variant: str) -> None:
    # Random rounds replayed play by play, every seat's view taken at every point, the
    # finished round's too: the last taker has had the leftovers by then, and the table each
    # play met must still be read back as it was.
    rng = random.Random(35)
    finished_with_leftovers = 0
    for dealer in range(40):
        r = Round.deal(Rules(variant=variant), dealer % 4, rng)  # type: ignore[arg-type]
        met: list[int] = []
        while True:
            view = SeatView.of(r, dealer % 4)
            assert _tables_before(view) == met
            if not r.plays_left:
                break
            moves = r.legal_moves()
            met.append(r.table_mask)
            r.play(moves[rng.randrange(len(moves))])
        last = r.history[-1]
        leftover = met[-1] & ~mask_of(last.capture) | (0 if last.capture else BIT[last.card.index])
        finished_with_leftovers += bool(leftover)
    # Most rounds end with cards on the table: the case the walk back has to rebuild.
    assert finished_with_leftovers > 20
