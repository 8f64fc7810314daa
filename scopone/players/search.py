"""Determinized Monte Carlo search: deal the unseen cards many ways, play every move out in each.

Every candidate move is evaluated on the same imagined deals (common random numbers), so the
comparison between moves is sharper than the noise of any single deal. Each playout is greedy
until its last few plays, which are solved exactly; near the end of the round each imagined deal
is solved exactly from the start.

Why flat and not a tree: an information-set tree search (one tree over all imagined deals, the
first plays after each move chosen by UCB, the rest played out greedily) lost to this search at
the same number of deals a move, which took 8% longer (200 duplicate deals, seed 33,
100 deals a move, each deal walked 4 times): −0.18 ± 0.21 points a round at its best (UCB
constant 3 points; the best average among the moves tried at least half as often as the most
tried), −0.41 ± 0.22 with 1 point below the root, −0.48 ± 0.23 with 1.5 points and the best
average of all. It gives up the common random numbers above, and the plays below the move are
chosen on few samples each. (Its code was not kept.)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass

from ..engine import Round
from .endgame import Solver
from .playout import greedy_playout

#: Plays left at or below which imagined deals are solved exactly: under a millisecond at 8;
#: at 12 (about 8 ms) it won no more than the playouts it displaced (arena, 100 iterations);
#: at 4 Hard lost 0.30 ± 0.24 points a round (200 duplicate deals, seed 33, 100 iterations).
EXACT_PLAYS = 8


#: Plays left at which every playout hands over to the exact solver: the greedy policy plays the
#: middle of the round, the solver its last plays, where the round's last capture, the scope of
#: its last cards and the primiera's sevens are decided. Against greedy playouts to the end, at
#: 100 deals a move: +0.34 ± 0.22 points a round (CI +0.12 … +0.55; 200 duplicate deals, seed
#: 33), for a deal that costs half as much again (98 against 65 ms a move); at 1 s a move:
#: +0.27 ± 0.23 (CI +0.04 … +0.49; 200 duplicate deals, seed 7), mean think time 395 against
#: 361 ms, p95 901 ms both. With the policy reading (``hard.READINGS``), Hard − stop 15's Hard
#: (voids, no early stop, greedy to the end) at 1 s a move: +0.59 ± 0.22 (CI +0.38 … +0.81;
#: 200 duplicate deals, seed 7, stop 25), in under half its CPU (389 against 810 ms a move).
TAIL_PLAYS = 8


#: Share of the time budget the search itself may use.
SAFETY = 0.9


@dataclass(frozen=True, slots=True)
class SearchLimits:
    """When to stop: after ``iterations`` imagined deals, or at ``seconds``, whichever first.

    With only ``iterations`` the search is deterministic for a given generator state.
    """

    seconds: float | None = 1.0
    iterations: int | None = None
    exact_plays: int = EXACT_PLAYS
    epsilon: float = 0.0
    #: Drop moves that trail far behind (playing to win); off when every move must be judged
    #: on every deal (the coach's review and hint).
    prune: bool = True
    #: Stop before the limits once one move is clearly best (``CLEAR_Z``): the time saved is
    #: the service's. Off for the coach, whose every margin is read.
    early_stop: bool = False
    #: Plays left at which each playout stops being greedy and the rest is solved exactly
    #: (0: greedy to the end).
    tail_plays: int = TAIL_PLAYS


#: Every this many deals, moves whose average trails the best by more than PRUNE_MARGIN points
#: stop being played out, so the time goes to the moves still in contention.
PRUNE_EVERY = 16
PRUNE_MARGIN = 1.0
#: Early stop: the leader's lead over every other move still played out, on the same deals,
#: must exceed CLEAR_Z standard errors of that paired difference at CLEAR_CHECKS checks in a
#: row (a check every PRUNE_EVERY deals, from CLEAR_MIN deals on).
CLEAR_Z = 2.0
CLEAR_CHECKS = 3
CLEAR_MIN = 32


@dataclass(slots=True)
class SearchResult:
    """What the search found: each move's total margin over the deals it was played in."""

    moves: list[tuple[int, int]]
    totals: list[float]
    counts: list[int]
    samples: int

    def means(self) -> list[float]:
        return [t / max(n, 1) for t, n in zip(self.totals, self.counts, strict=True)]

    def best_index(self, tiebreak: list[float] | None = None) -> int:
        """The move with the best average; ``tiebreak`` (small numbers) separates near-equals.

        Moves dropped early keep the average they had then, which trailed by a wide margin.
        """
        keys = [m + (tiebreak[i] if tiebreak else 0.0) for i, m in enumerate(self.means())]
        return max(range(len(keys)), key=keys.__getitem__)


def finish(r: Round, rng: random.Random, epsilon: float, tail: int, solver: Solver) -> int:
    """Play ``r`` greedily until ``tail`` plays are left, then solve those exactly: the round's
    final points margin of pair 0 (seats 0 and 2) over pair 1. ``solver``'s memo may serve
    several playouts of one deal."""
    greedy_playout(r, rng, epsilon, stop_at=tail)
    if r.plays_left and r.hands[r.turn]:
        v = solver.value(r)
        # The solver answers for the pair to play.
        return v if r.turn % 2 == 0 else -v
    a, b = r.points()
    return a - b


def evaluate_deal(r: Round, moves: list[tuple[int, int]], pair: int, rng: random.Random,
                  limits: SearchLimits) -> list[float]:
    """Each move's final points margin for ``pair`` in this one fully known deal."""
    if r.plays_left <= limits.exact_plays:
        # The mover is of ``pair`` (the searcher's turn), so the solver's margin is ours.
        return [float(v) for v in Solver(r.napola).move_values(r, moves)]
    out = []
    sign = 1 if pair == 0 else -1
    solver = Solver(r.napola)  # one memo for the deal: every move's playout ends in its cards
    for c, m in moves:
        child = r.copy()
        child.apply(c, m)
        out.append(float(sign * finish(child, rng, limits.epsilon, limits.tail_plays, solver)))
    return out


def _clear_leader(per_deal: list[list[float]], active: list[int], bias: list[float] | None
                  ) -> bool:
    # Whether the best move (by mean plus bias) leads every other active move by CLEAR_Z
    # standard errors of their paired per-deal difference.
    n = len(per_deal[active[0]])
    keys = {i: sum(per_deal[i]) / n + (bias[i] if bias else 0.0) for i in active}
    lead = max(active, key=keys.__getitem__)
    lv = per_deal[lead]
    for j in active:
        if j == lead:
            continue
        diffs = [a - b for a, b in zip(lv, per_deal[j], strict=True)]
        mean = sum(diffs) / n
        var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        gap = keys[lead] - keys[j]
        if gap <= 0.0 or gap * gap * n <= CLEAR_Z * CLEAR_Z * var:
            return False
    return True


def search(sample: Callable[[random.Random], Round], moves: list[tuple[int, int]], pair: int,
           rng: random.Random, limits: SearchLimits,
           on_deal: Callable[[list[float]], object] | None = None,
           bias: list[float] | None = None) -> SearchResult:
    """Average every move's margin over imagined deals drawn by ``sample`` until ``limits``.

    ``on_deal`` sees each deal's margins (one per move still played out, in order) when the
    caller needs more than averages. ``bias`` is the tiebreak the caller will add to the means
    (for ``limits.early_stop``)."""
    totals = [0.0] * len(moves)
    counts = [0] * len(moves)
    result = SearchResult(moves, totals, counts, 0)
    if len(moves) <= 1:
        return result
    active = list(range(len(moves)))
    per_deal: list[list[float]] = [[] for _ in moves] if limits.early_stop else []
    clear_checks = 0
    started = time.perf_counter()
    # Aim a little short of the budget: the move's own overhead and a busy machine come on top.
    deadline = None if limits.seconds is None else started + SAFETY * limits.seconds
    while True:
        r = sample(rng)
        values = evaluate_deal(r, [moves[i] for i in active], pair, rng, limits)
        for i, v in zip(active, values, strict=True):
            totals[i] += v
            counts[i] += 1
            if per_deal:
                per_deal[i].append(v)
        if on_deal is not None:
            on_deal(values)
        result.samples += 1
        if limits.prune and result.samples % PRUNE_EVERY == 0 and len(active) > 2:
            best = max(totals[i] for i in active) / result.samples
            active = [i for i in active if totals[i] / result.samples >= best - PRUNE_MARGIN]
        if per_deal and result.samples % PRUNE_EVERY == 0 and result.samples >= CLEAR_MIN:
            clear_checks = clear_checks + 1 if _clear_leader(per_deal, active, bias) else 0
            if clear_checks >= CLEAR_CHECKS:
                break
        if limits.iterations is not None and result.samples >= limits.iterations:
            break
        if deadline is not None:
            now = time.perf_counter()
            # Stop when one more deal at the pace so far would overrun the budget.
            if now + (now - started) / result.samples >= deadline:
                break
    return result


__all__ = ["EXACT_PLAYS", "TAIL_PLAYS", "SearchLimits", "SearchResult", "evaluate_deal", "finish",
           "search"]
