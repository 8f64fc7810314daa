"""A hint when only one move is legal: the move, and no margin, since nothing was judged."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest

from .conftest import Api


@pytest.fixture
def api(api_factory: Callable[..., Api]) -> Iterator[Api]:
    a = api_factory(coach_seconds=0.02)
    with a.client:
        yield a


def test_a_forced_moves_hint_has_no_options_and_a_real_choice_has_them(api: Api) -> None:
    # Seat 0 leads with its last card, the Six of Swords, which cannot take the Ace: laid.
    gid = api.insert(["6S", "7C", "5D", "7S"], table="1B", dealer=3)
    game = api.get(gid)
    assert game["legal"] == [{"card": "6S", "capture": []}]
    r = api.client.post(f"/api/games/{gid}/hint", json={"version": game["version"]})
    assert r.status_code == 200, r.text
    hint = r.json()
    # Once the evaluation's stand-in came through as an option with a margin of 0.0 points.
    assert hint["move"] == {"card": "6S", "capture": []}
    assert hint["deals"] == 0 and hint["options"] == []
    assert hint["hints_used"] == 1  # asked, so counted like any other
    # With two cards there is something to judge: margins, from imagined deals.
    gid = api.insert(["6S 9D", "7C 1C", "5D 2B", "7S 3C"], table="1B", dealer=3)
    game = api.get(gid)
    hint = api.client.post(f"/api/games/{gid}/hint", json={"version": game["version"]}).json()
    assert hint["deals"] > 0 and len(hint["options"]) == 2
    assert hint["move"] == {k: hint["options"][0][k] for k in ("card", "capture")}
