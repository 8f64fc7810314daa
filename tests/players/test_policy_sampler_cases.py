"""The policy reading's draw: of ``pool`` deals from the plain sampler, each is kept in
proportion to how likely its hands make every seat's past plays, each seat read with its own
sharpness and the reading's mix and types."""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from typing import Any

import pytest

from scopone import Round, Rules, SeatView
from scopone.engine.cards import BIT
from scopone.players.likelihood import _seen_plays, policy_sampler, typed_loglik


class _Spy(random.Random):
    """A random source that notes every draw the sampler makes among its candidates."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed)
        self.draws: list[tuple[list[Round], list[float]]] = []

    def choices(self, population: Sequence[Any], weights: Sequence[float] | None = None, *,
                cum_weights: Sequence[float] | None = None, k: int = 1) -> list[Any]:
        assert weights is not None
        self.draws.append((list(population), list(weights)))
        return super().choices(population, weights, cum_weights=cum_weights, k=k)


def _midround(seed: int, plays: int) -> SeatView:
    # A dealt round after ``plays`` random plays, seen by the seat to play.
    rng = random.Random(seed)
    r = Round.deal(Rules(), seed % 4, rng)
    for _ in range(plays):
        moves = r.legal_moves()
        r.play(moves[rng.randrange(len(moves))])
    return SeatView.of(r, r.turn)


def _hand(r: Round, seat: int) -> int:
    mask = 0
    for c in r.hands[seat]:
        mask |= BIT[c]
    return mask


@pytest.mark.parametrize("pool", [2, 3])
def test_each_candidate_weighs_as_likely_as_its_hands_make_every_seats_plays(pool: int) -> None:
    # Seven plays in: the three other seats have each played at least twice. Every draw is
    # among ``pool`` candidates, weighed by the sum over the seats of each seat's likelihood
    # of its own plays given its whole hand: the partner at its own sharpness, the reading's
    # mix and its two types as given. The likeliest candidate weighs 1, so that long
    # histories, whose likelihoods would underflow a float, still draw.
    view = _midround(11, 7)
    seen = _seen_plays(view)
    partner = (view.seat + 2) & 3
    assert {p.seat for p in seen} == {0, 1, 2, 3} - {view.seat}
    sample = policy_sampler(view, view.sample_round, beta=1.5, pool=pool, mix=0.2,
                            partner_beta=4.0, sharp=6.0)
    rng = _Spy(5)
    for _ in range(12):
        sample(rng)
    assert len(rng.draws) == 12
    spread = 0.0
    for cands, weights in rng.draws:
        assert len(cands) == pool
        logs = [sum(typed_loglik([p for p in seen if p.seat == s], _hand(r, s), view.hand_counts,
                                 4.0 if s == partner else 1.5, 0.2, 6.0)
                    for s in range(4) if s != view.seat)
                for r in cands]
        top = max(logs)
        assert weights == pytest.approx([math.exp(x - top) for x in logs])
        spread = max(spread, top - min(logs))
    # The candidates differ enough for the weights to tell the readings apart.
    assert spread > 0.5


def test_a_pool_of_one_draws_the_plain_deals() -> None:
    view = _midround(11, 7)
    assert policy_sampler(view, view.sample_round, pool=1) == view.sample_round


def test_plays_the_model_finds_all_but_impossible_still_draw_a_deal() -> None:
    # At a sharpness of 300 every pass of a better capture is all but impossible: the
    # likelihoods run to thousands below zero, yet a deal is drawn, and the likeliest one.
    view = _midround(11, 7)
    sample = policy_sampler(view, view.sample_round, beta=300.0, pool=4)
    rng = _Spy(6)
    drawn = sample(rng)
    cands, weights = rng.draws[0]
    assert max(weights) == 1.0
    assert drawn is cands[weights.index(1.0)]
