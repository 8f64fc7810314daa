"""Positions for the player tests: scripted endings with every one of the 40 cards accounted for."""

from __future__ import annotations

import random

from scopone import Card, Round, Rules, SeatView
from scopone.engine.cards import ALL_MASK, mask_of, parse_cards


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
