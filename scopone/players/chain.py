"""Reading the plays by a Markov chain over imagined deals instead of picking among a few.

``likelihood.policy_sampler`` draws a handful of deals and keeps one in proportion to how
likely each makes the other seats' plays: with four candidates a deal can be favoured at most
fourfold, however clearly the plays speak against the rest. Here one imagined deal is kept from
draw to draw and changed a little at a time: two cards of two other seats trade places, and the
trade is kept with the Metropolis chance min(1, likelihood after / likelihood before). In the
long run the deals come in proportion to prior × likelihood, the posterior the model asks for,
and each step costs two seats' likelihoods (memoized by hand) instead of four whole deals.

The void ranks a seat has shown stay out of its hand where the counts allow: a trade that puts
one in costs ``VOID_COST`` of log-likelihood per card (odds of about 1 in 160,000), so the
chain leaves such a deal at once and all but never enters one while another deal is open.

Only the seat's view goes in: the history is public, the first deal and every trade come from
the view's unseen cards.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable

from ..engine import Round, SeatView
from ..engine.cards import BIT, RANK_MASK
from .inference import rank_voids
from .likelihood import MIX, POLICY_BETA, _seen_plays, typed_loglik

#: Trades proposed between two deals handed to the search.
STEPS = 8
#: Log-likelihood a card of a void rank costs its holder.
VOID_COST = 12.0


def chain_sampler(view: SeatView, base: Callable[[random.Random], Round],
                  beta: float = POLICY_BETA, steps: int = STEPS, mix: float = MIX,
                  partner_beta: float | None = None, sharp: float | None = None
                  ) -> Callable[[random.Random], Round]:
    """Deals from a Metropolis chain started at a deal drawn by ``base`` (which should keep
    the voids), ``steps`` trades apart, in proportion to how likely each makes the other seats'
    past plays (``likelihood.seat_loglik``, or ``typed_loglik`` with ``sharp``) and to the
    voids they showed."""
    seen = _seen_plays(view)
    others = [s for s in range(4) if s != view.seat and view.hand_counts[s]]
    if not seen or len(others) < 2 or steps < 1:
        return base
    counts = view.hand_counts
    rows = {s: [p for p in seen if p.seat == s] for s in others}
    betas = [beta] * 4
    if partner_beta is not None:
        betas[(view.seat + 2) & 3] = partner_beta
    voids = rank_voids(view)
    void_cards = [0, 0, 0, 0]
    for s in others:
        for rank in range(1, 11):
            if voids[s] >> rank & 1:
                void_cards[s] |= RANK_MASK[rank]
    memo: dict[tuple[int, int], float] = {}

    def energy(s: int, hand: int) -> float:
        got = memo.get((s, hand))
        if got is None:
            got = typed_loglik(rows[s], hand, counts, betas[s], mix, sharp) if rows[s] else 0.0
            got -= VOID_COST * (hand & void_cards[s]).bit_count()
            memo[(s, hand)] = got
        return got

    state: list[int] = []  # each seat's hand as a mask, once the chain has started
    cards: list[list[int]] = [[], [], [], []]  # and as indices, for drawing a card to trade
    template: list[Round] = []

    def start(rng: random.Random) -> None:
        r = base(rng)
        template.append(r)
        state.extend(0 for _ in range(4))
        for s in others:
            cards[s] = list(r.hands[s])
            for c in cards[s]:
                state[s] |= BIT[c]

    def sample(rng: random.Random) -> Round:
        if not state:
            start(rng)
        rand = rng.random
        n = len(others)
        for _ in range(steps):
            i = int(rand() * n)
            j = int(rand() * (n - 1))
            if j >= i:
                j += 1
            a, b = others[i], others[j]
            ka = int(rand() * len(cards[a]))
            kb = int(rand() * len(cards[b]))
            ca, cb = cards[a][ka], cards[b][kb]
            ha = state[a] ^ BIT[ca] ^ BIT[cb]
            hb = state[b] ^ BIT[cb] ^ BIT[ca]
            delta = energy(a, ha) + energy(b, hb) - energy(a, state[a]) - energy(b, state[b])
            if delta >= 0.0 or rand() < math.exp(delta):
                state[a], state[b] = ha, hb
                cards[a][ka], cards[b][kb] = cb, ca
        r = template[0].copy()
        for s in others:
            r.hands[s] = list(cards[s])
        return r

    return sample


__all__ = ["STEPS", "VOID_COST", "chain_sampler"]
