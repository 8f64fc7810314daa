"""The capture rule of SPEC.md §1 "Playing a card", table-driven and against the reference."""

from __future__ import annotations

import random

import pytest

from scopone import Card, IllegalMoveError, Move, Round
from scopone.engine import parse_cards
from scopone.engine.captures import capture_options, card_options, is_capture_legal
from scopone.engine.cards import DECK, cards_of, mask_of

from .reference import captures as reference_captures

# (table, played card, every capture it may make; "" alone = it is laid on the table)
CAPTURES: list[tuple[str, str, set[str]]] = [
    ("", "5D", set()),
    ("6D", "6C", {"6D"}),
    ("1D", "2D", set()),  # one card never makes a sum
    ("3D 4C 7S", "7D", {"7S"}),  # equal rank first, then no sum
    ("7C 7S 3D 4C", "7D", {"7C", "7S"}),  # several equal ranks: the player picks one
    ("1D 1C", "1S", {"1D", "1C"}),
    ("10D 10C 10S", "10B", {"10D", "10C", "10S"}),
    ("2D 3D 5C", "5B", {"5C"}),  # 2 + 3 would be 5, but the 5 on the table comes first
    ("3D 4C 2S 5S", "7B", {"3D+4C", "2S+5S"}),  # several sums: the player picks one
    ("1D 2D 4C", "7B", {"1D+2D+4C"}),
    ("1D 2D 4C", "9B", set()),  # nothing adds up: laid on the table
    ("1D 2C 3S 4B", "10B", {"1D+2C+3S+4B"}),
    ("5D 5C", "10B", {"5D+5C"}),
    ("5D 5C 10S", "10B", {"10S"}),
    ("9D 1C", "10S", {"9D+1C"}),
    ("8D 2C 10C", "10B", {"10C"}),
    ("4D 4C", "8B", {"4D+4C"}),
    ("4D 4C", "4B", {"4D", "4C"}),
    ("6D 3C 1S 2B 4B", "7C", {"6D+1S", "3C+4B", "1S+2B+4B"}),
    ("1D 1C 1S 2D", "3B", {"1D+2D", "1C+2D", "1S+2D", "1D+1C+1S"}),
    ("1D 1C 1S 1B", "2D", {"1D+1C", "1D+1S", "1D+1B", "1C+1S", "1C+1B", "1S+1B"}),
    ("1D 1C 1S 1B", "4D", {"1D+1C+1S+1B"}),
    ("2C 3C 4C 5C 6C", "10D", {"4C+6C", "2C+3C+5C"}),
    ("2C 3C 4C 5C 6C", "9D", {"4C+5C", "3C+6C", "2C+3C+4C"}),
    ("2C 3C 4C 5C 6C", "1D", set()),
    ("8D 9D 10D", "10C", {"10D"}),
    ("8D 9D", "7C", set()),
]


def _capture_sets(spec: set[str]) -> set[frozenset[Card]]:
    return {frozenset(parse_cards(s.replace("+", " "))) for s in spec}


@pytest.mark.parametrize(("table", "card", "expected"), CAPTURES)
def test_captures_table(table: str, card: str, expected: set[str]) -> None:
    played = Card.parse(card)
    table_cards = parse_cards(table)
    want = _capture_sets(expected)
    # The row agrees with the reference, so the table itself is checked against SPEC.md.
    assert reference_captures(table_cards, played) == want
    got = {frozenset(cards_of(m)) for m in card_options(mask_of(table_cards), played.index)}
    assert got == want
    # The same through a round: the seat to play holds the card and one that cannot take.
    r = Round.from_deal([[played], [], [], []], table_cards, dealer=3)
    moves = {m.capture for m in r.legal_moves() if m.card == played}
    assert moves == (want or {frozenset()})


@pytest.mark.parametrize(("table", "card", "expected"), CAPTURES)
def test_is_capture_legal(table: str, card: str, expected: set[str]) -> None:
    t = mask_of(parse_cards(table))
    played = Card.parse(card)
    for capture in _capture_sets(expected):
        assert is_capture_legal(t, played.index, mask_of(capture))
    # Laying the card is legal exactly when it cannot take.
    assert is_capture_legal(t, played.index, 0) == (not expected)
    # Taking the whole table is legal only when it is one of the options.
    if t:
        whole = frozenset(parse_cards(table))
        assert is_capture_legal(t, played.index, t) == (whole in _capture_sets(expected))


def test_options_for_every_rank_come_from_one_table() -> None:
    opts = capture_options(mask_of(parse_cards("1D 2C 3S 7B")))
    assert len(opts) == 11 and opts[0] == ()
    # 3 takes the 3 (not 1+2); 4 = 1+3; 5 = 2+3; 6 = 1+2+3; 8 = 1+7; 9 = 2+7; 10 = 3+7, 1+2+7
    assert [len(o) for o in opts[1:]] == [1, 1, 1, 1, 1, 1, 1, 1, 1, 2]
    assert {frozenset(map(str, cards_of(m))) for m in opts[10]} == {
        frozenset({"3S", "7B"}), frozenset({"1D", "2C", "7B"})
    }


def test_a_card_that_can_take_must_take() -> None:
    r = Round.from_deal([parse_cards("7D 2C"), parse_cards("5B"), [], []],
                        parse_cards("7S"), dealer=3)
    assert Move(Card.parse("7D")) not in r.legal_moves()
    with pytest.raises(IllegalMoveError, match="must take"):
        r.play(Move(Card.parse("7D")))
    assert r.hand(0) == parse_cards("7D 2C") and r.table_cards == parse_cards("7S")


def test_a_card_that_cannot_take_may_be_played_instead() -> None:
    r = Round.from_deal([parse_cards("7D 2C"), parse_cards("5B"), [], []],
                        parse_cards("7S"), dealer=3)
    assert set(r.legal_moves()) == {Move(Card.parse("7D"), frozenset(parse_cards("7S"))),
                                    Move(Card.parse("2C"))}
    play = r.play(Move(Card.parse("2C")))
    assert not play.capture and not play.scopa
    assert r.table_cards == parse_cards("2C 7S")
    assert r.pile(0) == []


def test_the_player_chooses_which_equal_card() -> None:
    for taken in ("7C", "7S"):
        r = Round.from_deal([parse_cards("7D"), parse_cards("1B"), [], []],
                            parse_cards("7C 7S 3D 4C"), dealer=3)
        r.play(Move(Card.parse("7D"), frozenset([Card.parse(taken)])))
        assert r.pile(0) == sorted(parse_cards(f"7D {taken}"))
        assert len(r.table_cards) == 3
        # A sum, though it adds up to 7 too, is never allowed beside an equal card.
        r2 = Round.from_deal([parse_cards("7D"), parse_cards("1B"), [], []],
                             parse_cards("7C 7S 3D 4C"), dealer=3)
        with pytest.raises(IllegalMoveError):
            r2.play(Move(Card.parse("7D"), frozenset(parse_cards("3D 4C"))))
        with pytest.raises(IllegalMoveError):
            r2.play(Move(Card.parse("7D"), frozenset(parse_cards("7C 7S"))))


def test_options_are_in_ascending_mask_order() -> None:
    # legal_pairs() lists moves in this order, so seeded playouts and players are reproducible.
    rng = random.Random(4)
    for _ in range(3000):
        table = mask_of(rng.sample(DECK, rng.randrange(0, 12)))
        for options in capture_options(table):
            assert list(options) == sorted(set(options))
