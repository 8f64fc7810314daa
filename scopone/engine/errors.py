"""The engine's exceptions: ValueError subclasses whose messages name the input and the position."""

from __future__ import annotations

from .cards import InvalidCardError


class ScoponeError(ValueError):
    """Base of every error the engine raises for bad input."""


class InvalidMoveError(ScoponeError):
    """A move that is malformed: not a card, a capture that is not a set of cards, and so on."""


class IllegalMoveError(ScoponeError):
    """A well-formed move that the rules do not allow in this position."""


class OutOfTurnError(IllegalMoveError):
    """A seat tried to play when it was not its turn."""


class RoundOverError(IllegalMoveError):
    """A move after the last card of the round has been played."""


__all__ = [
    "IllegalMoveError",
    "InvalidCardError",
    "InvalidMoveError",
    "OutOfTurnError",
    "RoundOverError",
    "ScoponeError",
]
