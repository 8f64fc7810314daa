"""The exact endgame solver agrees with plain minimax over every line of play."""

from __future__ import annotations

import random

import pytest

from scopone import Round, Rules
from scopone.players.endgame import Solver
from scopone.players.playout import policy_pair
from scopone.players.search import SearchLimits, evaluate_deal

from .helpers import card, position


def brute_force(r: Round) -> int:
    """Final points margin for the pair to play, trying every line (no pruning, no memo)."""
    if r.is_over:
        a, b = r.points()
        return a - b if r.turn % 2 == 0 else b - a
    return max(-brute_force(_after(r, c, m)) for c, m in r.legal_pairs())


def _after(r: Round, c: int, m: int) -> Round:
    child = r.copy()
    child.apply(c, m)
    return child


def small_positions(n: int, seed: int, rules: Rules) -> list[Round]:
    rng = random.Random(seed)
    out = []
    for i in range(n):
        r = Round.deal(rules, i % 4, rng)
        r.history = None
        left = rng.choice([1, 2, 4, 5, 6, 7, 8])
        while r.plays_left > left:
            pairs = r.legal_pairs()
            r.apply(*pairs[rng.randrange(len(pairs))])
        out.append(r)
    return out


@pytest.mark.parametrize("rules", [Rules(), Rules(napola=True), Rules(variant="classico")],
                         ids=["scientifico", "napola", "classico"])
def test_solver_agrees_with_brute_force(rules: Rules) -> None:
    for r in small_positions(120, seed=4, rules=rules):
        moves = r.legal_pairs()
        expected = [-brute_force(_after(r, c, m)) for c, m in moves]
        solver = Solver(rules.napola)
        assert solver.move_values(r, moves) == expected, r
        assert solver.value(r) == max(expected)
        # The memo is kept between calls: asking again gives the same answers.
        assert solver.move_values(r, moves) == expected


def test_solver_sees_a_scopa_two_plays_ahead() -> None:
    # Seat 0 lays 2S or 6S (neither can take the 3C). Laying 2S leaves 5 for seat 1's 5B to
    # sweep; laying 6S leaves 9, which seat 1 cannot take, and seat 2's 9S then sweeps it.
    r = position(["2S 6S", "5B 1C", "9S 4D", "8B 7C"], table="3C", to_play=0)
    moves = r.legal_pairs()
    assert moves == [(card("2S").index, 0), (card("6S").index, 0)]
    lay_two, lay_six = Solver(False).move_values(r, moves)
    assert lay_six > lay_two


def test_the_last_plays_choose_between_captures_of_one_card() -> None:
    # One card a hand: the solver plays these lines without its memo, but 7C still has two
    # captures to choose from, and which it takes decides what 5B finds on the table (with
    # piles near even, so the last cards decide points).
    piles = "10D 1D 2C 2D 3B 3C 3S 4C 4S 6D 6S 7B 7D 8C 9B 9S"
    r = position(["7C", "5B", "1S", "9D"], table="5C 2S 4B 3D", to_play=0, pile_a=piles)
    moves = r.legal_pairs()
    expected = [-brute_force(_after(r, c, m)) for c, m in moves]
    assert len(moves) == 2 and len(set(expected)) == 2
    assert Solver(False).move_values(r, moves) == expected
    assert Solver(False).value(r) == max(expected) == brute_force(r)
    # And from two cards a hand, where the search with its memo hands over to those lines.
    r = position(["7C 8S", "5B 6D", "1S 2C", "9D 3S"], table="5C 2S 4B 3D", to_play=0)
    moves = r.legal_pairs()
    expected = [-brute_force(_after(r, c, m)) for c, m in moves]
    assert Solver(False).move_values(r, moves) == expected


def test_search_solves_exactly_near_the_end() -> None:
    r = small_positions(1, seed=9, rules=Rules())[0]
    moves = r.legal_pairs()
    got = evaluate_deal(r, moves, r.turn % 2, random.Random(1), SearchLimits(exact_plays=12))
    assert got == [float(-brute_force(_after(r, c, m))) for c, m in moves]


def test_playouts_hand_their_last_plays_to_the_solver() -> None:
    # From 10 plays left, with the solver taking over at 9 the greedy policy plays no card: each
    # move is worth exactly what the position it leaves is worth (the opponents to play). At 8
    # the next seat plays its greedy card first, and the solver answers for the mover's pair.
    rng = random.Random(12)
    greedy_differs = False
    for i in range(12):
        r = Round.deal(Rules(), i % 4, rng)
        r.history = None
        while r.plays_left > 10:
            pairs = r.legal_pairs()
            r.apply(*pairs[rng.randrange(len(pairs))])
        moves = r.legal_pairs()
        pair = r.turn % 2
        limits = SearchLimits(exact_plays=4, tail_plays=9)
        exact = [float(-brute_force(_after(r, c, m))) for c, m in moves]
        assert evaluate_deal(r, moves, pair, random.Random(1), limits) == exact, r
        after_one = []
        for c, m in moves:
            child = _after(r, c, m)
            child.apply(*policy_pair(child, 0.0, random.Random(1)))
            after_one.append(float(brute_force(child)))
        limits = SearchLimits(exact_plays=4, tail_plays=8)
        assert evaluate_deal(r, moves, pair, random.Random(1), limits) == after_one, r
        greedy = evaluate_deal(r, moves, pair, random.Random(1),
                               SearchLimits(exact_plays=4, tail_plays=0))
        greedy_differs = greedy_differs or greedy != exact
    # The positions are ones where playing out greedily misjudges some move.
    assert greedy_differs
