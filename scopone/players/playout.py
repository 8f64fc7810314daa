"""The fast greedy policy Hard's playouts use: Normal's judgement cut down to a few mask operations.

It works on a ``Round``'s fast path (card indices and masks) and, like a real player, only looks
at its own hand, the table and which cards are still in someone's hand: never at who holds them.

A better-judging policy has not made Hard stronger: playouts choosing by a model fitted to Hard's
own choices (stop 21; it predicts them better than this policy, see ``hard.READINGS``) read
−0.12 ± 0.23 inside Hard and cost 30% more time (200 duplicate deals, seed 33, 100 deals a
move); this policy's weights tuned by self-play (+0.13 ± 0.02 policy against policy) read
−0.13 ± 0.21 inside Hard (stop 20). What paid was handing each playout's last plays to the
exact solver (``search.TAIL_PLAYS``, stop 24): how the round ends, not how its middle is played.
"""

from __future__ import annotations

import random

from ..engine import Round
from ..engine.captures import capture_options
from ..engine.cards import ALL_MASK, BIT, RANK_MASK, RANK_OF, SETTEBELLO_INDEX
from .heuristics import _MASK_RANKS, CARD_WORTH, WORTH, holds_any, mask_worth, rank_sum

_SETTEBELLO = BIT[SETTEBELLO_INDEX]
# Straight to plain dict lookups first: this function runs hundreds of thousands of times a move.
_OPTIONS: dict[int, tuple[tuple[int, ...], ...]] = {}
_OPTIONS_LIMIT = 100_000  # as the engine's memo (captures._CACHE_LIMIT), which says why
_options = _OPTIONS.get
_ranks = _MASK_RANKS.get


def _options_of(table: int) -> tuple[tuple[int, ...], ...]:
    if len(_OPTIONS) > _OPTIONS_LIMIT:
        _OPTIONS.clear()  # bounded, like the engine's own memo
    got = _OPTIONS[table] = capture_options(table)
    return got
#: _HOLDS[h][u][k]: chance a hand of h cards out of u unseen holds one of k wanted ones.
_HOLDS: tuple[tuple[tuple[float, ...], ...], ...] = tuple(
    tuple(tuple(holds_any(h, u, k) for k in range(5)) for u in range(41)) for h in range(11)
)


def policy_pair(r: Round, epsilon: float, rand: random.Random) -> tuple[int, int]:
    """The greedy policy's move for the seat to play (with chance ``epsilon`` a random one)."""
    seat = r.turn
    hands = r.hands
    hand = hands[seat]
    table = r.table_mask
    opts = _options(table) or _options_of(table)
    if epsilon and rand.random() < epsilon:
        moves: list[tuple[int, int]] = []
        for c in hand:
            o = opts[RANK_OF[c]]
            if o:
                moves.extend((c, m) for m in o)
            else:
                moves.append((c, 0))
        return moves[int(rand.random() * len(moves))]
    piles = r.piles
    own = 0
    for c in hand:
        own |= BIT[c]
    others = ALL_MASK & ~(piles[0] | piles[1] | table | own)
    # The next seat, an opponent, is who may sweep what we leave.
    n_others = others.bit_count()
    holds = _HOLDS[len(hands[(seat + 1) & 3])][n_others]
    # Chance the settebello, if still out, is in an opponent's hand rather than the partner's.
    bait = 0.0
    if others & _SETTEBELLO:
        bait = 1.5 * (len(hands[(seat + 1) & 3]) + len(hands[(seat + 3) & 3])) / n_others
    last = r.plays_left == 1
    tsum = _ranks(table)
    if tsum is None:
        tsum = rank_sum(table)
    best = -1e9
    best_move = (hand[0], 0)
    for c in hand:
        rank = RANK_OF[c]
        o = opts[rank]
        if o:
            wc = WORTH[c]
            for m in o:
                v = wc + mask_worth(m)
                after = table ^ m
                if not after:
                    if not last:
                        v += 1.0
                else:
                    s = tsum - rank_sum(m)
                    if s <= 10:
                        k = others & RANK_MASK[s]
                        if k:
                            v -= holds[k.bit_count()] * (1.0 + CARD_WORTH + mask_worth(after))
                    if bait and (_options(after) or _options_of(after))[7]:
                        v -= bait
                if v > best:
                    best = v
                    best_move = (c, m)
        else:
            v = -0.5 * WORTH[c]
            s = tsum + rank
            if s <= 10:
                k = others & RANK_MASK[s]
                if k:
                    v -= holds[k.bit_count()] * (1.0 + CARD_WORTH + WORTH[c] + mask_worth(table))
            if bait:
                after = table | BIT[c]
                if (_options(after) or _options_of(after))[7]:
                    v -= bait
            if c == SETTEBELLO_INDEX:
                v -= 2.0
            elif rank >= 8:
                v += 0.04
            if own & RANK_MASK[rank] & ~BIT[c]:
                v += 0.05
            if v > best:
                best = v
                best_move = (c, 0)
    return best_move


def greedy_playout(r: Round, rand: random.Random, epsilon: float = 0.0, stop_at: int = 0
                   ) -> None:
    """Play ``r`` with the greedy policy (fast path, no history) until ``stop_at`` plays are
    left, by default to the end."""
    while r.plays_left > stop_at and r.hands[r.turn]:  # (scripted uneven hands can run dry early)
        c, m = policy_pair(r, epsilon, rand)
        r.apply(c, m)


__all__ = ["greedy_playout", "policy_pair"]
