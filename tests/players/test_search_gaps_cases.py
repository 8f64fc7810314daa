"""The search and its playouts on the cases their first tests leave out: which moves the search
stops playing out, when it stops early or on time, the exact solution at its threshold, the
Napola in every margin, playouts that run dry, and the playout policy's random and close
choices."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator

import pytest

from scopone import Round, Rules
from scopone.players import heuristics, playout
from scopone.players import search as search_module
from scopone.players.endgame import Solver
from scopone.players.playout import policy_pair
from scopone.players.search import SearchLimits, evaluate_deal, finish, search

from .helpers import model_values, position, random_positions
from .test_endgame_cases import PILE_A, deep_positions, ending
from .test_search_cases import StepClock


def _dealing(r: Round, most: int) -> Callable[[random.Random], Round]:
    # The search's imagined deals, always ``r``: a search past its limits fails, not hangs.
    drawn = 0

    def sample(rng: random.Random) -> Round:
        nonlocal drawn
        drawn += 1
        assert drawn <= most, "the search went on past its limits"
        return r.copy()

    return sample


def _three_moves() -> tuple[Round, list[tuple[int, int]], list[int]]:
    # Eight plays left (every deal solved exactly), three moves worth -1, -2 and -3 points.
    r = deep_positions(10, seed=3, rules=Rules(), plays_left=8)[4]
    moves = r.legal_pairs()
    values = Solver(False).move_values(r, moves)
    assert values == [-1, -2, -3]
    return r, moves, values


def test_moves_trailing_by_more_than_the_margin_stop_being_played_out() -> None:
    # After 16 deals the move three points down, two behind the best, is dropped; the move
    # exactly one point behind (the margin) is kept, and with two moves left nothing more is.
    r, moves, values = _three_moves()
    limits = SearchLimits(seconds=None, iterations=48)
    result = search(_dealing(r, 48), moves, r.turn % 2, random.Random(1), limits)
    assert result.samples == 48
    assert result.counts == [48, 48, 16]
    assert result.means() == [float(v) for v in values]
    assert result.best_index() == 0


def test_two_moves_are_both_played_out_on_every_deal() -> None:
    # Dropping moves only thins out three or more: of two, both are played out on every
    # deal, however far one trails.
    r, moves, _ = _three_moves()
    two = [moves[0], moves[2]]
    result = search(_dealing(r, 48), two, r.turn % 2, random.Random(1),
                    SearchLimits(seconds=None, iterations=48))
    assert result.counts == [48, 48]


def _equal_moves() -> Round:
    # Six plays left, two moves worth the same on the one deal.
    r = deep_positions(10, seed=1, rules=Rules(), plays_left=6)[0]
    assert Solver(False).move_values(r, r.legal_pairs()) == [-3, -3]
    return r


def test_the_tiebreak_ends_the_search_early_between_equal_moves() -> None:
    # Without a tiebreak neither of two equal moves ever leads; with one, the favoured move
    # leads on every deal by its bias, with no noise at all: clear at the checks after 32, 48
    # and 64 deals, so the search stops at 64.
    r = _equal_moves()
    limits = SearchLimits(seconds=None, iterations=100, early_stop=True)
    plain = search(_dealing(r, 100), r.legal_pairs(), r.turn % 2, random.Random(1), limits)
    assert plain.samples == 100
    biased = search(_dealing(r, 100), r.legal_pairs(), r.turn % 2, random.Random(1), limits,
                    bias=[0.0, 0.5])
    assert biased.samples == 64
    assert biased.best_index([0.0, 0.5]) == 1


def test_a_check_without_a_clear_leader_starts_the_count_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The checks (every 16 deals from 32 on) answer: clear, not clear, then clear for good.
    # Three clear checks in a row come at 64, 80 and 96 deals, not earlier.
    answers: Iterator[bool] = iter([True, False, True, True, True, True, True])
    monkeypatch.setattr(search_module, "_clear_leader", lambda *args: next(answers))
    r = _equal_moves()
    result = search(_dealing(r, 200), r.legal_pairs(), r.turn % 2, random.Random(1),
                    SearchLimits(seconds=None, iterations=200, early_stop=True))
    assert result.samples == 96


def test_the_time_limit_counts_from_when_the_search_started(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # As in test_search_cases, a clock moving 1/64 s at each look, but reading like a real
    # ``perf_counter``: from an arbitrary origin, here hours after it. Only time since the
    # start counts: 14 deals in a quarter of a second, as from zero.
    monkeypatch.setattr(search_module, "time", StepClock(10_000.0))
    r = _equal_moves()
    result = search(_dealing(r, 100), r.legal_pairs(), r.turn % 2, random.Random(1),
                    SearchLimits(seconds=0.25, iterations=None))
    assert result.samples == 14


def test_a_deal_at_exactly_the_exact_plays_is_solved_not_played_out() -> None:
    # Six plays left, and deals solved exactly from six: each move's margin is the solver's,
    # though greedy playouts to the end of this deal (tail 0) read other margins.
    r = deep_positions(10, seed=2, rules=Rules(), plays_left=6)[0]
    moves = r.legal_pairs()
    exact = [float(v) for v in Solver(False).move_values(r, moves)]
    played = evaluate_deal(r.copy(), moves, r.turn % 2, random.Random(1),
                           SearchLimits(seconds=None, exact_plays=5, tail_plays=0))
    assert played != exact
    assert evaluate_deal(r.copy(), moves, r.turn % 2, random.Random(1),
                         SearchLimits(seconds=None, exact_plays=6, tail_plays=0)) == exact


@pytest.mark.parametrize("to_play", [0, 1])
@pytest.mark.parametrize(("exact", "tail"), [(8, 8), (4, 4)], ids=["solved", "played_out"])
def test_every_margin_counts_the_napola(to_play: int, exact: int, tail: int) -> None:
    # Pair A has taken 1D 2D 3D and pair B 4D: with the Napola on, pair A has 3 points more
    # whatever happens, and the play is the same (the policy and the solver's choices do not
    # depend on a sure 3 points). Every move's margin is 3 points more for pair A, 3 less for
    # pair B, whether the deal is solved from the move or played out and then solved.
    hands = ["5S 9C", "6B 10S", "7C 8B", "1B 4S"]
    plain = position(hands, "2S", to_play, pile_a="1D 2D 3D 6D 7D")
    napola = position(hands, "2S", to_play, pile_a="1D 2D 3D 6D 7D", rules=Rules(napola=True))
    moves = plain.legal_pairs()
    limits = SearchLimits(seconds=None, exact_plays=exact, tail_plays=tail)
    pair = to_play % 2
    base = evaluate_deal(plain, moves, pair, random.Random(1), limits)
    got = evaluate_deal(napola, moves, pair, random.Random(1), limits)
    assert got == [v + (3.0 if pair == 0 else -3.0) for v in base]


@pytest.mark.parametrize("tail", [0, 8])
def test_a_playout_whose_seat_to_play_has_no_card_ends_there(tail: int) -> None:
    # Scripted uneven hands: seat 2 is to play and holds nothing, though plays are left. The
    # playout stops, and its margin is the points as they stand (the solver is not asked about
    # a seat with no move), with the exact tail as without it.
    r = ending(["", "3B", "", "4C"], "7D", 2, pile_a=PILE_A)
    assert r.plays_left == 2 and not r.hands[r.turn]
    a, b = r.points()
    assert finish(r.copy(), random.Random(1), 0.0, tail, Solver(False)) == a - b


def test_a_random_playout_move_is_a_legal_move_and_any_can_be_drawn() -> None:
    # With epsilon 1 each move is drawn at random: a capture with its cards, a lay with none.
    r = position(["3S 6C 5D", "6B 10S 1C", "7C 8B 2C", "1B 4S 6S"], "2S 4D", to_play=0)
    legal = set(r.legal_pairs())
    assert any(m for _, m in legal) and any(not m for _, m in legal)
    rng = random.Random(4)
    drawn = {policy_pair(r, 1.0, rng) for _ in range(200)}
    assert drawn == legal


def _model_best(r: Round) -> tuple[float, dict[tuple[int, int], float]]:
    scored = {(c, m): v for c, m, v in model_values(r)}
    return max(scored.values()), scored


def _clear_memos() -> None:
    playout._OPTIONS.clear()
    heuristics._MASK_RANKS.clear()
    heuristics._MASK_WORTH.clear()


@pytest.mark.parametrize(("hands", "table", "to_play"), [
    # Laying 1B leaves 9 on the table, which either of the two nines still out sweeps; laying
    # 4D leaves 3B 4D, which a seven takes: the settebello, still out, would be played on it.
    # Close: 1B by a little.
    (["9C 3S", "4D 1B", "9D 5S", "2D 7D"], "5B 3B", 1),
    # The same choice, but three nines are out and the table is worth more (3D, a coin): what
    # the sweep would take tips it, and 4D is laid.
    (["5S 2B", "9D 9S", "4D 1B", "7D 9B"], "5B 3D", 2),
], ids=["risk_taken", "risk_refused"])
def test_the_playouts_weigh_a_sweep_left_to_the_next_seat_as_the_model_does(
        hands: list[str], table: str, to_play: int) -> None:
    # The reading's model of a seat's choice is the playouts' own policy (test_likelihood):
    # on these close calls between a lay the next seat may sweep and one that baits the
    # settebello, the move played is the model's best.
    r = position(hands, table, to_play)
    best, scored = _model_best(r)
    assert sorted(scored.values())[-2] > best - 0.3  # a close call
    assert scored[policy_pair(r, 0.0, random.Random(1))] == best


def test_the_playout_move_is_the_models_best_from_empty_memos() -> None:
    # The memos the policy reads only save time: emptied before each position, so that the
    # policy meets every table first (test_likelihood asks the model first), nothing changes.
    for r in random_positions(300, seed=12):
        _clear_memos()
        chosen = policy_pair(r, 0.0, random.Random(1))
        best, scored = _model_best(r)
        assert scored[chosen] == best, r
