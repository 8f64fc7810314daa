"""A slow, obviously-correct reference of the capture rule and of a round, straight from SPEC.md.

It shares nothing with the engine but ``Card``: subsets are enumerated naïvely with
``itertools.combinations``, state is plain lists of cards. Tests compare the engine against it,
and the perft data files were computed with it (``data/make_perft.py``).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import combinations

from scopone import Card


def captures(table: list[Card], card: Card) -> set[frozenset[Card]]:
    """Every set of table cards ``card`` may take; empty when it is laid on the table.

    >>> from scopone.engine import parse_cards
    >>> sorted(sorted(map(str, s)) for s in captures(parse_cards("3D 4C 7S"), Card.parse("7D")))
    [['7S']]
    >>> sorted(sorted(map(str, s)) for s in captures(parse_cards("3D 4C 2S 5S"), Card.parse("7B")))
    [['2S', '5S'], ['3D', '4C']]
    """
    same = [t for t in table if t.rank == card.rank]
    if same:
        # SPEC rule 1: an equal rank takes exactly one of those cards, and sums are not allowed.
        return {frozenset([t]) for t in same}
    return {
        frozenset(subset)
        for size in range(2, len(table) + 1)
        for subset in combinations(table, size)
        if sum(t.rank for t in subset) == card.rank
    }


def legal_moves(hand: list[Card], table: list[Card]) -> set[tuple[Card, frozenset[Card]]]:
    """Every (card, capture) the player holding ``hand`` may play; a card that can take must."""
    out: set[tuple[Card, frozenset[Card]]] = set()
    for card in hand:
        options = captures(table, card)
        for capture in options or {frozenset()}:
            out.add((card, capture))
    return out


@dataclass
class RefRound:
    """A round in plain lists, played by the rules of SPEC.md §1, to compare the engine with."""

    hands: list[list[Card]]
    table: list[Card]
    turn: int
    piles: list[list[Card]] = field(default_factory=lambda: [[], []])
    scope: list[int] = field(default_factory=lambda: [0, 0])
    last_taker: int = -1

    def moves(self) -> set[tuple[Card, frozenset[Card]]]:
        if self.is_over:
            return set()
        return legal_moves(self.hands[self.turn], self.table)

    @property
    def is_over(self) -> bool:
        return not any(self.hands)

    def play(self, card: Card, capture: frozenset[Card]) -> bool:
        """Play a move (assumed legal); returns whether it was a scopa."""
        seat = self.turn
        self.hands[seat] = [c for c in self.hands[seat] if c != card]
        scopa = False
        if capture:
            self.table = [t for t in self.table if t not in capture]
            self.piles[seat % 2] += [card, *capture]
            self.last_taker = seat
            if not self.table and not self.is_over:
                self.scope[seat % 2] += 1
                scopa = True
        else:
            self.table = [*self.table, card]
        self.turn = (seat + 1) % 4
        if self.is_over and self.last_taker >= 0:
            self.piles[self.last_taker % 2] += self.table
            self.table = []
        return scopa

    def copy(self) -> RefRound:
        return RefRound([h[:] for h in self.hands], self.table[:], self.turn,
                        [p[:] for p in self.piles], self.scope[:], self.last_taker)


def perft(r: RefRound, depth: int) -> int:
    """Number of distinct move sequences of exactly ``depth`` plays from this position."""
    if depth == 0:
        return 1
    total = 0
    for card, capture in r.moves():
        child = r.copy()
        child.play(card, capture)
        total += perft(child, depth - 1)
    return total


PRIMIERA = {7: 21, 6: 18, 1: 16, 5: 15, 4: 14, 3: 13, 2: 12, 8: 10, 9: 10, 10: 10}


def points(piles: list[list[Card]], scope: list[int], napola: bool) -> tuple[int, int]:
    """Round points of both pairs, from SPEC.md §1 "Round scoring", category by category."""
    pts = [scope[0], scope[1]]

    def more(a: float, b: float) -> None:
        if a > b:
            pts[0] += 1
        elif b > a:
            pts[1] += 1

    more(len(piles[0]), len(piles[1]))
    more(*(sum(1 for c in p if c.suit == "D") for p in piles))
    for p in (0, 1):
        if Card.parse("7D") in piles[p]:
            pts[p] += 1
    prim = []
    for p in piles:
        best = [max((PRIMIERA[c.rank] for c in p if c.suit == s), default=None) for s in "DCSB"]
        prim.append(None if None in best else sum(b for b in best if b is not None))
    if prim[0] is not None or prim[1] is not None:
        # A pair missing a suit has no primiera: it loses to any complete pair.
        more(prim[0] if prim[0] is not None else -1, prim[1] if prim[1] is not None else -1)
    if napola:
        for p in (0, 1):
            run = 0
            while run < 10 and Card(run + 1, "D") in piles[p]:
                run += 1
            if run >= 3:
                pts[p] += run
    return pts[0], pts[1]
