"""Guards found by mutation testing the coach (scopone/coach/): rules of SPEC §7 and of the
coach's docstrings that no other test pinned down (label edges, cards unseen per rank, what the
review hands to the evaluation, the seed, the payload's numbers, statistics that add up)."""

from __future__ import annotations

import copy
import dataclasses
import random
from typing import Any

import pytest

from scopone import Move, Round, Rules, SeatView
from scopone.coach import (
    BEST_WINDOW,
    THRESHOLDS,
    RoundTrace,
    cards_seen,
    credit_accuracy,
    credit_help,
    credit_round,
    empty_stats,
    hint_for,
    label_for,
    review_plays,
    review_round,
    stats_summary,
)
from scopone.coach import review as review_module
from scopone.coach.payload import DEALS, compute_hint, compute_review
from scopone.coach.stats import CATEGORIES, LEVELS
from scopone.engine.scoring import PairTally, RoundScore
from scopone.players.evaluate import JUDGE_LIMITS, evaluate_moves
from scopone.players.search import SearchLimits
from tests.players.helpers import card, position, view_to_play

from .test_judgement import FAST, SCOPA, SCOPA_HANDS

#: The payload's own judgement given a time it never reaches: its DEALS deals decide, so the
#: judgement is deterministic.
SECONDS = 60.0
PAYLOAD = SearchLimits(seconds=SECONDS, iterations=DEALS, prune=False)



def small_round(seed: int = 1, rules: Rules | None = None) -> Round:
    """Three cards a hand and two face up, played out at random: twelve plays, seat 0 leads
    and has a real choice at its first two plays."""
    hands = [[card(c) for c in h.split()]
             for h in ("7D 3C 5S", "7C 4D 1B", "2S 6C 5D", "3S 9B 10D")]
    r = Round.from_deal(hands, [card("2C"), card("4B")], dealer=3, rules=rules)
    rng = random.Random(seed)
    while not r.is_over:
        moves = r.legal_moves()
        r.play(moves[rng.randrange(len(moves))])
    return r


# ----- labels ---------------------------------------------------------------------------------


def test_each_threshold_belongs_to_the_label_above_it_and_the_best_window_to_best() -> None:
    """labels.py: "best: loss <= 0.25"; THRESHOLDS are *lower bounds* of inaccuracy, mistake,
    blunder."""
    inaccuracy, mistake, blunder = THRESHOLDS
    assert label_for(BEST_WINDOW) == "best"
    assert label_for(inaccuracy) == "inaccuracy"
    assert label_for(mistake) == "mistake"
    assert label_for(blunder) == "blunder"
    # Just below each bound: still the label beneath it.
    assert [label_for(x - 1e-9) for x in (inaccuracy, mistake, blunder)] == \
        ["good", "inaccuracy", "mistake"]


# ----- cards seen -----------------------------------------------------------------------------


def test_cards_seen_counts_the_unseen_cards_of_each_of_the_ten_ranks() -> None:
    """SPEC §7 cards seen: "per rank how many are still unseen" (one count per rank 1-10)."""
    r = position(["7S 9D 2B", "7C 1C 2D", "5D 1S 4S", "8S 3C 5B"], table="7D 5C", to_play=0,
                 pile_a="1D 2S")
    seen = cards_seen(SeatView.of(r, 0))
    # Unseen by seat 0: the other hands, 7C 1C 2D / 5D 1S 4S / 8S 3C 5B.
    assert seen.unseen_by_rank == (2, 1, 1, 1, 2, 0, 1, 1, 0, 0)


# ----- review ---------------------------------------------------------------------------------


def test_a_judged_play_lists_the_best_few_moves_best_first_with_their_margins() -> None:
    """SPEC §7 review: the best play shown with each judged play (``PlayReview.options``:
    the best few, best first); the review is ``seat``'s."""
    r = position(SCOPA_HANDS, table="2C 4C", to_play=0)
    rev = review_plays(r, ((0, Move(card("9D"))),), 0, "o", FAST)
    assert rev.seat == 0
    (p,) = rev.plays
    assert 1 < len(p.options) <= review_module.SHOWN
    assert p.options[0].move == p.best == SCOPA
    margins = [o.margin for o in p.options]
    assert margins == sorted(margins, reverse=True)
    # SPEC §7: the loss is the best move's margin minus the played move's (three legal moves
    # here, so the played 9D is among those shown).
    mine = next(o for o in p.options if o.move == p.played)
    assert p.loss == pytest.approx(margins[0] - mine.margin)


def test_a_play_outside_the_best_few_is_listed_after_them_with_its_own_margin() -> None:
    """SPEC §7 review: "the loss is the best move's expected margin minus the played move's";
    the review shows the played move's margin too, after the best few, when it is not among
    them (a newcomer read "It cost 1.3 points" beside a list without their card)."""
    r = position(["6S 9D 8D 1D 3D", "7C 1C 2D 5S 5C", "5D 1S 4S 6D 10D", "7S 3C 5B 9C 9S"],
                 table="2C 4C", to_play=0)
    view = view_to_play(r)
    values = evaluate_moves(view, random.Random(5), FAST)
    assert len(values) > review_module.SHOWN + 1
    worst = values[-1]
    best, _, loss, options = review_module.judge(view, worst.move, random.Random(5), FAST)
    assert best == values[0].move
    assert [o.move for o in options] == \
        [v.move for v in values[:review_module.SHOWN]] + [worst.move]
    assert options[-1].margin == pytest.approx(worst.mean)
    assert loss == pytest.approx(options[0].margin - options[-1].margin)
    # One of the best few played: the list is the best few alone.
    _, _, _, top = review_module.judge(view, values[1].move, random.Random(5), FAST)
    assert [o.move for o in top] == [v.move for v in values[:review_module.SHOWN]]


def test_the_review_judges_each_position_from_the_seats_view_with_its_history_and_limits(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """review.py: "Only ``SeatView.of(round, seat)`` reaches the evaluation" (the public
    history included, which Hard reads cards from), within the limits the caller gave."""
    seen: list[tuple[SeatView, SearchLimits]] = []
    real = evaluate_moves

    def spy(view: SeatView, rng: random.Random, limits: SearchLimits = JUDGE_LIMITS) -> Any:
        seen.append((view, limits))
        return real(view, rng, limits)

    played = small_round()
    trace = RoundTrace.of(played)
    # The positions seat 0 had a choice in, as they were in the round itself.
    r = trace.deal()
    wanted = []
    for s, m in trace.plays:
        if s == 0 and len(r.legal_moves()) > 1:
            wanted.append(SeatView.of(r, 0))
        r.play(m)
    assert len(wanted) == 2 and wanted[1].history  # the second comes after four plays

    monkeypatch.setattr(review_module, "evaluate_moves", spy)
    review_round(trace, 0, "v", FAST)
    assert [v for v, _ in seen] == wanted
    assert all(limits == FAST for _, limits in seen)


def test_the_seed_decides_the_imagined_deals() -> None:
    """review.py: ``seed`` makes each judgement's imagined deals: the same seed judges alike,
    another seed draws other deals."""
    trace = RoundTrace.of(small_round())
    a, again = review_round(trace, 0, "a", FAST), review_round(trace, 0, "a", FAST)
    other = review_round(trace, 0, "b", FAST)
    assert a == again
    assert [p.options for p in a.plays] != [p.options for p in other.plays]


def test_a_play_attributed_to_a_seat_whose_turn_it_is_not_is_refused() -> None:
    """review.py: the plays are replayed seat by seat; a play labelled with the wrong seat is
    an error, never silently made for the seat to play."""
    r = position(SCOPA_HANDS, table="2C 4C", to_play=0)
    with pytest.raises(ValueError, match="turn"):
        review_plays(r, ((1, SCOPA),), 0, "w", FAST)


def test_a_trace_deals_its_round_under_its_own_rules() -> None:
    """review.py ``RoundTrace.deal``: "the round as it was dealt", rules included."""
    rules = Rules(napola=True, target=21)
    trace = RoundTrace.of(small_round(rules=rules))
    assert trace.deal().rules == rules
    assert RoundTrace.from_dict(trace.to_dict(), rules).deal().rules == rules


# ----- payload (what the server sends) --------------------------------------------------------


def test_the_review_payload_carries_the_reviews_numbers_and_the_computers_plays() -> None:
    """payload.py: the review as plain data: its losses and margins (to a thousandth of a
    point), and which plays the computer chose (``by_computer``)."""
    played = small_round()
    trace = RoundTrace.of(played, frozenset({4}))  # seat 0's second play: the computer's
    rules = dataclasses.asdict(played.rules)
    out = compute_review(trace.to_dict(), rules, 0, "p", SECONDS)
    rev = review_round(trace, 0, "p", PAYLOAD)
    assert [p["index"] for p in out["plays"]] == [p.index for p in rev.plays] == [0, 4, 8]
    assert [p["by_computer"] for p in out["plays"]] == [False, True, False]
    first, mine = out["plays"][0], rev.plays[0]
    assert first["loss"] == pytest.approx(mine.loss, abs=5e-4)
    assert [o["margin"] for o in first["options"]] == \
        pytest.approx([o.margin for o in mine.options], abs=5e-4)
    assert len({o["margin"] for o in first["options"]}) > 1  # real margins, not one constant


def test_the_hint_payload_carries_the_expected_margins_of_the_best_few_moves() -> None:
    """SPEC §7 hint: "the expected margin of the best few moves" (to a thousandth)."""
    view = view_to_play(position(SCOPA_HANDS, table="2C 4C", to_play=0))
    out = compute_hint(view, "h", SECONDS)
    h = hint_for(view, random.Random("h"), PAYLOAD)
    assert out["deals"] == h.deals == DEALS
    assert [o["margin"] for o in out["options"]] == \
        pytest.approx([o.margin for o in h.options], abs=5e-4)


# ----- statistics -----------------------------------------------------------------------------


def score_of(a: tuple[int, int, int, int, int], b: tuple[int, int, int, int, int]) -> RoundScore:
    """A round's score from each pair's carte, denari, settebello, primiera and scope points."""

    def tally(p: tuple[int, int, int, int, int]) -> PairTally:
        return PairTally(cards=20 + p[0], denari=5 + p[1], settebello=bool(p[2]),
                         primiera=None, scope=p[4], napola=0)

    return RoundScore(tallies=(tally(a), tally(b)), carte=(a[0], b[0]), denari=(a[1], b[1]),
                      settebello=(a[2], b[2]), primiera=(a[3], b[3]), scope=(a[4], b[4]),
                      napola=(0, 0))


#: Pair A 1+0+1+0+2 = 4 points, pair B 0+1+0+1+3 = 5: pair B wins the round.
B_WINS = score_of((1, 0, 1, 0, 2), (0, 1, 0, 1, 3))


def test_seats_2_and_3_count_for_their_own_pair() -> None:
    """stats.py: everything counted from the person's own seat (seats 0 and 2 are pair A,
    1 and 3 pair B)."""
    for seat, won, made, conceded, denari in ((2, 0, 2, 3, 0), (3, 1, 3, 2, 1)):
        d = credit_round(empty_stats(), "normal", seat, B_WINS, match_winner=1)
        normal = d["levels"]["normal"]
        assert (normal["rounds_won"], normal["matches_won"]) == (won, won), seat
        assert (d["scope_made"], d["scope_conceded"]) == (made, conceded), seat
        assert d["points"]["denari"] == denari and d["points"]["scope"] == made, seat


def test_a_drawn_round_is_won_by_neither_pair() -> None:
    """SPEC §7 statistics: rounds *won* per level; a round of equal points is no win."""
    draw = score_of((1, 0, 1, 0, 2), (0, 1, 0, 1, 2))
    for seat in range(4):
        lv = credit_round(empty_stats(), "easy", seat, draw, None)["levels"]["easy"]
        assert (lv["rounds"], lv["rounds_won"]) == (1, 0)


def test_statistics_add_up_over_rounds_and_matches_and_average_per_round() -> None:
    """stats.py: the stored data are sums and counts "that a new round simply adds to";
    SPEC §7: average points per category."""
    other = score_of((0, 1, 1, 0, 0), (1, 0, 0, 1, 1))  # B 3, A 2
    d = credit_round(empty_stats(), "hard", 1, B_WINS, match_winner=1)
    d = credit_round(d, "hard", 1, other, match_winner=1)
    hard = d["levels"]["hard"]
    assert hard == {"matches": 2, "matches_won": 2, "rounds": 2, "rounds_won": 2}
    assert d["rounds"] == 2
    assert d["points"] == {"carte": 1, "denari": 1, "settebello": 0, "primiera": 2,
                           "scope": 4, "napola": 0}
    assert (d["scope_made"], d["scope_conceded"]) == (4, 2)
    s = stats_summary(d)
    assert s["average_points"]["primiera"] == 1.0 and s["average_points"]["scope"] == 2.0
    assert s["average_points"]["carte"] == 0.5


def test_no_rounds_yet_averages_no_points() -> None:
    """stats.py ``stats_summary``: before any round, no category has any points on average."""
    assert stats_summary(empty_stats())["average_points"] == dict.fromkeys(CATEGORIES, 0.0)


def test_a_record_stored_before_a_level_existed_keeps_working() -> None:
    """stats.py ``_filled``: "any field a newer release added, so old records keep working"
    (here: levels missing from the record)."""
    old = {"rounds": 2, "levels": {"easy": {"matches": 1, "matches_won": 1, "rounds": 2,
                                            "rounds_won": 1}}}
    s = stats_summary(old)
    assert [x["level"] for x in s["levels"]] == list(LEVELS)
    assert s["levels"][0]["rounds"] == 2
    assert all(x["rounds"] == 0 and x["matches"] == 0 for x in s["levels"][1:])
    d = credit_round(old, "hard", 0, B_WINS, None)
    assert d["levels"]["hard"]["rounds"] == 1 and d["levels"]["easy"]["rounds"] == 2


def test_the_credits_leave_the_record_they_are_given_whole() -> None:
    """stats.py ``_filled``: each credit returns a new record; the one it was given is not
    half-updated (its levels and points were shared, and changed)."""
    d = credit_round(empty_stats(), "easy", 0, B_WINS, match_winner=1, key="g:1:0")
    before = copy.deepcopy(d)
    credit_round(d, "easy", 0, B_WINS, match_winner=1, key="g:2:0")
    credit_help(d, "hints")
    credit_accuracy(d, "g:1:0", 0.5, 4)
    assert d == before
