"""The chain reading: its deals come as often as prior × likelihood says, voids kept."""

from __future__ import annotations

import itertools
import math
import random

from scopone import Move, SeatView
from scopone.engine.cards import BIT
from scopone.players.chain import chain_sampler
from scopone.players.hard import deal_sampler
from scopone.players.likelihood import _seen_plays, deal_loglik

from .helpers import card, deals_holding, position


def _exact_share(view: SeatView, seat: int, code: str, beta: float) -> float:
    # Every deal of the unseen cards, weighed by how likely it makes the plays seen: the share
    # of that weight in which ``seat`` holds ``code``.
    seen = _seen_plays(view)
    unseen = [c.index for c in view.unseen]
    others = [s for s in range(4) if s != view.seat]
    own = 0
    for c in view.hand:
        own |= BIT[c.index]
    total = held = 0.0
    for order in itertools.permutations(unseen):
        hands = [0, 0, 0, 0]
        hands[view.seat] = own
        pos = 0
        for s in others:
            for c in order[pos:pos + view.hand_counts[s]]:
                hands[s] |= BIT[c]
            pos += view.hand_counts[s]
        w = math.exp(deal_loglik(seen, hands, view.hand_counts, beta))
        total += w
        if hands[seat] & BIT[card(code).index]:
            held += w
    return held / total


def test_the_chain_deals_as_often_as_the_plays_make_likely() -> None:
    # Seat 1 lays 1C on 7C 9S 8B although a seven would have taken 7C (a coin and a seven),
    # then seat 2 lays 4B. Five cards are unseen: every deal can be weighed exactly.
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=1)
    r.play(Move(card("1C")))
    r.play(Move(card("4B")))
    view = SeatView.of(r, 0)
    for beta in (1.0, 2.0, 4.0):
        exact = _exact_share(view, 1, "7S", beta)
        sample = chain_sampler(view, deal_sampler(view, "voids"), beta=beta)
        rng = random.Random(4)
        n = 4000
        got = sum(card("7S").index in sample(rng).hands[1] for _ in range(n)) / n
        # (the deals of a chain are not independent: a wider band than 4000 draws would need)
        assert abs(got - exact) < 0.05, (beta, got, exact)
    # The plays speak: seat 1 holds the seven less often than its share of the cards (1/5).
    assert _exact_share(view, 1, "7S", 2.0) < 0.7 * 1 / 5


def test_the_chain_reads_the_laid_card_more_sharply_than_a_pool_of_four() -> None:
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=1)
    r.play(Move(card("1C")))
    view = SeatView.of(r, 0)
    plain = deals_holding(view, "off", "7S", 2000)
    pool = deals_holding(view, "policy", "7S", 2000)
    chain = deals_holding(view, "chain", "7S", 2000)
    assert chain[1] < pool[1] < plain[1]
    assert chain[1] < 0.5 * plain[1]


def test_with_nothing_to_read_the_chain_deals_the_plain_deals() -> None:
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=0)
    view = SeatView.of(r, 0)
    base = deal_sampler(view, "voids")
    assert chain_sampler(view, base) is base
