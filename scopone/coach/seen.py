"""Cards seen: where each of the 40 cards is as far as one seat knows, and what is still out."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from ..engine import Card, SeatView
from ..engine.cards import DECK

#: Where a card is for the seat: its own hand, the table, taken by pair A or B, or unseen (in one
#: of the other three hands: which one the seat cannot know, so it is not said).
Place = Literal["hand", "table", "taken_a", "taken_b", "unseen"]


@dataclass(frozen=True, slots=True)
class CardsSeen:
    places: tuple[tuple[Card, Place], ...]  # the 40 cards in the deck's order
    played: frozenset[Card]  # cards played from a hand this round (all public)
    unseen_by_rank: tuple[int, ...]  # index rank-1: cards of that rank still unseen
    settebello: Place


def cards_seen(view: SeatView) -> CardsSeen:
    """Built from ``view`` alone: the seat's hand and public cards; the rest is "unseen"."""
    hand, table = set(view.hand), set(view.table)
    taken = (set(view.piles[0]), set(view.piles[1]))

    def place(c: Card) -> Place:
        if c in hand:
            return "hand"
        if c in table:
            return "table"
        if c in taken[0]:
            return "taken_a"
        if c in taken[1]:
            return "taken_b"
        return "unseen"

    places = tuple((c, place(c)) for c in DECK)
    unseen = [0] * 10
    settebello: Place = "unseen"
    for c, p in places:
        if p == "unseen":
            unseen[c.rank - 1] += 1
        if c.is_settebello:
            settebello = p
    return CardsSeen(places, frozenset(p.card for p in view.history), tuple(unseen), settebello)
