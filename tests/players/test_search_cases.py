"""The search's arithmetic: the early-stop rule at its boundary, averages over deals, playouts to
the end of the round, and stopping on time."""

from __future__ import annotations

import random

import pytest

from scopone import Round, Rules
from scopone.players import search as search_module
from scopone.players.endgame import Solver
from scopone.players.playout import greedy_playout
from scopone.players.search import (
    CLEAR_Z,
    SearchLimits,
    SearchResult,
    _clear_leader,
    evaluate_deal,
    finish,
    search,
)

from .test_endgame import small_positions


def test_a_lead_on_every_deal_is_clear_however_noisy_the_moves() -> None:
    # Both moves lose, by a varying margin, but the first always half a point less: the paired
    # difference has no noise at all, so even a lead of half a point is clear.
    other = [-3.0, -1.0] * 16
    lead = [x + 0.5 for x in other]
    assert _clear_leader([lead, other], [0, 1], None)
    assert _clear_leader([other, lead], [0, 1], None)
    # Equal moves never are.
    assert not _clear_leader([other, list(other)], [0, 1], None)


def test_a_lead_of_exactly_two_standard_errors_is_not_clear() -> None:
    # Nine deals whose differences are 5 and -1 four times each and 2 once: mean 2, sample
    # variance 72 / 8 = 9, so the standard error is 1 and the lead 2 standard errors exactly.
    assert CLEAR_Z == 2.0
    diffs = [5.0, -1.0] * 4 + [2.0]
    other = [0.0] * 9
    assert not _clear_leader([diffs, other], [0, 1], None)
    # A hair more lead on one deal and it is clear.
    assert _clear_leader([[*diffs[:-1], 2.5], other], [0, 1], None)


@pytest.mark.parametrize(("gap", "spread"), [(1.0, 2.0), (2.0, 3.0)])
def test_a_lead_well_beyond_the_noise_is_clear_and_within_it_is_not(gap: float,
                                                                   spread: float) -> None:
    # 32 deals, the difference gap ± spread: a standard error of about spread / 5.6.
    other = [1.0] * 32
    ahead = [1.0 + gap + spread, 1.0 + gap - spread] * 16
    assert _clear_leader([ahead, other], [0, 1], None)
    # The same noise around a lead a tenth as big is no clear call.
    near = [1.0 + gap / 10 + spread, 1.0 + gap / 10 - spread] * 16
    assert not _clear_leader([near, other], [0, 1], None)


def test_the_tiebreak_can_make_the_clear_leader() -> None:
    # Moves 0 and 1 play out alike; move 2 trails them by a tenth of a point with noise. The
    # tiebreak puts move 0 a point ahead of move 1: it then leads both clearly. (Without the
    # tiebreak, or with it the wrong way round, no move leads move 2 clearly.)
    base = [0.0, 2.0] * 16
    noisy = [x - 0.1 + d for x, d in zip(base, [1.0, -1.0] * 16, strict=True)]
    per_deal = [base, list(base), noisy]
    assert _clear_leader(per_deal, [0, 1, 2], [1.0, 0.0, 0.0])
    assert not _clear_leader(per_deal, [0, 1, 2], None)


def test_means_and_the_best_move_with_a_tiebreak() -> None:
    result = SearchResult([(0, 0), (1, 0)], [3.0, 3.0], [1, 1], 1)
    assert result.means() == [3.0, 3.0]  # one deal: its margin
    assert result.best_index([0.0, 0.1]) == 1
    assert result.best_index([0.1, 0.0]) == 0


def test_a_playout_to_the_end_gives_pair_zeros_margin() -> None:
    for r in small_positions(20, seed=5, rules=Rules()):
        played = r.copy()
        rng = random.Random(2)
        got = finish(r.copy(), rng, 0.0, 0, Solver(False))
        greedy_playout(played, random.Random(2))
        a, b = played.points()
        assert got == a - b


def test_random_playouts_differ_from_deal_to_deal() -> None:
    # With epsilon 1 every playout move is drawn at random (from the generator given): the same
    # deal played out again gives other margins; greedy playouts (epsilon 0) always the same.
    deal = Round.deal(Rules(), 0, random.Random(8))
    deal.history = None
    moves = deal.legal_pairs()
    greedy = SearchLimits(seconds=None, iterations=1, exact_plays=0, tail_plays=0)
    noisy = SearchLimits(seconds=None, iterations=1, exact_plays=0, tail_plays=0, epsilon=1.0)
    assert len({tuple(evaluate_deal(deal.copy(), moves, 0, random.Random(s), greedy))
                for s in range(6)}) == 1
    assert len({tuple(evaluate_deal(deal.copy(), moves, 0, random.Random(s), noisy))
                for s in range(6)}) > 1
    # And the search hands its generator down to them.
    assert search(lambda g: deal.copy(), moves, 0, random.Random(1), noisy).samples == 1


def _solved_deal() -> Round:
    # A position near the end, where every deal is solved exactly.
    return next(p for p in small_positions(30, seed=4, rules=Rules())
                if p.plays_left >= 5 and len(p.legal_pairs()) > 1)


def test_the_averages_over_one_known_deal_are_its_exact_values() -> None:
    r = _solved_deal()
    moves = r.legal_pairs()
    pair = r.turn % 2
    exact = [float(v) for v in Solver(False).move_values(r, moves)]
    limits = SearchLimits(seconds=None, iterations=7, prune=False)
    result = search(lambda g: r.copy(), moves, pair, random.Random(1), limits)
    assert result.moves == moves
    assert result.samples == 7 and result.counts == [7] * len(moves)
    assert result.totals == [7 * v for v in exact]
    assert result.means() == exact


def test_a_forced_move_costs_no_deal() -> None:
    r = _solved_deal()
    result = search(lambda g: r.copy(), r.legal_pairs()[:1], 0, random.Random(1),
                    SearchLimits(seconds=None, iterations=5))
    assert result.samples == 0 and result.counts == [0]


class StepClock:
    """A ``time`` whose ``perf_counter`` moves 1/64 s each time it is read, from ``start``."""

    def __init__(self, start: float = 0.0) -> None:
        self.now = start

    def perf_counter(self) -> float:
        self.now += 1 / 64
        return self.now


def test_the_search_stops_when_one_more_deal_would_overrun_its_time(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """On a clock that moves 1/64 s each time the search looks at it (once a deal): with a
    quarter of a second it aims at 90% of it (0.225 s) and stops after 14 deals, when a 15th
    at the pace so far would end past that (15/64 s). No real time is measured."""
    monkeypatch.setattr(search_module, "time", StepClock())
    r = _solved_deal()
    result = search(lambda g: r.copy(), r.legal_pairs(), r.turn % 2, random.Random(1),
                    SearchLimits(seconds=0.25, iterations=None, prune=False))
    assert result.samples == 14
