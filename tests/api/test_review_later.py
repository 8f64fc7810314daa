"""A round's review is judged by itself once the round ends, so its accuracy reaches the
person's statistics whether or not they open it. A coach busy at that moment (a hint being
judged, another seat's review) left it to the request: a round whose review nobody opened
never reached the accuracy chart (QA helper-78). Now it is reviewed once the coach is idle."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from .conftest import Api
from .test_coach import create, person


@pytest.fixture
def api(api_factory: Callable[..., Api]) -> Iterator[Api]:
    a = api_factory(coach_seconds=0.02)
    with a.client:
        yield a


def _accuracy(api: Api, pid: str) -> list[dict[str, Any]]:
    points: list[dict[str, Any]] = api.client.get(f"/api/people/{pid}/stats").json()["accuracy"]
    return points


def test_a_round_ended_while_the_coach_was_busy_is_reviewed_once_it_is_idle(api: Api) -> None:
    pid = person()
    game = create(api, pid)
    coach = api.client.app.state.coach  # type: ignore[attr-defined]
    coach._busy = 1  # a hint being judged as the round ends
    try:
        game = api.round_end(game, random.Random(3))
        time.sleep(0.3)  # the coach stays busy a while after (a guard, not a measure)
        assert _accuracy(api, pid) == []
    finally:
        coach._busy = 0
    for _ in range(200):  # nobody opens the review: it comes by itself (a guard, not a measure)
        if _accuracy(api, pid):
            break
        time.sleep(0.1)
    assert len(_accuracy(api, pid)) == 1
    # Opened now, it is the one judged then, credited once.
    review = api.client.get(f"/api/games/{game['id']}/rounds/1/review").json()
    judged = [p for p in review["plays"] if not p["forced"]]
    assert judged  # (seed 3: the person had choices)
    assert [p["accuracy"] for p in _accuracy(api, pid)] == [
        pytest.approx(review["accuracy"], abs=1e-3)]
    assert _accuracy(api, pid)[0]["judged"] == len(judged)
