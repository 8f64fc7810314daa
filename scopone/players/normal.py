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


def leaves_easy_scopa(view: SeatView, card: int, capture: int) -> bool:
    """Whether this move leaves the next seat a scopa that one card still out could make.

    True when the table left is not empty, its ranks add up to at most 10 (a lone card is swept
    by its rank, several cards by their sum: equal rank takes first, and no card of several can
    equal their sum), a card of that rank is unseen from this seat (in no pile, not on the table,
    not in its hand), the next seat still holds a card, and its play is not the round's last
    (a sweep with the last card is no scopa). Whose hand the sweeper is in is not asked: from
    this seat it may be the next one's.

    >>> from scopone import Card, Round
    >>> from scopone.engine.cards import parse_cards
    >>> hands = [parse_cards(h) for h in ("3B 9S", "7C 1C", "5D 6S", "7S 2C")]
    >>> view = SeatView.of(Round.from_deal(hands, parse_cards("4C"), dealer=3), 0)
    >>> leaves_easy_scopa(view, Card.parse("3B").index, 0)   # 4C + 3B = 7: any seven sweeps
    True
    >>> leaves_easy_scopa(view, Card.parse("9S").index, 0)   # 4C + 9S = 13: no card can
    False
    """
    if view.plays_left <= 2 or not view.hand_counts[(view.seat + 1) % 4]:
        return False
    after = view.table_mask ^ capture if capture else view.table_mask | BIT[card]
    if not after:
        return False
    total = rank_sum(after)
    return total <= 10 and bool(view.unseen_mask & RANK_MASK[total])


class NormalPlayer:
    """Takes what is worth most, never leaves an easy scopa when it can avoid it, guards 7D.

    The rule is strict (SPEC §2): when some move leaves no easy scopa (``leaves_easy_scopa``),
    only those are judged by ``move_score``; otherwise every move is. Against the Normal that
    only weighed the sweep's chance into ``move_score`` (10,000 duplicate deals, scratch
    subclass): head to head +0.02 ± 0.03 points a round; each against Easy on the same deals
    −0.13 ± 0.03 (2% of its moves there differ, two thirds of them a capture given up for a safe
    lay). Normal − Easy, ``python -m scopone.arena normal easy --deals 200 --seed 1``: +6.08 ±
    0.35, before +6.11 ± 0.35. Against Hard it holds better: Hard − Normal at 1 s a move +1.65 ±
    0.22 (200 deals, seed 1), on the same deals −0.53 ± 0.26 from +2.17 before the rule.
    ``move_score`` itself is unchanged: Hard breaks near-ties with it.
    """

    level = "normal"

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        moves = view.legal_moves()
        safe = [(c, m) for c, m in moves if not leaves_easy_scopa(view, c, m)]
        scored = [(round(move_score(view, c, m), 9), c, m) for c, m in safe or moves]
        best = max(s for s, _, _ in scored)
        top = [(c, m) for s, c, m in scored if s == best]
        card, capture = top[rng.randrange(len(top))] if len(top) > 1 else top[0]
        return Move.from_masks(card, capture)
