"""Shuffling and dealing by the variant's rules, always from an injected random generator."""

from __future__ import annotations

import random

from .cards import DECK, Card
from .rules import Rules


def deal_cards(rules: Rules, rng: random.Random) -> tuple[list[list[Card]], list[Card]]:
    """Four hands and the face-up table cards for a new round.

    Scientifico: 10 each, empty table. Classico: 9 each and 4 face up; a table with three or
    four kings voids the deal and it is dealt again.

    >>> hands, table = deal_cards(Rules(), random.Random(1))
    >>> [len(h) for h in hands], table
    ([10, 10, 10, 10], [])
    """
    while True:
        deck = list(DECK)
        rng.shuffle(deck)
        n = rules.hand_size
        hands = [deck[i * n:(i + 1) * n] for i in range(4)]
        table = deck[4 * n:]
        if sum(1 for c in table if c.rank == 10) < 3:
            return hands, table


_INDICES = list(range(40))


def deal_indices(rules: Rules, rng: random.Random) -> tuple[list[list[int]], int]:
    """The same deal as ``deal_cards`` for the same generator state, as indices and a table mask.

    >>> hands, table = deal_indices(Rules(), random.Random(1))
    >>> [[DECK[i] for i in h] for h in hands] == [sorted(h) for h in deal_cards(Rules(), random.Random(1))[0]]
    True
    """
    n = rules.hand_size
    while True:
        deck = _INDICES[:]
        rng.shuffle(deck)
        table = deck[4 * n:]
        if sum(1 for i in table if i % 10 == 9) < 3:
            mask = 0
            for i in table:
                mask |= 1 << i
            return [sorted(deck[k * n:(k + 1) * n]) for k in range(4)], mask


def first_dealer(rng: random.Random) -> int:
    """The dealer of a match's first round, drawn at random."""
    return rng.randrange(4)
