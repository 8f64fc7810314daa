"""Positions for the player tests: scripted endings with every one of the 40 cards accounted for."""

from __future__ import annotations

import random
from collections import Counter

from scopone import Card, Round, Rules, SeatView
from scopone.engine.cards import ALL_MASK, BIT, mask_of, parse_cards
from scopone.players.hard import deal_sampler
from scopone.players.likelihood import POOL, policy_values


def position(hands: list[str], table: str = "", to_play: int = 0, pile_a: str = "",
             rules: Rules | None = None) -> Round:
    """A round where ``to_play`` is to play with these hands and table.

    Every other card is already taken: those in ``pile_a`` by pair A, the rest by pair B (so
    the seat's count of unseen cards is exactly the other hands).
    """
    r = Round.from_deal([parse_cards(h) for h in hands], parse_cards(table),
                        dealer=(to_play - 1) % 4, rules=rules or Rules())
    # The seat to play leads (the dealer is the seat before it), so all hands are the same size.
    assert len({len(h.split()) for h in hands}) == 1, hands
    in_play = mask_of(c for h in hands for c in parse_cards(h)) | mask_of(parse_cards(table))
    a = mask_of(parse_cards(pile_a))
    assert not a & in_play
    r.piles = [a, ALL_MASK & ~in_play & ~a]
    r.last_taker = 0 if a else 1
    return r


def random_positions(n: int, seed: int, variant: str = "scientifico") -> list[Round]:
    """``n`` positions from rounds played with random moves, each stopped at a random play."""
    rng = random.Random(seed)
    out = []
    for i in range(n):
        r = Round.deal(Rules(variant=variant), i % 4, rng)  # type: ignore[arg-type]
        stop = rng.randrange(r.plays_left)
        for _ in range(stop):
            moves = r.legal_moves()
            r.play(moves[rng.randrange(len(moves))])
        out.append(r)
    return out


def view_to_play(r: Round) -> SeatView:
    return SeatView.of(r, r.turn)


def card(code: str) -> Card:
    return Card.parse(code)


def deals_holding(view: SeatView, reading: str, code: str, n: int, pool: int = POOL
                  ) -> Counter[int]:
    """How many of ``n`` deals Hard imagines with ``reading`` give card ``code`` to each seat;
    each deal is checked to hand out exactly the unseen cards and keep the seat's own."""
    sample = deal_sampler(view, reading, pool=pool)
    rng = random.Random(5)
    held: Counter[int] = Counter()
    for _ in range(n):
        deal = sample(rng)
        assert sorted(c for s in range(4) if s != view.seat for c in deal.hands[s]) == sorted(
            c.index for c in view.unseen)
        assert sorted(deal.hands[view.seat]) == sorted(c.index for c in view.hand)
        held.update(s for s in range(4) if card(code).index in deal.hands[s])
    return held


def model_values(r: Round) -> list[tuple[int, int, float]]:
    """Every move of the seat to play with the model player's score (``policy_values``), from
    what that seat sees."""
    seat = r.turn
    own = 0
    for c in r.hands[seat]:
        own |= BIT[c]
    others = ALL_MASK & ~(r.piles[0] | r.piles[1] | r.table_mask | own)
    return policy_values(own, r.table_mask, others, len(r.hands[(seat + 1) & 3]),
                         len(r.hands[(seat + 3) & 3]), r.plays_left == 1)
