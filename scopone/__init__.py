"""Scopone Scientifico: rules engine, computer players and web app."""

from .engine import (
    DECK,
    Card,
    IllegalMoveError,
    InvalidCardError,
    InvalidMoveError,
    Match,
    Move,
    OutOfTurnError,
    Play,
    Round,
    RoundOverError,
    RoundScore,
    Rules,
    ScoponeError,
    SeatView,
)

__all__ = [
    "DECK",
    "Card",
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidMoveError",
    "Match",
    "Move",
    "OutOfTurnError",
    "Play",
    "Round",
    "RoundOverError",
    "RoundScore",
    "Rules",
    "ScoponeError",
    "SeatView",
]
