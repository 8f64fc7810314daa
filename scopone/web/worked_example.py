"""The rule pages' examples, computed by the engine itself so a page never disagrees with a game.

A round's end (both pairs' capture piles and scope) is scored by ``score_round``, with and
without Napola; two capture positions list what the engine allows. The piles follow the seed's
example: pair A takes carte, settebello and primiera, the denari are 5–5, the scope 3–2.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from scopone.engine import Card, Round, RoundScore, Rules, parse_cards
from scopone.engine.cards import PRIMIERA_VALUE, mask_of
from scopone.engine.scoring import score_round

#: Both pairs' capture piles at the end of the example round (40 cards, each once).
PILE_A = ("1D 2D 3D 4D 7D 1C 2C 3C 7C 8C 9C 1S 2S 3S 6S 8S 1B 2B 3B 7B 8B 9B")
PILE_B = ("5D 6D 8D 9D 10D 4C 5C 6C 10C 4S 5S 7S 9S 10S 4B 5B 6B 10B")
SCOPE = (3, 2)
SUITS = "DCSB"

#: Capture positions: (table, the card played). The first shows that a card of the same rank
#: must be taken alone; the second that a sum may be made in several ways.
CAPTURES = (("7B 3C 4S", "7D"), ("1C 2S 3B 4D 6C", "7S"))


@dataclass(frozen=True)
class PairCount:
    """One pair's pile as the example shows it: cards by suit and its best card of each suit."""

    by_suit: tuple[tuple[str, tuple[str, ...]], ...]
    coins: tuple[str, ...]
    primiera_cards: tuple[tuple[str, int], ...]  # (card code, primiera value) per suit


@dataclass(frozen=True)
class Capture:
    """A position: the table, the card played and every capture the engine allows with it."""

    table: tuple[str, ...]
    card: str
    options: tuple[tuple[str, ...], ...]


@dataclass(frozen=True)
class Example:
    """Everything the rule page shows of the example: both piles, the score without and with
    Napola, and the capture positions."""

    pairs: tuple[PairCount, PairCount]
    score: RoundScore
    napola: RoundScore
    captures: tuple[Capture, ...]


def _count(pile: list[Card]) -> PairCount:
    by_suit = tuple((s, tuple(str(c) for c in sorted(pile, key=lambda c: c.rank)
                              if c.suit == s)) for s in SUITS)
    best = []
    for s in SUITS:
        cards = [c for c in pile if c.suit == s]
        if cards:
            top = max(cards, key=lambda c: PRIMIERA_VALUE[c.rank])
            best.append((str(top), PRIMIERA_VALUE[top.rank]))
    coins = tuple(str(c) for c in sorted(pile, key=lambda c: c.rank) if c.suit == "D")
    return PairCount(by_suit, coins, tuple(best))


def _capture(table: str, card: str) -> Capture:
    played = Card.parse(card)
    # Seat 0 leads (the dealer is seat 3) and holds only the card in question.
    rnd = Round.from_deal([[played], [], [], []], parse_cards(table), dealer=3)
    options = tuple(tuple(str(c) for c in sorted(m.capture, key=lambda c: (c.rank, c.suit)))
                    for m in rnd.legal_moves() if m.card == played)
    return Capture(tuple(table.split()), card, options)


@cache
def example() -> Example:
    """The worked example, computed once per process."""
    a, b = parse_cards(PILE_A), parse_cards(PILE_B)
    piles = (mask_of(a), mask_of(b))
    return Example(
        pairs=(_count(a), _count(b)),
        score=score_round(piles, SCOPE, Rules()),
        napola=score_round(piles, SCOPE, Rules(napola=True)),
        captures=tuple(_capture(t, c) for t, c in CAPTURES),
    )
