"""Same seed, same iteration budget: same moves, so tests and replays can pin behaviour."""

from __future__ import annotations

import random

import pytest

from scopone import Move, Round, Rules, SeatView
from scopone.players import LEVELS, Player, make_player
from scopone.players.hard import HardPlayer

from .helpers import random_positions


def player_of(level: str) -> Player:
    return HardPlayer(iterations=5) if level == "hard" else make_player(level)


def play_round(level: str, seed: int) -> list[str]:
    rng = random.Random(seed)
    r = Round.deal(Rules(), 0, rng)
    player = player_of(level)
    while not r.is_over:
        r.play(player.choose(SeatView.of(r, r.turn), rng), r.turn)
    return [str(p.move) for p in r.history or ()]


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_round(level: str) -> None:
    assert play_round(level, 3) == play_round(level, 3)


@pytest.mark.parametrize("level", LEVELS)
def test_same_seed_same_move_in_every_position(level: str) -> None:
    for i, r in enumerate(random_positions(30, seed=41)):
        view = SeatView.of(r, r.turn)
        moves: set[Move] = {player_of(level).choose(view, random.Random(i)) for _ in range(3)}
        assert len(moves) == 1


def test_the_seed_matters_to_easy() -> None:
    # Easy plays at random about half the time: different seeds give different rounds.
    assert len({tuple(play_round("easy", s)) for s in range(5)}) > 1


def test_time_budget_is_the_default_and_iterations_make_it_deterministic() -> None:
    hard = make_player("hard", time_budget=0.05)
    assert isinstance(hard, HardPlayer) and hard.limits.seconds == 0.05
    assert HardPlayer(iterations=3).limits.seconds is None
    with pytest.raises(ValueError):
        make_player("cheat")
    with pytest.raises(ValueError):
        HardPlayer(time_budget=0)
