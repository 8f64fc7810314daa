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
#: ``(i, i + 1, bits of i + 1)`` for each step of the Fisher–Yates shuffle of 40 cards.
_STEPS: tuple[tuple[int, int, int], ...] = tuple((i, i + 1, (i + 1).bit_length())
                                               for i in range(39, 0, -1))


def _shuffled_indices(rng: random.Random) -> list[int]:
    # Exactly ``rng.shuffle(list(range(40)))``: the same draws in the same order, so a seed
    # deals the same cards, but without a method call per card. Only for the plain generator,
    # whose shuffle is known to draw with ``getrandbits``; anything else shuffles itself.
    deck = _INDICES[:]
    if type(rng) is not random.Random:
        rng.shuffle(deck)
        return deck
    bits = rng.getrandbits
    for i, n, k in _STEPS:
        j = bits(k)
        while j >= n:
            j = bits(k)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


def deal_indices(rules: Rules, rng: random.Random) -> tuple[list[list[int]], int]:
    """The same deal as ``deal_cards`` for the same generator state, as indices and a table mask.

    >>> hands, table = deal_indices(Rules(), random.Random(1))
    >>> cards = [sorted(h) for h in deal_cards(Rules(), random.Random(1))[0]]
    >>> [[DECK[i] for i in h] for h in hands] == cards
    True
    """
    n = rules.hand_size
    if n == 10:
        deck = _shuffled_indices(rng)
        return [sorted(deck[0:10]), sorted(deck[10:20]), sorted(deck[20:30]),
                sorted(deck[30:40])], 0
    while True:
        deck = _shuffled_indices(rng)
        table = deck[4 * n:]
        if sum(1 for i in table if i % 10 == 9) < 3:
            mask = 0
            for i in table:
                mask |= 1 << i
            return [sorted(deck[k * n:(k + 1) * n]) for k in range(4)], mask


def first_dealer(rng: random.Random) -> int:
    """The dealer of a match's first round, drawn at random."""
    return rng.randrange(4)
