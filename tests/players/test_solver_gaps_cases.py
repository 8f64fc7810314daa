"""The exact solver where its last-trick shortcut and its full search must answer alike: a seat
that has no card to play (scripted uneven hands)."""

from __future__ import annotations

from scopone import Round
from scopone.engine.cards import parse_cards
from scopone.players.endgame import Solver


def _deal(hands: list[str], to_play: int) -> Round:
    return Round.from_deal([parse_cards(h) for h in hands], dealer=(to_play - 1) % 4)


def test_a_seat_without_a_card_has_no_move_in_the_last_trick_as_before_it() -> None:
    # Seat 0 lays its card (nothing can take), then seat 1 is to play and holds nothing. Seat
    # 0's other cards decide only which part of the solver meets seat 1's turn: with one card
    # a hand, the last trick's shortcut; with seat 0 still holding two, the full search. Both
    # must say what the full search says: the seat with no card has no move, worse for it
    # than any score, so better for seat 0's pair than any score.
    shortcut = _deal(["1S", "", "2C", "4B"], to_play=0)
    full = _deal(["1S 3S 5S", "", "2C", "4B"], to_play=0)
    assert (shortcut.plays_left, full.plays_left) == (3, 5)
    value = Solver(False).value(full)
    assert value > 30  # beyond any round's margin
    assert Solver(False).value(shortcut) == value
