"""A match: rounds one after another, the deal passing on, points to the target."""

from __future__ import annotations

import base64
import random
import struct
from typing import Any

from .cards import Card, mask_of
from .deal import first_dealer
from .errors import IllegalMoveError
from .round import Play, Round
from .rules import Rules
from .scoring import RoundScore


def match_winner(scores: tuple[int, int] | list[int], target: int) -> int | None:
    """The pair that has won with these totals, checked at the end of a round; None: play on.

    >>> match_winner((11, 10), 11), match_winner((12, 13), 11), match_winner((12, 12), 11)
    (0, 1, None)
    >>> match_winner((10, 10), 11) is None
    True
    """
    a, b = scores
    if a < target and b < target:
        return None
    if a == b:
        return None  # both over and level: another round
    return 0 if a > b else 1


class Match:
    """A whole match. ``rng`` shuffles every deal and draws the first dealer."""

    def __init__(self, rules: Rules, rng: random.Random, dealer: int | None = None) -> None:
        self.rules = rules
        self.rng = rng
        self.scores = [0, 0]
        self.rounds: list[RoundScore] = []
        self.winner: int | None = None
        self.round_scored = False  # whether self.round's points are in self.scores yet
        d = first_dealer(rng) if dealer is None else dealer
        self.round = Round.deal(rules, d, rng)

    @property
    def round_number(self) -> int:
        """1 for the first round, counting the one in play (or just finished)."""
        return len(self.rounds) + (0 if self.round_scored else 1)

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def finish_round(self) -> RoundScore:
        """Score the finished round into the match (once) and decide whether the match is won."""
        if not self.round.is_over:
            raise IllegalMoveError("the round is not over yet")
        if self.round_scored:
            return self.rounds[-1]
        score = self.round.score()
        self.rounds.append(score)
        a, b = score.points
        self.scores[0] += a
        self.scores[1] += b
        self.round_scored = True
        self.winner = match_winner(self.scores, self.rules.target)
        return score

    def next_round(self) -> Round:
        """Deal the next round; the deal passes to the next seat in play order."""
        if self.winner is not None:
            raise IllegalMoveError("the match is over")
        if not self.round.is_over:
            raise IllegalMoveError("the round is still being played")
        self.finish_round()
        if self.winner is not None:
            raise IllegalMoveError("the match is over")
        self.round = Round.deal(self.rules, (self.round.dealer + 1) % 4, self.rng)
        self.round_scored = False
        return self.round

    # ----- persistence --------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        """Everything needed to continue the match, the deck's random state included.

        This is server-side data: it holds every hand and must never reach a client.
        """
        r = self.round
        version, internal, gauss = self.rng.getstate()
        return {
            "rules": {"variant": self.rules.variant, "napola": self.rules.napola,
                      "target": self.rules.target},
            "rng": [version, _pack_state(internal), gauss],
            "scores": list(self.scores),
            "rounds": [s.to_dict() for s in self.rounds],
            "winner": self.winner,
            "scored": self.round_scored,
            "round": {
                "hands": [[str(c) for c in r.hand(s)] for s in range(4)],
                "table": [str(c) for c in r.table_cards],
                "piles": [[str(c) for c in r.pile(p)] for p in range(2)],
                "scope": list(r.scope),
                "last_taker": r.last_taker,
                "turn": r.turn,
                "plays_left": r.plays_left,
                "dealer": r.dealer,
                "history": [
                    [p.seat, str(p.card), [str(c) for c in sorted(p.capture)], p.scopa]
                    for p in (r.history or [])
                ],
            },
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Match:
        m = cls.__new__(cls)
        m.rules = Rules(**data["rules"])
        version, internal, gauss = data["rng"]
        m.rng = random.Random()
        m.rng.setstate((version, _unpack_state(internal), gauss))
        m.scores = list(data["scores"])
        m.rounds = [RoundScore.from_dict(d) for d in data["rounds"]]
        m.winner = data["winner"]
        m.round_scored = data["scored"]
        rd = data["round"]
        r = Round.__new__(Round)
        r.hands = [sorted(Card.parse(c).index for c in h) for h in rd["hands"]]
        r.table_mask = mask_of(Card.parse(c) for c in rd["table"])
        r.piles = [mask_of(Card.parse(c) for c in p) for p in rd["piles"]]
        r.scope = list(rd["scope"])
        r.last_taker = rd["last_taker"]
        r.turn = rd["turn"]
        r.plays_left = rd["plays_left"]
        r.dealer = rd["dealer"]
        r.rules = m.rules
        r.napola = m.rules.napola
        r.history = [
            Play(seat, Card.parse(card), frozenset(Card.parse(c) for c in cap), scopa)
            for seat, card, cap, scopa in rd["history"]
        ]
        m.round = r
        return m


def _pack_state(internal: tuple[int, ...]) -> str:
    """The Mersenne Twister's 625 words as base64: a fifth of the JSON of a list of ints, and
    many times faster to write and read (the service stores a match on every move).

    >>> state = random.Random(1).getstate()[1]
    >>> _unpack_state(_pack_state(state)) == state
    True
    """
    return base64.b64encode(struct.pack(f"<{len(internal)}I", *internal)).decode("ascii")


def _unpack_state(packed: str | list[int]) -> tuple[int, ...]:
    """Reads ``_pack_state``'s text, or the list of ints older records hold."""
    if isinstance(packed, list):
        return tuple(packed)
    raw = base64.b64decode(packed)
    return struct.unpack(f"<{len(raw) // 4}I", raw)


__all__ = ["Match", "match_winner"]
