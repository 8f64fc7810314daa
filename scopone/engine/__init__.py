"""The rules engine of Scopone Scientifico: pure Python, no I/O, no web."""

from .cards import DECK, Card, Suit, parse_cards
from .errors import (
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    OutOfTurnError,
    RoundOverError,
    ScoponeError,
)
from .match import Match, match_winner
from .round import Move, Play, Round
from .rules import Rules, pair_of, partner_of
from .scoring import PairTally, RoundScore
from .view import SeatView

__all__ = [
    "DECK",
    "Card",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidMoveError",
    "Match",
    "Move",
    "OutOfTurnError",
    "PairTally",
    "Play",
    "Round",
    "RoundOverError",
    "RoundScore",
    "Rules",
    "ScoponeError",
    "SeatView",
    "Suit",
    "match_winner",
    "pair_of",
    "parse_cards",
    "partner_of",
]
