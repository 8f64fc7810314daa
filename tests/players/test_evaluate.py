"""The judgement of every legal move that the hint and the review show."""

from __future__ import annotations

import random

from scopone import Move
from scopone.players.evaluate import evaluate_moves
from scopone.players.search import SearchLimits

from .helpers import card, position, view_to_play

FAST = SearchLimits(seconds=None, iterations=60, prune=False)


def test_every_move_judged_on_the_same_deals_best_first() -> None:
    r = position(["3B 9S 7D", "7C 1C 2D", "5D 6S 4S", "7S 2C 5B"], table="4C", to_play=0)
    values = evaluate_moves(view_to_play(r), random.Random(1), FAST)
    assert {v.move for v in values} == set(r.legal_moves())
    assert all(v.deals == 60 for v in values)  # no move dropped along the way
    means = [v.mean for v in values]
    assert means == sorted(means, reverse=True)
    assert all(v.noise >= 0 for v in values) and any(v.noise > 0 for v in values)


def test_a_free_scopa_is_best_by_a_point() -> None:
    # 6S sweeps 2C + 4C: a scopa worth a point, and nothing comparable on offer.
    r = position(["6S 9D 8D", "7C 1C 2D", "5D 1S 4S", "7S 3C 5B"], table="2C 4C", to_play=0)
    best, *rest = evaluate_moves(view_to_play(r), random.Random(2), FAST)
    assert best.move == Move(card("6S"), frozenset({card("2C"), card("4C")}))
    assert all(best.mean - v.mean > 0.8 for v in rest)


def test_a_forced_move_is_not_judged() -> None:
    r = position(["6S", "7C", "5D", "7S"], table="1B", to_play=0)
    (only,) = evaluate_moves(view_to_play(r), random.Random(3), FAST)
    assert only.move == Move(card("6S")) and only.deals == 0


def test_the_hidden_cards_do_not_matter() -> None:
    # The same view with the other seats' cards swapped around: the same judgement, to the bit.
    a = position(["3B 9S 7D", "7C 1C 2D", "5D 6S 4S", "7S 2C 5B"], table="4C", to_play=0)
    b = position(["3B 9S 7D", "5B 2C 4S", "7S 1C 2D", "5D 6S 7C"], table="4C", to_play=0)
    va = evaluate_moves(view_to_play(a), random.Random(4), FAST)
    vb = evaluate_moves(view_to_play(b), random.Random(4), FAST)
    assert va == vb
