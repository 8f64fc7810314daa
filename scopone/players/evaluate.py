"""Hard's judgement of every legal move from one seat's view, for people to read.

The hint and the review show what Hard thinks of each move, so they run Hard's own search (its
imagined deals, its playouts and endgame solver) with one difference: no move is dropped along
the way, so every move is judged on the very same imagined deals and two moves' margins can be
compared directly (common random numbers). ``noise`` is the standard error of a move's margin
over those deals: the spread to expect between two independent runs.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, replace

from ..engine import Move, SeatView
from .hard import deal_sampler
from .search import SearchLimits, search

#: The default judgement: 0.5 s or 200 imagined deals, whichever comes first.
JUDGE_LIMITS = SearchLimits(seconds=0.5, iterations=200, prune=False)


@dataclass(frozen=True, slots=True)
class MoveValue:
    """One legal move and the margin (our pair's points minus theirs, to the round's end) it
    is expected to bring, over ``deals`` imagined deals, with that mean's standard error."""

    move: Move
    mean: float
    deals: int
    noise: float


def evaluate_moves(view: SeatView, rng: random.Random,
                   limits: SearchLimits = JUDGE_LIMITS) -> list[MoveValue]:
    """Every legal move of ``view``'s seat, best first. A forced move comes back alone with
    ``deals == 0`` (nothing to judge). Only ``view`` goes in, so no hidden card can leak."""
    moves = view.legal_moves()
    if len(moves) == 1:
        return [MoveValue(Move.from_masks(*moves[0]), 0.0, 0, 0.0)]
    if limits.prune:
        limits = replace(limits, prune=False)
    # Per-deal margins are kept so each move's spread is known, not just its mean.
    per_move: list[list[float]] = [[] for _ in moves]

    def keep(values: list[float]) -> None:
        for kept, v in zip(per_move, values, strict=True):
            kept.append(v)

    result = search(deal_sampler(view), moves, view.seat % 2, rng, limits, on_deal=keep)
    out = [MoveValue(Move.from_masks(*m), mean, result.samples, _stderr(values))
           for m, mean, values in zip(moves, result.means(), per_move, strict=True)]
    out.sort(key=lambda v: -v.mean)
    return out


def _stderr(values: list[float]) -> float:
    n = len(values)
    if n < 2:
        return 0.0
    mean = sum(values) / n
    return math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1) / n)


__all__ = ["JUDGE_LIMITS", "MoveValue", "evaluate_moves"]
