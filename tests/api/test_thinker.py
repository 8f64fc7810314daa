"""Computer moves: decided in worker processes from a seat's view only, replayable by seed."""

from __future__ import annotations

import pickle
import random
from typing import Any

import pytest

from scopone.engine import Match, Rules, SeatView
from scopone.web.thinker import decide


def test_decisions_depend_only_on_view_and_seed() -> None:
    match = Match(Rules(), random.Random(4))
    r = match.round
    view = SeatView.of(r, r.turn)
    # What crosses to the worker process: the view pickles, and carries one hand only.
    assert pickle.loads(pickle.dumps(view)) == view
    assert view.hand == tuple(r.hand(r.turn))
    moves = {decide("easy", 0.05, view, f"s:{n}") for n in range(30)}
    assert all(m in set(r.legal_pairs()) for m in moves)
    assert len(moves) > 1  # the seed matters...
    assert {decide("easy", 0.05, view, "s:7") for _ in range(5)} == {decide("easy", 0.05, view,
                                                                            "s:7")}  # ...alone


@pytest.mark.parametrize("level", ["easy", "normal", "hard"])
def test_worker_processes_play_a_round(api_factory: Any, level: str) -> None:
    built = api_factory(ai_processes=True, ai_workers=1)
    with built.client:
        game = built.create(level=level)
        game = built.round_end(game, random.Random(9))
        assert len(game["history"]) == 40 and game["level"] == level
