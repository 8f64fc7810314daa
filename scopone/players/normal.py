"""Normal: judges each move by what it takes and what it leaves to the opponent who plays next."""

from __future__ import annotations

import random

from ..engine import Move, SeatView
from ..engine.captures import capture_options
from ..engine.cards import BIT, RANK_MASK, RANK_OF, SETTEBELLO_INDEX
from .heuristics import (
    CARD_WORTH,
    SCOPA_WORTH,
    WORTH,
    holds_any,
    mask_worth,
    rank_sum,
)

_SETTEBELLO = BIT[SETTEBELLO_INDEX]
#: Laying the settebello on the table when another card is possible is simply never done.
_LAY_SETTEBELLO = 3.0
#: Leaving a capture for the settebello while it is out is almost as bad.
_SETTEBELLO_BAIT = 1.5
#: Small preferences when a card must be laid: face cards and cards held twice.
_FACE_CARD = 0.04
_DOUBLED = 0.05


def move_score(view: SeatView, card: int, capture: int) -> float:
    """How good a move looks to a player who counts cards but does not search (higher is better).

    The worth of what it takes, a scopa, minus the chance the next opponent sweeps what is left
    (weighted by how many cards of that rank are still unseen) times what the sweep would win,
    minus the settebello guard's penalties.
    """
    table = view.table_mask
    unseen = view.unseen_mask
    n_unseen = unseen.bit_count()
    counts = view.hand_counts
    nxt = (view.seat + 1) % 4
    rank = RANK_OF[card]
    score = 0.0
    if capture:
        after = table ^ capture
        score += mask_worth(capture | BIT[card])
        if not after and view.plays_left > 1:
            score += SCOPA_WORTH
    else:
        after = table | BIT[card]
        # What is laid down may well end in the opponents' pile.
        score -= 0.5 * WORTH[card]
        if rank >= 8:
            score += _FACE_CARD
        if any(RANK_OF[c.index] == rank and c.index != card for c in view.hand):
            score += _DOUBLED
        if card == SETTEBELLO_INDEX:
            score -= _LAY_SETTEBELLO
    if after:
        total = rank_sum(after)
        if total <= 10:
            sweepers = (unseen & RANK_MASK[total]).bit_count()
            p = holds_any(counts[nxt], n_unseen, sweepers)
            score -= p * (SCOPA_WORTH + mask_worth(after) + CARD_WORTH)
        if unseen & _SETTEBELLO and capture_options(after)[7]:
            # The settebello is out and could take something we leave: chance it is an opponent's.
            opponents = counts[nxt] + counts[(view.seat + 3) % 4]
            score -= _SETTEBELLO_BAIT * opponents / max(n_unseen, 1)
    return score


class NormalPlayer:
    """Takes what is worth most, never leaves an easy scopa when it can avoid it, guards 7D."""

    level = "normal"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = view.legal_moves()
        scored = [(round(move_score(view, c, m), 9), c, m) for c, m in moves]
        best = max(s for s, _, _ in scored)
        top = [(c, m) for s, c, m in scored if s == best]
        card, capture = top[rng.randrange(len(top))] if len(top) > 1 else top[0]
        return Move.from_masks(card, capture)
