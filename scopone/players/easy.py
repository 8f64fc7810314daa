"""Easy: plays at random about half the time, otherwise takes the capture worth most."""

from __future__ import annotations

import random

from ..engine import Move, SeatView
from ..engine.cards import BIT, DENARI_MASK, RANK_OF, SETTEBELLO_INDEX


def capture_worth(card: int, capture: int) -> float:
    """A naive worth of what a move takes: cards, coins, the settebello, sevens. Never what it
    leaves behind (that is what makes Easy easy)."""
    if not capture:
        return 0.0
    taken = capture | BIT[card]
    worth = taken.bit_count() + 0.5 * (taken & DENARI_MASK).bit_count()
    if taken & BIT[SETTEBELLO_INDEX]:
        worth += 3
    worth += sum(0.5 for i in range(40) if taken >> i & 1 and RANK_OF[i] == 7)
    return worth


class EasyPlayer:
    level = "easy"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = view.legal_moves()
        if rng.random() < 0.5:
            card, capture = moves[rng.randrange(len(moves))]
        else:
            card, capture = max(moves, key=lambda m: capture_worth(*m))
        return Move.from_masks(card, capture)
