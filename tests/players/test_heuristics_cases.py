"""The shared judgement's arithmetic against plain counting: the chance a hand holds a card, and
the worth and rank sum of a set of cards, memo or not."""

from __future__ import annotations

import math
import random

from scopone.engine.cards import RANK_OF
from scopone.players import heuristics
from scopone.players.heuristics import WORTH, holds_any, mask_worth, rank_sum


def test_the_chance_a_hand_holds_a_wanted_card_is_plain_counting() -> None:
    # A hand of h cards dealt from u unseen misses all w wanted ones in C(u - w, h) of the
    # C(u, h) ways: one card of ten with two wanted holds one a fifth of the time; a hand of two
    # of four, two wanted, five times in six; the last unseen card is surely in the hand.
    for u in range(1, 13):
        for w in range(u + 1):
            for h in range(u + 1):
                expected = 1 - math.comb(u - w, h) / math.comb(u, h)
                assert math.isclose(holds_any(h, u, w), expected, abs_tol=1e-12), (h, u, w)
    assert math.isclose(holds_any(1, 10, 2), 0.2)
    assert math.isclose(holds_any(2, 4, 2), 5 / 6)
    assert holds_any(1, 1, 1) == 1.0


def test_worth_and_rank_sum_of_any_cards_are_their_cards_added_up() -> None:
    # Both are memoized; the memo only saves time. Emptied first (other tests fill it), every
    # answer is the plain sum, asked once or twice.
    heuristics._MASK_WORTH.clear()
    heuristics._MASK_RANKS.clear()
    rng = random.Random(11)
    for _ in range(300):
        cards = rng.sample(range(40), rng.randrange(0, 8))
        mask = sum(1 << c for c in cards)
        for _ in range(2):
            assert math.isclose(mask_worth(mask), sum(WORTH[c] for c in cards))
            assert rank_sum(mask) == sum(RANK_OF[c] for c in cards)
