"""What every computer player is: a decision from one seat's view, the legal moves and a rng."""

from __future__ import annotations

import random
from typing import Literal, Protocol

from ..engine import Move, SeatView

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")


class Player(Protocol):
    """A computer player. It sees only ``view`` (its own hand and what is public)."""

    level: str

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The move to play; ``view.is_my_turn`` is true. Deterministic for a given rng state."""
        ...
