"""Reading the plays jointly: deals are drawn as often as they explain the other seats' moves."""

from __future__ import annotations

import math
import random

import pytest

from scopone import Move, SeatView
from scopone.engine.cards import BIT
from scopone.players import heuristics, playout
from scopone.players.hard import deal_sampler
from scopone.players.likelihood import (
    _seen_plays,
    deal_loglik,
    policy_sampler,
    seat_loglik,
    typed_loglik,
)
from scopone.players.playout import policy_pair

from .helpers import card, deals_holding, model_values, position, random_positions


def _masks(hands: dict[int, str]) -> list[int]:
    out = [0, 0, 0, 0]
    for s, codes in hands.items():
        for code in codes.split():
            out[s] |= BIT[card(code).index]
    return out


def test_the_model_scores_moves_as_the_playouts_choose_them() -> None:
    # The likelihood's model is the playouts' own policy: its best move is the one they play.
    # ``policy_pair`` keeps its own copy of ``policy_values``'s judgement (for speed): over
    # many positions, close calls included, the two never disagree. The memos the policy reads
    # only save time: emptied first (other tests fill them), nothing changes.
    playout._OPTIONS.clear()
    heuristics._MASK_RANKS.clear()
    heuristics._MASK_WORTH.clear()
    rng = random.Random(3)
    for r in random_positions(3000, seed=77):
        values = model_values(r)
        assert sorted((c, m) for c, m, _ in values) == sorted(r.legal_pairs())
        chosen = policy_pair(r, 0.0, rng)
        best = max(v for _, _, v in values)
        assert next(v for c, m, v in values if (c, m) == chosen) == best, r


def test_a_deal_where_the_seat_passed_a_capture_it_held_is_less_likely() -> None:
    # Seat 1 lays 1C on 7C 9S 8B while a seven would have taken 7C (a coin and a seven).
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=1)
    r.play(Move(card("1C")))
    view = SeatView.of(r, 0)
    seen = _seen_plays(view)
    assert [(p.seat, p.card) for p in seen] == [(1, card("1C").index)]
    mine = "3B 9D"
    held_seven = deal_loglik(seen, _masks({0: mine, 1: "7S", 2: "4B 6S", 3: "2S 5D"}),
                             view.hand_counts, 2.0)
    held_four = deal_loglik(seen, _masks({0: mine, 1: "4B", 2: "7S 6S", 3: "2S 5D"}),
                            view.hand_counts, 2.0)
    assert held_seven < held_four - 1.0
    # A sharper model reads more into the same play; a blind one reads nothing.
    sharp = deal_loglik(seen, _masks({0: mine, 1: "7S", 2: "4B 6S", 3: "2S 5D"}),
                        view.hand_counts, 4.0)
    assert sharp < held_seven
    blind = [deal_loglik(seen, _masks({0: mine, 1: h, 2: f"{o} 6S", 3: "2S 5D"}),
                         view.hand_counts, 0.0) for h, o in (("7S", "4B"), ("4B", "7S"))]
    assert blind[0] == blind[1]


def test_chance_mixed_into_the_model_bounds_what_one_play_can_cost() -> None:
    # Seat 1 held two cards, so a play chosen by chance has odds 1/2: with ``mix`` of them, no
    # play is less likely than mix/2 whatever the hand, and the deal that explains the play
    # best still wins.
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=1)
    r.play(Move(card("1C")))
    view = SeatView.of(r, 0)
    seen = _seen_plays(view)
    seven = _masks({0: "3B 9D", 1: "7S", 2: "4B 6S", 3: "2S 5D"})
    four = _masks({0: "3B 9D", 1: "4B", 2: "7S 6S", 3: "2S 5D"})
    gaps = {}
    for mix in (0.0, 0.2, 0.5, 1.0):
        lik = [deal_loglik(seen, hands, view.hand_counts, 4.0, mix) for hands in (seven, four)]
        if mix:
            assert min(lik) >= math.log(mix / 2)
        gaps[mix] = lik[1] - lik[0]
    assert gaps[0.0] > gaps[0.2] > gaps[0.5] > 0
    assert gaps[0.2] < math.log(2 / 0.2)
    assert gaps[1.0] == 0.0  # all chance: the play says nothing


def test_a_seat_of_two_types_is_read_sharply_only_where_its_play_fits_the_sharp_model() -> None:
    # Seat 1 lays 1C on 7C 9S 8B. Holding 7S it passed a capture: the sharp model all but
    # rules that out, so that hand is read as the soft model reads it (the sharp type
    # explains nothing: half the prior lost). Holding 4B, 1C was a fine play for both types.
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=1)
    r.play(Move(card("1C")))
    view = SeatView.of(r, 0)
    rows = _seen_plays(view)
    counts = view.hand_counts
    seven, four = _masks({1: "7S"})[1], _masks({1: "4B"})[1]
    soft = {h: seat_loglik(rows, h, counts, 2.0) for h in (seven, four)}
    tight = {h: seat_loglik(rows, h, counts, 8.0) for h in (seven, four)}
    typed = {h: typed_loglik(rows, h, counts, 2.0, sharp=8.0) for h in (seven, four)}
    for h in (seven, four):
        assert typed_loglik(rows, h, counts, 2.0) == soft[h]
        assert typed[h] == pytest.approx(math.log(0.5 * math.exp(soft[h])
                                                  + 0.5 * math.exp(tight[h])))
    assert tight[seven] < soft[seven] - 4.0
    assert typed[seven] == pytest.approx(soft[seven] - math.log(2), abs=0.02)
    # Against the fitting hand it reads more than the soft model, less than the sharp one.
    assert soft[four] - soft[seven] < typed[four] - typed[seven] < tight[four] - tight[seven]


def test_a_seat_that_laid_a_card_instead_of_taking_is_rarely_dealt_the_taker() -> None:
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=1)
    r.play(Move(card("1C")))
    view = SeatView.of(r, 0)
    plain = deals_holding(view, "off", "7S", 2000)
    read = deals_holding(view, "policy", "7S", 2000)
    # Seat 1 holds one of the five unseen cards: a fifth of random deals give it 7S; reading
    # the play, Hard's few candidates a deal give it about half as many (214 of 404 here), and
    # more candidates come nearer the model's own odds (about 0.4 of them: 160).
    assert 330 < plain[1] < 470
    assert read[1] < 0.65 * plain[1]
    assert read[2] + read[3] > plain[2] + plain[3]
    assert deals_holding(view, "policy", "7S", 2000, pool=32)[1] < 0.5 * plain[1]


def test_the_partners_plays_can_be_read_with_a_beta_of_their_own() -> None:
    # Seat 0's partner (seat 2) lays 4B on 7C 9S 8B: had it held the seven, it would have
    # taken 7C (a coin and a seven).
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=2)
    r.play(Move(card("4B")))
    view = SeatView.of(r, 0)
    seen = _seen_plays(view)
    assert [p.seat for p in seen] == [2]

    def seat_two_holds_the_seven(**kw: float) -> int:
        sample = policy_sampler(view, deal_sampler(view, "voids"), pool=16, **kw)
        rng = random.Random(8)
        return sum(card("7S").index in sample(rng).hands[2] for _ in range(600))

    # With the partner's beta at 0 its play says nothing: seat 2 holds the seven as often as in
    # plain deals (one of the five unseen cards: a fifth). With the default beta it holds it
    # less often, with a sharper partner's beta less still.
    blind = seat_two_holds_the_seven(partner_beta=0.0)
    read = seat_two_holds_the_seven()
    sharp = seat_two_holds_the_seven(partner_beta=8.0)
    assert 80 < blind < 170
    assert sharp < read < blind


def test_with_nothing_to_read_the_deals_are_the_plain_ones() -> None:
    # No other seat has played: the policy reading adds nothing and costs nothing.
    r = position(["3B 9D", "1C 2S", "4B 6S", "7S 5D"], table="7C 9S 8B", to_play=0)
    view = SeatView.of(r, 0)
    assert _seen_plays(view) == []
    assert deal_sampler(view, "policy") == view.sample_round
