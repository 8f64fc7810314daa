"""What every computer player is: a decision from one seat's view, the legal moves and a rng."""

from __future__ import annotations

import random
from typing import Literal, Protocol

from ..engine import Move, SeatView

Level = Literal["easy", "normal", "hard"]
LEVELS: tuple[Level, ...] = ("easy", "normal", "hard")

#: Seconds Hard may think a move unless told otherwise (the service, the arena, the bench).
#: Against itself a quarter of a second plays as well as a whole one: Hard at 0.25 s − Hard at
#: 1 s, +0.03 ± 0.15 over 400 duplicate deals (CI −0.13 … +0.18; seeds 7 and 9, ``python -m
#: scopone.arena hard:budget=0.25 hard:budget=1 --deals 200 --seed 9 --jobs 2``) in a third
#: of the CPU (mean think time 134 against 375 ms a move). Against Normal, each on the same
#: deals, 0.25 s − 1 s read −0.35 ± 0.29 (seed 1: +1.82 against +2.17, ``python -m
#: scopone.arena hard normal --deals 200 --seed 1 --budget 0.25 --jobs 2``) and +0.03 ± 0.26
#: (seed 2, ``python -m scopone.arena hard:budget=0.25 hard:budget=1 --versus normal --deals
#: 200 --seed 2 --jobs 2``): together −0.16 ± 0.20 (CI −0.35 … +0.04, 400 deals). Against
#: weaker play, which is what most people here are nearer, the second may still be worth a
#: tenth or more of a point a round: the service keeps it, and shares it out under load
#: (``web.thinker.shared_budget``); an operator may give less (``SCOPONE_AI_TIME_BUDGET``).
TIME_BUDGET = 1.0


class Player(Protocol):
    """A computer player. It sees only ``view`` (its own hand and what is public)."""

    level: str

    def choose(self, view: SeatView, rng: random.Random) -> Move:
        """The move to play; ``view.is_my_turn`` is true. Deterministic for a given rng state."""
        ...
