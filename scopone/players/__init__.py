"""The computer players: Easy, Normal and Hard. Each receives only one seat's ``SeatView``."""

from __future__ import annotations

from .base import LEVELS, TIME_BUDGET, Level, Player


def make_player(level: str, time_budget: float = TIME_BUDGET) -> Player:
    """The computer player of this level; ``time_budget`` (seconds a move) matters to Hard."""
    if level == "easy":
        from .easy import EasyPlayer

        return EasyPlayer()
    if level == "normal":
        from .normal import NormalPlayer

        return NormalPlayer()
    if level == "hard":
        from .hard import HardPlayer

        return HardPlayer(time_budget=time_budget)
    raise ValueError(f"unknown level {level!r}; expected one of {LEVELS}")


__all__ = ["LEVELS", "TIME_BUDGET", "Level", "Player", "make_player"]
