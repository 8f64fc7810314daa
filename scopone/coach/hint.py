"""The hint: the move Hard would make from the person's own view, and the best few margins."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..engine import SeatView
from ..players.evaluate import JUDGE_LIMITS, evaluate_moves
from ..players.search import SearchLimits
from .review import SHOWN, Option


@dataclass(frozen=True, slots=True)
class Hint:
    options: tuple[Option, ...]  # best first; the first is the hint
    # Imagined deals behind the margins. 0: a forced move, nothing judged; its one option's
    # margin is then no expected margin (the API sends no options for it).
    deals: int

    @property
    def best(self) -> Option:
        return self.options[0]


def hint_for(view: SeatView, rng: random.Random, limits: SearchLimits = JUDGE_LIMITS) -> Hint:
    """Only ``view`` goes in: the hint can name nothing but the seat's own legal moves."""
    if not view.is_my_turn:
        raise ValueError("not this seat's turn")
    values = evaluate_moves(view, rng, limits)
    return Hint(tuple(Option(v.move, v.mean) for v in values[:SHOWN]), values[0].deals)
