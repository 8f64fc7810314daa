"""The search stops early only when one move is clearly best, and never hides a close call."""

from __future__ import annotations

import random

from scopone import SeatView
from scopone.players.hard import HardPlayer, deal_sampler
from scopone.players.search import CLEAR_CHECKS, CLEAR_MIN, PRUNE_EVERY, SearchLimits, search

from .helpers import card, position

STOPPING = SearchLimits(seconds=None, iterations=400, early_stop=True)


def test_a_free_scopa_stops_the_search_early() -> None:
    # 7B sweeps 3C + 4D; every other card is laid and leaves the table to the opponents.
    r = position(["7B 1S 2S 5S 9C", "1B 2B 5B 9B 10S", "1C 2C 5C 9S 10B", "8C 8S 8B 6C 6S"],
                 table="3C 4D", to_play=0)
    view = SeatView.of(r, 0)
    moves = view.legal_moves()
    result = search(deal_sampler(view), moves, 0, random.Random(1), STOPPING)
    assert result.samples == CLEAR_MIN + (CLEAR_CHECKS - 1) * PRUNE_EVERY
    assert moves[result.best_index()][0] == card("7B").index
    whole = search(deal_sampler(view), moves, 0, random.Random(1),
                   SearchLimits(seconds=None, iterations=400))
    assert whole.samples == 400


def test_two_equal_moves_are_searched_to_the_limit() -> None:
    # 8C and 8S are the same card to the game (neither a coin): no lead ever becomes clear.
    r = position(["8C 8S", "1B 2B", "1C 2C", "6C 6S"], table="1D", to_play=0)
    view = SeatView.of(r, 0)
    moves = view.legal_moves()
    result = search(deal_sampler(view), moves, 0, random.Random(1), STOPPING)
    assert len(moves) == 2 and result.samples == 400


def test_early_stop_is_on_with_a_budget_and_off_with_a_count() -> None:
    assert HardPlayer(time_budget=0.25).limits.early_stop
    assert not HardPlayer(iterations=100).limits.early_stop
    assert HardPlayer(iterations=100, early_stop=True).limits.early_stop
