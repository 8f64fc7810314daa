"""The engine's entry points of SPEC.md §5, used the way outside tools and checks use them."""

from __future__ import annotations

import pytest

from scopone import Card, Move, Round, Rules


def C(code: str) -> Card:
    return Card.parse(code)


def test_the_spec_entry_points_speak_in_cards() -> None:
    card = C("7D")
    assert (str(card), card.rank, card.suit) == ("7D", 7, "D")
    assert Rules() == Rules(variant="scientifico", napola=False, target=11)
    hands = [[C("5C"), C("7D")], [C("2B"), C("9S")], [C("3S"), C("4C")], [C("1B"), C("8C")]]
    r = Round.from_deal(hands, table=[C("2D"), C("3C")], dealer=0, rules=Rules())
    # Seat 1 leads (the one after the dealer); round.table is the cards face up.
    assert r.turn == 1 and r.table == [C("2D"), C("3C")] and not r.is_over
    assert all(isinstance(m, Move) for m in r.legal_moves())
    assert Move(C("2B"), frozenset({C("2D")})) in r.legal_moves()  # equal rank first
    assert Move(C("2B"), frozenset()) not in r.legal_moves()  # a card that can take must take
    with pytest.raises(ValueError):
        r.play(Move(C("2B")))  # laid although it takes the 2D: refused, nothing changes
    assert r.turn == 1 and r.table == [C("2D"), C("3C")]
    r.play(Move(C("2B"), frozenset({C("2D")})))
    assert r.table == [C("3C")] and r.turn == 2
    r.play(Move(C("3S"), frozenset({C("3C")})))  # sweeps the table: a scopa
    assert r.table == []
    r.play(Move(C("1B")))
    assert r.table == [C("1B")]
    while not r.is_over:
        r.play(r.legal_moves()[0])
    assert r.table == []  # the last taker took what was left
    score = r.score()
    assert isinstance(score.points, tuple) and len(score.points) == 2
    assert score.scope == (1, 0) and sum(score.points) == sum(
        sum(c) for c in (score.carte, score.denari, score.settebello, score.primiera,
                         score.scope, score.napola))
