"""A match (SPEC.md §1 "Match"): targets, checked at the end of a round, ties play on."""

from __future__ import annotations

import json
import random

import pytest

from scopone import IllegalMoveError, Match, Round, Rules
from scopone.engine import match_winner, parse_cards
from scopone.engine.cards import ALL_MASK, mask_of

# A finished round worth 6 to pair A and 2 to pair B (the seed's worked example).
WORKED = "1D 2D 3D 4D 7D 7C 7S 7B 6C 6S 6B 1C 1S 1B 5C 5S 5B 4C 4S 4B 2C"


def _worked_round(rules: Rules, dealer: int) -> Round:
    r = Round.from_deal([[], [], [], []], dealer=dealer, rules=rules)
    a = mask_of(parse_cards(WORKED))
    r.piles = [a, ALL_MASK & ~a]
    r.scope = [3, 2]
    return r


def _match(target: int, scores: tuple[int, int]) -> Match:
    m = Match(Rules(target=target), random.Random(target), dealer=1)
    m.scores = list(scores)
    return m


@pytest.mark.parametrize("target", [11, 21, 31])
def test_reaching_the_target_at_the_end_of_a_round_wins(target: int) -> None:
    m = _match(target, (target - 6, target - 1))
    m.round = _worked_round(m.rules, 1)
    score = m.finish_round()
    assert score.points == (6, 2)
    assert m.scores == [target, target + 1]
    assert m.winner == 1  # both reached the target: the higher total wins
    assert m.is_over
    with pytest.raises(IllegalMoveError, match="the match is over"):
        m.next_round()
    # Asked for the next deal straight after the last card: the round is scored first, and
    # that ends the match.
    m = _match(target, (target - 6, target - 1))
    m.round = _worked_round(m.rules, 1)
    with pytest.raises(IllegalMoveError, match="the match is over"):
        m.next_round()
    assert m.winner == 1 and m.scores == [target, target + 1]


@pytest.mark.parametrize("target", [11, 21, 31])
def test_one_short_of_the_target_plays_on(target: int) -> None:
    m = _match(target, (target - 7, target - 3))
    m.round = _worked_round(m.rules, 1)
    m.finish_round()
    assert m.scores == [target - 1, target - 1] and m.winner is None
    nxt = m.next_round()
    assert nxt.dealer == 2 and not nxt.is_over and m.round is nxt


@pytest.mark.parametrize("target", [11, 21, 31])
def test_one_pair_over_the_target_wins_even_when_behind_before(target: int) -> None:
    m = _match(target, (target - 6, 0))
    m.round = _worked_round(m.rules, 1)
    m.finish_round()
    assert m.scores == [target, 2] and m.winner == 0


def test_both_over_and_level_means_another_round() -> None:
    m = _match(11, (9, 13))
    m.round = _worked_round(m.rules, 1)
    m.finish_round()
    assert m.scores == [15, 15]
    assert m.winner is None and not m.is_over
    second = m.next_round()
    assert second.dealer == 2 and len(m.rounds) == 1
    # The next round decides it.
    m.round = _worked_round(m.rules, 2)
    m.finish_round()
    assert m.scores == [21, 17] and m.winner == 0


def test_the_score_is_checked_only_at_the_end_of_a_round() -> None:
    m = _match(11, (10, 10))
    # Mid-round, pair A has already taken enough for a point, but nothing is scored yet.
    m.round = Round.from_deal([parse_cards("1B"), parse_cards("2B"), [], []],
                              dealer=3, rules=m.rules)
    m.round.piles = [mask_of(parse_cards(WORKED)), 0]
    assert m.winner is None and m.scores == [10, 10]
    with pytest.raises(IllegalMoveError, match="the round is not over yet"):
        m.finish_round()
    with pytest.raises(IllegalMoveError, match="the round is still being played"):
        m.next_round()
    assert m.scores == [10, 10] and m.winner is None


def test_finishing_twice_scores_once() -> None:
    m = _match(31, (0, 0))
    m.round = _worked_round(m.rules, 1)
    m.finish_round()
    m.finish_round()
    assert m.scores == [6, 2] and len(m.rounds) == 1
    m.next_round()  # it would score the round again if it did not know
    assert m.scores == [6, 2] and len(m.rounds) == 1


def test_match_winner() -> None:
    assert match_winner((11, 0), 11) == 0
    assert match_winner((0, 11), 11) == 1
    assert match_winner((10, 10), 11) is None
    assert match_winner((12, 11), 11) == 0
    assert match_winner((14, 14), 11) is None
    assert match_winner((20, 19), 21) is None
    assert match_winner((31, 30), 31) == 0


@pytest.mark.parametrize("target", [5, 0, 12, 100])
def test_only_the_three_targets_exist(target: int) -> None:
    with pytest.raises(ValueError):
        Rules(target=target)


def test_whole_matches_end_with_a_winner() -> None:
    for seed in range(30):
        rules = Rules(variant=("scientifico", "classico")[seed % 2], napola=seed % 3 == 0,
                      target=(11, 21, 31)[seed % 3])
        m = Match(rules, random.Random(seed))
        dealers = [m.round.dealer]
        while True:
            m.round.playout(random.Random(seed * 1000 + len(dealers)))
            m.finish_round()
            if m.winner is not None:
                break
            m.next_round()
            dealers.append(m.round.dealer)
        a, b = m.scores
        assert max(a, b) >= rules.target and a != b
        assert m.winner == (0 if a > b else 1)
        assert [a, b] == [sum(s.points[0] for s in m.rounds), sum(s.points[1] for s in m.rounds)]
        assert all(d == (dealers[0] + i) % 4 for i, d in enumerate(dealers))
        # A finished match stored and loaded is still finished, with every round's breakdown.
        again = Match.from_dict(json.loads(json.dumps(m.to_dict())))
        assert again.winner == m.winner and again.rounds == m.rounds
        assert again.scores == m.scores and again.round_scored
        # No earlier round had already decided the match.
        for k in range(1, len(m.rounds)):
            partial = (sum(s.points[0] for s in m.rounds[:k]),
                       sum(s.points[1] for s in m.rounds[:k]))
            assert match_winner(partial, rules.target) is None


def test_to_dict_from_dict_mid_round() -> None:
    m = Match(Rules(variant="classico", napola=True, target=21), random.Random(9))
    rng = random.Random(3)
    for _ in range(13):
        moves = m.round.legal_moves()
        m.round.play(moves[rng.randrange(len(moves))])
    data = json.loads(json.dumps(m.to_dict()))
    m2 = Match.from_dict(data)
    assert m2.to_dict() == m.to_dict()
    assert m2.round.history == m.round.history
    # Both continue identically: same moves, same next deal.
    for _ in range(23):
        assert m2.round.legal_pairs() == m.round.legal_pairs()
        move = m.round.legal_moves()[0]
        m.round.play(move)
        m2.round.play(move)
    assert m.round.is_over and m2.round.is_over
    assert m2.finish_round() == m.finish_round()
    assert m2.next_round().hands == m.next_round().hands


def test_a_match_starts_with_the_dealer_it_is_given() -> None:
    # Otherwise the first dealer is drawn (tests of the deal and held-out checks name one).
    for dealer in range(4):
        m = Match(Rules(), random.Random(7), dealer=dealer)
        assert m.round.dealer == dealer and m.round.turn == (dealer + 1) % 4
