"""Every level always plays a legal move, in both variants, from any position."""

from __future__ import annotations

import random

import pytest

from scopone.players import make_player
from scopone.players.hard import HardPlayer

from .helpers import random_positions, view_to_play


@pytest.mark.parametrize("variant", ["scientifico", "classico"])
@pytest.mark.parametrize("level", ["easy", "normal"])
def test_fast_levels_play_legal_moves(level: str, variant: str) -> None:
    player = make_player(level)
    rng = random.Random(5)
    for r in random_positions(1500, seed=len(level) + 10 * len(variant), variant=variant):
        move = player.choose(view_to_play(r), rng)
        assert move in r.legal_moves(), (level, str(move), r)


@pytest.mark.parametrize("variant", ["scientifico", "classico"])
def test_hard_plays_legal_moves(variant: str) -> None:
    player = HardPlayer(iterations=2)
    rng = random.Random(6)
    for r in random_positions(60, seed=17, variant=variant):
        move = player.choose(view_to_play(r), rng)
        assert move in r.legal_moves(), (str(move), r)


@pytest.mark.parametrize("level", ["easy", "normal"])
def test_whole_rounds_end_with_forty_cards_scored(level: str) -> None:
    # Four players of one level play complete rounds through the checked public path.
    player = make_player(level)
    rng = random.Random(8)
    for r in random_positions(50, seed=3):
        while not r.is_over:
            r.play(player.choose(view_to_play(r), rng), r.turn)
        score = r.score()
        assert sum(t.cards for t in score.tallies) == 40
