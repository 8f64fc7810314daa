"""Reading the plays jointly: how likely an imagined deal makes every move the other seats made.

``inference.card_weights`` judges each card of a hand on its own. Here a whole imagined deal is
judged: each seat's hand at each of its past plays is rebuilt (the cards it holds in the deal
plus those it played since), and the move it made is scored against every move that hand offered
by the greedy policy of the playouts (``playout.policy_pair``), a soft choice of sharpness
``beta``. Deals where the seats' plays look like their judgement are drawn more often: each deal
handed to the search is picked from a few candidates in proportion to that likelihood
(sampling-importance-resampling), so the search itself is unchanged.

Only the seat's view goes in: the history is public, the candidates come from the view.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import Round, SeatView
from ..engine.captures import capture_options
from ..engine.cards import ALL_MASK, BIT, RANK_MASK, RANK_OF, SETTEBELLO_INDEX, mask_of
from .heuristics import CARD_WORTH, WORTH, mask_worth, rank_sum
from .inference import _tables_before
from .playout import _HOLDS

_SETTEBELLO = BIT[SETTEBELLO_INDEX]

#: Sharpness of the modelled choice (points of the policy's score per unit of log-odds).
POLICY_BETA = 2.0
#: Candidates drawn for each deal handed to the search.
POOL = 4
#: Share of each modelled choice left to chance: a seat that plays unlike the model (a human, a
#: deeper search) then costs a deal a bounded factor per play, not an unbounded one. 0.2 gained
#: nothing measurable at 100 deals a move over 200 duplicate deals: −0.12 ± 0.24 head to head,
#: +0.08 ± 0.27 against the cheat, whose plays the model does not expect (README), so none.
MIX = 0.0


def policy_values(hand: int, table: int, others: int, next_len: int, prev_len: int,
                  last: bool) -> list[tuple[int, int, float]]:
    """Every move of ``hand`` on ``table`` with the greedy policy's score (``policy_pair``'s,
    for a seat that sees ``others`` out of its hand and whose neighbours hold ``next_len`` and
    ``prev_len`` cards). The playouts keep their own copy, which only looks for the best move
    and runs far more often: playouts built on this function instead ran 21% slower
    (``python -m scopone.bench --quick``: 19,100 against 24,400 greedy playouts/s).
    ``tests/players/test_likelihood.py`` keeps the two in step."""
    n_others = others.bit_count()
    bait = 0.0
    if others & _SETTEBELLO and n_others:
        bait = 1.5 * (next_len + prev_len) / n_others
    holds = _HOLDS[next_len][n_others]
    tsum = rank_sum(table)
    opts = capture_options(table)
    out: list[tuple[int, int, float]] = []
    h = hand
    while h:
        low = h & -h
        h ^= low
        c = low.bit_length() - 1
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
                    if bait and capture_options(after)[7]:
                        v -= bait
                out.append((c, m, v))
        else:
            v = -0.5 * WORTH[c]
            s = tsum + rank
            if s <= 10:
                k = others & RANK_MASK[s]
                if k:
                    v -= holds[k.bit_count()] * (1.0 + CARD_WORTH + WORTH[c] + mask_worth(table))
            if bait and capture_options(table | low)[7]:
                v -= bait
            if c == SETTEBELLO_INDEX:
                v -= 2.0
            elif rank >= 8:
                v += 0.04
            if hand & RANK_MASK[rank] & ~low:
                v += 0.05
            out.append((c, 0, v))
    return out


@dataclass(frozen=True, slots=True)
class _Seen:
    # One past play of another seat, with what was public when it was made.
    seat: int
    card: int
    capture: int
    table: int  # the table it was played on
    piles: int  # cards in either pile then
    later: int  # cards the seat played from this play on (this one included)
    next_later: int  # how many cards the next seat played after it
    prev_later: int  # and the seat before
    last: bool


def _seen_plays(view: SeatView) -> list[_Seen]:
    history = view.history
    n = len(history)
    tables = _tables_before(view)
    # Walk back from today's piles, so each play knows the piles it was made beside and what
    # its seat and its neighbours played after it.
    piles = mask_of(view.piles[0]) | mask_of(view.piles[1])
    later = [0, 0, 0, 0]
    counts = [0, 0, 0, 0]
    out: list[_Seen] = []
    for i in range(n - 1, -1, -1):
        play = history[i]
        s = play.seat
        card = BIT[play.card.index]
        cap = mask_of(play.capture)
        if cap:
            piles &= ~(cap | card)
        later[s] |= card
        counts[s] += 1
        if s == view.seat:
            continue
        out.append(_Seen(s, play.card.index, cap, tables[i], piles, later[s],
                         counts[(s + 1) & 3], counts[(s + 3) & 3],
                         view.plays_left + n - i == 1))
    return out


def seat_loglik(rows: list[_Seen], hand_now: int, counts: tuple[int, int, int, int],
                beta: float, mix: float = MIX) -> float:
    """Log-likelihood of one seat's plays ``rows`` if it holds ``hand_now`` (a bit mask): each
    play chosen by the model, or with chance ``mix`` uniformly among the hand's moves."""
    return _seat_logliks(rows, hand_now, counts, (beta,), mix)[0]


def _seat_logliks(rows: list[_Seen], hand_now: int, counts: tuple[int, int, int, int],
                  betas: tuple[float, ...], mix: float) -> list[float]:
    # ``seat_loglik`` at several sharpnesses at once: scoring a hand's moves (policy_values) is
    # most of the cost, and it does not depend on the sharpness.
    totals = [0.0] * len(betas)
    for p in rows:
        hand = hand_now | p.later
        if hand.bit_count() < 2:
            continue
        others = ALL_MASK & ~(p.piles | p.table | hand)
        values = policy_values(hand, p.table, others,
                               counts[(p.seat + 1) & 3] + p.next_later,
                               counts[(p.seat + 3) & 3] + p.prev_later, p.last)
        top = max(v for _, _, v in values)
        made = top - 50.0  # (never left so: the move made is always among its hand's moves)
        # The first sharpness's sum is taken while looking for the move made: one pass, as
        # cheap as before for the usual single one.
        first = betas[0]
        norm = 0.0
        for c, m, v in values:
            norm += math.exp(first * (v - top))
            if c == p.card and m == p.capture:
                made = v
        for i, beta in enumerate(betas):
            if i:
                norm = 0.0
                for _, _, v in values:
                    norm += math.exp(beta * (v - top))
            if mix:
                totals[i] += math.log((1.0 - mix) * math.exp(beta * (made - top)) / norm
                                      + mix / len(values))
            else:
                totals[i] += beta * (made - top) - math.log(norm)
    return totals


#: Prior share of the sharp type in ``typed_loglik``. 0.2 read no better by the chain at 100
#: deals a move (stop 23): −0.18 ± 0.21 against ``policy`` head to head, +0.51 ± 0.31 against
#: Normal, where 0.5 read −0.06 ± 0.23 and +0.45 ± 0.32 (README).
SHARP_SHARE = 0.5


def typed_loglik(rows: list[_Seen], hand_now: int, counts: tuple[int, int, int, int],
                 beta: float, mix: float = MIX, sharp: float | None = None,
                 share: float = SHARP_SHARE) -> float:
    """``seat_loglik``, or with ``sharp`` given, that of a seat of one of two types: one that
    plays as the model at ``beta`` or one (``share`` of seats, before any play) that plays as
    it at the sharper ``sharp``. A seat whose plays the model foresees (Normal, a player of
    habits) is read sharply; one it does not (Hard itself) falls back on ``beta``."""
    if sharp is None:
        return seat_loglik(rows, hand_now, counts, beta, mix)
    soft, tight = _seat_logliks(rows, hand_now, counts, (beta, sharp), mix)
    top = max(soft, tight)
    return top + math.log((1.0 - share) * math.exp(soft - top)
                          + share * math.exp(tight - top))


def deal_loglik(seen: list[_Seen], hands: list[int], counts: tuple[int, int, int, int],
                beta: float, mix: float = MIX) -> float:
    """Log-likelihood of the plays ``seen`` if the hands now were ``hands`` (bit masks)."""
    return sum(seat_loglik([p for p in seen if p.seat == s], hands[s], counts, beta, mix)
               for s in range(4))


def policy_sampler(view: SeatView, base: Callable[[random.Random], Round],
                   beta: float = POLICY_BETA, pool: int = POOL, mix: float = MIX,
                   partner_beta: float | None = None, sharp: float | None = None
                   ) -> Callable[[random.Random], Round]:
    """Deals drawn by ``base`` and kept one in ``pool``, in proportion to how likely each makes
    the other seats' past plays (``deal_loglik``); the partner's read with ``partner_beta``
    when given (a partner that plays better than the model; 4 against 2 measured −0.02 ± 0.23
    at 100 deals a move over 200 duplicate deals, so by default it is read like the others)."""
    seen = _seen_plays(view)
    if not seen or pool <= 1:
        return base
    counts = view.hand_counts
    rows = [(s, mine) for s in range(4) if (mine := [p for p in seen if p.seat == s])]
    # A seat's share depends on its own hand only, and hands recur between candidates (most of
    # all late in the round, when few cards are unseen): each is read once a decision.
    memo: dict[tuple[int, int], float] = {}
    betas = [beta] * 4
    if partner_beta is not None:
        betas[(view.seat + 2) & 3] = partner_beta

    def sample(rng: random.Random) -> Round:
        cands = [base(rng) for _ in range(pool)]
        logs = []
        for r in cands:
            total = 0.0
            for s, seat_rows in rows:
                hand = 0
                for c in r.hands[s]:
                    hand |= BIT[c]
                got = memo.get((s, hand))
                if got is None:
                    got = memo[(s, hand)] = typed_loglik(seat_rows, hand, counts,
                                                         betas[s], mix, sharp)
                total += got
            logs.append(total)
        top = max(logs)
        return rng.choices(cands, [math.exp(x - top) for x in logs])[0]

    return sample


__all__ = ["MIX", "POLICY_BETA", "POOL", "SHARP_SHARE", "deal_loglik", "policy_sampler",
           "policy_values", "seat_loglik", "typed_loglik"]
