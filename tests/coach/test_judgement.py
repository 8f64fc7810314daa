"""The coach's judgement in positions where the best move is known."""

from __future__ import annotations

import random

import pytest

from scopone import Move, Round, Rules, SeatView
from scopone.coach import (
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
from scopone.players.search import SearchLimits
from tests.players.helpers import card, position, view_to_play

FAST = SearchLimits(seconds=None, iterations=60, prune=False)

SCOPA_HANDS = ["6S 9D 8D", "7C 1C 2D", "5D 1S 4S", "7S 3C 5B"]
SCOPA = Move(card("6S"), frozenset({card("2C"), card("4C")}))


def test_the_hint_names_a_free_scopa() -> None:
    r = position(SCOPA_HANDS, table="2C 4C", to_play=0)
    h = hint_for(view_to_play(r), random.Random(1), FAST)
    assert h.best.move == SCOPA and h.deals == 60
    assert len(h.options) == 3 and h.options[0].margin > h.options[1].margin


def test_the_review_labels_a_missed_scopa_and_the_scopa_itself() -> None:
    r = position(SCOPA_HANDS, table="2C 4C", to_play=0)
    taken = review_plays(r, ((0, SCOPA),), 0, "s", FAST)
    (p,) = taken.plays
    assert p.label == "best" and p.best == SCOPA and p.loss == 0 and p.scopa
    assert taken.accuracy == 1.0 and taken.counts["best"] == 1
    missed = review_plays(r, ((0, Move(card("9D"))),), 0, "s", FAST)
    (q,) = missed.plays
    assert q.best == SCOPA and q.loss is not None and q.loss > 0.8
    assert q.label in ("mistake", "blunder") and missed.accuracy == 0.0


def test_judging_a_move_the_view_does_not_allow_is_an_error() -> None:
    # Laying the 6S where it must take (2C 4C): no legal move to compare, so a plain error (a
    # StopIteration here once left the review's request waiting forever).
    from scopone.coach.review import judge

    r = position(SCOPA_HANDS, table="2C 4C", to_play=0)
    with pytest.raises(ValueError, match="not a legal move"):
        judge(view_to_play(r), Move(card("6S")), random.Random(1), FAST)


def test_the_settebello_to_take() -> None:
    r = position(["7S 9D 2B", "7C 1C 2D", "5D 1S 4S", "8S 3C 5B"], table="7D 5C", to_play=0)
    take = Move(card("7S"), frozenset({card("7D")}))
    assert hint_for(view_to_play(r), random.Random(2), FAST).best.move == take
    rev = review_plays(r, ((0, Move(card("9D"))),), 0, "t", FAST)
    assert rev.plays[0].best == take and rev.plays[0].label in ("mistake", "blunder")


def test_a_forced_move_is_shown_not_judged() -> None:
    r = position(["6S", "7C", "5D", "7S"], table="1B", to_play=0)
    rev = review_plays(r, ((0, Move(card("6S"))),), 0, "f", FAST)
    (p,) = rev.plays
    assert p.forced and p.label is None and p.best is None and p.loss is None
    assert rev.accuracy is None and sum(rev.counts.values()) == 0
    h = hint_for(view_to_play(r), random.Random(3), FAST)
    assert h.best.move == Move(card("6S")) and h.deals == 0


def test_a_card_the_computer_chose_for_the_person_is_shown_not_judged() -> None:
    """At a table the computer plays an away person's card: the review shows it as the
    computer's, judges none of it and leaves it out of the accuracy (a missed scopa here)."""
    r = position(SCOPA_HANDS, table="2C 4C", to_play=0)
    missed = ((0, Move(card("9D"))),)
    rev = review_plays(r, missed, 0, "c", FAST, by_computer=frozenset({0}))
    (p,) = rev.plays
    assert p.by_computer and not p.forced and not p.judged
    assert p.label is None and p.best is None and p.loss is None and p.options == ()
    assert rev.accuracy is None and sum(rev.counts.values()) == 0
    # The same play made by the person is judged as theirs.
    assert review_plays(r, missed, 0, "c", FAST).plays[0].label in ("mistake", "blunder")
    # A round's trace keeps which plays were the computer's, through storage too.
    small = Round.from_deal([[card(c)] for c in ("5D", "1C", "2S", "3B")], (), dealer=3)
    while not small.is_over:
        small.play(small.legal_moves()[0])
    trace = RoundTrace.from_dict(RoundTrace.of(small, frozenset({1})).to_dict(), small.rules)
    assert trace.by_computer == frozenset({1})
    assert RoundTrace.from_dict(RoundTrace.of(small).to_dict(), small.rules).by_computer == set()
    assert [p.by_computer for p in review_round(trace, 0, "x", FAST).plays] == [False]
    assert [p.by_computer for p in review_round(trace, 1, "x", FAST).plays] == [True]


def test_permuting_the_hidden_cards_does_not_change_the_hint() -> None:
    a = position(["3B 9S 7D", "7C 1C 2D", "5D 6S 4S", "7S 2C 5B"], table="4C", to_play=0)
    b = position(["3B 9S 7D", "5B 2C 4S", "7S 1C 2D", "5D 6S 7C"], table="4C", to_play=0)
    assert hint_for(view_to_play(a), random.Random(4), FAST) == \
        hint_for(view_to_play(b), random.Random(4), FAST)


def played_round(seed: int, variant: str = "scientifico") -> Round:
    rng = random.Random(seed)
    r = Round.deal(Rules(variant=variant), seed % 4, rng)  # type: ignore[arg-type]
    while not r.is_over:
        moves = r.legal_moves()
        r.play(moves[rng.randrange(len(moves))])
    return r


def test_a_whole_round_review_shows_only_the_seats_own_hand_and_public_cards() -> None:
    for variant, seat in (("scientifico", 1), ("classico", 0)):
        r = played_round(5, variant)
        trace = RoundTrace.of(r)
        again = RoundTrace.from_dict(trace.to_dict(), r.rules)
        assert again == trace
        rev = review_round(trace, seat, "w", SearchLimits(seconds=None, iterations=8,
                                                          prune=False))
        mine = [p for p in r.history or () if p.seat == seat]
        assert [p.played for p in rev.plays] == [p.move for p in mine]
        own = {p.card for p in mine}
        start = trace.deal()
        for p in rev.plays:
            assert set(p.hand) <= own  # its own earlier hand, never another's
            assert p.played.card in p.hand
            # The table before the play: public (dealt face up or played before it).
            before = {c for _, m in trace.plays[:p.index] for c in (m.card,)}
            assert set(p.table) <= before | set(start.table_cards)
            if p.forced:
                assert p.label is None
            else:
                assert p.label is not None and p.best is not None and p.best.card in p.hand
        assert rev.plays[-1].forced  # the last card is always forced


def test_cards_seen_from_a_view() -> None:
    r = position(["7S 9D 2B", "7C 1C 2D", "5D 1S 4S", "8S 3C 5B"], table="7D 5C", to_play=0,
                 pile_a="1D 2S")
    seen = cards_seen(SeatView.of(r, 0))
    places = dict(seen.places)
    assert len(places) == 40 and seen.settebello == "table"
    assert places[card("7S")] == "hand" and places[card("1D")] == "taken_a"
    assert places[card("7C")] == "unseen" and places[card("10B")] == "taken_b"
    assert seen.unseen_by_rank[6] == 1  # 7C: 7S is ours, 7D on the table, 7B taken
    assert sum(seen.unseen_by_rank) == 9


def test_labels_follow_the_thresholds() -> None:
    assert [label_for(x) for x in (0.0, 0.3, 0.6, 1.0, 3.0)] == \
        ["best", "good", "inaccuracy", "mistake", "blunder"]


def test_statistics_add_up_per_seat() -> None:
    r = played_round(7)
    score = r.score()
    d = credit_accuracy(empty_stats(), "g:1", 0.5, 4)  # a round not counted (yet): nothing
    d = credit_round(d, "hard", 1, score, match_winner=1, key="g:1")
    d = credit_help(credit_help(d, "hints"), "cards_seen")
    d = credit_accuracy(d, "g:1", 0.75, 4, when=10.0)
    d = credit_accuracy(d, "g:1", 0.0, 4)  # the same round again: counted once
    s = stats_summary(d)
    hard = next(x for x in s["levels"] if x["level"] == "hard")
    assert hard["rounds"] == 1 and hard["matches"] == 1 and hard["matches_won"] == 1
    assert hard["rounds_won"] == int(score.points[1] > score.points[0])
    assert s["average_points"]["carte"] == score.carte[1]
    assert s["scope_made"] == score.tallies[1].scope
    assert s["scope_conceded"] == score.tallies[0].scope
    # An opening of the cards seen counts like a hint (SPEC §7), and is shown apart too.
    assert s["hints"] == 2 and s["cards_seen"] == 1
    assert s["accuracy"] == [{"time": 10.0, "accuracy": 0.75, "judged": 4}]


def test_a_trace_keeps_the_table_as_dealt() -> None:
    """The review replays a round from its trace: the cards dealt face up are kept (Classico's
    four; none in a round of one card a hand built by hand, where "every card not played"
    would have put 36 on the table and made the lead's only card look illegal)."""
    from scopone.engine import Match

    # As the game's tests insert it: dealt from these four cards alone, nothing taken before.
    small = Round.from_deal([[card(c)] for c in ("5D", "1C", "2S", "3B")], (), dealer=3)
    for r in (small, Match(Rules(variant="classico"), random.Random(3)).round):
        dealt = sorted(str(c) for c in r.table)
        hands = [sorted(str(c) for c in r.hand(s)) for s in range(4)]
        while not r.is_over:
            r.play(r.legal_moves()[0])
        trace = RoundTrace.from_dict(RoundTrace.of(r).to_dict(), r.rules)
        again = trace.deal()
        assert sorted(str(c) for c in again.table) == dealt
        assert [sorted(str(c) for c in again.hand(s)) for s in range(4)] == hands
    rev = review_round(RoundTrace.of(small), 0, "x", FAST)
    assert [p.forced for p in rev.plays] == [True]
    # A trace stored before the table was kept: the rest of the deck, as before.
    old = RoundTrace.from_dict({"dealer": 3, "plays": RoundTrace.of(small).to_dict()["plays"]},
                               Rules())
    assert len(old.deal().table) == 36
