"""A hint is judged once a position however many ask for it, and counted once; a coach whose
workers are full refuses more (503 "coach busy") rather than make every hint wait behind them.
A security QA pass found 80 hints of one position, asked at once, delaying another game's hint
from 0.45 s to 16 s: each was judged again in the shared pool."""

from __future__ import annotations

import concurrent.futures
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from scopone.web import coach as coach_module
from scopone.web.coach import QUEUE_PER_WORKER

from .conftest import Api
from .test_coach import create, person


@pytest.fixture
def api(api_factory: Callable[..., Api]) -> Iterator[Api]:
    a = api_factory(coach_seconds=0.02)
    with a.client:
        yield a


@pytest.fixture
def judged(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The positions the coach judged, each judgement slow enough (0.3 s) that the requests
    asked at once are all in flight together."""
    seen: list[str] = []
    lock = threading.Lock()
    real = coach_module.compute_hint

    def slow(view: Any, seed: str, seconds: float) -> dict[str, Any]:
        with lock:
            seen.append(seed)
        time.sleep(0.3)
        return real(view, seed, seconds)

    monkeypatch.setattr(coach_module, "compute_hint", slow)
    return seen


def _my_turn(api: Api, game: dict[str, Any]) -> dict[str, Any]:
    """The computers' cards played until it is the person's turn."""
    while game["status"] != "your_turn":
        r = api.client.post(f"/api/games/{game['id']}/advance",
                            json={"version": game["version"]})
        assert r.status_code == 200, r.text
        game = r.json()
    return game


def _hint(api: Api, game: dict[str, Any]) -> Any:
    return api.client.post(f"/api/games/{game['id']}/hint", json={"version": game["version"]})


def test_one_position_asked_at_once_and_again_is_judged_once_and_counted_once(
        api: Api, judged: list[str]) -> None:
    pid = person()
    game = _my_turn(api, create(api, pid))
    with concurrent.futures.ThreadPoolExecutor(12) as pool:
        answers = list(pool.map(lambda _: _hint(api, game), range(12)))
    assert [r.status_code for r in answers] == [200] * 12, [r.text for r in answers]
    assert len(judged) == 1
    assert len({r.text for r in answers}) == 1  # the same hint, the same count: 1
    assert answers[0].json()["hints_used"] == 1
    again = _hint(api, game)  # later: a reload, another tab
    assert again.status_code == 200 and again.json() == answers[0].json()
    assert len(judged) == 1
    stats = api.client.get(f"/api/people/{pid}/stats").json()
    assert stats["hints"] == 1


def test_each_new_position_is_a_hint_of_its_own(api: Api, judged: list[str]) -> None:
    pid = person()
    game = _my_turn(api, create(api, pid))
    first = _hint(api, game).json()
    r = api.client.post(f"/api/games/{game['id']}/moves",
                        json={"version": game["version"], **first["move"]})
    assert r.status_code == 200, r.text
    game = _my_turn(api, r.json())
    second = _hint(api, game)
    assert second.status_code == 200, second.text
    assert second.json()["hints_used"] == 2 and len(judged) == 2
    assert api.client.get(f"/api/people/{pid}/stats").json()["hints"] == 2


def test_a_change_of_level_is_no_new_position(api: Api, judged: list[str]) -> None:
    """QA: the level changed (the version moves, no card does), the same position's hint was
    judged and counted again, three times three moves (7S, 6B, 7C)."""
    pid = person()
    game = _my_turn(api, create(api, pid))
    first = _hint(api, game).json()
    for level in ("normal", "hard", "easy"):
        r = api.client.patch(f"/api/games/{game['id']}", json={"level": level})
        assert r.status_code == 200 and r.json()["version"] > game["version"], r.text
        game = r.json()
        again = _hint(api, game)
        assert again.status_code == 200, again.text
        assert again.json() == {**first, "version": game["version"]}
    assert len(judged) == 1
    assert api.client.get(f"/api/people/{pid}/stats").json()["hints"] == 1
    # The next card is a new position, whatever the level did before it.
    r = api.client.post(f"/api/games/{game['id']}/moves",
                        json={"version": game["version"], **first["move"]})
    assert r.status_code == 200, r.text
    game = _my_turn(api, r.json())
    assert _hint(api, game).json()["hints_used"] == 2 and len(judged) == 2

def test_a_full_coach_answers_503_and_counts_nothing(api: Api) -> None:
    pid = person()
    game = _my_turn(api, create(api, pid))
    coach = api.client.app.state.coach  # type: ignore[attr-defined]
    coach._busy = coach._workers * QUEUE_PER_WORKER  # as many judgements as it takes
    try:
        r = _hint(api, game)
        assert (r.status_code, r.json()) == (503, {"detail": "coach busy"})
    finally:
        coach._busy = 0
    assert api.client.get(f"/api/people/{pid}/stats").json()["hints"] == 0
    r = _hint(api, game)  # room again: the hint comes, counted as the first
    assert r.status_code == 200 and r.json()["hints_used"] == 1
