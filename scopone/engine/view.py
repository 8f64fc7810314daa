"""What one seat knows: its own hand and everything public, and nothing else.

Computer players and the web API only ever receive a ``SeatView``; since it holds no other hand,
peeking is impossible by construction rather than by trust.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from .cards import ALL_MASK, DECK, Card, cards_of, indices_of, mask_of
from .round import Play, Round
from .rules import Rules


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat's information set in a round."""

    seat: int
    rules: Rules
    dealer: int
    turn: int
    hand: tuple[Card, ...]
    table: tuple[Card, ...]
    hand_counts: tuple[int, int, int, int]
    history: tuple[Play, ...]
    piles: tuple[tuple[Card, ...], tuple[Card, ...]]
    scope: tuple[int, int]
    last_taker: int  # seat that took last, -1 before any capture
    plays_left: int

    @classmethod
    def of(cls, round_: Round, seat: int) -> SeatView:
        """The view of ``seat`` in this round."""
        return cls(
            seat=seat,
            rules=round_.rules,
            dealer=round_.dealer,
            turn=round_.turn,
            hand=tuple(round_.hand(seat)),
            table=tuple(round_.table_cards),
            hand_counts=(
                len(round_.hands[0]), len(round_.hands[1]),
                len(round_.hands[2]), len(round_.hands[3]),
            ),
            history=tuple(round_.history or ()),
            piles=(tuple(round_.pile(0)), tuple(round_.pile(1))),
            scope=(round_.scope[0], round_.scope[1]),
            last_taker=round_.last_taker,
            plays_left=round_.plays_left,
        )

    @property
    def is_my_turn(self) -> bool:
        return self.turn == self.seat and self.plays_left > 0

    @property
    def hand_mask(self) -> int:
        return mask_of(self.hand)

    @property
    def table_mask(self) -> int:
        return mask_of(self.table)

    @property
    def unseen_mask(self) -> int:
        """Cards this seat has not seen: exactly the union of the other three hands."""
        seen = self.hand_mask | self.table_mask | mask_of(self.piles[0]) | mask_of(self.piles[1])
        return ALL_MASK & ~seen

    @property
    def unseen(self) -> list[Card]:
        return cards_of(self.unseen_mask)

    def legal_moves(self) -> list[tuple[int, int]]:
        """The seat's legal moves as ``(card_index, capture_mask)`` when it is its turn."""
        if not self.is_my_turn:
            return []
        return self.determinize([[] if s != self.seat else list(self.hand) for s in range(4)],
                                check=False).legal_pairs()

    def determinize(self, hands: list[list[Card]], check: bool = True) -> Round:
        """A full round in which the other seats hold ``hands`` (this seat's entry is ignored).

        Used by searches to play out imagined deals. With ``check`` it verifies that the hands
        use exactly the unseen cards in the right counts.
        """
        idx = [sorted(c.index for c in h) for h in hands]
        idx[self.seat] = sorted(c.index for c in self.hand)
        if check:
            others = [c for s in range(4) if s != self.seat for c in idx[s]]
            if sorted(others) != list(indices_of(self.unseen_mask)):
                raise ValueError("imagined hands must be exactly the unseen cards")
            for s in range(4):
                if len(idx[s]) != self.hand_counts[s]:
                    raise ValueError(f"seat {s} holds {self.hand_counts[s]} cards")
        return self._round_from_indices(idx)

    def _round_from_indices(self, idx: list[list[int]]) -> Round:
        r = Round.__new__(Round)
        r.hands = idx
        r.table_mask = self.table_mask
        r.piles = [mask_of(self.piles[0]), mask_of(self.piles[1])]
        r.scope = [self.scope[0], self.scope[1]]
        r.last_taker = self.last_taker
        r.turn = self.turn
        r.plays_left = self.plays_left
        r.dealer = self.dealer
        r.rules = self.rules
        r.napola = self.rules.napola
        r.history = None
        return r

    def sample_round(self, rng: random.Random) -> Round:
        """A round with the unseen cards dealt to the other seats uniformly at random.

        Uniform over every deal consistent with what the seat knows: under our capture rule a
        card laid on the table proves nothing about the rest of that hand.
        """
        unseen = list(indices_of(self.unseen_mask))
        rng.shuffle(unseen)
        idx: list[list[int]] = []
        pos = 0
        for s in range(4):
            if s == self.seat:
                idx.append(sorted(c.index for c in self.hand))
            else:
                n = self.hand_counts[s]
                idx.append(unseen[pos:pos + n])
                pos += n
        return self._round_from_indices(idx)

    def to_dict(self) -> dict[str, object]:
        return {
            "seat": self.seat,
            "turn": self.turn,
            "dealer": self.dealer,
            "hand": [str(c) for c in self.hand],
            "table": [str(c) for c in self.table],
            "hand_counts": list(self.hand_counts),
            "history": [
                {"seat": p.seat, "card": str(p.card),
                 "capture": [str(c) for c in sorted(p.capture)], "scopa": p.scopa}
                for p in self.history
            ],
            "piles": [[str(c) for c in pile] for pile in self.piles],
            "scope": list(self.scope),
            "last_taker": self.last_taker,
            "plays_left": self.plays_left,
        }


__all__ = ["DECK", "SeatView"]
